import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One run of the `ffmpeg` (or `ffprobe`) program, with raw frames on its standard input
/// (encoding) or standard output (decoding).
///
/// Why the care (toolchain-notes.md): a dying encoder must not kill us with SIGPIPE, so SIGPIPE is
/// ignored process-wide and a failed write becomes an error; ffmpeg blocks when its standard error
/// fills, so a thread drains it continuously (keeping the last lines for error messages); the
/// frame pipe is enlarged to 1 MiB, which nearly doubles the throughput of raw 720p frames; and
/// the frame pipes are non-blocking, waited on with `poll` together with a wake-up pipe, so that
/// `interrupt()` (a cancellation, a signal) frees a thread blocked on an encoder that stopped
/// reading or a decoder that stopped writing.
public final class FFmpegProcess: @unchecked Sendable {
    /// The program's arguments (without the program itself).
    public let arguments: [String]
    /// The program that runs.
    public let executable: URL
    private let process = Process()
    private let inputFD: Int32?
    private var inputOpen: Bool
    private var outputOpen = true
    private let outputFD: Int32?
    /// Keeps the pipes (and so their descriptors) alive while the process runs.
    private let pipes: [Pipe]
    private let errorTail = TailBuffer()
    private let errorDrained = DispatchSemaphore(value: 0)
    /// `interrupt()` writes to `wake[1]`; blocked reads and writes poll `wake[0]` too.
    private let wake: [Int32]
    private let interrupted = Atomic<Bool>(false)

