import XCTest
import Foundation
@testable import LottieImport
import Layers
import Geometry

/// How shape items become layers, as lottie-ios's Core Animation engine groups them: runs of
/// paths and their paints, repeaters, items handed to child groups, skews, text placement.
/// Expected values are worked out by hand from the JSON in each test.
final class LottieShapeRunTests: XCTestCase {
    private func load(_ shapes: String, extraLayerKeys: String = "") throws -> CALayer {
        let json = """
        {"fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [{"ty": 4, "ind": 1, "nm": "l", "ip": 0, "op": 10, "st": 0,
          "ks": {}, \(extraLayerKeys) "shapes": \(shapes)}]}
        """
        return try LottieImporter.load(bytes: Array(json.utf8), fileName: "runs.json", baseDirectory: nil).root
    }

    private func shapeLayers(_ root: CALayer) -> [CAShapeLayer] {
        var shapes: [CAShapeLayer] = []
        root.forEachLayerInTree { if let s = $0 as? CAShapeLayer { shapes.append(s) } }
        return shapes
    }

    private static let rect = #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [20, 10]}, "r": {"a": 0, "k": 0}}"#
    private static func fill(_ rgb: String, _ opacity: Double = 100) -> String {
        #"{"ty": "fl", "c": {"a": 0, "k": [\#(rgb), 1]}, "o": {"a": 0, "k": \#(opacity)}}"#
    }
    private static func stroke(_ width: Double, _ opacity: Double = 100) -> String {
        #"{"ty": "st", "c": {"a": 0, "k": [0, 0, 1, 1]}, "o": {"a": 0, "k": \#(opacity)}, "w": {"a": 0, "k": \#(width)}}"#
    }

