import XCTest
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// Exports that cannot succeed: each fails with an error naming the cause (the program, the file,
/// the codec, the folder), through the API (`ExportError`) and through `lamina render` (exit
/// status, one `lamina: ` line), and leaves nothing under the output's name nor a temporary file
/// beside it. (Ctrl-C is `InspectCommandTests.testInterruptedVideoExportLeavesNoFile`.)
final class ExportFailureTests: XCTestCase {
    func options(_ url: URL, frames: ClosedRange<Int> = 0...3) -> VideoExportOptions {
        var o = VideoExportOptions(output: url, width: 64, height: 48, framesPerSecond: 30, frames: frames)
        o.backend = .cpu
        o.background = .black
        return o
    }

    /// A 64×48 scene of 0.2 s (6 frames): a red square turning over dark grey.
    let plainScene = """
    {"format": 1, "size": [64, 48], "fps": 30, "duration": 0.2, "background": "#101010",
     "root": {"sublayers": [{"bounds": [0, 0, 20, 20], "position": [32, 24], "backgroundColor": "#ff0000",
       "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 3.14, "duration": 1}]}]}}
    """

    /// A 64×48 scene of 0.2 s composited over the video asset `input` shown by the layer "v".
    func compositingScene(input: String) -> String {
        """
        {"format": 1, "size": [64, 48], "fps": 30, "duration": 0.2, "background": "#000000",
         "assets": {"clip": "\(input)"}, "video": {"asset": "clip", "layer": "v"},
         "root": {"sublayers": [{"type": "video", "name": "v", "frame": [0, 0, 64, 48]},
                                {"frame": [40, 4, 16, 16], "backgroundColor": "#ffffff"}]}}
        """
    }

    func write(_ text: String, to url: URL) throws { try Data(text.utf8).write(to: url) }

    /// One `lamina: ` line, exit `status`, mentioning every one of `needles`.
    func assertOneLineError(_ run: LaminaProcess.Run, status: Int32, mentions needles: [String],
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, status, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stdout, "", file: file, line: line)
        XCTAssertEqual(run.stderrLines.count, 1, "one error line: \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("lamina: "), run.stderr, file: file, line: line)
        for needle in needles {
            XCTAssertTrue(run.stderr.contains(needle), "\"\(needle)\" in: \(run.stderr)", file: file, line: line)
        }
    }

