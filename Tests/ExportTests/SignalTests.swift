import XCTest
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// Real signals to a real `lamina`: SIGINT, SIGTERM and SIGHUP all cancel the same way (the
/// encoder stopped, temporary files and frames removed, one line, exit 128 + the signal),
/// including while a write is blocked on an encoder that stopped reading, and during `join`.
final class SignalTests: XCTestCase {
    /// A 10-minute 64×48 scene: an export of it is still running when the signal comes.
    let longScene = """
    {"format": 1, "size": [64, 48], "fps": 30, "duration": 600, "background": "#101010",
     "root": {"sublayers": [{"bounds": [0, 0, 20, 20], "position": [32, 24], "backgroundColor": "#ff0000",
       "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 6.28, "duration": 2,
                       "repeatCount": 1000}]}]}}
    """

    func folder() throws -> URL {
        let folder = try VideoTestSupport.folder(self)
        try Data(longScene.utf8).write(to: folder.appendingPathComponent("long.json"))
        return folder
    }

    /// Exit status, the one line, and nothing but `keep` left in `folder`.
    func assertInterrupted(_ run: LaminaProcess.Run, by signal: Int32, folder: URL, keep: Set<String>,
                           file: StaticString = #filePath, line: UInt = #line) {
        let name = TerminationSignals.name(signal)
        XCTAssertEqual(run.status, 128 + signal, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderrLines, ["lamina: interrupted by \(name); no output written"], file: file, line: line)
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), keep, "nothing left behind", file: file, line: line)
    }

    /// Waits until a temporary file beside `output` holds some bytes (frames are flowing).
    func waitForFrames(_ folder: URL, output: String, _ lamina: LaminaProcess.Started, file: StaticString = #filePath, line: UInt = #line) {
        let base = (output as NSString).deletingPathExtension
        let flowing = VideoTestSupport.wait(60) {
            guard lamina.process.isRunning else { return true }
            return VideoTestSupport.leftovers(folder).contains { name in
                name.hasPrefix(".\(base).lamina-") && ((try? FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(name).path)[.size] as? NSNumber)?.intValue ?? 0) > 0
            }
        }
        XCTAssertTrue(flowing && lamina.process.isRunning, "the export is running and writing: \(lamina.stderr)", file: file, line: line)
    }

    // MARK: - A running export

    func testSIGINTSIGTERMAndSIGHUPDuringAnExportLeaveNothing() throws {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let folder = try folder()
            let lamina = try LaminaProcess.start(["render", "long.json", "-o", "out.mp4", "--backend", "cpu"], in: folder)
            waitForFrames(folder, output: "out.mp4", lamina)
            kill(lamina.process.processIdentifier, signal)
            assertInterrupted(lamina.finish(timeout: 30), by: signal, folder: folder, keep: ["long.json"])
            XCTAssertEqual(VideoTestSupport.processes(commandLineContaining: folder.path), [], "ffmpeg was stopped too")
        }
    }

    /// The encoder stops reading (a program that sleeps instead): the frame pipe fills, the
    /// writer blocks, the render loop waits for room; a signal still ends it at once.
    func testASignalInterruptsAWriteBlockedOnAStalledEncoder() throws {
        for signal in [SIGINT, SIGTERM] {
            let folder = try folder()
            let marker = folder.appendingPathComponent("encoder.pid")
            let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: "echo $$ > '\(marker.path)'\nexec sleep 30")
            let lamina = try LaminaProcess.start(["render", "long.json", "-o", "out.mp4", "--backend", "cpu"], in: folder,
                                                 environment: [FFmpegProcess.programVariable: fake])
            // The shell creates the file before it writes the number: wait for a whole line.
            XCTAssertTrue(VideoTestSupport.wait(30) {
                (try? String(contentsOf: marker, encoding: .utf8))?.hasSuffix("\n") == true || !lamina.process.isRunning
            })
            let pid = try XCTUnwrap(pid_t(String(decoding: try Data(contentsOf: marker), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)))
            // 64×48 frames fill the 1 MiB pipe within about 90 frames: wait until lamina stops using the CPU.
            XCTAssertTrue(VideoTestSupport.wait(30) { Self.isBlocked(lamina.process.processIdentifier) }, "lamina blocks on the encoder")
            XCTAssertTrue(lamina.process.isRunning, lamina.stderr)
            let sent = Date()
            kill(lamina.process.processIdentifier, signal)
            let run = lamina.finish(timeout: 20)
            XCTAssertLessThan(Date().timeIntervalSince(sent), 10, "the blocked write was interrupted")
            assertInterrupted(run, by: signal, folder: folder, keep: ["long.json", "fake-ffmpeg", "encoder.pid"])
            XCTAssertFalse(Self.isRunning(pid), "the stalled encoder was stopped")
        }
    }

    // MARK: - A PNG sequence

    /// Frames already written are removed (PNGSink cancels), whatever the signal.
    func testSignalsDuringAPNGSequenceRemoveTheFramesWritten() throws {
        for signal in [SIGINT, SIGTERM] {
            let folder = try folder()
            let frames = folder.appendingPathComponent("frames")
            try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: false)
            let lamina = try LaminaProcess.start(["render", "long.json", "-o", "frames/%06d.png", "--frames", "0..17999",
                                                  "--backend", "cpu"], in: folder)
            XCTAssertTrue(VideoTestSupport.wait(60) {
                ((try? FileManager.default.contentsOfDirectory(atPath: frames.path)) ?? []).count >= 5 || !lamina.process.isRunning
            })
            XCTAssertTrue(lamina.process.isRunning, lamina.stderr)
            kill(lamina.process.processIdentifier, signal)
            assertInterrupted(lamina.finish(timeout: 30), by: signal, folder: folder, keep: ["long.json", "frames"])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: frames.path), [], "the frames written are gone")
        }
    }

    // MARK: - join

    /// `join` stops its ffmpeg on a signal and leaves no joined file, list or temporary.
    func testASignalDuringJoinStopsFFmpegAndLeavesNothing() throws {
        let folder = try VideoTestSupport.folder(self)
        for name in ["a.mp4", "b.mp4"] { try JoinCheckTests.segment(folder.appendingPathComponent(name), frames: 10) }
        let marker = folder.appendingPathComponent("joiner.pid")
        let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: "echo $$ > '\(marker.path)'\nexec sleep 30")
        for signal in [SIGINT, SIGHUP] {
            try? FileManager.default.removeItem(at: marker)
            let lamina = try LaminaProcess.start(["join", "a.mp4", "b.mp4", "-o", "joined.mp4"], in: folder,
                                                 environment: [FFmpegProcess.programVariable: fake])
            // The shell creates the file before it writes the number: wait for a whole line.
            XCTAssertTrue(VideoTestSupport.wait(30) {
                (try? String(contentsOf: marker, encoding: .utf8))?.hasSuffix("\n") == true || !lamina.process.isRunning
            })
            let pid = try XCTUnwrap(pid_t(String(decoding: try Data(contentsOf: marker), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)), lamina.stderr)
            kill(lamina.process.processIdentifier, signal)
            assertInterrupted(lamina.finish(timeout: 20), by: signal, folder: folder,
                              keep: ["a.mp4", "b.mp4", "fake-ffmpeg", "joiner.pid"])
            XCTAssertFalse(Self.isRunning(pid), "join's ffmpeg was stopped")
        }
    }

    // MARK: - Helpers

    /// Whether process `pid` exists and is not a zombie.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Whether every thread of `pid` is asleep and its CPU time stands still for 0.3 s.
    static func isBlocked(_ pid: pid_t) -> Bool {
        func cpuTicks() -> Int? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
            return user + system
        }
        guard let before = cpuTicks() else { return false }
        Thread.sleep(forTimeInterval: 0.3)
        guard let after = cpuTicks() else { return false }
        return after == before
    }
}