    func testAStrokeAboveTheOnlyFillSharesItsShapeLayer() throws {
        // [rect, stroke, fill]: the stroke is listed first, so it is on top, as a CAShapeLayer
        // draws it: one layer with both.
        let shapes = shapeLayers(try load("[\(Self.rect), \(Self.stroke(3)), \(Self.fill("1, 0, 0"))]"))
        XCTAssertEqual(shapes.count, 1)
        XCTAssertEqual(shapes[0].fillColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        XCTAssertEqual(shapes[0].strokeColor, CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        XCTAssertEqual(shapes[0].lineWidth, 3)
    }

    func testAFillAboveTheStrokeSplitsThemInListOrder() throws {
        // [rect, fill, stroke]: the fill is on top, so each gets a layer; back to front the
        // stroke, then the fill.
        let shapes = shapeLayers(try load("[\(Self.rect), \(Self.fill("1, 0, 0")), \(Self.stroke(3))]"))
        XCTAssertEqual(shapes.count, 2)
        XCTAssertNil(shapes[0].fillColor)
        XCTAssertEqual(shapes[0].lineWidth, 3)
        XCTAssertNil(shapes[1].strokeColor)
        XCTAssertEqual(shapes[1].fillColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    }

    func testAFillWithoutPathsPaintsThePreviousRunAndTheStrokeIsDrawnPerRun() throws {
        // [rect, red, green, stroke 50 %]: run 1 = rect + red, run 2 = (no path, borrows the
        // rect) + green; the stroke applies to both runs and, below each fill, splits each:
        // back to front stroke, green, stroke, red.
        let shapes = shapeLayers(try load("[\(Self.rect), \(Self.fill("1, 0, 0")), \(Self.fill("0, 1, 0")), \(Self.stroke(4, 50))]"))
        XCTAssertEqual(shapes.count, 4)
        XCTAssertEqual(shapes.map { $0.fillColor?.components ?? [] }, [[], [0, 1, 0, 1], [], [1, 0, 0, 1]])
        XCTAssertEqual(shapes.map(\.lineWidth), [4, 1, 4, 1])
        XCTAssertEqual(shapes[0].opacity, 0.5, accuracy: 1e-6)
        XCTAssertEqual(shapes[2].opacity, 0.5, accuracy: 1e-6)
        for shape in shapes { XCTAssertEqual(shape.path?.boundingBox, CGRect(x: 40, y: 45, width: 20, height: 10)) }
    }

    func testRenderGroupsDropRunsWithoutPathsAndReportUnusedItems() {
        func item(_ kind: LottieShapeItem.Kind) -> LottieShapeItem { LottieShapeItem(kind: kind, name: "", hidden: false, reversed: false) }
        let fill = item(.fill(color: .constant([1, 0, 0, 1]), opacity: .constant([100]), evenOdd: false))
        let rect = item(.rectangle(position: .constant([0, 0]), size: .constant([1, 1]), roundness: .constant([0])))
        // A fill before any path, with child groups to take it: no run holds it, and the rect's
        // run, with no paint at all, is dropped too; both go to the child groups.
        var runs = ShapeBuilder.renderGroups([fill, rect], childGroupsInherit: true)
        XCTAssertEqual(runs.unused, [0, 1])
        XCTAssertEqual(runs.valid.count, 0)
        // Without child groups a later fill borrows the first run's path.
        runs = ShapeBuilder.renderGroups([rect, fill, fill], childGroupsInherit: false)
        XCTAssertEqual(runs.valid.map(\.paths), [[0], [0]])
        XCTAssertEqual(runs.valid.map(\.others), [[1], [2]])
        XCTAssertEqual(runs.unused, [])
    }

    func testAPathAfterATrimStartsANewRun() throws {
        let trim = #"{"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 0}}"#
        let ellipse = #"{"ty": "el", "p": {"a": 0, "k": [20, 20]}, "s": {"a": 0, "k": [10, 10]}}"#
        // [ellipse, trim, rect, stroke]: the trim cuts the ellipse only.
        let shapes = shapeLayers(try load("[\(ellipse), \(trim), \(Self.rect), \(Self.stroke(2))]"))
        XCTAssertEqual(shapes.count, 2)
        let rect = try XCTUnwrap(shapes.first { $0.path?.boundingBox == CGRect(x: 40, y: 45, width: 20, height: 10) })
        let circle = try XCTUnwrap(shapes.first { $0 !== rect })
        XCTAssertEqual(circle.strokeEnd, 0.5, accuracy: 1e-12)
        XCTAssertEqual(rect.strokeEnd, 1)
    }

    func testAStrokeHandedToAChildGroupKeepsItsWidth() throws {
        // The outer group's stroke (6) reaches the inner group, scaled 300 %: 6 · 100 / 300 = 2,
        // which the inner group's scale draws 6 wide again.
        let json = """
        [{"ty": "gr", "it": [
          {"ty": "gr", "it": [\(Self.rect), {"ty": "tr", "s": {"a": 0, "k": [300, 300]}}]},
          \(Self.stroke(6)), {"ty": "tr"}]}]
        """
        let shapes = shapeLayers(try load(json))
        XCTAssertEqual(shapes.count, 1)
        XCTAssertEqual(shapes[0].lineWidth, 2, accuracy: 1e-12)
    }

    func testARepeaterInsideAGroupRepeatsTheItemsBeforeIt() throws {
        // Inside the group: [rect, fill, repeater ×3 by (10, 0)]. The copies are offset 0, 10 and
        // 20; the group itself draws its rect too, as lottie-ios's group layers do.
        let repeater = #"{"ty": "rp", "c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 0}, "tr": {"p": {"a": 0, "k": [10, 0]}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#
        let root = try load(#"[{"ty": "gr", "it": [\#(Self.rect), \#(Self.fill("1, 0, 0")), \#(repeater), {"ty": "tr"}]}]"#)
        var copies: [CALayer] = []
        root.forEachLayerInTree { if let name = $0.name, name.hasPrefix("repeater ") { copies.append($0) } }
        XCTAssertEqual(copies.map(\.name), ["repeater 0", "repeater 1", "repeater 2"])
        XCTAssertEqual(copies.map(\.position.x), [0, 10, 20])
        XCTAssertEqual(shapeLayers(root).count, 4)
    }

    func testAnAnimatedSkewAxisIsComputedPerFrame() throws {
        // Skew 30° whose axis turns 0 → 180° over frames 0 … 10, linearly. The matrices at both
        // ends are the same shear, so only per-frame values animate it. At frame 5 the axis is
        // 90°: rotate(90°) · shear(tan −30°) · rotate(−90°) has m12 = tan 30°, m21 = 0.
        let json = """
        [{"ty": "gr", "nm": "skewed", "it": [\(Self.rect), \(Self.fill("1, 0, 0")),
          {"ty": "tr", "sk": {"a": 0, "k": 30},
           "sa": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 10, "s": [180]}]}}]}]
        """
        let root = try load(json)
        var group: CALayer?
        root.forEachLayerInTree { if $0.name == "skewed" { group = $0 } }
        let skewed = try XCTUnwrap(group)
        let start = skewed.presentationProperties(atLocalTime: 0).transform
        XCTAssertEqual(start.m21, -tan(30 * Double.pi / 180), accuracy: 1e-9)
        XCTAssertEqual(start.m12, 0, accuracy: 1e-9)
        let middle = skewed.presentationProperties(atLocalTime: 0.5).transform
        XCTAssertEqual(middle.m12, tan(30 * Double.pi / 180), accuracy: 1e-6)
        XCTAssertEqual(middle.m21, 0, accuracy: 1e-6)
    }

    func testAllHoldKeyframesPlayAtFloatKeyTimes() throws {
        // fr 10, ip 0, op 20: lottie-ios's key times are fractions of frames 0 … 21 as `Float`.
        // Frame 7 is 1/3, which rounds up to 0.33333334, so at exactly 0.7 s the all-hold
        // opacity still shows its first value; a hold followed by an eased keyframe (two runs,
        // timed in Double) has switched.
        let held = #"{"a": 1, "k": [{"t": 0, "s": [20], "h": 1}, {"t": 7, "s": [60], "h": 1}, {"t": 10, "s": [90], "h": 1}]}"#
        let mixed = #"{"a": 1, "k": [{"t": 0, "s": [20], "h": 1}, {"t": 7, "s": [60]}]}"#
        let json = """
        {"fr": 10, "ip": 0, "op": 20, "w": 100, "h": 100, "layers": [
          {"ty": 1, "ind": 1, "nm": "held", "ip": 0, "op": 20, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000", "ks": {"o": \(held)}},
          {"ty": 1, "ind": 2, "nm": "mixed", "ip": 0, "op": 20, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000", "ks": {"o": \(mixed)}}]}
        """
        let root = try LottieImporter.load(bytes: Array(json.utf8), fileName: "holds.json", baseDirectory: nil).root
        var layers: [String: CALayer] = [:]
        root.forEachLayerInTree { if let name = $0.name { layers[name] = $0 } }
        let heldLayer = try XCTUnwrap(layers["held"]), mixedLayer = try XCTUnwrap(layers["mixed"])
        XCTAssertEqual(heldLayer.presentationProperties(atLocalTime: 0.7).opacity, 0.2, accuracy: 1e-6)
        XCTAssertEqual(heldLayer.presentationProperties(atLocalTime: 0.70001).opacity, 0.6, accuracy: 1e-6)
        XCTAssertEqual(mixedLayer.presentationProperties(atLocalTime: 0.7).opacity, 0.6, accuracy: 1e-6)
        XCTAssertEqual(mixedLayer.presentationProperties(atLocalTime: 0.69999).opacity, 0.2, accuracy: 1e-6)
    }

    func testPointTextIsAsTallAsItsLinesWhateverItsLineHeight() throws {
        // lh 0.01 (as Issues/issue_2638 has): the layer still holds a whole line of 40 pt text.
        let json = """
        {"fr": 10, "ip": 0, "op": 10, "w": 200, "h": 100, "layers": [{"ty": 5, "ind": 1, "nm": "t", "ip": 0, "op": 10, "st": 0, "ks": {},
          "t": {"d": {"k": [{"s": {"t": "Hi", "f": "DejaVu Sans", "s": 40, "fc": [0, 0, 0], "lh": 0.01, "j": 0}, "t": 0}]}}}]}
        """
        let root = try LottieImporter.load(bytes: Array(json.utf8), fileName: "text.json", baseDirectory: nil).root
        var text: CATextLayer?
        root.forEachLayerInTree { if let t = $0 as? CATextLayer { text = t } }
        let layer = try XCTUnwrap(text)
        XCTAssertGreaterThanOrEqual(layer.bounds.height, 40)
        // The first baseline sits at the text's origin: the top is an ascent above it, a
        // fraction of the size between 0.5 and 1 for any real face.
        XCTAssertLessThan(layer.position.y, -20)
        XCTAssertGreaterThan(layer.position.y, -40)
    }

    func testFontFilesBesideTheAnimationAreFound() throws {
        let system = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: system), "needs fonts-dejavu")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lottie-fonts-\(UUID().uuidString)")
        let animations = folder.appendingPathComponent("animations")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Fonts"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: animations, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: system, toPath: folder.appendingPathComponent("Fonts/Shipped Face.ttf").path)
        // From a sibling folder: found one level up, under Fonts; a name with no file is not.
        let found = FontFiles.register(["Shipped Face", "Missing Face", "../Fonts/Shipped Face"], near: animations)
        XCTAssertEqual(found, ["Shipped Face"])
    }
}
