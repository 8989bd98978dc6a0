import XCTest
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// The pieces that make a cancel reach blocked work: `Cancellation`, `TerminationSignals`,
/// `FFmpegProcess.interrupt()`, and the container check in front of every input video.
final class CancellationTests: XCTestCase {
    func testHandlersRunOnceAndLateOnesAtOnce() {
        let cancellation = Cancellation()
        let count = Counter()
        let token = cancellation.onCancel { count.add() }
        let removed = cancellation.onCancel { count.add(100) }
        cancellation.remove(removed)
        XCTAssertFalse(cancellation.isCancelled)
        cancellation.cancel()
        cancellation.cancel()
        XCTAssertTrue(cancellation.isCancelled)
        XCTAssertEqual(count.value, 1)
        cancellation.onCancel { count.add(10) }
        XCTAssertEqual(count.value, 11, "a handler added after the cancel runs at once")
        cancellation.remove(token)
    }

    /// A signal to this process, while installed, cancels and is recorded; the status and line follow.
    func testASignalBecomesACancellation() {
        let signals = TerminationSignals()
        defer { signals.uninstall() }
        XCTAssertNil(signals.received)
        kill(getpid(), SIGHUP)
        XCTAssertTrue(VideoTestSupport.wait(5) { signals.cancellation.isCancelled })
        XCTAssertEqual(signals.received, SIGHUP)
        XCTAssertEqual(signals.exitStatus, 129)
        XCTAssertEqual(signals.message, "interrupted by SIGHUP; no output written")
    }

    /// A write to a program that never reads blocks once the pipe is full; `interrupt()` from
    /// another thread frees it with `.cancelled`.
    func testInterruptFreesAWriteToAProgramThatDoesNotRead() throws {
        let folder = try VideoTestSupport.folder(self)
        let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: "exec sleep 30")
        let process = try FFmpegProcess(program: fake, arguments: [], writesInput: true)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { process.interrupt() }
        let started = Date()
        let chunk = [UInt8](repeating: 7, count: 4 << 20)  // four times the largest pipe
        let result: Result<Void, ExportError> = chunk.withUnsafeBytes { raw in Result { () throws(ExportError) in try process.write(raw) } }
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertEqual(error as? ExportError, .cancelled)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        process.terminate()
        XCTAssertEqual(process.waitForExit(), 128 + SIGTERM)
    }

    func testInterruptFreesAReadFromAProgramThatDoesNotWrite() throws {
        let folder = try VideoTestSupport.folder(self)
        let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: "exec sleep 30")
        let process = try FFmpegProcess(program: fake, arguments: [], readsOutput: true)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { process.interrupt() }
        var buffer = [UInt8](repeating: 0, count: 1024)
        XCTAssertFalse(buffer.withUnsafeMutableBytes { process.read(into: $0) })
        process.terminate()
        // `run` with a cancellation: cancelled while the program runs.
        let cancellation = Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancellation.cancel() }
        XCTAssertThrowsError(try FFmpegProcess.run(program: fake, arguments: [], cancellation: cancellation)) { error in
            XCTAssertEqual(error as? ExportError, .cancelled)
        }
    }

    func testContainersAreReadFromTheFirstBytes() throws {
        XCTAssertEqual(VideoContainer.sniff([0, 0, 0, 0x20] + Array("ftypisom".utf8)), .mov)
        XCTAssertEqual(VideoContainer.sniff([0, 0, 0, 8] + Array("wide".utf8)), .mov)
        XCTAssertEqual(VideoContainer.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x9F]), .matroska)
        XCTAssertEqual(VideoContainer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8)), .avi)
        XCTAssertNil(VideoContainer.sniff(Array("GIF89a".utf8)))
        XCTAssertNil(VideoContainer.sniff(Array("#EXTM3U\n".utf8)))
        let folder = try VideoTestSupport.folder(self)
        let webm = folder.appendingPathComponent("a.webm")
        _ = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=32x32:rate=10", "-frames:v", "2",
                                              "-c:v", "libvpx-vp9", "-deadline", "realtime", webm.path])
        XCTAssertEqual(try VideoContainer.of(webm.path), .matroska)
        XCTAssertEqual(try VideoInfo.probe(webm).container, .matroska)
        XCTAssertEqual(VideoContainer.mov.inputArguments("/a:b.mov"), ["-f", "mov", "-protocol_whitelist", "file,pipe", "-i", "file:/a:b.mov"])
        try Data("\u{FEFF}#EXTM3U\n".utf8).write(to: folder.appendingPathComponent("list.m4v"))
        XCTAssertThrowsError(try VideoContainer.of(folder.appendingPathComponent("list.m4v").path)) { error in
            XCTAssertEqual(error as? ExportError, .badInput(path: folder.appendingPathComponent("list.m4v").path,
                                                            reason: "is an HLS/M3U playlist, not a video file (playlists name other files and are refused)"))
        }
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int = 1) { lock.withLock { count += n } }
    var value: Int { lock.withLock { count } }
}