    /// Starts `program` (`ffmpeg` or `ffprobe`, found by `resolve`: `LAMINA_FFMPEG`, else `PATH`)
    /// with `arguments`.
    ///
    /// - Parameters:
    ///   - writesInput: give the program a pipe on its standard input (`write`), else /dev/null.
    ///   - readsOutput: give it a pipe on its standard output (`read`), else /dev/null.
    public init(program: String = "ffmpeg", arguments: [String], writesInput: Bool = false,
                readsOutput: Bool = false) throws(ExportError) {
        _ = Self.ignoreSIGPIPE
        let requested = Self.resolve(program)
        guard let executable = Self.locate(requested) else { throw .toolMissing(requested) }
        self.executable = executable
        self.arguments = arguments
        process.executableURL = executable
        process.arguments = arguments
        var pipes: [Pipe] = []
        if writesInput {
            let pipe = Pipe()
            Self.enlarge(pipe.fileHandleForWriting.fileDescriptor)
            process.standardInput = pipe
            inputFD = pipe.fileHandleForWriting.fileDescriptor
            pipes.append(pipe)
        } else {
            process.standardInput = FileHandle.nullDevice
            inputFD = nil
        }
        inputOpen = writesInput
        if readsOutput {
            let pipe = Pipe()
            Self.enlarge(pipe.fileHandleForReading.fileDescriptor)
            process.standardOutput = pipe
            outputFD = pipe.fileHandleForReading.fileDescriptor
            pipes.append(pipe)
        } else {
            process.standardOutput = FileHandle.nullDevice
            outputFD = nil
        }
        let errorPipe = Pipe()
        process.standardError = errorPipe
        pipes.append(errorPipe)
        self.pipes = pipes
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw .toolFailed(program, status: -1, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wake = fds
        for fd in [inputFD, outputFD].compactMap({ $0 }) { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        do {
            try process.run()
        } catch {
            close(fds[0]); close(fds[1])
            throw .toolFailed(program, status: -1, message: "cannot start \(executable.path): \(error.localizedDescription)")
        }
        // Drain standard error on a thread of its own, keeping only the tail.
        let fd = errorPipe.fileHandleForReading.fileDescriptor
        let thread = Thread { [errorTail, errorDrained] in
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                errorTail.append(buffer[0..<n])
            }
            errorDrained.signal()
        }
        thread.name = "lamina ffmpeg stderr"
        thread.start()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(wake[0]); close(wake[1])
    }

    /// Wakes every read and write blocked on the program (they then fail: `write` throws
    /// `.cancelled`, `read` returns false), now and later. Safe from any thread, any number of times.
    public func interrupt() {
        interrupted.store(true, ordering: .relaxed)
        var byte: UInt8 = 1
        _ = Glibc.write(wake[1], &byte, 1)
    }

    /// Whether `interrupt()` was called.
    public var isInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    /// Waits until `fd` is ready for `events` or the process is interrupted (false then).
    private func waitFor(_ fd: Int32, _ events: Int16) -> Bool {
        var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        while !isInterrupted {
            let n = poll(&fds, 2, -1)
            if n < 0, errno == EINTR { continue }
            if n < 0 { return false }
            if fds[1].revents != 0 { return false }
            if fds[0].revents != 0 { return true }
        }
        return false
    }

    /// Writes all of `bytes` to the program's standard input; throws when it has stopped reading,
    /// or `.cancelled` when `interrupt()` frees a write the program does not take.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
        guard let fd = inputFD, inputOpen else { throw .toolFailed(programName, status: -1, message: "standard input is closed") }
        var offset = 0
        while offset < bytes.count {
            if isInterrupted { throw .cancelled }
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    guard waitFor(fd, Int16(POLLOUT)) else { throw .cancelled }
                    continue
                }
                // EPIPE: the program exited; its own message says why.
                closeInput()
                let status = waitForExit()
                throw .toolFailed(programName, status: status, message: failureMessage)
            }
            offset += n
        }
    }

    /// Fills `buffer` from the program's standard output; false at end of output before any byte
    /// (a partial final chunk also counts as the end), or once `interrupt()` was called.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let fd = outputFD else { return false }
        var filled = 0
        while filled < buffer.count {
            if isInterrupted { return false }
            let n = Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN {
                guard waitFor(fd, Int16(POLLIN)) else { return false }
                continue
            }
            if n <= 0 { return false }
            filled += n
        }
        return true
    }

    /// Closes standard input (the end of the frames), waits for the program, and throws with its
    /// last error lines when it failed.
    public func finish() throws(ExportError) {
        closeInput()
        let status = waitForExit()
        guard status == 0 else { throw .toolFailed(programName, status: status, message: failureMessage) }
    }

    /// Stops the program (SIGTERM) and waits for it; safe to call more than once.
    public func terminate() {
        interrupt()
        closeInput()
        // A decoder blocked writing into a full pipe never sees SIGTERM's flag: close our end
        // (it then gets EPIPE), and kill it if it is still there after a grace period.
        if outputFD != nil, outputOpen {
            outputOpen = false
            try? pipes.first(where: { $0.fileHandleForReading.fileDescriptor == outputFD })?.fileHandleForReading.close()
        }
        if process.isRunning {
            process.terminate()
            for _ in 0..<200 where process.isRunning { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        _ = waitForExit()
    }

    /// The program's exit status once it has exited (waits).
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
        errorDrained.wait()
        errorDrained.signal()  // later callers pass straight through
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// The last lines the program wrote to standard error.
    public var errorMessage: String {
        let text = String(decoding: errorTail.bytes, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.suffix(4).joined(separator: "; ")
    }

    /// Why the program failed: the signal that killed it, if one did, then its last error lines.
    var failureMessage: String {
        var parts: [String] = []
        if !process.isRunning, process.terminationReason == .uncaughtSignal {
            let signal = process.terminationStatus
            let names: [Int32: String] = [SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT",
                                          SIGINT: "SIGINT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
                                          SIGXFSZ: "SIGXFSZ, the file size limit"]
            parts.append("killed by signal \(signal)" + (names[signal].map { " (\($0))" } ?? ""))
        }
        let lines = errorMessage
        if !lines.isEmpty { parts.append(lines) }
        return parts.joined(separator: "; ")
    }

    private var programName: String { executable.lastPathComponent }

    private func closeInput() {
        guard inputOpen, let fd = inputFD else { return }
        inputOpen = false
        try? pipes.first?.fileHandleForWriting.close()
        _ = fd
    }

    /// Runs `program` to completion and returns its standard output (for ffprobe and short jobs).
    /// With `cancellation`, a cancel stops the program (SIGTERM, then SIGKILL) and throws `.cancelled`.
    public static func run(program: String = "ffmpeg", arguments: [String],
                           cancellation: Cancellation? = nil) throws(ExportError) -> [UInt8] {
        let process = try FFmpegProcess(program: program, arguments: arguments, readsOutput: true)
        let token = cancellation?.onCancel { [process] in process.interrupt() }
        defer { if let token { cancellation?.remove(token) } }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let fd = process.outputFD!
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN, process.waitFor(fd, Int16(POLLIN)) { continue }
            if n <= 0 { break }
            output.append(contentsOf: chunk[0..<n])
        }
        if process.isInterrupted {
            process.terminate()
            throw .cancelled
        }
        try process.finish()
        return output
    }

    /// The environment variable that names the ffmpeg program to run: a path (`/opt/ffmpeg/bin/ffmpeg`)
    /// or a name searched on `PATH`. With a path, `ffprobe` is taken from the same folder.
    public static let programVariable = "LAMINA_FFMPEG"

    /// What to run for `program`: the one place `LAMINA_FFMPEG` is read. `ffmpeg` becomes its value;
    /// `ffprobe` becomes the `ffprobe` beside it when it is a path; anything else stays as it is.
    public static func resolve(_ program: String) -> String {
        guard let value = getenv(programVariable).map({ String(cString: $0) }), !value.isEmpty else { return program }
        switch program {
        case "ffmpeg": return value
        case "ffprobe" where value.contains("/"):
            return ((value as NSString).deletingLastPathComponent as NSString).appendingPathComponent("ffprobe")
        default: return program
        }
    }

    /// The path of `program` on `PATH` (or `program` itself when it is a path and executable), or nil.
    public static func locate(_ program: String) -> URL? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? URL(fileURLWithPath: program) : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// Linux's `F_SETPIPE_SZ` (not imported from the C headers).
    private static let setPipeSize: Int32 = 1031

    /// Raises a pipe's buffer to 1 MiB (best effort: an unprivileged process may be capped lower).
    private static func enlarge(_ fd: Int32) {
        _ = fcntl(fd, setPipeSize, Int32(1 << 20))
    }

    /// Ignores SIGPIPE once for the process: a write to an exited ffmpeg then fails with EPIPE.
    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}

/// The last 16 KB a program wrote to standard error, shared with the draining thread.
private final class TailBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []
    private let limit = 16 * 1024

    func append(_ chunk: ArraySlice<UInt8>) {
        lock.withLock {
            storage.append(contentsOf: chunk)
            if storage.count > limit { storage.removeFirst(storage.count - limit) }
        }
    }

    var bytes: [UInt8] { lock.withLock { storage } }
}
