import XCTest
import Foundation
@testable import SceneFormat
import Lamina

/// The scene keys `compositingFilter`, `filters` and `backgroundFilters` (docs/filters.md) load
/// into the tree the Swift API builds, animations of filter inputs included, and print in
/// `lamina inspect` only when set.
final class FilterSceneTests: XCTestCase {
    func testFilterKeysLoadAsTheSwiftCallsBuild() throws {
        let scene = loadScene("""
        {
          "format": 1,
          "size": [64, 48],
          "root": {
            "sublayers": [
              {"name": "a", "compositingFilter": "CIScreenBlendMode"},
              {"name": "b", "compositingFilter": "addition",
               "filters": [{"type": "gaussianBlur", "name": "soft", "inputRadius": 2},
                           {"name": "CIColorControls", "inputSaturation": 0.5},
                           {"name": "colorMatrix", "inputBiasVector": [0.1, 0, 0, 0]}],
               "backgroundFilters": [{"name": "gaussianBlur"}, {"name": "sepiaTone", "inputIntensity": 0.5}],
               "animations": [{"type": "basic", "keyPath": "filters.soft.inputRadius", "fromValue": 2, "toValue": 12,
                               "duration": 1, "timingFunction": "linear"},
                              {"type": "keyframe", "keyPath": "compositingFilter", "values": ["multiplyBlendMode", "luminosityBlendMode"],
                               "duration": 1, "calculationMode": "discrete"}]}
            ]
          }
        }
        """)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let a = CALayer()
        a.name = "a"
        a.compositingFilter = CIFilter(name: "CIScreenBlendMode")
        let b = CALayer()
        b.name = "b"
        b.compositingFilter = "addition"
        let soft = CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 2])!
        soft.name = "soft"
        b.filters = [soft, CIFilter(name: "CIColorControls", parameters: [kCIInputSaturationKey: 0.5])!,
                     CIFilter(name: "colorMatrix", parameters: ["inputBiasVector": CIVector(x: 0.1, y: 0, z: 0, w: 0)])!]
        b.backgroundFilters = [CIFilter(name: "gaussianBlur")!, CIFilter(name: "sepiaTone", parameters: [kCIInputIntensityKey: 0.5])!]
        let grow = CABasicAnimation(keyPath: "filters.soft.inputRadius")
        grow.fromValue = 2
        grow.toValue = 12
        grow.duration = 1
        grow.timingFunction = CAMediaTimingFunction(name: .linear)
        b.add(grow, forKey: nil, atMediaTime: 0)
        let blend = CAKeyframeAnimation(keyPath: "compositingFilter")
        blend.values = ["multiplyBlendMode", "luminosityBlendMode"]
        blend.duration = 1
        blend.calculationMode = .discrete
        b.add(blend, forKey: nil, atMediaTime: 0)
        root.addSublayer(a)
        root.addSublayer(b)
        assertSameTree(scene, root, at: [0, 0.25, 0.75])
        let line = try XCTUnwrap(scene).map { PresentationJSON().line(for: PresentationTree.evaluate($0.root, at: 0.25)) } ?? ""
        XCTAssertTrue(line.contains(#""compositingFilter": "multiplyBlendMode""#), line)
        XCTAssertTrue(line.contains(#"{"type": "gaussianBlur", "name": "soft", "inputRadius": 4.5}"#), line)
        XCTAssertTrue(line.contains(#""backgroundFilters": [{"type": "gaussianBlur", "name": "gaussianBlur", "inputRadius": 10}"#), line)
        XCTAssertEqual(line.components(separatedBy: "compositingFilter").count - 1, 2, "the root prints no filter keys")
    }
}
