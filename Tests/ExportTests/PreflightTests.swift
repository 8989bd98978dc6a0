import XCTest
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// Every option range and every output-path problem is found before the first frame (exit 2 for
/// usage, 1 for the job), with one line naming the option or file; the spec's limits hold.
final class PreflightTests: XCTestCase {
    let scene = """
    {"format": 1, "size": [64, 48], "fps": 30, "duration": 600, "background": "#101010",
     "root": {"sublayers": [{"bounds": [0, 0, 20, 20], "position": [32, 24], "backgroundColor": "#ff0000"}]}}
    """

    func folder() throws -> URL {
        let folder = try VideoTestSupport.folder(self)
        try Data(scene.utf8).write(to: folder.appendingPathComponent("scene.json"))
        return folder
    }

    /// Runs `lamina render scene.json …` and checks one line, the status, fast, nothing written.
    func assertRefused(_ arguments: [String], status: Int32, _ needles: [String], in folder: URL, keep: Set<String>? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let before = Set(VideoTestSupport.leftovers(folder))
        let started = Date()
        let run = try VideoTestSupport.lamina(["render", "scene.json", "--backend", "cpu"] + arguments, in: folder, timeout: 60)
        // A 600 s scene at 30 fps would take minutes to render: a refusal comes first.
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "\(arguments) refused before rendering", file: file, line: line)
        XCTAssertEqual(run.status, status, "\(arguments): \(run.stderr)", file: file, line: line)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr, file: file, line: line)
        for needle in needles { XCTAssertTrue(run.stderr.contains(needle), "\"\(needle)\" in \(run.stderr)", file: file, line: line) }
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), keep ?? before, "\(arguments): nothing written", file: file, line: line)
    }

    func testOptionRangesAreUsageErrors() throws {
        let folder = try folder()
        let cases: [([String], String)] = [
            (["-o", "out.mp4", "--fps", "1e9"], "--fps 1e9 is outside 0.001…1000"),
            (["-o", "out.mp4", "--fps", "1e-9"], "--fps 1e-9 is outside 0.001…1000"),
            (["-o", "out.mp4", "--fps", "0"], "--fps 0 is outside"),
            (["-o", "out.png", "--fps", "-3"], "--fps -3 is outside"),
            (["-o", "out.mp4", "--size", "0x10"], "output size 0x10 (--size) is outside 1…16384"),
            (["-o", "out.mp4", "--size", "16385x16"], "output size 16385x16 (--size) is outside 1…16384"),
            (["-o", "out.mp4", "--scale", "100"], "--scale must be in (0, 64]"),
            (["-o", "out.mp4", "--crf", "52"], "--crf 52 is outside 0…51 for H.264"),
            (["-o", "out.webm", "--crf", "64"], "--crf 64 is outside 0…63 for VP9"),
            (["-o", "out.mov", "--codec", "prores", "--crf", "10"], "--crf does not apply to ProRes output"),
            (["-o", "out.gif", "--crf", "10"], "--crf does not apply to GIF output"),
            (["-o", "out.png", "--crf", "20"], "--crf is for video output, not for out.png (PNG)"),
            (["-o", "frames/%03d.png", "--frames", "0..2", "--codec", "h264"], "--codec is for video output"),
            (["-o", "out.png", "--sequential"], "--sequential is for video output"),
            (["-o", "out.mp4", "--max-memory", "lots"], "--max-memory lots is not a number of megabytes"),
        ]
        for (arguments, message) in cases {
            try assertRefused(arguments, status: 2, ["lamina: " + message], in: folder)
        }
        // 1,000 fps over a 600 s scene is 600,000 frames: allowed; a day at 1,000 fps is not.
        try Data(scene.replacingOccurrences(of: "\"duration\": 600", with: "\"duration\": 86400").utf8)
            .write(to: folder.appendingPathComponent("scene.json"))
        try assertRefused(["-o", "out.mp4", "--fps", "1000"], status: 2,
                          ["scene.json: 86,400,000 frames at 1000.0 fps, more than the limit of 1,000,000"], in: folder)
    }

    /// Output paths that cannot work are found before the first frame (a 600 s scene would
    /// otherwise render for minutes first), exit 1.
    func testOutputPathProblemsComeBeforeTheFirstFrame() throws {
        let folder = try folder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.mp4"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.png"), withIntermediateDirectories: false)
        try Data("old".utf8).write(to: folder.appendingPathComponent("old.mp4"))
        try Data("a file".utf8).write(to: folder.appendingPathComponent("file"))
        let keep: Set<String> = ["scene.json", "dir.mp4", "dir.png", "old.mp4", "file"]
        let cases: [([String], String)] = [
            (["-o", "dir.mp4", "--overwrite"], "dir.mp4: cannot write: is a folder"),
            (["-o", "dir.png", "--overwrite"], "dir.png: cannot write: is a folder"),
            (["-o", "old.mp4"], "old.mp4: already exists (use --overwrite to replace it)"),
            (["-o", "missing/out.mp4"], "missing/out.mp4: cannot write: no folder"),
            (["-o", "missing/out.png"], "missing/out.png: cannot write: no folder"),
            (["-o", "missing/%04d.png", "--frames", "0..17999"], "missing/0000.png: cannot write: no folder"),
            (["-o", "file/out.png"], "file/out.png: cannot write: "),
            (["-o", "/proc/lamina-\(UUID().uuidString).png"], "cannot create a file in /proc"),
        ]
        for (arguments, message) in cases {
            try assertRefused(arguments, status: 1, [message], in: folder, keep: keep)
        }
        if geteuid() != 0 {
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            XCTAssertEqual(chmod(locked.path, 0o555), 0)
            defer { chmod(locked.path, 0o755) }
            try assertRefused(["-o", "locked/%04d.png", "--frames", "0..17999"], status: 1, ["cannot create a file in"], in: folder)
        } else {
            print("PreflightTests: running as root, where a 0555 folder takes files; /proc stands in for a read-only folder")
        }
    }

    /// The spec's limit for input videos (8192×8192): a 16000×16 input is refused by its size.
    func testAVideoInputOverTheSizeLimitIsRefused() throws {
        let folder = try folder()
        _ = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "color=c=red:s=16000x16:r=1",
                                              "-frames:v", "1", "-c:v", "libx264", "-preset", "ultrafast", folder.appendingPathComponent("wide.mp4").path])
        try Data("""
        {"format": 1, "size": [64, 48], "fps": 30, "duration": 0.1, "assets": {"clip": "wide.mp4"},
         "video": {"asset": "clip", "layer": "v"}, "root": {"sublayers": [{"type": "video", "name": "v", "frame": [0, 0, 64, 48]}]}}
        """.utf8).write(to: folder.appendingPathComponent("scene.json"))
        try assertRefused(["-o", "out.mp4"], status: 1, ["wide.mp4: is 16000×16, over the 8192×8192 limit for input videos"], in: folder)
    }

    /// keyTimes Core Animation ignores (not increasing, the wrong count) render with a warning
    /// saying so; a locations count other than the colours' is refused (Apple's result unknown).
    func testKeyTimesAreWarnedAboutAndLocationsRefused() throws {
        let folder = try folder()
        try Data("""
        {"format": 1, "size": [16, 16], "root": {"sublayers": [{"bounds": [0, 0, 4, 4], "position": [8, 8], "backgroundColor": "#ffffff",
          "animations": [{"type": "keyframe", "keyPath": "position.x", "values": [0, 10, 30], "keyTimes": [0, 0.6, 0.5], "duration": 2},
                         {"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 0.5, 1], "duration": 2}]}]}}
        """.utf8).write(to: folder.appendingPathComponent("keys.json"))
        let run = try VideoTestSupport.lamina(["render", "keys.json", "-o", "keys.png", "--backend", "cpu"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderrLines, [
            "lamina: warning: keys.json:2:99: root.sublayers[0].animations[0].keyTimes: keyTimes decrease at [2] (0.5 after 0.6); "
                + "Core Animation ignores them and spaces the keyframes evenly",
            "lamina: warning: keys.json:3:91: root.sublayers[0].animations[1].keyTimes: 3 keyTimes for 2 key frames; "
                + "Core Animation ignores them and spaces the keyframes evenly",
        ])
        let quiet = try VideoTestSupport.lamina(["render", "keys.json", "-o", "quiet.png", "--backend", "cpu", "--quiet"], in: folder)
        XCTAssertEqual(quiet.stderr, "")

        try Data("""
        {"format": 1, "size": [16, 16], "root": {"type": "gradient", "colors": ["#ff0000", "#0000ff"], "locations": [0, 0.5, 1]}}
        """.utf8).write(to: folder.appendingPathComponent("gradient.json"))
        let gradient = try VideoTestSupport.lamina(["render", "gradient.json", "-o", "gradient.png", "--backend", "cpu"], in: folder)
        XCTAssertEqual(gradient.status, 1)
        XCTAssertEqual(gradient.stderrLines, ["lamina: gradient.json:1:109: root.locations: 3 locations for 2 colours (give one location per colour, or none)"])
    }

    /// The wrong messages the issue lists, fixed.
    func testMessagesOnceWrong() throws {
        let folder = try folder()
        // A missing video asset: one line, not a second "unknown asset".
        try Data("""
        {"format": 1, "size": [64, 48], "duration": 1, "assets": {"clip": "gone.mp4"}, "video": {"asset": "clip", "layer": "v"},
         "root": {"sublayers": [{"type": "video", "name": "v"}]}}
        """.utf8).write(to: folder.appendingPathComponent("missing.json"))
        let missing = try VideoTestSupport.lamina(["render", "missing.json", "-o", "out.mp4", "--backend", "cpu"], in: folder)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderrLines, ["lamina: missing.json:1:67: assets.clip: cannot read video \"gone.mp4\": no such file"])
        // demo -o x.png: not "unknown output extension \".png\" (use .png, …)".
        let demo = try VideoTestSupport.lamina(["demo", "-o", "x.png"], in: folder)
        XCTAssertEqual(demo.status, 2)
        XCTAssertEqual(demo.stderrLines, ["lamina: \(folder.appendingPathComponent("x.png").path): a video is written here, not a PNG image (use .mp4, .mov, .webm or .gif)"])
        let join = try VideoTestSupport.lamina(["join", "a.mp4", "-o", "x.txt"], in: folder)
        XCTAssertEqual(join.stderrLines, ["lamina: \(folder.appendingPathComponent("x.txt").path): unknown output extension \".txt\" (use .mp4, .mov, .webm or .gif)"])
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), ["scene.json", "missing.json"])
    }
}
