import XCTest
import Foundation
@testable import LottieImport
import SceneFormat
import Layers
import Geometry

/// Structural tests: the importer's layer tree and animations at chosen times, against values
/// worked out by hand from the JSON.
final class LottieImportTests: XCTestCase {
    func load(_ json: String, file: String = "test.json") throws -> LottieImport {
        try LottieImporter.load(bytes: Array(json.utf8), fileName: file, baseDirectory: nil)
    }

    func layer(_ root: CALayer, named name: String) -> CALayer? {
        var found: CALayer?
        root.forEachLayerInTree { if found == nil, $0.name == name { found = $0 } }
        return found
    }

    static let moving = """
    {"v": "5.7.0", "fr": 10, "ip": 0, "op": 20, "w": 100, "h": 80, "nm": "moving",
     "markers": [{"cm": "intro", "tm": 2, "dr": 5}],
     "layers": [{"ty": 4, "ind": 1, "nm": "box", "ip": 2, "op": 15, "st": 0,
       "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [20, 50, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 10, "s": [80, 50, 0]}]},
              "a": {"a": 0, "k": [10, 20, 0]},
              "s": {"a": 1, "k": [{"t": 0, "s": [100, 50, 100], "h": 1}, {"t": 8, "s": [200, 200, 100]}]},
              "r": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": 0.42, "y": 0}, "i": {"x": 0.58, "y": 1}}, {"t": 10, "s": [90]}]},
              "o": {"a": 0, "k": 50}},
       "shapes": [{"ty": "rc", "d": 1, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [40, 20]}, "r": {"a": 0, "k": 0}},
                  {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "r": 1}]}]}
    """

    func testCompositionMetadata() throws {
        let imported = try load(Self.moving)
        let a = imported.animation
        XCTAssertEqual(a.size, CGSize(width: 100, height: 80))
        XCTAssertEqual(a.frameRate, 10)
        XCTAssertEqual(a.duration, 2)
        XCTAssertEqual(a.markers, [LottieAnimation.Marker(name: "intro", frame: 2, durationFrames: 5)])
        XCTAssertEqual(imported.root.bounds, CGRect(x: 0, y: 0, width: 100, height: 80))
        XCTAssertTrue(imported.root.masksToBounds)
    }

    func testTransformKeyframesAtChosenTimes() throws {
        let root = try load(Self.moving).root
        let box = try XCTUnwrap(layer(root, named: "box"))
        // Frame 5 (t = 0.5 s): linear position half way, x = 20 + 60 · 0.5.
        var p = box.presentationProperties(atLocalTime: 0.5)
        XCTAssertEqual(p.position.x, 50, accuracy: 1e-9)
        XCTAssertEqual(p.position.y, 50, accuracy: 1e-9)
        // The anchor is absolute in Lottie, a fraction of the comp-sized bounds in Core Animation.
        XCTAssertEqual(p.bounds, CGRect(x: 0, y: 0, width: 100, height: 80))
        XCTAssertEqual(p.anchorPoint.x, 0.1, accuracy: 1e-12)
        XCTAssertEqual(p.anchorPoint.y, 0.25, accuracy: 1e-12)
        XCTAssertEqual(p.opacity, 0.5, accuracy: 1e-6)
        XCTAssertFalse(p.isHidden)
        // Rotation eased by (0.42, 0)-(0.58, 1): symmetric, so 45° at half time; scale held at (1, 0.5).
        let c = try XCTUnwrap(p.transform.components)
        XCTAssertEqual(c.eulerAngles.z, .pi / 4, accuracy: 1e-6)
        XCTAssertEqual(c.scale.x, 1, accuracy: 1e-9)
        XCTAssertEqual(c.scale.y, 0.5, accuracy: 1e-9)
        // The hold lasts to frame 8 and switches there.
        p = box.presentationProperties(atLocalTime: 0.799)
        XCTAssertEqual(try XCTUnwrap(p.transform.components).scale.y, 0.5, accuracy: 1e-9)
        p = box.presentationProperties(atLocalTime: 0.8)
        XCTAssertEqual(try XCTUnwrap(p.transform.components).scale.y, 2, accuracy: 1e-6)
        // In point 2, out point 15.
        XCTAssertTrue(box.presentationProperties(atLocalTime: 0.19).isHidden)
        XCTAssertFalse(box.presentationProperties(atLocalTime: 0.2).isHidden)
        XCTAssertFalse(box.presentationProperties(atLocalTime: 1.49).isHidden)
        XCTAssertTrue(box.presentationProperties(atLocalTime: 1.5).isHidden)
    }

