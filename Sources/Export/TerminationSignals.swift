import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout`, a service manager) and SIGHUP (a closed
/// terminal) turned into one cancellation: while installed, the first of them cancels
/// `cancellation`, and the work stops the way any cancelled render stops (the encoder is
/// stopped, temporary files and frames already written are removed). The process then exits
/// with `exitStatus` (128 + the signal: 130, 143, 129), as shells report a death by that
/// signal, after printing `message`.
///
/// The handler only writes the signal's number into a pipe (all a handler may safely do, on
/// whichever thread the kernel picks); a thread of its own reads it and cancels. (libdispatch's
/// signal sources route signals through a signalfd read on one thread and lose those that
/// another thread takes first, which a process of render and encoder threads does.)
/// One set is installed at a time.
public final class TerminationSignals: Sendable {
    /// The signals handled.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    public let cancellation: Cancellation
    private let first = Atomic<Int32>(0)
    private let pipe: (read: Int32, write: Int32)
    private let done = DispatchSemaphore(value: 0)

    /// Installs the handlers (the signals' default actions, which end the process at once, are
    /// replaced until `uninstall()`).
    public init(cancellation: Cancellation = Cancellation()) {
        self.cancellation = cancellation
        var fds: [Int32] = [-1, -1]
        _ = Glibc.pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)  // a full pipe never blocks the handler
        pipe = (fds[0], fds[1])
        signalPipe.store(fds[1], ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let n = Glibc.read(pipe.read, &byte, 1)
                if n < 0, errno == EINTR { continue }
                if n <= 0 || byte == 0 { break }  // 0: uninstalled
                _ = first.compareExchange(expected: 0, desired: Int32(byte), ordering: .sequentiallyConsistent)
                cancellation.cancel()
            }
            done.signal()
        }
        thread.name = "lamina signals"
        thread.start()
        for signo in Self.handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signo, &action, nil)
        }
    }

    /// Restores the default actions and stops the reading thread.
    public func uninstall() {
        for signo in Self.handled { signal(signo, SIG_DFL) }
        signalPipe.store(-1, ordering: .sequentiallyConsistent)
        var stop: UInt8 = 0
        _ = Glibc.write(pipe.write, &stop, 1)
        done.wait()
        close(pipe.read)
        close(pipe.write)
    }

    /// The first signal received, nil before any.
    public var received: Int32? {
        let value = first.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// 128 + the signal received (130 SIGINT, 143 SIGTERM, 129 SIGHUP); 130 before any.
    public var exitStatus: Int32 { 128 + (received ?? SIGINT) }

    /// The one line to print: `interrupted by SIGTERM; no output written`.
    public var message: String { "interrupted by \(Self.name(received ?? SIGINT)); no output written" }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, or `signal N`.
    public static func name(_ signo: Int32) -> String {
        switch signo {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signo)"
        }
    }
}

/// The write end of the installed set's pipe (-1: none), read by the handler.
private let signalPipe = Atomic<Int32>(-1)

/// The signal handler: the signal's number into the pipe, nothing else (async-signal-safe).
private func forwardSignal(_ signo: Int32) {
    let fd = signalPipe.load(ordering: .sequentiallyConsistent)
    guard fd >= 0 else { return }
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signo)
    _ = Glibc.write(fd, &byte, 1)
    errno = saved
}