    /// A lavfi test pattern encoded to MP4 (moov at the end, as ffmpeg writes by default).
    func testPattern(_ url: URL) throws {
        _ = try FFmpegProcess.run(arguments: [
            "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=30:duration=1",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", url.path])
    }

    // MARK: - ffmpeg missing

    func testMissingFFmpegFailsBeforeRenderingAndSaysHowToInstallIt() throws {
        let folder = try VideoTestSupport.folder(self)
        let missing = folder.appendingPathComponent("no-such-dir/ffmpeg").path
        let url = folder.appendingPathComponent("out.mp4")
        setenv(FFmpegProcess.programVariable, missing, 1)
        defer { unsetenv(FFmpegProcess.programVariable) }
        XCTAssertEqual(FFmpegProcess.resolve("ffmpeg"), missing)
        XCTAssertEqual(FFmpegProcess.resolve("ffprobe"), folder.appendingPathComponent("no-such-dir/ffprobe").path)
        for name in ["out.mp4", "out.gif", "out.webm"] {
            let exporter = VideoExporter(root: VideoTestSupport.movingScene(), options: options(folder.appendingPathComponent(name)))
            var rendered = 0
            exporter.onProgress = { _ in rendered += 1 }
            XCTAssertThrowsError(try exporter.run()) { error in
                XCTAssertEqual(error as? ExportError, .toolMissing(missing))
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix("ffmpeg not found"), text)
                XCTAssertTrue(text.contains(missing), text)
                XCTAssertTrue(text.contains("tools/install.sh") && text.contains("apt-get install ffmpeg"), text)
            }
            XCTAssertEqual(rendered, 0, "\(name): nothing renders without an encoder")
        }
        XCTAssertEqual(VideoTestSupport.leftovers(folder), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        unsetenv(FFmpegProcess.programVariable)
        XCTAssertEqual(ExportError.toolMissing("ffmpeg").description,
                       "ffmpeg not found on PATH; install ffmpeg with tools/install.sh or `apt-get install ffmpeg`")
    }

    func testMissingFFmpegThroughTheCLI() throws {
        let folder = try VideoTestSupport.folder(self)
        try write(plainScene, to: folder.appendingPathComponent("scene.json"))
        let environment = [FFmpegProcess.programVariable: "/nonexistent/ffmpeg"]
        let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu"],
                                              in: folder, environment: environment)
        assertOneLineError(run, status: 1, mentions: ["lamina: ffmpeg not found", "/nonexistent/ffmpeg", "tools/install.sh",
                                                      "apt-get install ffmpeg"])
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["scene.json"])

        // Joining needs ffmpeg too.
        try write("a", to: folder.appendingPathComponent("a.mp4"))
        try write("b", to: folder.appendingPathComponent("b.mp4"))
        let join = try VideoTestSupport.lamina(["join", "a.mp4", "b.mp4", "-o", "joined.mp4"], in: folder, environment: environment)
        assertOneLineError(join, status: 1, mentions: ["lamina: ffmpeg not found", "apt-get install ffmpeg"])
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), ["scene.json", "a.mp4", "b.mp4"])
    }

    // MARK: - Unreadable and truncated input videos

    /// Runs an export composited over `input` and returns its error (the output must not appear).
    func compositingError(_ input: URL, folder: URL) throws -> ExportError? {
        let video = VideoFrameLayer()
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        video.frame = root.bounds
        root.addSublayer(video)
        let exporter = VideoExporter(root: root, options: options(folder.appendingPathComponent("out.mp4")),
                                     composition: VideoComposition(url: input, layers: [video]))
        var thrown: ExportError?
        XCTAssertThrowsError(try exporter.run()) { thrown = $0 as? ExportError }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.mp4").path))
        return thrown
    }

    func testUnreadableInputVideoNamesTheFile() throws {
        let folder = try VideoTestSupport.folder(self)
        // A fifo: ffprobe would wait for a writer for ever; it is refused by type.
        let fifo = folder.appendingPathComponent("pipe.mp4")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        XCTAssertEqual(try compositingError(fifo, folder: folder), .badInput(path: fifo.path, reason: "is a pipe (fifo), not a regular file"))
        // A folder.
        let directory = folder.appendingPathComponent("folder.mp4")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        XCTAssertEqual(try compositingError(directory, folder: folder), .badInput(path: directory.path, reason: "is a folder, not a file"))
        // Permissions 000 stop reads only when the tests do not run as root.
        let locked = folder.appendingPathComponent("locked.mp4")
        try testPattern(locked)
        XCTAssertEqual(chmod(locked.path, 0), 0)
        if geteuid() == 0 {
            print("ExportFailureTests: running as root, where permissions 000 do not stop reads; the fifo and folder variants stand in")
        } else {
            XCTAssertEqual(try compositingError(locked, folder: folder),
                           .badInput(path: locked.path, reason: "cannot read the file: Permission denied"))
        }
        chmod(locked.path, 0o644)
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), ["pipe.mp4", "folder.mp4", "locked.mp4"])
    }

    func testTruncatedInputVideoNamesTheFile() throws {
        let folder = try VideoTestSupport.folder(self)
        let input = folder.appendingPathComponent("cut.mp4")
        try testPattern(input)
        let bytes = try Data(contentsOf: input)
        XCTAssertGreaterThan(bytes.count, 1000)
        try bytes.prefix(bytes.count / 2).write(to: input)
        let error = try XCTUnwrap(try compositingError(input, folder: folder))
        guard case .badInput(let path, let reason) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(path, input.path)
        XCTAssertTrue(reason.hasPrefix("not a video ffmpeg can read"), reason)
        XCTAssertTrue(error.description.hasPrefix(input.path + ": "), error.description)
        XCTAssertFalse(error.description.contains("\n"))
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["cut.mp4"])
    }

    func testBadInputVideosThroughTheCLI() throws {
        let folder = try VideoTestSupport.folder(self)
        try testPattern(folder.appendingPathComponent("whole.mp4"))
        let bytes = try Data(contentsOf: folder.appendingPathComponent("whole.mp4"))
        try bytes.prefix(bytes.count / 2).write(to: folder.appendingPathComponent("cut.mp4"))
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("pipe.mp4").path, 0o644), 0)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder.mp4"), withIntermediateDirectories: false)
        var inputs = [("cut.mp4", "not a video ffmpeg can read"), ("pipe.mp4", "is a pipe (fifo)"), ("folder.mp4", "is a folder")]
        if geteuid() != 0 {
            try bytes.write(to: folder.appendingPathComponent("locked.mp4"))
            XCTAssertEqual(chmod(folder.appendingPathComponent("locked.mp4").path, 0), 0)
            inputs.append(("locked.mp4", "cannot read"))
        } else {
            print("ExportFailureTests: running as root, where permissions 000 do not stop reads; skipping the locked-file variant")
        }
        for (input, reason) in inputs {
            try write(compositingScene(input: input), to: folder.appendingPathComponent("scene.json"))
            let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu"], in: folder, timeout: 60)
            assertOneLineError(run, status: 1, mentions: [input, reason])
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.mp4").path), input)
            XCTAssertFalse(VideoTestSupport.leftovers(folder).contains { $0.hasPrefix(".out") }, "no temporary file: \(input)")
        }
        // The whole file composites (the scene itself is sound).
        try write(compositingScene(input: "whole.mp4"), to: folder.appendingPathComponent("scene.json"))
        let good = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu"], in: folder, timeout: 60)
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.mp4").path))
    }

    // MARK: - Unknown codec

    /// Through the API an `unsupportedOutput` naming the codec; through the CLI a usage error
    /// (exit 2), like any other option value that names nothing (`--backend metal`), per cli.md.
    func testUnknownCodecIsNamed() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("out.mp4")
        var o = options(url)
        o.codec = "nosuchcodec"
        XCTAssertThrowsError(try VideoExporter(root: VideoTestSupport.movingScene(), options: o).run()) { error in
            XCTAssertEqual(error as? ExportError,
                           .unsupportedOutput(path: url.path, reason: "unknown codec \"nosuchcodec\" (known: h264, prores, vp9, gif)"))
        }
        XCTAssertEqual(VideoTestSupport.leftovers(folder), [])

        try write(plainScene, to: folder.appendingPathComponent("scene.json"))
        for output in ["out.mp4", "out.mov", "out.webm"] {
            let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", output, "--codec", "nosuchcodec", "--backend", "cpu"], in: folder)
            assertOneLineError(run, status: 2, mentions: ["\(output): unknown codec \"nosuchcodec\"", "h264"])
        }
        // A known codec in the wrong container names both.
        let misplaced = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.mp4", "--codec", "prores"], in: folder)
        assertOneLineError(misplaced, status: 2, mentions: ["out.mp4", "\"prores\" does not go in .mp4"])
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["scene.json"])
    }

    // MARK: - Output folder that cannot be written

    func testUnwritableOutputFolderIsNamed() throws {
        let folder = try VideoTestSupport.folder(self)
        try write("a file", to: folder.appendingPathComponent("somefile.txt"))
        let underFile = folder.appendingPathComponent("somefile.txt/out.mp4")
        XCTAssertThrowsError(try VideoExporter(root: VideoTestSupport.movingScene(), options: options(underFile)).run()) {
            XCTAssertEqual($0 as? ExportError,
                           .cannotWrite(path: underFile.path, reason: "\(folder.appendingPathComponent("somefile.txt").path) is a file, not a folder"))
        }
        let underMissing = folder.appendingPathComponent("missing/out.gif")
        XCTAssertThrowsError(try VideoExporter(root: VideoTestSupport.movingScene(), options: options(underMissing)).run()) {
            XCTAssertEqual($0 as? ExportError, .cannotWrite(path: underMissing.path, reason: "no folder \(folder.appendingPathComponent("missing").path)"))
        }
        // A folder that refuses new files: /proc even for root; a folder without write permission otherwise.
        var refusing = [URL(fileURLWithPath: "/proc/lamina-test-\(UUID().uuidString).mp4")]
        if geteuid() != 0 {
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            XCTAssertEqual(chmod(locked.path, 0o555), 0)
            addTeardownBlock { chmod(locked.path, 0o755) }
            refusing.append(locked.appendingPathComponent("out.webm"))
        }
        for url in refusing {
            let exporter = VideoExporter(root: VideoTestSupport.movingScene(), options: options(url))
            var rendered = 0
            exporter.onProgress = { _ in rendered += 1 }
            XCTAssertThrowsError(try exporter.run()) { error in
                guard case .cannotWrite(let path, let reason)? = error as? ExportError else { return XCTFail("\(error)") }
                XCTAssertEqual(path, url.path)
                XCTAssertTrue(reason.hasPrefix("cannot create a file in \(url.deletingLastPathComponent().path): "), reason)
            }
            XCTAssertEqual(rendered, 0, "the folder is checked before anything renders")
            XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        }
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), geteuid() == 0 ? ["somefile.txt"] : ["somefile.txt", "locked"])

        try write(plainScene, to: folder.appendingPathComponent("scene.json"))
        let cases = [("somefile.txt/out.mp4", "somefile.txt is a file, not a folder"), ("missing/out.webm", "no folder"),
                     (refusing[0].path, "cannot create a file in /proc")]
        for (output, reason) in cases {
            let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", output, "--backend", "cpu"], in: folder)
            // The CLI names the output by its full path.
            assertOneLineError(run, status: 1, mentions: ["lamina: /", "\(output): cannot write: ", reason])
        }
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("somefile.txt"), encoding: .utf8), "a file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("missing").path))
    }

    // MARK: - The encoder dying mid-run

    func testEncoderKilledMidRunFails() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("killed.mp4")
        let exporter = VideoExporter(root: VideoTestSupport.movingScene(), options: options(url, frames: 0...1799))
        var killed: [pid_t] = []
        var framesAtKill = 0
        exporter.onProgress = { progress in
            guard killed.isEmpty, progress.framesDone >= 5 else { return }
            // ffmpeg's command line names the temporary output beside killed.mp4.
            killed = VideoTestSupport.processes(commandLineContaining: folder.path + "/.killed.lamina-")
            for pid in killed { kill(pid, SIGKILL) }
            framesAtKill = progress.framesDone
        }
        XCTAssertThrowsError(try exporter.run()) { error in
            guard case .toolFailed(let program, let status, let message)? = error as? ExportError else { return XCTFail("\(error)") }
            XCTAssertEqual(program, "ffmpeg")
            XCTAssertEqual(status, 128 + SIGKILL)
            XCTAssertTrue(message.hasPrefix("killed by signal 9 (SIGKILL)"), message)
            XCTAssertTrue("\(error)".hasPrefix("ffmpeg failed (exit status 137): killed by signal 9 (SIGKILL)"), "\(error)")
        }
        XCTAssertEqual(killed.count, 1, "one ffmpeg child was found and killed")
        XCTAssertLessThan(framesAtKill, 1800)
        XCTAssertEqual(VideoTestSupport.leftovers(folder), [])
    }

    func testEncoderKilledMidRunThroughTheCLI() throws {
        let folder = try VideoTestSupport.folder(self)
        try write("""
        {"format": 1, "size": [64, 48], "fps": 30, "duration": 600, "background": "#101010",
         "root": {"sublayers": [{"bounds": [0, 0, 20, 20], "position": [32, 24], "backgroundColor": "#ff0000",
           "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 6.28, "duration": 2,
                           "repeatCount": 1000}]}]}}
        """, to: folder.appendingPathComponent("long.json"))
        let lamina = try LaminaProcess.start(["render", "long.json", "-o", "out.mp4", "--backend", "cpu"], in: folder)
        let fragment = folder.path + "/.out.lamina-"
        var encoders: [pid_t] = []
        VideoTestSupport.wait(60) {
            encoders = VideoTestSupport.processes(commandLineContaining: fragment)
            return !encoders.isEmpty || !lamina.process.isRunning
        }
        XCTAssertEqual(encoders.count, 1, "the ffmpeg child appears: \(lamina.stderr)")
        // Let frames flow into it (the temporary file grows), then kill it.
        VideoTestSupport.wait(10) {
            let sizes = VideoTestSupport.leftovers(folder, keep: ["long.json"]).compactMap {
                (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size]) as? NSNumber
            }
            return sizes.contains { $0.intValue > 0 }
        }
        XCTAssertTrue(lamina.process.isRunning, "the export ended before ffmpeg could be killed: \(lamina.stderr)")
        for pid in encoders { kill(pid, SIGKILL) }
        let run = lamina.finish(timeout: 60)
        assertOneLineError(run, status: 1, mentions: ["lamina: ffmpeg failed (exit status 137): killed by signal 9 (SIGKILL)"])
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["long.json"], "no output and no temporary file remain")
    }
}