    func testShapeItemsBecomeShapeLayers() throws {
        let root = try load(Self.moving).root
        var shapes: [CAShapeLayer] = []
        root.forEachLayerInTree { if let s = $0 as? CAShapeLayer { shapes.append(s) } }
        XCTAssertEqual(shapes.count, 1)
        let shape = try XCTUnwrap(shapes.first)
        XCTAssertEqual(shape.fillColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        XCTAssertNil(shape.strokeColor)
        // After Effects' rectangle: from the top-right corner, clockwise, closed.
        let path = try XCTUnwrap(shape.path)
        XCTAssertEqual(path.elements.first, .move(to: CGPoint(x: 20, y: -10)))
        XCTAssertEqual(path.elements[1], .line(to: CGPoint(x: 20, y: 10)))
        XCTAssertEqual(path.elements.last, .closeSubpath)
    }

    func testPrecompStartTimeAndStretch() throws {
        let json = """
        {"fr": 10, "ip": 0, "op": 40, "w": 100, "h": 100,
         "assets": [{"id": "inner", "layers": [{"ty": 3, "ind": 1, "nm": "null", "ip": 0, "op": 40, "st": 0,
            "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 10, "s": [100, 0]}]}}}]}],
         "layers": [{"ty": 0, "ind": 1, "nm": "pre", "refId": "inner", "w": 100, "h": 100, "ip": 0, "op": 40, "st": 10, "sr": 2, "ks": {}}]}
        """
        let root = try load(json).root
        let null = try XCTUnwrap(layer(root, named: "null"))
        // Root frame 20 is the precomp's frame (20 − 10) / 2 = 5: x = 50.
        XCTAssertEqual(null.presentationProperties(atLocalTime: 2).position.x, 50, accuracy: 1e-9)
        // Root frame 14 is its frame 2.
        XCTAssertEqual(null.presentationProperties(atLocalTime: 1.4).position.x, 20, accuracy: 1e-9)
        let pre = try XCTUnwrap(layer(root, named: "pre"))
        XCTAssertTrue(pre.masksToBounds)
    }

    func testTrimOffsetRepeatsThePath() throws {
        let json = """
        {"fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [{"ty": 4, "ind": 1, "nm": "l", "ip": 0, "op": 10, "st": 0, "ks": {},
          "shapes": [{"ty": "el", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}},
                     {"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 270}},
                     {"ty": "st", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 2}}]}]}
        """
        let root = try load(json).root
        var shapes: [CAShapeLayer] = []
        root.forEachLayerInTree { if let s = $0 as? CAShapeLayer { shapes.append(s) } }
        let shape = try XCTUnwrap(shapes.first)
        // Offset 270° = 75 %: the trim runs 75 … 125 % of the path, so the path is drawn twice
        // and the stroke covers 37.5 … 62.5 % of the doubled path.
        XCTAssertEqual(shape.strokeStart, 0.375, accuracy: 1e-12)
        XCTAssertEqual(shape.strokeEnd, 0.625, accuracy: 1e-12)
        let moves = try XCTUnwrap(shape.path).elements.filter { if case .move = $0 { true } else { false } }
        XCTAssertEqual(moves.count, 2)
    }

    func testGradientStops() throws {
        let gradients = try gradientLayers(width: 100, height: 100, rectangle: (centre: [50, 50], size: [40, 40]), end: [100, 0])
        // A colour layer and, for the opacity stops below 1, an alpha layer as its mask.
        let color = try XCTUnwrap(gradients.first { $0.mask != nil })
        XCTAssertEqual(color.colors as? [CGColor], [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)])
        XCTAssertEqual(color.locations?.map(\.doubleValue), [0, 1])
        XCTAssertEqual(color.type, .axial)
        // Start and end points as fractions of the layer, padded 2000 points each side.
        let width = 100 + 2 * GradientBuilder.padding
        XCTAssertEqual(color.startPoint.x, 2000 / width, accuracy: 1e-12)
        XCTAssertEqual(color.endPoint.x, 2100 / width, accuracy: 1e-12)
        let alpha = try XCTUnwrap(color.mask as? CAGradientLayer)
        XCTAssertEqual((alpha.colors as? [CGColor])?.map(\.alpha), [1, 0.5])
    }

    /// On a composition far from square the padded gradient layers are square, so that the
    /// gradient's unit-space fractions are the shape's points scaled alike along x and y.
    func testGradientLayersAreSquareOnANonSquareShape() throws {
        let gradients = try gradientLayers(width: 600, height: 40, rectangle: (centre: [300, 20], size: [600, 40]), end: [200, 200])
        XCTAssertEqual(gradients.count, 2, "the colour layer and its opacity mask")
        let side = 600 + 2 * GradientBuilder.padding
        for gradient in gradients {
            XCTAssertEqual(gradient.bounds.size, CGSize(width: side, height: side))
            // (0, 0) and (200, 200) of the shape, 2000 points into the padded layer.
            XCTAssertEqual(gradient.startPoint.x, 2000 / side, accuracy: 1e-12)
            XCTAssertEqual(gradient.startPoint.y, 2000 / side, accuracy: 1e-12)
            XCTAssertEqual(gradient.endPoint.x, 2200 / side, accuracy: 1e-12)
            XCTAssertEqual(gradient.endPoint.y, 2200 / side, accuracy: 1e-12)
        }
    }

