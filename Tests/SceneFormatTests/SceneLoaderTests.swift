import XCTest
import Foundation
@testable import SceneFormat
import Lamina

/// Scene files (spec/scene-format.md): every malformed file in `Malformed/` is refused with exactly
/// the problems `Malformed/expected.txt` lists, and valid scenes load into exactly the tree that the
/// equivalent Swift calls build.
final class SceneLoaderTests: XCTestCase {
    // MARK: - Malformed scenes

    /// `expected.txt` as file name → problem lines in order.
    private func expectedProblems() throws -> [String: [String]] {
        let text = try String(contentsOf: SceneTestSupport.malformedDirectory.appendingPathComponent("expected.txt"), encoding: .utf8)
        var result: [String: [String]] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            guard let range = line.range(of: ".json") else {
                XCTFail("expected.txt: a line that names no .json file: \(line)")
                continue
            }
            result[String(line[..<range.upperBound]), default: []].append(String(line))
        }
        return result
    }

    func testEveryMalformedSceneReportsExactlyItsExpectedProblems() throws {
        let expected = try expectedProblems()
        let files = try FileManager.default.contentsOfDirectory(atPath: SceneTestSupport.malformedDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 40, "the malformed corpus shrank")
        XCTAssertEqual(Set(expected.keys), Set(files), "expected.txt and the .json files in Malformed/ must name the same files")
        for name in files {
            let url = SceneTestSupport.malformedDirectory.appendingPathComponent(name)
            let actual: [String]
            do {
                _ = try SceneLoader.load(contentsOf: url)
                actual = []
            } catch {
                actual = error.problems.map(\.description)
                // Every problem names the file and, for these small files, a place in it.
                for problem in error.problems {
                    XCTAssertEqual(problem.file, name)
                    XCTAssertNotNil(problem.location, "\(problem) has no line and column")
                }
            }
            let wanted = expected[name] ?? []
            if actual != wanted {
                XCTFail("""
                \(name):
                  expected:
                    \(wanted.joined(separator: "\n    "))
                  loader printed:
                    \(actual.isEmpty ? "(nothing: the scene loaded)" : actual.joined(separator: "\n    "))
                """)
            }
        }
    }

    func testLoadingFromBytesNamesTheGivenFileAndSortsProblemsBySourceOrder() {
        // Problems found late in decoding (top-level unknown keys are reported last) still come out
        // in source order.
        let lines = problems("""
        {"zzz": 1, "format": 1, "size": [8, 8],
         "root": {"opacity": -1, "sublayers": [{"hiddden": true}]}}
        """, fileName: "inline.json")
        XCTAssertEqual(lines, [
            "inline.json:1:2: zzz: unknown key \"zzz\"",
            "inline.json:2:22: root.opacity: -1 is out of range 0…1",
            "inline.json:2:41: root.sublayers[0].hiddden: unknown key \"hiddden\" (did you mean \"hidden\"?)",
        ])
    }

    func testAHugeNumberOfProblemsIsCappedAndSaysSo() {
        // 300 unknown keys: the list is capped (a pathological file must not print without bound),
        // but a capped list must say that problems were left out, or "every problem listed" is untrue.
        let keys = (0..<300).map { "\"unknown\($0)\": 1" }.joined(separator: ", ")
        let lines = problems("{\"format\": 1, \"size\": [8, 8], \"root\": {\(keys)}}")
        XCTAssertTrue((200...201).contains(lines.count), "\(lines.count) lines")
        XCTAssertEqual(lines.first, "scene.json:1:40: root.unknown0: unknown key \"unknown0\"")
        XCTAssertTrue(lines.dropLast().allSatisfy { $0.contains(": unknown key \"unknown") })
        XCTAssertTrue(lines.last?.contains("more problem") == true,
                      "the last line should say how many problems were left out; it is: \(lines.last ?? "")")
    }

    func testMissingSceneFileIsOneProblemNamingTheFile() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-scene-\(UUID().uuidString).json")
        XCTAssertThrowsError(try SceneLoader.load(contentsOf: url)) { error in
            let problems = (error as? SceneLoadError)?.problems ?? []
            XCTAssertEqual(problems.map(\.description), ["\(url.path): no such file"])
        }
    }

    // MARK: - Limits

    /// `{"format":1,"size":[8,8],"root":` + `levels` nested single-sublayer layers.
    private func nestedScene(levels: Int) -> String {
        "{\"format\":1,\"size\":[8,8],\"root\":" + String(repeating: "{\"sublayers\":[", count: levels) + "{}"
            + String(repeating: "]}", count: levels) + "}"
    }

    func testLayersNestedExactly256DeepLoad() {
        guard let scene = loadScene(nestedScene(levels: 256)) else { return }
        var depth = 0
        var layer: CALayer? = scene.root
        while let next = layer?.sublayers?.first { depth += 1; layer = next }
        XCTAssertEqual(depth, 256)
    }

    func testLayersNestedDeeperThan256AreRefusedAtTheFirstTooDeepLayer() {
        let json = nestedScene(levels: 257)
        let prefix = "{\"format\":1,\"size\":[8,8],\"root\":" + String(repeating: "{\"sublayers\":[", count: 257)
        let path = "root" + String(repeating: ".sublayers[0]", count: 257)
        XCTAssertEqual(problems(json), ["scene.json:1:\(prefix.count + 1): \(path): layers nested deeper than 256"])
    }

    func testFarTooDeepNestingNamesTheLayerLimit() {
        // 300 levels overflow the JSON reader's container limit (2 × 256 + 16) before the decoder sees
        // them; the message should still tell the user about the 256-layer nesting limit rather than
        // an internal container count ("nesting deeper than 528").
        let lines = problems(nestedScene(levels: 300))
        XCTAssertEqual(lines.count, 1)
        XCTAssertTrue(lines.first?.contains("nested deeper than 256") == true,
                      "the message should name the 256-level layer limit: \(lines)")
    }

    /// A root with `sublayers` empty layers written as `{}` (so `sublayers + 1` layers in all).
    private func wideScene(sublayers: Int) -> [UInt8] {
        var bytes = Array("{\"format\":1,\"size\":[8,8],\"root\":{\"sublayers\":[".utf8)
        bytes.reserveCapacity(bytes.count + 3 * sublayers + 4)
        for i in 0..<sublayers { bytes += i == 0 ? [0x7B, 0x7D] : [0x2C, 0x7B, 0x7D] }
        bytes += Array("]}}".utf8)
        return bytes
    }

    func testExactly100000LayersLoad() throws {
        let scene = try SceneLoader.load(bytes: wideScene(sublayers: 99_999), fileName: "wide.json",
                                         baseDirectory: FileManager.default.temporaryDirectory)
        XCTAssertEqual(scene.root.sublayers?.count, 99_999)
    }

    func testMoreThan100000LayersFailBeforeAnyLayerIsBuilt() throws {
        let bytes = wideScene(sublayers: 100_000)
        var lines: [String] = []
        do {
            _ = try SceneLoader.load(bytes: bytes, fileName: "wide.json", baseDirectory: FileManager.default.temporaryDirectory)
            XCTFail("100,001 layers loaded")
        } catch {
            lines = error.problems.map(\.description)
        }
        // One problem, at the first layer over the limit (the root is layer 1, sublayer i is layer i + 2).
        let column = "{\"format\":1,\"size\":[8,8],\"root\":{\"sublayers\":[".count + 3 * 99_999 + 1
        XCTAssertEqual(lines, ["wide.json:1:\(column): root.sublayers[99999]: more than 100000 layers"])
        // The limit is found by walking the JSON alone (nothing built), counting masks too.
        let json = try JSONParser.parse(bytes, maxDepth: 600)
        guard case .object(let top) = json.value, let rootNode = top.first(where: { $0.key == "root" })?.value else {
            return XCTFail("no root")
        }
        XCTAssertEqual(SceneDecoder.firstLayerOverLimit(rootNode, path: "root")?.path, "root.sublayers[99999]")
        let masked = try JSONParser.parse(#"{"mask": {}, "sublayers": [{}]}"#)
        XCTAssertNil(SceneDecoder.firstLayerOverLimit(masked, path: "root"))
    }

    // MARK: - Top level and the root's defaults

    func testRootDefaultsComeFromSizeAndScale() {
        let scene = loadScene("""
        {"format": 1, "size": [200, 100], "scale": 2, "root": {"sublayers": [{"name": "child"}]}}
        """)
        guard let scene else { return }
        XCTAssertEqual(scene.width, 200)
        XCTAssertEqual(scene.height, 100)
        XCTAssertEqual(scene.scale, 2)
        XCTAssertEqual(scene.framesPerSecond, 30)
        XCTAssertNil(scene.duration)
        XCTAssertNil(scene.background)
        XCTAssertNil(scene.video)
        XCTAssertTrue(scene.assets.isEmpty)
        XCTAssertEqual(scene.root.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(scene.root.position, CGPoint(x: 50, y: 25))
        XCTAssertEqual(scene.root.contentsScale, 2)
        XCTAssertEqual(scene.root.sublayers?.first?.contentsScale, 1, "only the root takes the scene's scale")
        XCTAssertEqual(scene.root.sublayers?.first?.name, "child")

        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        root.position = CGPoint(x: 50, y: 25)
        root.contentsScale = 2
        let child = CALayer()
        child.name = "child"
        root.addSublayer(child)
        assertSameTree(scene, root, at: [0, 1])
    }

    func testRootKeepsValuesTheSceneGivesAndTopLevelKeysAreRead() {
        let scene = loadScene("""
        {"format": 1, "size": [64, 48], "scale": 1.5, "fps": 24, "duration": 3.5, "background": "#336699",
         "root": {"bounds": [5, 5, 20, 10], "position": [7, 8], "contentsScale": 3}}
        """)
        guard let scene else { return }
        XCTAssertEqual(scene.framesPerSecond, 24)
        XCTAssertEqual(scene.duration, 3.5)
        XCTAssertEqual(scene.background, CGColor(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0, alpha: 1))
        XCTAssertEqual(scene.root.bounds, CGRect(x: 5, y: 5, width: 20, height: 10))
        XCTAssertEqual(scene.root.position, CGPoint(x: 7, y: 8))
        XCTAssertEqual(scene.root.contentsScale, 3)
    }

    func testRootFrameSetsBoundsAndPositionInsteadOfTheDefaults() {
        let scene = loadScene("""
        {"format": 1, "size": [64, 48], "root": {"frame": [10, 10, 50, 40]}}
        """)
        XCTAssertEqual(scene?.root.bounds, CGRect(x: 0, y: 0, width: 50, height: 40))
        XCTAssertEqual(scene?.root.position, CGPoint(x: 35, y: 30))
        XCTAssertEqual(scene?.root.contentsScale, 1)
    }

    func testFrameSetsBoundsAndPositionAsCoreAnimationDoes() {
        let scene = loadScene("""
        {"format": 1, "size": [200, 200], "root": {"sublayers": [
          {"name": "centred", "frame": [10, 20, 100, 50]},
          {"name": "corner", "anchorPoint": [0, 0], "frame": [10, 20, 100, 50]},
          {"name": "quarter", "anchorPoint": [0.25, 1], "frame": [-8, 4, 40, 12]},
          {"name": "scaled", "frame": [10, 10, 60, 30], "transform": [{"scale": [2, 3, 1]}]}
        ]}}
        """)
        guard let scene else { return }
        let layers = scene.root.sublayers ?? []
        XCTAssertEqual(layers.prefix(3).map(\.bounds), [CGRect(x: 0, y: 0, width: 100, height: 50),
                                              CGRect(x: 0, y: 0, width: 100, height: 50),
                                              CGRect(x: 0, y: 0, width: 40, height: 12)])
        XCTAssertEqual(layers.prefix(3).map(\.position), [CGPoint(x: 60, y: 45), CGPoint(x: 10, y: 20), CGPoint(x: 2, y: 16)])
        // The frame is applied after anchorPoint and transform (whatever the key order), so it is the
        // box the layer covers: a scaled layer gets smaller bounds.
        XCTAssertEqual(layers.last?.frame, CGRect(x: 10, y: 10, width: 60, height: 30))
        XCTAssertEqual(layers.last?.bounds, CGRect(x: 0, y: 0, width: 30, height: 10))
        XCTAssertEqual(layers.last?.position, CGPoint(x: 40, y: 25))

        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        for (name, anchor, frame) in [("centred", CGPoint(x: 0.5, y: 0.5), CGRect(x: 10, y: 20, width: 100, height: 50)),
                                      ("corner", CGPoint(x: 0, y: 0), CGRect(x: 10, y: 20, width: 100, height: 50)),
                                      ("quarter", CGPoint(x: 0.25, y: 1), CGRect(x: -8, y: 4, width: 40, height: 12))] {
            let layer = CALayer()
            layer.name = name
            layer.anchorPoint = anchor
            layer.frame = frame
            root.addSublayer(layer)
        }
        let scaled = CALayer()
        scaled.name = "scaled"
        scaled.transform = CATransform3DMakeScale(2, 3, 1)
        scaled.frame = CGRect(x: 10, y: 10, width: 60, height: 30)
        root.addSublayer(scaled)
        assertSameTree(scene, root, at: [0])
    }

    // MARK: - CALayer properties and value formats

    func testEveryCALayerPropertyMatchesSwift() {
        let scene = loadScene("""
        {"format": 1, "size": [100, 100], "root": {"sublayers": [{
          "name": "card",
          "bounds": [1, 2, 30, 40], "position": [50, 60], "zPosition": 3, "anchorPoint": [0.25, 0.75], "anchorPointZ": 2,
          "transform": [{"rotate": [0.5, 0, 0, 1]}],
          "sublayerTransform": [{"perspective": 500}],
          "opacity": 0.75, "hidden": true,
          "backgroundColor": "#FF8000", "cornerRadius": 6,
          "maskedCorners": ["minXMinY", "maxXMaxY"], "cornerCurve": "continuous",
          "borderWidth": 2, "borderColor": [0.1, 0.2, 0.3, 0.4],
          "contents": null, "contentsRect": [0, 0, 0.5, 0.5], "contentsCenter": [0.25, 0.25, 0.5, 0.5],
          "contentsGravity": "resizeAspectFill", "contentsScale": 2,
          "minificationFilter": "trilinear", "magnificationFilter": "nearest",
          "masksToBounds": true, "doubleSided": false, "geometryFlipped": true,
          "allowsEdgeAntialiasing": true, "allowsGroupOpacity": false,
          "shadowColor": "#00000080", "shadowOpacity": 0.5, "shadowOffset": [2, -3], "shadowRadius": 4,
          "shadowPath": {"ellipse": [0, 0, 30, 40]},
          "speed": 2, "timeOffset": 0.5, "beginTime": 0.25,
          "mask": {"name": "cutout", "bounds": [0, 0, 10, 10], "backgroundColor": "#000000"},
          "sublayers": [{"bounds": [0, 0, 5, 5]}, {"name": "last"}]
        }]}}
        """)
        guard let scene, let card = scene.root.sublayers?.first else { return }
        // A few values read back directly, beyond the tree comparison below.
        XCTAssertEqual(card.backgroundColor, CGColor(red: 1, green: 128 / 255.0, blue: 0, alpha: 1))
        XCTAssertEqual(card.borderColor, CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        XCTAssertEqual(card.shadowColor, CGColor(red: 0, green: 0, blue: 0, alpha: 128 / 255.0))
        XCTAssertEqual(card.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
        XCTAssertEqual(card.sublayerTransform.m34, -1.0 / 500)
        XCTAssertEqual(card.opacity, 0.75)
        XCTAssertTrue(card.isHidden)
        XCTAssertEqual(card.speed, 2)
        XCTAssertEqual(card.beginTime, 0.25)
        XCTAssertEqual(card.mask?.name, "cutout")
        XCTAssertEqual(card.sublayers?.count, 2)

        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        let layer = CALayer()
        layer.name = "card"
        layer.anchorPoint = CGPoint(x: 0.25, y: 0.75)
        layer.anchorPointZ = 2
        layer.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
        layer.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        layer.position = CGPoint(x: 50, y: 60)
        layer.zPosition = 3
        layer.sublayerTransform = CATransform3DMakePerspective(500)
        layer.opacity = 0.75
        layer.isHidden = true
        layer.backgroundColor = CGColor(red: 1, green: 128 / 255.0, blue: 0, alpha: 1)
        layer.cornerRadius = 6
        layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        layer.cornerCurve = .continuous
        layer.borderWidth = 2
        layer.borderColor = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        layer.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 0.5)
        layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        layer.contentsGravity = .resizeAspectFill
        layer.contentsScale = 2
        layer.minificationFilter = .trilinear
        layer.magnificationFilter = .nearest
        layer.masksToBounds = true
        layer.isDoubleSided = false
        layer.isGeometryFlipped = true
        layer.allowsEdgeAntialiasing = true
        layer.allowsGroupOpacity = false
        layer.shadowColor = CGColor(red: 0, green: 0, blue: 0, alpha: 128 / 255.0)
        layer.shadowOpacity = 0.5
        layer.shadowOffset = CGSize(width: 2, height: -3)
        layer.shadowRadius = 4
        layer.shadowPath = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 40), transform: nil)
        layer.speed = 2
        layer.timeOffset = 0.5
        layer.beginTime = 0.25
        let mask = CALayer()
        mask.name = "cutout"
        mask.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        layer.mask = mask
        let first = CALayer()
        first.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
        let last = CALayer()
        last.name = "last"
        layer.addSublayer(first)
        layer.addSublayer(last)
        root.addSublayer(layer)
        assertSameTree(scene, root, at: [0, 0.5])
        XCTAssertEqual(scene.root.sublayers?.first?.properties, layer.properties)
    }

    func testColourFormats() {
        let scene = loadScene("""
        {"format": 1, "size": [10, 10], "root": {"sublayers": [
          {"type": "shape", "fillColor": "#336699", "strokeColor": "#33669940"},
          {"type": "shape", "fillColor": [0, 0.5, 1, 0.25], "strokeColor": null},
          {"type": "shape", "fillColor": null, "strokeColor": "#abcdef"},
          {"backgroundColor": null, "borderColor": [1, 1, 1, 1], "shadowColor": null}
        ]}}
        """)
        guard let layers = scene?.root.sublayers, layers.count == 4 else { return XCTFail("four layers expected") }
        let shapes = layers.prefix(3).compactMap { $0 as? CAShapeLayer }
        XCTAssertEqual(shapes.count, 3)
        guard shapes.count == 3 else { return }
        XCTAssertEqual(shapes[0].fillColor, CGColor(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0, alpha: 1))
        XCTAssertEqual(shapes[0].strokeColor, CGColor(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0, alpha: 0x40 / 255.0))
        XCTAssertEqual(shapes[1].fillColor, CGColor(red: 0, green: 0.5, blue: 1, alpha: 0.25))
        XCTAssertNil(shapes[1].strokeColor)
        XCTAssertNil(shapes[2].fillColor, "fillColor: null draws no fill (the default is opaque black)")
        XCTAssertEqual(shapes[2].strokeColor, CGColor(red: 0xAB / 255.0, green: 0xCD / 255.0, blue: 0xEF / 255.0, alpha: 1))
        XCTAssertNil(layers[3].backgroundColor)
        XCTAssertEqual(layers[3].borderColor, CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        XCTAssertNil(layers[3].shadowColor, "shadowColor: null clears the default black")
    }

    func testTransformFormatsAndOperationOrder() {
        let scene = loadScene("""
        {"format": 1, "size": [10, 10], "root": {"sublayers": [
          {"name": "matrix", "transform": [1, 0, 0, 0,  0, 2, 0, 0,  0, 0, 1, -0.002,  10, 20, 30, 1]},
          {"name": "ops", "transform": [{"translate": [10, 0, 0]}, {"scale": [2, 3, 1]}, {"rotate": [0.5, 0, 0, 1]}, {"perspective": 400}]},
          {"name": "order", "transform": [{"translate": [10, 0, 0]}, {"scale": [2, 2, 1]}]},
          {"name": "reversed", "transform": [{"scale": [2, 2, 1]}, {"translate": [10, 0, 0]}]},
          {"name": "identity", "transform": []},
          {"type": "replicator", "name": "replicator", "instanceTransform": [{"rotate": [1, 1, 0, 0]}, {"translate": [0, 5, 0]}]}
        ]}}
        """)
        guard let layers = scene?.root.sublayers, layers.count == 6 else { return XCTFail("six layers expected") }
        let matrix = layers[0].transform
        XCTAssertEqual(matrix.rowMajor, [1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, -0.002, 10, 20, 30, 1])
        XCTAssertEqual(matrix.m22, 2)
        XCTAssertEqual(matrix.m34, -0.002)
        XCTAssertEqual(matrix.m41, 10)
        XCTAssertEqual(matrix.m43, 30)
        let expectedOps = CATransform3DConcat(CATransform3DConcat(CATransform3DConcat(
            CATransform3DMakeTranslation(10, 0, 0), CATransform3DMakeScale(2, 3, 1)),
            CATransform3DMakeRotation(0.5, 0, 0, 1)), CATransform3DMakePerspective(400))
        XCTAssertEqual(layers[1].transform, expectedOps)
        // [A, B] is CATransform3DConcat(A, B): A first, then B (row vectors), so the translation is scaled.
        XCTAssertEqual(layers[2].transform.m41, 20)
        XCTAssertEqual(layers[3].transform.m41, 10)
        XCTAssertEqual(layers[2].transform, CATransform3DConcat(CATransform3DMakeTranslation(10, 0, 0), CATransform3DMakeScale(2, 2, 1)))
        XCTAssertTrue(CATransform3DIsIdentity(layers[4].transform))
        XCTAssertEqual((layers[5] as? CAReplicatorLayer)?.instanceTransform,
                       CATransform3DConcat(CATransform3DMakeRotation(1, 1, 0, 0), CATransform3DMakeTranslation(0, 5, 0)))
    }

    func testPathFormats() {
        let scene = loadScene("""
        {"format": 1, "size": [10, 10], "root": {"sublayers": [
          {"type": "shape", "path": "M 0 0 L 10 0 Q 15 5 10 10 C 5 15 0 15 0 10 Z"},
          {"type": "shape", "path": "m 5 5 h 10 v 10 h -10 z"},
          {"type": "shape", "path": {"rect": [1, 2, 30, 40]}},
          {"type": "shape", "path": {"ellipse": [0, 0, 20, 10]}},
          {"type": "shape", "path": {"roundedRect": [0, 0, 40, 20], "radius": 5}},
          {"type": "shape", "path": null}
        ]}}
        """)
        let paths = (scene?.root.sublayers ?? []).map { ($0 as? CAShapeLayer)?.path }
        guard paths.count == 6 else { return XCTFail("six shape layers expected") }
        let svg = CGMutablePath()
        svg.move(to: CGPoint(x: 0, y: 0))
        svg.addLine(to: CGPoint(x: 10, y: 0))
        svg.addQuadCurve(to: CGPoint(x: 10, y: 10), control: CGPoint(x: 15, y: 5))
        svg.addCurve(to: CGPoint(x: 0, y: 10), control1: CGPoint(x: 5, y: 15), control2: CGPoint(x: 0, y: 15))
        svg.closeSubpath()
        XCTAssertEqual(paths[0], svg)
        let relative = CGMutablePath()
        relative.move(to: CGPoint(x: 5, y: 5))
        relative.addLine(to: CGPoint(x: 15, y: 5))
        relative.addLine(to: CGPoint(x: 15, y: 15))
        relative.addLine(to: CGPoint(x: 5, y: 15))
        relative.closeSubpath()
        XCTAssertEqual(paths[1], relative)
        XCTAssertEqual(paths[2], CGPath(rect: CGRect(x: 1, y: 2, width: 30, height: 40), transform: nil))
        XCTAssertEqual(paths[3], CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 10), transform: nil))
        XCTAssertEqual(paths[4], CGPath(roundedRect: CGRect(x: 0, y: 0, width: 40, height: 20), cornerWidth: 5, cornerHeight: 5, transform: nil))
        XCTAssertNil(paths[5] ?? nil)
    }

    // MARK: - Layer types

    func testEveryLayerTypeMatchesSwift() {
        let scene = loadScene("""
        {"format": 1, "size": [320, 240], "root": {"name": "root", "sublayers": [
          {"type": "layer", "name": "plain"},
          {"type": "text", "name": "title", "string": "Hello", "font": "DejaVu Sans", "fontSize": 24,
           "foregroundColor": "#ffffff", "alignmentMode": "center", "isWrapped": true, "truncationMode": "end"},
          {"type": "text", "name": "runs", "string": [{"text": "Bold ", "font": "DejaVu Sans Bold", "fontSize": 54, "color": "#ff0000"},
                                                      {"text": "plain"}]},
          {"type": "shape", "name": "shape", "path": "M 0 0 L 10 10", "fillColor": null, "fillRule": "evenOdd",
           "strokeColor": "#00ff00", "lineWidth": 3, "lineCap": "round", "lineJoin": "bevel", "miterLimit": 4,
           "lineDashPattern": [4, 2], "lineDashPhase": 1, "strokeStart": 0.1, "strokeEnd": 0.9},
          {"type": "gradient", "name": "gradient", "colors": ["#ff0000", [0, 0, 1, 1]], "locations": [0, 1],
           "startPoint": [0, 0], "endPoint": [1, 1], "gradientType": "radial"},
          {"type": "replicator", "name": "replicator", "instanceCount": 5, "instanceTransform": [{"translate": [10, 0, 0]}],
           "instanceDelay": 0.1, "instanceColor": "#ffffff", "instanceRedOffset": -0.1, "instanceGreenOffset": -0.2,
           "instanceBlueOffset": 0.1, "instanceAlphaOffset": -0.25, "sublayers": [{"name": "dot", "bounds": [0, 0, 4, 4]}]},
          {"type": "transform", "name": "transform", "sublayers": [{"name": "face", "zPosition": 10}]},
          {"type": "emitter", "name": "emitter", "emitterPosition": [160, 0], "emitterSize": [320, 1],
           "emitterShape": "line", "emitterMode": "outline", "birthRate": 2, "lifetime": 1.5, "seed": 42,
           "emitterCells": [{"name": "spark", "birthRate": 10, "lifetime": 2, "velocity": 50, "color": "#ffcc00",
                             "scale": 0.5, "emissionRange": 3.14, "alphaSpeed": -0.5}]},
          {"type": "video", "name": "screen", "bounds": [0, 0, 160, 90]}
        ]}}
        """)
        guard let scene else { return }
        let types = PresentationTree.evaluate(scene.root, at: 0).layers.map(\.typeName)
        // The replicator presents its dot five times; the spark cell has no contents, so no particles.
        XCTAssertEqual(types, ["layer", "layer", "text", "text", "shape", "gradient", "replicator",
                               "layer", "layer", "layer", "layer", "layer",
                               "transform", "layer", "emitter", "video"])

        let root = CALayer()
        root.name = "root"
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 240)
        root.position = CGPoint(x: 160, y: 120)
        let plain = CALayer()
        plain.name = "plain"
        let title = CATextLayer()
        title.name = "title"
        title.string = "Hello"
        title.font = "DejaVu Sans"
        title.fontSize = 24
        title.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        title.alignmentMode = .center
        title.isWrapped = true
        title.truncationMode = .end
        let runs = CATextLayer()
        runs.name = "runs"
        runs.string = [TextRun(text: "Bold ", font: "DejaVu Sans Bold", fontSize: 54, color: CGColor(red: 1, green: 0, blue: 0, alpha: 1)),
                       TextRun(text: "plain")]
        let shape = CAShapeLayer()
        shape.name = "shape"
        let line = CGMutablePath()
        line.move(to: .zero)
        line.addLine(to: CGPoint(x: 10, y: 10))
        shape.path = line
        shape.fillColor = nil
        shape.fillRule = .evenOdd
        shape.strokeColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        shape.lineWidth = 3
        shape.lineCap = .round
        shape.lineJoin = .bevel
        shape.miterLimit = 4
        shape.lineDashPattern = [4, 2]
        shape.lineDashPhase = 1
        shape.strokeStart = 0.1
        shape.strokeEnd = 0.9
        let gradient = CAGradientLayer()
        gradient.name = "gradient"
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        gradient.locations = [0, 1]
        gradient.startPoint = .zero
        gradient.endPoint = CGPoint(x: 1, y: 1)
        gradient.type = .radial
        let replicator = CAReplicatorLayer()
        replicator.name = "replicator"
        replicator.instanceCount = 5
        replicator.instanceTransform = CATransform3DMakeTranslation(10, 0, 0)
        replicator.instanceDelay = 0.1
        replicator.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        replicator.instanceRedOffset = -0.1
        replicator.instanceGreenOffset = -0.2
        replicator.instanceBlueOffset = 0.1
        replicator.instanceAlphaOffset = -0.25
        let dot = CALayer()
        dot.name = "dot"
        dot.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        replicator.addSublayer(dot)
        let transformLayer = CATransformLayer()
        transformLayer.name = "transform"
        let face = CALayer()
        face.name = "face"
        face.zPosition = 10
        transformLayer.addSublayer(face)
        let emitter = CAEmitterLayer()
        emitter.name = "emitter"
        emitter.emitterPosition = CGPoint(x: 160, y: 0)
        emitter.emitterSize = CGSize(width: 320, height: 1)
        emitter.emitterShape = .line
        emitter.emitterMode = .outline
        emitter.birthRate = 2
        emitter.lifetime = 1.5
        emitter.seed = 42
        let cell = CAEmitterCell()
        cell.name = "spark"
        cell.birthRate = 10
        cell.lifetime = 2
        cell.velocity = 50
        cell.color = CGColor(red: 1, green: 0xCC / 255.0, blue: 0, alpha: 1)
        cell.scale = 0.5
        cell.emissionRange = 3.14
        cell.alphaSpeed = -0.5
        emitter.emitterCells = [cell]
        let screen = VideoFrameLayer()
        screen.name = "screen"
        screen.bounds = CGRect(x: 0, y: 0, width: 160, height: 90)
        for layer in [plain, title, runs, shape, gradient, replicator, transformLayer, emitter, screen] { root.addSublayer(layer) }
        assertSameTree(scene, root, at: [0, 2])

        // The inspect line shows only the count of emitter cells: compare the cells themselves.
        let loadedEmitter = scene.root.sublayers?.first { $0.name == "emitter" } as? CAEmitterLayer
        XCTAssertEqual(loadedEmitter?.emitterCells?.map(\.properties), [cell.properties])
        XCTAssertEqual(loadedEmitter?.emitterCells?.first?.color, CGColor(red: 1, green: 0.8, blue: 0, alpha: 1))
        let loadedRuns = scene.root.sublayers?.first { $0.name == "runs" } as? CATextLayer
        XCTAssertEqual(loadedRuns?.string as? [TextRun], runs.string as? [TextRun])
        XCTAssertEqual(loadedRuns?.text.string, "Bold plain")
    }

    // MARK: - Assets

    func testAssetsResolveRelativeToTheSceneFile() {
        let scene = loadScene("""
        {"format": 1, "size": [64, 64],
         "assets": {"logo": "images/logo.png", "photo": "photo.jpg"},
         "root": {"contents": "logo", "contentsGravity": "resizeAspect",
                  "sublayers": [{"name": "photo", "contents": "photo"}]}}
        """, files: ["images/logo.png": SceneTestSupport.pngHeader(width: 40, height: 30),
                     "photo.jpg": SceneTestSupport.jpegHeader(width: 640, height: 480)])
        guard let scene, let fileURL = scene.fileURL else { return }
        let folder = fileURL.deletingLastPathComponent()
        XCTAssertEqual(Set(scene.assets.keys), ["logo", "photo"])
        guard let logo = scene.assets["logo"]?.image, let photo = scene.assets["photo"]?.image else { return XCTFail("images expected") }
        XCTAssertEqual(scene.assets["logo"]?.kind, .image)
        XCTAssertEqual(scene.assets["logo"]?.url.standardizedFileURL.path,
                       folder.appendingPathComponent("images/logo.png").standardizedFileURL.path)
        XCTAssertEqual([logo.width, logo.height], [40, 30])
        XCTAssertEqual([photo.width, photo.height], [640, 480])
        XCTAssertTrue((scene.root.contents as? CGImage) === logo, "contents is the asset's image")
        XCTAssertTrue((scene.root.sublayers?.first?.contents as? CGImage) === photo)
        XCTAssertEqual(scene.assetName(of: logo), "logo")

        // Printed by `lamina inspect` as the asset's name.
        let line = PresentationJSON(imageName: scene.assetNamer()).line(for: PresentationTree.evaluate(scene.root, at: 0))
        let layers = SceneTestSupport.layers(ofLine: line)
        XCTAssertEqual(layers?.first?["contents"] as? String, "logo")
        XCTAssertEqual(layers?.last?["contents"] as? String, "photo")

        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.position = CGPoint(x: 32, y: 32)
        root.contents = CGImage(width: 40, height: 30, source: logo.source)
        root.contentsGravity = .resizeAspect
        let child = CALayer()
        child.name = "photo"
        child.contents = CGImage(width: 640, height: 480, source: photo.source)
        root.addSublayer(child)
        assertSameTree(scene, root, at: [0])
    }

    func testContentsAnimationBetweenAssets() {
        let png = SceneTestSupport.pngHeader(width: 8, height: 8)
        let scene = loadScene("""
        {"format": 1, "size": [8, 8], "assets": {"a": "a.png", "b": "b.png"},
         "root": {"contents": "a", "animations": [
           {"type": "basic", "keyPath": "contents", "fromValue": "a", "toValue": "b", "duration": 2, "timingFunction": "linear"}]}}
        """, files: ["a.png": png, "b.png": png])
        guard let scene, let a = scene.assets["a"]?.image, let b = scene.assets["b"]?.image else { return }
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        root.position = CGPoint(x: 4, y: 4)
        let a2 = CGImage(width: 8, height: 8, source: a.source), b2 = CGImage(width: 8, height: 8, source: b.source)
        root.contents = a2
        let fade = CABasicAnimation(keyPath: "contents")
        fade.fromValue = a2
        fade.toValue = b2
        fade.duration = 2
        fade.timingFunction = CAMediaTimingFunction(name: .linear)
        root.add(fade, forKey: nil, atMediaTime: 0)
        assertSameTree(scene, root, at: [0, 0.5, 1, 2.5])
        let layers = SceneTestSupport.layers(ofLine: PresentationJSON(imageName: scene.assetNamer()).line(for: PresentationTree.evaluate(scene.root, at: 1)))
        let fadeField = layers?.first?["contentsFade"] as? [String: Any]
        XCTAssertEqual(fadeField?["to"] as? String, "b")
        XCTAssertEqual(fadeField?["fraction"] as? Double ?? -1, 0.5, accuracy: 1e-9)
    }

    // MARK: - Animations

    /// A 100×100 root with one sublayer `box` (bounds 20×20 at 10, 10), as the animation scenes use.
    private func boxScene(_ box: String, type: String = "layer", extra: String = "") -> String {
        """
        {"format": 1, "size": [100, 100], "root": {"sublayers": [
          {"type": "\(type)", "name": "box", "bounds": [0, 0, 20, 20], "position": [10, 10]\(extra), \(box)}
        ]}}
        """
    }

    private func boxTree() -> (root: CALayer, box: CALayer) { boxTree(CALayer.self) }

    private func boxTree<Layer: CALayer>(_ type: Layer.Type) -> (root: CALayer, box: Layer) {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        let box = Layer.layer()
        box.name = "box"
        box.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        box.position = CGPoint(x: 10, y: 10)
        root.addSublayer(box)
        return (root, box)
    }

    private func box(_ scene: Scene?) -> CALayer? { scene?.root.sublayers?.first }

    func testBeginTimeZeroStartsAtTheFirstFrame() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"key": "now", "type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 2,
           "beginTime": 0, "timingFunction": "linear"},
          {"key": "later", "type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 100, "duration": 1,
           "beginTime": 1, "timingFunction": "linear"}]
        """))
        guard let scene, let box = box(scene) else { return }
        XCTAssertEqual(box.animationKeys(), ["now", "later"])
        XCTAssertEqual(box.animation(forKey: "now")?.beginTime, 0)
        XCTAssertEqual(box.animation(forKey: "later")?.beginTime, 1)
        func presented(_ t: Double) -> LayerProperties? {
            PresentationTree.evaluate(scene.root, at: t).layer(atPath: "#0/box")?.properties
        }
        XCTAssertEqual(presented(0)?.opacity, 1)
        XCTAssertEqual(Double(presented(0.5)?.opacity ?? -1), 0.75, accuracy: 1e-6)
        XCTAssertEqual(Double(presented(1)?.opacity ?? -1), 0.5, accuracy: 1e-6)
        XCTAssertEqual(presented(2.5)?.opacity, 1, "removed after it ends: the model value")
        XCTAssertEqual(presented(0.5)?.position.x, 10, "the delayed animation has not started")
        XCTAssertEqual(presented(1.5)?.position.x ?? -1, 50, accuracy: 1e-9)

        let (root, expected) = boxTree()
        let now = CABasicAnimation(keyPath: "opacity")
        now.fromValue = CGFloat(1); now.toValue = CGFloat(0); now.duration = 2
        now.timingFunction = CAMediaTimingFunction(name: .linear)
        let later = CABasicAnimation(keyPath: "position.x")
        later.fromValue = CGFloat(0); later.toValue = CGFloat(100); later.duration = 1; later.beginTime = 1
        later.timingFunction = CAMediaTimingFunction(name: .linear)
        expected.add(now, forKey: "now", atMediaTime: 0)
        expected.add(later, forKey: "later", atMediaTime: 0)
        assertSameTree(scene, root, at: [0, 0.5, 1, 1.5, 2.5])
    }

    func testBasicAnimationWithEveryTimingKey() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"key": "fade", "type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0.2,
           "beginTime": 0.5, "duration": 2, "speed": 2, "timeOffset": 0.25, "repeatCount": 1.5, "autoreverses": true,
           "fillMode": "both", "removedOnCompletion": false, "timingFunction": "easeIn"},
          {"type": "basic", "keyPath": "position.x", "byValue": 30, "duration": 1, "repeatDuration": 2.5,
           "cumulative": true, "additive": false, "timingFunction": [0.25, 0.1, 0.25, 1]},
          {"type": "basic", "keyPath": "position.y", "toValue": 5, "additive": true, "duration": 1,
           "fillMode": "forwards", "removedOnCompletion": false, "timingFunction": "easeInEaseOut"}]
        """))
        guard let scene, let box = box(scene) else { return }
        let fade = box.animation(forKey: "fade") as? CABasicAnimation
        XCTAssertEqual(fade?.repeatCount, 1.5)
        XCTAssertEqual(fade?.speed, 2)
        XCTAssertEqual(fade?.timeOffset, 0.25)
        XCTAssertEqual(fade?.autoreverses, true)
        XCTAssertEqual(fade?.fillMode, .both)
        XCTAssertEqual(fade?.isRemovedOnCompletion, false)
        XCTAssertEqual(fade?.timingFunction, CAMediaTimingFunction(name: .easeIn))
        XCTAssertEqual(box.attachedAnimationCount, 3)

        let (root, expected) = boxTree()
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = CGFloat(1); a.toValue = CGFloat(0.2)
        a.beginTime = 0.5; a.duration = 2; a.speed = 2; a.timeOffset = 0.25; a.repeatCount = 1.5; a.autoreverses = true
        a.fillMode = .both; a.isRemovedOnCompletion = false; a.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let b = CABasicAnimation(keyPath: "position.x")
        b.byValue = CGFloat(30); b.duration = 1; b.repeatDuration = 2.5; b.isCumulative = true
        b.timingFunction = CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)
        let c = CABasicAnimation(keyPath: "position.y")
        c.toValue = CGFloat(5); c.isAdditive = true; c.duration = 1; c.fillMode = .forwards; c.isRemovedOnCompletion = false
        c.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        expected.add(a, forKey: "fade", atMediaTime: 0)
        expected.add(b, forKey: nil, atMediaTime: 0)
        expected.add(c, forKey: nil, atMediaTime: 0)
        assertSameTree(scene, root, at: [0, 0.25, 0.6, 1, 1.3, 1.7, 2.4, 3, 5])
    }

    func testRepeatCountInfinity() {
        let scene = loadScene(boxScene("""
        "animations": [{"key": "spin", "type": "basic", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.283185307179586,
                        "duration": 1, "repeatCount": "infinity", "timingFunction": "linear"},
                       {"key": "pulse", "type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 0.5,
                        "autoreverses": true, "repeatDuration": "infinity"}]
        """))
        guard let scene, let box = box(scene) else { return }
        XCTAssertEqual(box.animation(forKey: "spin")?.repeatCount, .infinity)
        XCTAssertEqual(box.animation(forKey: "pulse")?.repeatDuration, .infinity)
        let early = PresentationTree.evaluate(scene.root, at: 0.25).layer(atPath: "#0/box")?.properties.transform
        let late = PresentationTree.evaluate(scene.root, at: 1000.25).layer(atPath: "#0/box")?.properties.transform
        XCTAssertEqual(early?.m12 ?? 0, 1, accuracy: 1e-9, "a quarter turn at 0.25 s")
        XCTAssertEqual(late?.m12 ?? 0, 1, accuracy: 1e-6, "still repeating after 1000 s")

        let (root, expected) = boxTree()
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = CGFloat(0); spin.toValue = CGFloat(2 * Double.pi); spin.duration = 1; spin.repeatCount = .infinity
        spin.timingFunction = CAMediaTimingFunction(name: .linear)
        expected.add(spin, forKey: "spin", atMediaTime: 0)
        let pulse = CABasicAnimation(keyPath: "opacity")
        pulse.fromValue = CGFloat(1); pulse.toValue = CGFloat(0); pulse.duration = 0.5; pulse.autoreverses = true
        pulse.repeatDuration = .infinity
        expected.add(pulse, forKey: "pulse", atMediaTime: 0)
        assertSameTree(scene, root, at: [0, 0.25, 0.8, 7.5, 1000.25])
    }

    func testSubKeyPathsAndValueKinds() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 50, "duration": 1},
          {"type": "basic", "keyPath": "bounds.size", "fromValue": [10, 10], "toValue": [50, 30], "duration": 1},
          {"type": "basic", "keyPath": "shadowOffset.height", "toValue": 5, "duration": 1},
          {"type": "basic", "keyPath": "backgroundColor", "fromValue": "#ff0000", "toValue": [0, 0, 1, 0.5], "duration": 1},
          {"type": "basic", "keyPath": "borderColor", "fromValue": null, "toValue": "#00ff00", "duration": 1},
          {"type": "basic", "keyPath": "sublayerTransform", "toValue": [{"scale": [2, 2, 1]}, {"translate": [5, 0, 0]}], "duration": 1},
          {"type": "basic", "keyPath": "hidden", "fromValue": true, "toValue": false, "duration": 1},
          {"type": "basic", "keyPath": "contentsRect", "toValue": [0, 0, 0.5, 0.5], "duration": 1}]
        """))
        guard let scene else { return }
        let (root, expected) = boxTree()
        func basic(_ keyPath: String, from: Any? = nil, to: Any?) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: keyPath)
            a.fromValue = from; a.toValue = to; a.duration = 1
            return a
        }
        let animations: [CABasicAnimation] = [
            basic("position.x", from: CGFloat(0), to: CGFloat(50)),
            basic("bounds.size", from: CGSize(width: 10, height: 10), to: CGSize(width: 50, height: 30)),
            basic("shadowOffset.height", to: CGFloat(5)),
            basic("backgroundColor", from: CGColor(red: 1, green: 0, blue: 0, alpha: 1), to: CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)),
            basic("borderColor", from: nil, to: CGColor(red: 0, green: 1, blue: 0, alpha: 1)),
            basic("sublayerTransform", to: CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), CATransform3DMakeTranslation(5, 0, 0))),
            basic("hidden", from: true, to: false),
            basic("contentsRect", to: CGRect(x: 0, y: 0, width: 0.5, height: 0.5)),
        ]
        for a in animations { expected.add(a, forKey: nil, atMediaTime: 0) }
        assertSameTree(scene, root, at: [0, 0.1, 0.5, 0.9, 1.5])
        let middle = PresentationTree.evaluate(scene.root, at: 0.5).layer(atPath: "#0/box")?.properties
        XCTAssertNotEqual(middle?.bounds.size, CGSize(width: 20, height: 20), "bounds.size animates")
    }

    func testShapeAndGradientAnimations() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"type": "basic", "keyPath": "path", "fromValue": "M 0 0 L 10 0", "toValue": "M 0 0 L 20 10", "duration": 1},
          {"type": "basic", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 2},
          {"type": "basic", "keyPath": "lineDashPattern", "fromValue": [2, 2], "toValue": [6, 2], "duration": 1},
          {"type": "basic", "keyPath": "fillColor", "toValue": "#ff000080", "duration": 1}]
        """, type: "shape", extra: ", \"path\": \"M 0 0 L 10 0\""))
        let (root, expected) = boxTree(CAShapeLayer.self)
        let start = CGMutablePath(); start.move(to: .zero); start.addLine(to: CGPoint(x: 10, y: 0))
        let end = CGMutablePath(); end.move(to: .zero); end.addLine(to: CGPoint(x: 20, y: 10))
        expected.path = start
        let path = CABasicAnimation(keyPath: "path"); path.fromValue = start; path.toValue = end; path.duration = 1
        let stroke = CABasicAnimation(keyPath: "strokeEnd"); stroke.fromValue = CGFloat(0); stroke.toValue = CGFloat(1); stroke.duration = 2
        let dash = CABasicAnimation(keyPath: "lineDashPattern")
        dash.fromValue = [CGFloat(2), CGFloat(2)]; dash.toValue = [CGFloat(6), CGFloat(2)]; dash.duration = 1
        let fill = CABasicAnimation(keyPath: "fillColor"); fill.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 128 / 255.0); fill.duration = 1
        for a in [path, stroke, dash, fill] { expected.add(a, forKey: nil, atMediaTime: 0) }
        assertSameTree(scene, root, at: [0, 0.5, 1.5, 3])

        let gradientScene = loadScene(boxScene("""
        "animations": [
          {"type": "basic", "keyPath": "colors", "fromValue": ["#ff0000", "#0000ff"], "toValue": ["#00ff00", [1, 1, 1, 1]], "duration": 1},
          {"type": "basic", "keyPath": "locations", "toValue": [0.25, 0.75], "duration": 1},
          {"type": "basic", "keyPath": "endPoint", "toValue": [1, 0], "duration": 1}]
        """, type: "gradient", extra: ", \"colors\": [\"#ff0000\", \"#0000ff\"], \"locations\": [0, 1]"))
        let (gradientRoot, gradient) = boxTree(CAGradientLayer.self)
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        gradient.colors = [red, blue]
        gradient.locations = [0, 1]
        let colors = CABasicAnimation(keyPath: "colors")
        colors.fromValue = [red, blue]; colors.toValue = [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 1)]
        colors.duration = 1
        let locations = CABasicAnimation(keyPath: "locations"); locations.toValue = [CGFloat(0.25), CGFloat(0.75)]; locations.duration = 1
        let endPoint = CABasicAnimation(keyPath: "endPoint"); endPoint.toValue = CGPoint(x: 1, y: 0); endPoint.duration = 1
        for a in [colors, locations, endPoint] { gradient.add(a, forKey: nil, atMediaTime: 0) }
        assertSameTree(gradientScene, gradientRoot, at: [0, 0.5, 2])
    }

    func testValueFunctions() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"type": "basic", "keyPath": "transform", "valueFunction": "rotateZ", "fromValue": 0, "toValue": 3.141592653589793, "duration": 1},
          {"type": "basic", "keyPath": "sublayerTransform", "valueFunction": "translate", "fromValue": [0, 0, 0], "toValue": [10, 20, 0], "duration": 2}]
        """))
        guard let scene, let box = box(scene) else { return }
        XCTAssertEqual(box.attachedAnimationCount, 2)
        let (root, expected) = boxTree()
        let rotate = CABasicAnimation(keyPath: "transform")
        rotate.valueFunction = CAValueFunction(name: .rotateZ)
        rotate.fromValue = CGFloat(0); rotate.toValue = CGFloat(Double.pi); rotate.duration = 1
        let translate = CABasicAnimation(keyPath: "sublayerTransform")
        translate.valueFunction = CAValueFunction(name: .translate)
        translate.fromValue = [CGFloat(0), CGFloat(0), CGFloat(0)]; translate.toValue = [CGFloat(10), CGFloat(20), CGFloat(0)]
        translate.duration = 2
        expected.add(rotate, forKey: nil, atMediaTime: 0)
        expected.add(translate, forKey: nil, atMediaTime: 0)
        assertSameTree(scene, root, at: [0, 0.5, 1, 1.5, 3])
    }

    func testKeyframeAnimations() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0.5], "keyTimes": [0, 0.25, 1],
           "timingFunctions": ["easeIn", [0.5, 0, 0.5, 1]], "calculationMode": "linear", "duration": 2},
          {"type": "keyframe", "keyPath": "position", "path": "M 0 0 L 100 0 L 100 100", "rotationMode": "auto",
           "calculationMode": "paced", "duration": 2},
          {"type": "keyframe", "keyPath": "anchorPoint", "values": [[0, 0], [0.5, 1], [1, 0]], "calculationMode": "cubic",
           "tensionValues": [0, 0.5, 0], "continuityValues": [0, -0.5, 0], "biasValues": [0, 0.25, 0], "duration": 1},
          {"type": "keyframe", "keyPath": "backgroundColor", "values": ["#ff0000", "#00ff00", [0, 0, 1, 1]],
           "calculationMode": "discrete", "duration": 3}]
        """))
        guard let scene, let box = box(scene) else { return }
        XCTAssertEqual(box.attachedAnimationCount, 4)
        let (root, expected) = boxTree()
        let opacity = CAKeyframeAnimation(keyPath: "opacity")
        opacity.values = [CGFloat(0), CGFloat(1), CGFloat(0.5)]
        opacity.keyTimes = [0, 0.25, 1]
        opacity.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(controlPoints: 0.5, 0, 0.5, 1)]
        opacity.calculationMode = .linear
        opacity.duration = 2
        let position = CAKeyframeAnimation(keyPath: "position")
        let route = CGMutablePath()
        route.move(to: .zero); route.addLine(to: CGPoint(x: 100, y: 0)); route.addLine(to: CGPoint(x: 100, y: 100))
        position.path = route
        position.rotationMode = .rotateAuto
        position.calculationMode = .paced
        position.duration = 2
        let anchor = CAKeyframeAnimation(keyPath: "anchorPoint")
        anchor.values = [CGPoint(x: 0, y: 0), CGPoint(x: 0.5, y: 1), CGPoint(x: 1, y: 0)]
        anchor.calculationMode = .cubic
        anchor.tensionValues = [0, 0.5, 0]; anchor.continuityValues = [0, -0.5, 0]; anchor.biasValues = [0, 0.25, 0]
        anchor.duration = 1
        let color = CAKeyframeAnimation(keyPath: "backgroundColor")
        color.values = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                        CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        color.calculationMode = .discrete
        color.duration = 3
        for a in [opacity, position, anchor, color] { expected.add(a, forKey: nil, atMediaTime: 0) }
        assertSameTree(scene, root, at: [0, 0.3, 0.5, 0.75, 1.2, 1.9, 2.5, 4])
    }

    func testSpringWithoutDurationLastsItsSettlingDuration() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"key": "bounce", "type": "spring", "keyPath": "position.y", "fromValue": 0, "toValue": 100,
           "mass": 2, "stiffness": 200, "damping": 12, "initialVelocity": 0.5},
          {"key": "timed", "type": "spring", "keyPath": "position.x", "fromValue": 0, "toValue": 50, "duration": 0.5}]
        """))
        guard let scene, let box = box(scene) else { return }
        let (root, expected) = boxTree()
        let spring = CASpringAnimation(keyPath: "position.y")
        spring.fromValue = CGFloat(0); spring.toValue = CGFloat(100)
        spring.mass = 2; spring.stiffness = 200; spring.damping = 12; spring.initialVelocity = 0.5
        spring.duration = spring.settlingDuration
        let timed = CASpringAnimation(keyPath: "position.x")
        timed.fromValue = CGFloat(0); timed.toValue = CGFloat(50); timed.duration = 0.5
        XCTAssertGreaterThan(spring.settlingDuration, 1)
        let loaded = box.animation(forKey: "bounce") as? CASpringAnimation
        XCTAssertEqual(loaded?.duration, spring.settlingDuration)
        XCTAssertEqual(loaded?.mass, 2)
        XCTAssertEqual(loaded?.stiffness, 200)
        XCTAssertEqual(loaded?.damping, 12)
        XCTAssertEqual(loaded?.initialVelocity, 0.5)
        XCTAssertEqual(box.animation(forKey: "timed")?.duration, 0.5, "a spring with a duration keeps it")
        expected.add(spring, forKey: "bounce", atMediaTime: 0)
        expected.add(timed, forKey: "timed", atMediaTime: 0)
        let settle = spring.settlingDuration
        assertSameTree(scene, root, at: [0, 0.1, 0.3, 0.6, settle / 2, settle - 0.01, settle + 0.1])
        // Still moving just before it settles, back at the model value after.
        let before = PresentationTree.evaluate(scene.root, at: 0.3).layer(atPath: "#0/box")?.properties.position.y
        let after = PresentationTree.evaluate(scene.root, at: settle + 0.1).layer(atPath: "#0/box")?.properties.position.y
        XCTAssertNotEqual(before, 10)
        XCTAssertEqual(after, 10)
    }

    func testAnimationGroups() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"key": "group", "type": "group", "duration": 2, "beginTime": 0.5, "fillMode": "forwards", "removedOnCompletion": false,
           "timingFunction": "linear", "animations": [
             {"type": "basic", "keyPath": "position.x", "fromValue": 0, "toValue": 100, "duration": 1, "timingFunction": "linear"},
             {"type": "keyframe", "keyPath": "opacity", "values": [1, 0], "duration": 3, "beginTime": 0.5},
             {"type": "group", "duration": 2, "animations": [{"type": "basic", "keyPath": "cornerRadius", "toValue": 10, "duration": 2}]}]}]
        """))
        guard let scene, let box = box(scene) else { return }
        let group = box.animation(forKey: "group") as? CAAnimationGroup
        XCTAssertEqual(group?.animations?.count, 3)
        XCTAssertTrue(group?.animations?.last is CAAnimationGroup)
        let (root, expected) = boxTree()
        let x = CABasicAnimation(keyPath: "position.x")
        x.fromValue = CGFloat(0); x.toValue = CGFloat(100); x.duration = 1; x.timingFunction = CAMediaTimingFunction(name: .linear)
        let fade = CAKeyframeAnimation(keyPath: "opacity")
        fade.values = [CGFloat(1), CGFloat(0)]; fade.duration = 3; fade.beginTime = 0.5
        let corner = CABasicAnimation(keyPath: "cornerRadius"); corner.toValue = CGFloat(10); corner.duration = 2
        let inner = CAAnimationGroup(); inner.duration = 2; inner.animations = [corner]
        let outer = CAAnimationGroup()
        outer.duration = 2; outer.beginTime = 0.5; outer.fillMode = .forwards; outer.isRemovedOnCompletion = false
        outer.timingFunction = CAMediaTimingFunction(name: .linear)
        outer.animations = [x, fade, inner]
        expected.add(outer, forKey: "group", atMediaTime: 0)
        assertSameTree(scene, root, at: [0, 0.5, 0.75, 1.25, 1.75, 2.4, 3])
    }

    func testTransitions() {
        let scene = loadScene(boxScene("""
        "animations": [{"key": "swap", "type": "transition", "transitionType": "push", "subtype": "fromLeft",
                        "startProgress": 0.2, "endProgress": 0.8, "duration": 1, "timingFunction": "linear"}]
        """))
        guard let scene, let box = box(scene) else { return }
        let loaded = box.animation(forKey: "swap") as? CATransition
        XCTAssertEqual(loaded?.type, .push)
        XCTAssertEqual(loaded?.subtype, .fromLeft)
        XCTAssertEqual(loaded?.startProgress, 0.2)
        XCTAssertEqual(loaded?.endProgress, 0.8)
        let (root, expected) = boxTree()
        let transition = CATransition()
        transition.type = .push; transition.subtype = .fromLeft
        transition.startProgress = 0.2; transition.endProgress = 0.8; transition.duration = 1
        transition.timingFunction = CAMediaTimingFunction(name: .linear)
        expected.add(transition, forKey: "swap", atMediaTime: 0)
        assertSameTree(scene, root, at: [0, 0.5, 1.5])
        let layers = SceneTestSupport.layers(ofLine: SceneTestSupport.line(scene.root, at: 0.5))
        let field = layers?.last?["transition"] as? [String: Any]
        XCTAssertEqual(field?["type"] as? String, "push")
        XCTAssertEqual(field?["progress"] as? Double ?? -1, 0.5, accuracy: 1e-6)
    }

    func testActionsWithNullAreNSNull() {
        let scene = loadScene(boxScene("""
        "actions": {"opacity": null,
                    "position": {"type": "basic", "keyPath": "position", "duration": 0.5, "timingFunction": "easeOut"},
                    "onOrderIn": {"type": "transition", "transitionType": "fade", "duration": 0.3}}
        """))
        guard let box = box(scene), let actions = box.actions else { return XCTFail("actions expected") }
        XCTAssertEqual(Set(actions.keys), ["opacity", "position", "onOrderIn"])
        XCTAssertTrue(actions["opacity"] is NSNull, "null is NSNull, which stops the action search")
        let position = actions["position"] as? CABasicAnimation
        XCTAssertEqual(position?.keyPath, "position")
        XCTAssertEqual(position?.duration, 0.5)
        XCTAssertEqual(position?.timingFunction, CAMediaTimingFunction(name: .easeOut))
        XCTAssertEqual((actions["onOrderIn"] as? CATransition)?.type, .fade)
        XCTAssertEqual(box.attachedAnimationCount, 0, "actions are not added as animations")
    }

    func testAnimationsWithAndWithoutKeysAreAddedInListOrder() {
        let scene = loadScene(boxScene("""
        "animations": [
          {"key": "a", "type": "basic", "keyPath": "opacity", "toValue": 0.5, "duration": 1},
          {"type": "basic", "keyPath": "opacity", "toValue": 0.25, "duration": 1},
          {"key": "b", "type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1}]
        """))
        guard let scene, let box = box(scene) else { return }
        XCTAssertEqual(box.animationKeys(), ["a", "b"])
        XCTAssertEqual(box.attachedAnimationCount, 3)
        // All three apply in order; the last one added (to 0) is the value shown.
        let (root, expected) = boxTree()
        for (key, to) in [("a", 0.5), (nil, 0.25), ("b", 0.0)] as [(String?, Double)] {
            let a = CABasicAnimation(keyPath: "opacity"); a.toValue = CGFloat(to); a.duration = 1
            expected.add(a, forKey: key, atMediaTime: 0)
        }
        assertSameTree(scene, root, at: [0, 0.5, 0.99, 2])
    }

    func testAnimationsOnLayersWithTheirOwnTiming() {
        // Animations go on after the whole tree exists, so "now" is converted through every ancestor.
        let scene = loadScene("""
        {"format": 1, "size": [100, 100], "root": {"sublayers": [
          {"name": "slow", "speed": 0.5, "timeOffset": 1, "sublayers": [
            {"name": "inner", "beginTime": 0.5, "animations": [
              {"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 2}]}]}]}}
        """)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        let slow = CALayer(); slow.name = "slow"; slow.speed = 0.5; slow.timeOffset = 1
        let inner = CALayer(); inner.name = "inner"; inner.beginTime = 0.5
        root.addSublayer(slow)
        slow.addSublayer(inner)
        let fade = CABasicAnimation(keyPath: "opacity"); fade.fromValue = CGFloat(1); fade.toValue = CGFloat(0); fade.duration = 2
        inner.add(fade, forKey: nil, atMediaTime: 0)
        assertSameTree(scene, root, at: [0, 1, 2, 4, 6])
    }
}
