import XCTest
import Foundation
@testable import SceneFormat
import Lamina

/// The built `lamina` executable (spec/cli.md): exit statuses, `lamina: ` error lines, and
/// `lamina inspect` JSON lines (spec/scene-format.md).
final class InspectCommandTests: XCTestCase {
    private typealias Run = LaminaProcess.Run

    private var workDirectory: URL!

    override func setUpWithError() throws {
        workDirectory = try SceneTestSupport.makeTemporaryDirectory()
    }

    override func tearDown() {
        if let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
    }

    /// Runs `lamina arguments` in the work folder.
    private func lamina(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        try LaminaProcess.run(arguments, in: workDirectory, file: file, line: line)
    }

    private func writeScene(_ name: String, _ json: String) throws -> URL {
        let url = workDirectory.appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url
    }

    /// A root named "stage" with a named, animated box and an unnamed shape.
    private let validScene = """
    {"format": 1, "size": [200, 100], "scale": 2,
     "root": {"name": "stage", "sublayers": [
       {"name": "box", "bounds": [0, 0, 20, 10], "position": [30, 40], "backgroundColor": "#ff0000",
        "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 2,
                        "timingFunction": "linear"},
                       {"type": "basic", "keyPath": "position.x", "toValue": 130, "duration": 2,
                        "timingFunction": "linear"}]},
       {"type": "shape", "path": {"rect": [0, 0, 5, 5]}, "fillColor": null}
     ]}}
    """

    // MARK: - Interrupting a video export