    /// The gradient layers of a composition holding one rectangle with a red-to-blue gradient
    /// fill from (0, 0) to `end`, half opaque at its end.
    private func gradientLayers(width: Int, height: Int, rectangle: (centre: [Int], size: [Int]), end: [Int]) throws -> [CAGradientLayer] {
        let json = """
        {"fr": 10, "ip": 0, "op": 10, "w": \(width), "h": \(height), "layers": [{"ty": 4, "ind": 1, "nm": "l", "ip": 0, "op": 10, "st": 0, "ks": {},
          "shapes": [{"ty": "rc", "p": {"a": 0, "k": \(rectangle.centre)}, "s": {"a": 0, "k": \(rectangle.size)}, "r": {"a": 0, "k": 0}},
                     {"ty": "gf", "t": 1, "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": \(end)}, "o": {"a": 0, "k": 100},
                      "g": {"p": 2, "k": {"a": 0, "k": [0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0.5]}}}]}]}
        """
        var gradients: [CAGradientLayer] = []
        try load(json).root.forEachLayerInTree { if let g = $0 as? CAGradientLayer { gradients.append(g) } }
        return gradients
    }

    func testParentsBecomeTransformLayersAndMattesMasks() throws {
        let json = """
        {"fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100, "layers": [
          {"ty": 4, "ind": 1, "nm": "matte", "td": 1, "ip": 0, "op": 10, "st": 0, "ks": {},
           "shapes": [{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}},
                      {"ty": "fl", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]},
          {"ty": 1, "ind": 2, "nm": "solid", "tt": 1, "parent": 3, "ip": 0, "op": 10, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000", "ks": {}},
          {"ty": 3, "ind": 3, "nm": "mover", "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [30, 40]}}}]}
        """
        let root = try load(json).root
        // Back to front: the null, then the matted solid in a container masked by the matte.
        let container = try XCTUnwrap(root.sublayers?.last)
        XCTAssertNotNil(container.mask)
        let parent = try XCTUnwrap(container.sublayers?.first)
        XCTAssertEqual(parent.name, "solid (parent, mover)")
        XCTAssertEqual(parent.position, CGPoint(x: 30, y: 40))
        XCTAssertEqual(parent.sublayers?.first?.name, "solid")
        XCTAssertNotNil(layer(try XCTUnwrap(container.mask), named: "matte"))
    }

    func testDetectsLottieByContent() {
        XCTAssertTrue(LottieImporter.isLottie(Array(Self.moving.utf8)))
        XCTAssertFalse(LottieImporter.isLottie(Array(#"{"format": 1, "size": [10, 10], "root": {"sublayers": []}}"#.utf8)))
        XCTAssertTrue(LottieImporter.isLottie([0x50, 0x4B, 0x03, 0x04, 0, 0]))
        XCTAssertFalse(LottieImporter.isLottie(Array("not json".utf8)))
    }
    /// Blend modes become compositing filters on the layer, numbered as lottie-ios numbers them;
    /// modes it does not know are drawn normal with one warning.
    func testBlendModesAreCompositingFilters() throws {
        func layerJSON(_ index: Int, _ bm: Int) -> String {
            #"{"ty": 4, "ind": \#(index), "nm": "bm\#(bm)", "ip": 0, "op": 10, "st": 0, "bm": \#(bm), "ks": {}, "shapes": []}"#
        }
        let modes = [0, 1, 2, 10, 15, 16]
        let json = #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": ["#
            + modes.enumerated().map { layerJSON($0.offset + 1, $0.element) }.joined(separator: ", ") + "]}"
        let imported = try load(json)
        let expected: [Int: String?] = [0: nil, 1: "multiplyBlendMode", 2: "screenBlendMode", 10: "differenceBlendMode",
                                         15: "luminosityBlendMode", 16: nil]
        for (mode, name) in expected {
            let found = try XCTUnwrap(layer(imported.root, named: "bm\(mode)"), "layer bm\(mode)")
            XCTAssertEqual(found.compositingFilter as? String, name, "bm \(mode)")
        }
        XCTAssertEqual(imported.warnings.filter { $0.reason.contains("blend mode") }.count, 1, "\(imported.warnings)")
        XCTAssertTrue(imported.warnings.contains { $0.reason.contains("blend mode 16") }, "\(imported.warnings)")
    }
}
