import XCTest
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// What a service rendering user-submitted scenes relies on (README "Running untrusted scenes"),
/// through the real `lamina`: assets confined to the scene's folder, inputs that would block
/// refused, and one budget per scene enforced in milliseconds, before rendering.
final class UntrustedSceneTests: XCTestCase {
    /// Small scenes that used to cost gigabytes, kept with the fuzzer's regressions.
    static let hostile = Repository.root.appendingPathComponent("Tests/SceneFormatTests/FuzzRegressions")

    func folder() throws -> URL { try VideoTestSupport.folder(self) }

    /// A scene showing image asset `path`.
    func imageScene(_ path: String) -> String {
        """
        {"format": 1, "size": [8, 8], "assets": {"logo": "\(path)"}, "root": {"contents": "logo"}}
        """
    }

    func write(_ text: String, _ url: URL) throws { try Data(text.utf8).write(to: url) }

    func assertOneLine(_ run: LaminaProcess.Run, status: Int32, _ needles: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, status, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr, file: file, line: line)
        for needle in needles { XCTAssertTrue(run.stderr.contains(needle), "\"\(needle)\" in \(run.stderr)", file: file, line: line) }
    }

    // MARK: - Asset confinement

    /// `../x.png`, an absolute path, a symlink out (to a file that exists or not): refused with
    /// the same words, the file never read; inside the folder (a symlink within too) is fine;
    /// `--allow-assets-outside` lifts the rule.
    func testAssetsAreConfinedToTheScenesFolder() throws {
        let root = try folder()
        let scenes = root.appendingPathComponent("scenes")
        let images = scenes.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let png = SceneTestPNG.red8x8
        try png.write(to: root.appendingPathComponent("secret.png"))
        try png.write(to: images.appendingPathComponent("logo.png"))
        try FileManager.default.createSymbolicLink(atPath: scenes.appendingPathComponent("out-exists.png").path,
                                                   withDestinationPath: root.appendingPathComponent("secret.png").path)
        try FileManager.default.createSymbolicLink(atPath: scenes.appendingPathComponent("out-missing.png").path,
                                                   withDestinationPath: root.appendingPathComponent("nothing-here.png").path)
        try FileManager.default.createSymbolicLink(atPath: scenes.appendingPathComponent("up").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: scenes.appendingPathComponent("inside.png").path, withDestinationPath: "images/logo.png")

        var messages: [String: String] = [:]
        for asset in ["../secret.png", "../nothing-here.png", root.appendingPathComponent("secret.png").path, "/etc/hostname",
                      "out-exists.png", "out-missing.png", "up/secret.png", "up/nothing-here.png", "images/../../secret.png"] {
            try write(imageScene(asset), scenes.appendingPathComponent("scene.json"))
            let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.png", "--backend", "cpu"], in: scenes)
            assertOneLine(run, status: 1, ["scene.json:1:", "assets.logo: \"\(asset)\" is outside the scene's folder",
                                           "--allow-assets-outside"])
            messages[asset] = run.stderr.replacingOccurrences(of: asset, with: "ASSET")
            XCTAssertFalse(FileManager.default.fileExists(atPath: scenes.appendingPathComponent("out.png").path))
        }
        // The words never tell whether the file exists.
        XCTAssertEqual(Set(messages.values).count, 1, "\(messages)")

        for asset in ["images/logo.png", "inside.png", "images/../images/logo.png", scenes.appendingPathComponent("images/logo.png").path] {
            try write(imageScene(asset), scenes.appendingPathComponent("scene.json"))
            let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.png", "--backend", "cpu", "--overwrite"], in: scenes)
            XCTAssertEqual(run.status, 0, "\(asset): \(run.stderr)")
        }

        try write(imageScene("out-exists.png"), scenes.appendingPathComponent("scene.json"))
        let trusted = try VideoTestSupport.lamina(["render", "scene.json", "-o", "trusted.png", "--backend", "cpu", "--allow-assets-outside"],
                                                  in: scenes)
        XCTAssertEqual(trusted.status, 0, trusted.stderr)
        let image = try ImageFile.read(contentsOf: scenes.appendingPathComponent("trusted.png"))
        XCTAssertEqual(image[4, 4].r, 255, "the outside image is drawn when allowed")
        let inspect = try VideoTestSupport.lamina(["inspect", "scene.json", "--time", "0", "--allow-assets-outside"], in: scenes)
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertEqual(try VideoTestSupport.lamina(["inspect", "scene.json", "--time", "0"], in: scenes).status, 1)
    }

    /// The video asset too: outside is refused; a text file named `.mp4` holding an HLS playlist
    /// (which ffmpeg's hls demuxer would follow to every file it names) is refused before any
    /// ffmpeg opens it, as is an ffconcat list.
    func testVideoAssetsAreConfinedAndPlaylistsRefused() throws {
        let root = try folder()
        let scenes = root.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
        try JoinCheckTests.segment(root.appendingPathComponent("outside.mp4"), frames: 5)
        try write("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n\(root.appendingPathComponent("outside.mp4").path)\n#EXT-X-ENDLIST\n",
                  scenes.appendingPathComponent("input.mp4"))
        try write("ffconcat version 1.0\nfile '\(root.appendingPathComponent("outside.mp4").path)'\n", scenes.appendingPathComponent("list.mov"))
        func scene(_ asset: String) -> String {
            """
            {"format": 1, "size": [64, 48], "fps": 30, "duration": 0.1, "assets": {"clip": "\(asset)"},
             "video": {"asset": "clip", "layer": "v"}, "root": {"sublayers": [{"type": "video", "name": "v", "frame": [0, 0, 64, 48]}]}}
            """
        }
        try write(scene("../outside.mp4"), scenes.appendingPathComponent("scene.json"))
        assertOneLine(try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu"], in: scenes), status: 1,
                      ["assets.clip: \"../outside.mp4\" is outside the scene's folder"])
        for (asset, reason) in [("input.mp4", "is an HLS/M3U playlist, not a video file"), ("list.mov", "is an ffmpeg concat list")] {
            try write(scene(asset), scenes.appendingPathComponent("scene.json"))
            let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu"], in: scenes)
            assertOneLine(run, status: 1, [scenes.appendingPathComponent(asset).path + ": " + reason])
        }
        XCTAssertEqual(Set(VideoTestSupport.leftovers(scenes)), ["scene.json", "input.mp4", "list.mov"])
    }

    func testTheSwiftOptionAllowsAssetsOutside() throws {
        let root = try folder()
        let scenes = root.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
        try SceneTestPNG.red8x8.write(to: root.appendingPathComponent("secret.png"))
        let url = scenes.appendingPathComponent("scene.json")
        try write(imageScene("../secret.png"), url)
        XCTAssertThrowsError(try SceneLoader.load(contentsOf: url))
        let scene = try SceneLoader.load(contentsOf: url, options: SceneLoadOptions(allowsAssetsOutsideFolder: true))
        XCTAssertEqual(scene.assets["logo"]?.image?.width, 8)
    }

    // MARK: - Inputs that would block

    /// An image asset that is a fifo used to block `render` for ever; `compare` too. A device is
    /// refused the same way; a scene file that is a fifo as well.
    func testFifosAndDevicesAreRefusedWithoutWaiting() throws {
        let folder = try folder()
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("pipe.png").path, 0o644), 0)
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("pipe.json").path, 0o644), 0)
        try SceneTestPNG.red8x8.write(to: folder.appendingPathComponent("red.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.png").path, withDestinationPath: "/dev/zero")
        let started = Date()
        for (asset, reason) in [("pipe.png", "is a pipe (fifo), not a regular file"), ("zero.png", "is a device, not a regular file")] {
            try write(imageScene(asset), folder.appendingPathComponent("scene.json"))
            let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.png", "--backend", "cpu", "--allow-assets-outside"],
                                                  in: folder, timeout: 20)
            assertOneLine(run, status: 1, ["assets.logo: cannot read image \"\(asset)\": \(reason)"])
        }
        assertOneLine(try VideoTestSupport.lamina(["render", "pipe.json", "-o", "out.png"], in: folder, timeout: 20), status: 1,
                      ["pipe.json: is a pipe (fifo), not a regular file"])
        assertOneLine(try VideoTestSupport.lamina(["compare", "pipe.png", "red.png"], in: folder, timeout: 20), status: 1,
                      ["pipe.png: cannot read: is a pipe (fifo), not a regular file"])
        assertOneLine(try VideoTestSupport.lamina(["compare", "red.png", "/dev/zero"], in: folder, timeout: 20), status: 1,
                      ["/dev/zero: cannot read: is a device, not a regular file"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "nothing waited on the fifo")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }

    // MARK: - One budget per scene

    /// The small hostile scenes: each refused in milliseconds with the figure and the layer,
    /// or rendered (their offscreen images clipped to the 32×32 the output shows).
    func testHostileScenesAreRefusedOrRenderedQuickly() throws {
        let folder = try folder()
        for (file, name) in [("009-nested-replicators-over-budget.json", "nested-replicators.json"),
                             ("010-twenty-emitters-over-budget.json", "twenty-emitters.json"), ("011-huge-shape-clipped.json", "huge-shape.json"),
                             ("012-nested-group-opacity-clipped.json", "nested-group-opacity.json"), ("dot.png", "dot.png")] {
            try FileManager.default.copyItem(at: Self.hostile.appendingPathComponent(file), to: folder.appendingPathComponent(name))
        }
        let refusals = [
            ("nested-replicators.json", ["presents up to 1,001,001,002 layers after replicator and particle expansion, over the budget of 100,000",
                                         "root.sublayers[0].sublayers[0].sublayers[0].sublayers[0] alone: 1,000,000,000 (1,000 × 1,000 × 1,000 replicator copies)"]),
            ("twenty-emitters.json", ["presents up to 2,000,021 layers", "root.sublayers[0] alone: 100,000 (up to 100,000 particles)"]),
        ]
        for (scene, needles) in refusals {
            let started = Date()
            for output in ["out.png", "out.mp4"] {
                let run = try VideoTestSupport.lamina(["render", scene, "-o", output, "--backend", "cpu"], in: folder, timeout: 30)
                assertOneLine(run, status: 1, ["lamina: \(scene): "] + needles)
            }
            // Debug build, two runs: still far from the seconds and gigabytes these used to take.
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, scene)
        }
        for scene in ["huge-shape.json", "nested-group-opacity.json"] {
            let run = try VideoTestSupport.lamina(["render", scene, "-o", "\(scene).png", "--backend", "cpu"], in: folder, timeout: 30)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)),
                       ["nested-replicators.json", "twenty-emitters.json", "huge-shape.json", "nested-group-opacity.json", "dot.png",
                        "huge-shape.json.png", "nested-group-opacity.json.png"])
        // The huge shape's visible corner: the fill and the stroke along its top edge and diagonal.
        let shape = try ImageFile.read(contentsOf: folder.appendingPathComponent("huge-shape.json.png"))
        XCTAssertGreaterThan(shape[20, 5].g, 200, "fill below the top edge, right of the diagonal")
        XCTAssertGreaterThan(shape[10, 0].r, 200, "the stroke along the top edge")
        XCTAssertEqual(shape[2, 25].a, 0, "left of the diagonal is outside the triangle")
    }

    /// A scene lowers its own budget (`"limits"`), and `inspect --budget` prints the figures.
    func testAScenesLimitsAndInspectBudget() throws {
        let folder = try folder()
        let scene = """
        {"format": 1, "size": [64, 64], "fps": 10, "duration": 1, "limits": {"presentedLayers": 50},
         "root": {"sublayers": [{"type": "replicator", "name": "row", "instanceCount": 60,
                                 "sublayers": [{"bounds": [0, 0, 2, 2], "backgroundColor": "#ffffff"}]}]}}
        """
        try write(scene, folder.appendingPathComponent("scene.json"))
        let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.png", "--backend", "cpu"], in: folder)
        assertOneLine(run, status: 1, ["scene.json: presents up to 62 layers", "over the budget of 50",
                                       "root.sublayers[0].sublayers[0] alone: 60 (60 replicator copies)"])
        let budget = try VideoTestSupport.lamina(["inspect", "scene.json", "--budget"], in: folder)
        XCTAssertEqual(budget.status, 1)
        XCTAssertTrue(budget.stdoutLines.first?.hasPrefix("presented layers               62  of 50") == true, budget.stdout)
        XCTAssertTrue(budget.stdout.contains("offscreen pixels  (not measured: the model is over its budget)"), budget.stdout)
        XCTAssertEqual(budget.stderrLines.count, 1)

        try write(scene.replacingOccurrences(of: "\"presentedLayers\": 50", with: "\"offscreenPixels\": 5000"),
                  folder.appendingPathComponent("scene.json"))
        let within = try VideoTestSupport.lamina(["inspect", "scene.json", "--budget"], in: folder)
        XCTAssertEqual(within.status, 0, within.stderr)
        let lines = within.stdoutLines
        XCTAssertTrue(lines.contains { $0.hasPrefix("presented layers               62  of 100,000") }, within.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("offscreen pixels                0  of 5,000") }, within.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("output pixels               4,096  64×64") }, within.stdout)
        XCTAssertEqual(lines.last, "within budget")
        // --max-memory refuses it when its estimate is larger.
        let tight = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu", "--max-memory", "16"], in: folder)
        assertOneLine(tight, status: 1, ["scene.json: needs about", "MB (estimated), over --max-memory 16 MB"])
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), ["scene.json"])
    }

    /// An offscreen budget a frame exceeds: refused before rendering with the layer and its pass.
    func testAnOffscreenBudgetNamesTheLayer() throws {
        let folder = try folder()
        try write("""
        {"format": 1, "size": [64, 64], "limits": {"offscreenPixels": 1000},
         "root": {"sublayers": [{"name": "card", "frame": [0, 0, 40, 40], "masksToBounds": true, "backgroundColor": "#ff0000",
                                 "sublayers": [{"frame": [20, 20, 40, 40], "backgroundColor": "#00ff00"}]}]}}
        """, folder.appendingPathComponent("scene.json"))
        let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.png", "--backend", "cpu"], in: folder)
        assertOneLine(run, status: 1, ["scene.json: needs 1,600 offscreen pixels at t = 0 s, over the budget of 1,000",
                                       "#0/card (masksToBounds) alone: 40×40"])
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["scene.json"])
    }
}

/// A tiny red PNG for asset tests.
enum SceneTestPNG {
    static var red8x8: Data {
        let image = Image(width: 8, height: 8, pixels: [UInt8]((0..<64).flatMap { _ in [255, 0, 0, 255] }))!
        return Data(try! PNGCodec.encode(image, compressionLevel: 1))
    }
}