    /// Ctrl-C during `lamina render … -o OUT.mp4` stops ffmpeg, removes the temporary file and
    /// exits 130: nothing is left under the output's name (or beside it).
    func testInterruptedVideoExportLeavesNoFile() throws {
        let scene = try writeScene("long.json", """
        {"format": 1, "size": [64, 48], "fps": 30, "duration": 600, "background": "#101010",
         "root": {"sublayers": [{"bounds": [0, 0, 20, 20], "position": [32, 24], "backgroundColor": "#ff0000",
           "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 6.28, "duration": 2,
                           "repeatCount": 1000}]}]}}
        """)
        let started = try LaminaProcess.start(["render", scene.path, "-o", "out.mp4", "--backend", "cpu", "--progress"], in: workDirectory)
        let process = started.process
        // Interrupt once frames are flowing (the progress line shows), well before the 18,000th.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline, !started.stderr.contains("frame ") {
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(process.isRunning, "the export ended before it could be interrupted")
        process.interrupt()
        let stderr = started.finish().stderr
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: workDirectory.path).filter { $0 != "long.json" }
        XCTAssertEqual(left, [], "no output and no temporary file remain")
    }

    // MARK: - Usage

    /// `lamina render` and `inspect` tell a Lottie file from a scene file by its content (here
    /// under a name with no `.json`): the reftests' red box with its blue stroke at 2×.
    func testRenderAndInspectReadLottieFilesByContent() throws {
        let source = Repository.root.appendingPathComponent("Tests/ReftestTests/Reftests/lottie/shapes.json")
        let animation = workDirectory.appendingPathComponent("box.anim")
        try FileManager.default.copyItem(at: source, to: animation)
        let inspect = try lamina(["inspect", animation.path, "--time", "0"])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains(#""type": "shape""#), inspect.stdout)
        let render = try lamina(["render", animation.path, "-o", "frame.png", "--size", "200x200", "--backend", "cpu"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let image = try ImageFile.read(contentsOf: workDirectory.appendingPathComponent("frame.png"))
        XCTAssertEqual(image.width, 200)
        // The box is 40 × 20 at (50, 50): red inside, blue on its edge, clear outside.
        XCTAssertPixel(image, 100, 100, (255, 0, 0, 255))
        XCTAssertPixel(image, 140, 100, (0, 0, 255, 255))
        XCTAssertEqual(image.alpha(20, 20), 0)
    }

    func testHelpExitsZeroAndMentionsInspect() throws {
        let run = try lamina(["--help"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stdout.contains("inspect"), run.stdout)
        XCTAssertTrue(run.stdout.contains("usage"), run.stdout)
        XCTAssertEqual(run.stderr, "")
    }

    func testInspectHelpExitsZero() throws {
        let run = try lamina(["inspect", "--help"])
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stdout.contains("lamina inspect SCENE --time T"), run.stdout)
        XCTAssertEqual(run.stderr, "")
    }

    func testNoArgumentsIsAUsageError() throws {
        let run = try lamina([])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue((run.stdout + run.stderr).contains("usage: lamina"), "the usage is shown")
    }

    func testUnknownSubcommandIsOneUsageLine() throws {
        let run = try lamina(["frobnicate", "scene.json"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("lamina: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("\"frobnicate\""), run.stderr)
    }

    /// `inspect --plan`: the render plan of each time as text, as the backend named would get
    /// it: a shape the CPU backend paints itself, a raster for the GPU backend.
    func testInspectPlanPrintsTheRenderPlanForTheBackend() throws {
        let scene = try writeScene("plan.json", """
        {"format": 1, "size": [200, 100], "scale": 2,
         "root": {"name": "stage", "sublayers": [
           {"name": "box", "bounds": [0, 0, 20, 10], "position": [30, 40], "backgroundColor": "#ff0000"},
           {"name": "tick", "type": "shape", "path": {"rect": [0, 0, 5, 5]}, "position": [100, 50], "fillColor": "#00ff00"}
         ]}}
        """)
        let cpu = try lamina(["inspect", scene.path, "--plan", "--time", "1", "--backend", "cpu"])
        XCTAssertEqual(cpu.status, 0, cpu.stderr)
        XCTAssertEqual(cpu.stdoutLines, [
            "time 1.0", "plan 200x100", "pass 0 200x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)",
            "  background stage/box quad (40,70) (80,70) (80,90) (40,90) solid rgba(1.000, 0.000, 0.000, 1.000)",
            "  path stage/tick quad (200,100) (210,100) (210,110) (200,110) shape 10x10 deferred",
        ])
        let gpu = try lamina(["inspect", scene.path, "--plan", "--time", "1", "--time", "2", "--backend", "gpu"])
        XCTAssertEqual(gpu.status, 0, gpu.stderr)
        XCTAssertEqual(gpu.stdoutLines.filter { $0.hasPrefix("time ") }, ["time 1.0", "time 2.0"])
        XCTAssertTrue(gpu.stdoutLines.contains("  path stage/tick quad (200,100) (210,100) (210,110) (200,110) image 10x10 uv [0,0,1,1] filter linear/linear"),
                      gpu.stdout)
        let both = try lamina(["inspect", scene.path, "--plan", "--budget"])
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderrLines, ["lamina: --budget and --plan are separate views; give one"])
    }

    func testInspectWithoutTimeIsAUsageError() throws {
        let scene = try writeScene("scene.json", validScene)
        let run = try lamina(["inspect", scene.path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines, ["lamina: inspect needs at least one --time (or --budget)"])

        let dangling = try lamina(["inspect", scene.path, "--time"])
        XCTAssertEqual(dangling.status, 2)
        XCTAssertEqual(dangling.stderrLines, ["lamina: option --time needs a value"])
    }

    func testNonNumericTimeIsAUsageError() throws {
        let scene = try writeScene("scene.json", validScene)
        for text in ["soon", "nan", "inf", "1s", ""] {
            let run = try lamina(["inspect", scene.path, "--time", text])
            XCTAssertEqual(run.status, 2, "--time \(text)")
            XCTAssertEqual(run.stdout, "", "--time \(text)")
            XCTAssertEqual(run.stderrLines.count, 1, "--time \(text): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("lamina: "), run.stderr)
            XCTAssertTrue(run.stderr.contains("--time"), run.stderr)
        }
        let known = try lamina(["inspect", scene.path, "--time", "soon"])
        XCTAssertEqual(known.stderrLines, ["lamina: --time soon is not a finite number of seconds"])
    }

    // MARK: - inspect

    func testInspectPrintsOneJSONLinePerTime() throws {
        let scene = try writeScene("scene.json", validScene)
        let run = try lamina(["inspect", scene.path, "--time", "0", "--time=1.5"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let lines = run.stdoutLines
        XCTAssertEqual(lines.count, 2, run.stdout)
        guard lines.count == 2 else { return }
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(objects.count, 2, "every line is one JSON object")
        guard objects.count == 2 else { return }
        XCTAssertEqual(objects.map { $0["time"] as? Double }, [0, 1.5])

        func layers(_ i: Int) -> [[String: Any]] { objects[i]["layers"] as? [[String: Any]] ?? [] }
        func layer(_ i: Int, _ path: String) -> [String: Any]? { layers(i).first { $0["path"] as? String == path } }
        // Depth-first, a layer before its sublayers; an unnamed layer is its index.
        XCTAssertEqual(layers(0).compactMap { $0["path"] as? String }, ["stage", "stage/box", "stage/#1"])
        XCTAssertEqual(layers(0).compactMap { $0["type"] as? String }, ["layer", "layer", "shape"])

        let root = layer(0, "stage")
        XCTAssertEqual(root?["bounds"] as? [Double], [0, 0, 100, 50])
        XCTAssertEqual(root?["position"] as? [Double], [50, 25])
        XCTAssertEqual(root?["contentsScale"] as? Double, 2)
        XCTAssertEqual(root?["name"] as? String, "stage")
        XCTAssertTrue(root?["backgroundColor"] is NSNull, "a nil colour prints as null")

        let box0 = layer(0, "stage/box"), box1 = layer(1, "stage/box")
        XCTAssertEqual(box0?["opacity"] as? Double, 1)
        XCTAssertEqual(box1?["opacity"] as? Double ?? -1, 0.25, accuracy: 1e-6)
        XCTAssertEqual(box0?["position"] as? [Double], [30, 40])
        XCTAssertEqual(box1?["position"] as? [Double], [105, 40])
        XCTAssertEqual(box1?["frame"] as? [Double], [95, 35, 20, 10])
        XCTAssertEqual(box0?["backgroundColor"] as? [Double], [1, 0, 0, 1], "colours print as [r, g, b, a]")
        XCTAssertEqual(box0?["transform"] as? [Double], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
                       "transforms print as 16 numbers")
        XCTAssertEqual(box0?["hidden"] as? Bool, false)

        let shape = layers(1).count == 3 ? layers(1)[2] : nil  // by position: its "path" is checked above
        XCTAssertTrue(shape?["fillColor"] is NSNull)
        // The shape's path prints as its SVG path data (under whatever key does not clash with the layer path).
        let pathData = CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5), transform: nil).description
        XCTAssertTrue(shape?.values.contains { $0 as? String == pathData } == true, "the shape's path data \(pathData) is printed")

        // No layer object repeats a key: a shape layer's "path" property must not shadow the layer's
        // "path" (JSON readers keep only one of two equal keys).
        for line in lines {
            guard case .object(let top)? = try? JSONParser.parse(line).value,
                  case .array(let layerNodes)? = top.first(where: { $0.key == "layers" })?.value.value else {
                XCTFail("the line does not parse: \(line)")
                continue
            }
            for node in layerNodes {
                guard case .object(let members) = node.value else { continue }
                let keys = members.map(\.key)
                let repeated = Set(keys.filter { key in keys.filter { $0 == key }.count > 1 })
                XCTAssertTrue(repeated.isEmpty, "a layer object repeats the keys \(repeated.sorted()): \(keys)")
            }
        }

        // The same lines the library writes for the loaded scene.
        let loaded = try SceneLoader.load(contentsOf: scene)
        let encoder = PresentationJSON(imageName: loaded.assetNamer())
        XCTAssertEqual(lines, [0, 1.5].map { encoder.line(for: PresentationTree.evaluate(loaded.root, at: $0)) })
    }

    func testInspectOfAMalformedSceneListsEveryProblem() throws {
        let source = SceneTestSupport.malformedDirectory.appendingPathComponent("48-several-problems.json")
        let scene = workDirectory.appendingPathComponent("broken.json")
        try FileManager.default.copyItem(at: source, to: scene)
        let run = try lamina(["inspect", scene.path, "--time", "0"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "", "nothing is printed for a refused scene")
        let lines = run.stderrLines
        XCTAssertGreaterThanOrEqual(lines.count, 6, run.stderr)
        for line in lines {
            XCTAssertTrue(line.hasPrefix("lamina: broken.json:"), "every line starts with lamina: and names the file: \(line)")
        }
        // One line per problem, in the loader's order.
        var expected: [String] = []
        do { _ = try SceneLoader.load(contentsOf: scene) } catch { expected = error.problems.map { "lamina: \($0)" } }
        XCTAssertEqual(lines, expected)
        XCTAssertEqual(lines.first, "lamina: broken.json:5:16: root.opacity: 2 is out of range 0…1")
        XCTAssertEqual(lines.last, "lamina: broken.json:16:3: fsp: unknown key \"fsp\" (did you mean \"fps\"?)")
    }

    func testInspectOfInvalidJSONIsOneLine() throws {
        let scene = try writeScene("comma.json", "{\"format\": 1, \"size\": [8, 8], \"root\": {},}")
        let run = try lamina(["inspect", scene.path, "--time", "0"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines, ["lamina: comma.json:1:41: invalid JSON: trailing comma in object"])
    }

    func testInspectOfAMissingFileNamesIt() throws {
        let run = try lamina(["inspect", "no-such-scene.json", "--time", "0"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("lamina: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("no-such-scene.json"), run.stderr)
    }

    // MARK: - lamina render (PNG frames)

    private let redSquareScene = """
    {"format": 1, "size": [40, 30], "background": "#000000",
     "root": {"sublayers": [{"name": "box", "frame": [10, 5, 10, 10], "backgroundColor": "#FF0000",
       "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 15, "toValue": 25, "duration": 1}]}]}}
    """

    func testRenderWritesAPNGFrameAtTheRequestedTime() throws {
        _ = try writeScene("box.json", redSquareScene)
        let run = try lamina(["render", "box.json", "-o", "frame.png", "--time", "1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let image = try ImageFile.read(contentsOf: workDirectory.appendingPathComponent("frame.png"))
        XCTAssertEqual([image.width, image.height], [40, 30])
        // At t = 1 the box's centre is at x = 25: it covers x 20…29.
        XCTAssertEqual(image[20, 5].r, 255)
        XCTAssertEqual(image[29, 14].r, 255)
        XCTAssertEqual(image[19, 5].r, 0, "left of the moved box is background")
        XCTAssertEqual(image[30, 5].a, 255, "the background is opaque black")
    }

    func testRenderWritesASequenceForAFrameRange() throws {
        _ = try writeScene("box.json", redSquareScene)
        let run = try lamina(["render", "box.json", "-o", "f%03d.png", "--frames", "0..2", "--fps", "2", "--size", "80x60"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: workDirectory.path).filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertEqual(names, ["f000.png", "f001.png", "f002.png"])
        // Frame 1 is at t = 0.5: box centre x = 20 points = 40 pixels at this size (scale 2).
        let middle = try ImageFile.read(contentsOf: workDirectory.appendingPathComponent("f001.png"))
        XCTAssertEqual([middle.width, middle.height], [80, 60])
        XCTAssertEqual(middle[30, 10].r, 255)
        XCTAssertEqual(middle[29, 10].r, 0)
    }

    func testRenderRefusesToReplaceAnExistingFileWithoutOverwrite() throws {
        _ = try writeScene("box.json", redSquareScene)
        let existing = workDirectory.appendingPathComponent("frame.png")
        try Data("keep me".utf8).write(to: existing)
        let run = try lamina(["render", "box.json", "-o", "frame.png"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderrLines.count, 1)
        XCTAssertTrue(run.stderr.hasPrefix("lamina: frame.png: already exists"), run.stderr)
        XCTAssertEqual(try Data(contentsOf: existing), Data("keep me".utf8))
        XCTAssertEqual(try lamina(["render", "box.json", "-o", "frame.png", "--overwrite"]).status, 0)
        XCTAssertNotEqual(try Data(contentsOf: existing), Data("keep me".utf8))
    }

    func testRenderUsageErrorsExitTwo() throws {
        _ = try writeScene("box.json", redSquareScene)
        for arguments in [["render", "box.json"], ["render", "box.json", "-o", "x.png", "--frames", "0..2"],
                          ["render", "box.json", "-o", "x.png", "--backend", "metal"], ["render", "box.json", "-o", "x.gif"]] {
            let run = try lamina(arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.stderr.hasPrefix("lamina: "), run.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: workDirectory.appendingPathComponent("x.png").path))
    }
}
