import XCTest
import Foundation
import Geometry
import Animation
import Filters
import Layers
import Timing

/// `CIFilter` and the filter properties of `CALayer`: what is accepted, what the getters hand
/// back, key paths into filter inputs, and how filters animate.
final class FilterModelTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
        CATransaction.flush()
    }

    func testCIFilterNamesDefaultsAndInputs() throws {
        let blur = try XCTUnwrap(CIFilter(name: "CIGaussianBlur"))
        XCTAssertEqual(blur.name, "CIGaussianBlur", "the name key paths use defaults to the filter's name")
        XCTAssertEqual((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue, 10, "Core Image's default radius")
        blur.setValue(4, forKey: kCIInputRadiusKey)
        XCTAssertEqual((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue, 4)
        blur.setValue("wide", forKey: kCIInputRadiusKey)
        XCTAssertEqual((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue, 4, "a value of the wrong type is ignored")
        XCTAssertTrue(FilterWarnings.recent.last?.contains("CIGaussianBlur.inputRadius") == true)
        blur.setDefaults()
        XCTAssertEqual((blur.value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue, 10)

        let matrix = try XCTUnwrap(CIFilter(name: "CIColorMatrix", parameters: ["inputRVector": CIVector(x: 0, y: 1, z: 0, w: 0)]))
        XCTAssertEqual((matrix.value(forKey: "inputRVector") as? CIVector)?.values, [0, 1, 0, 0])
        XCTAssertEqual((matrix.value(forKey: "inputGVector") as? CIVector)?.values, [0, 1, 0, 0], "default row")
        XCTAssertEqual(CIFilter(name: "CIColorControls")?.inputKeys, [kCIInputBrightnessKey, kCIInputContrastKey, kCIInputSaturationKey])

        // A Core Image filter Lamina does not draw still exists (ported code keeps running);
        // a name that is no Core Image filter does not.
        let bloom = try XCTUnwrap(CIFilter(name: "CIBloom"))
        XCTAssertNil(bloom.layerFilter)
        XCTAssertNil(CIFilter(name: "bloom"))
        XCTAssertEqual(CIFilter(name: "multiplyBlendMode")?.filterName, "CIMultiplyBlendMode", "Core Animation names work too")
    }

    func testCompositingFilterTakesANameOrACIFilter() {
        let layer = CALayer()
        XCTAssertNil(layer.compositingFilter)
        layer.compositingFilter = "multiplyBlendMode"
        XCTAssertEqual(layer.compositingFilter as? String, "multiplyBlendMode")
        XCTAssertEqual(layer.properties.compositingFilter?.kind, .multiplyBlendMode)
        layer.compositingFilter = CIFilter(name: "CIScreenBlendMode")
        XCTAssertEqual((layer.compositingFilter as? CIFilter)?.filterName, "CIScreenBlendMode")
        layer.compositingFilter = CIFilter(name: "CIAdditionCompositing")
        XCTAssertEqual(layer.properties.compositingFilter?.kind, .addition)
        layer.compositingFilter = nil
        XCTAssertNil(layer.compositingFilter)
        // Not a compositing filter, or unknown: ignored with a warning, as Core Animation ignores it.
        layer.compositingFilter = "gaussianBlur"
        XCTAssertNil(layer.compositingFilter)
        XCTAssertTrue(FilterWarnings.recent.last?.contains("not a compositing filter") == true)
        layer.compositingFilter = "sparkleBlendMode"
        XCTAssertNil(layer.compositingFilter)
        XCTAssertTrue(FilterWarnings.recent.last?.contains("unknown filter \"sparkleBlendMode\"") == true)
    }

    func testFiltersAreCopiedWhenAssignedAndUnsupportedOnesDropped() throws {
        let layer = CALayer()
        let blur = try XCTUnwrap(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 6]))
        blur.name = "soft"
        layer.filters = [blur, CIFilter(name: "CIBloom")!, CIFilter(name: "CIMultiplyBlendMode")!, CIFilter(name: "CIColorInvert")!]
        XCTAssertEqual(layer.properties.filters.map(\.kind), [.gaussianBlur, .colorInvert])
        blur.setValue(30, forKey: kCIInputRadiusKey)
        XCTAssertEqual(layer.properties.filters[0].number(kCIInputRadiusKey), 6, "changing the filter afterwards does not reach the layer")
        let back = try XCTUnwrap(layer.filters as? [CIFilter])
        XCTAssertEqual(back.map(\.name), ["soft", "CIColorInvert"])
        XCTAssertEqual((back[0].value(forKey: kCIInputRadiusKey) as? NSNumber)?.doubleValue, 6)
        layer.backgroundFilters = [CIFilter(name: "CIGaussianBlur")!]
        XCTAssertEqual(layer.properties.backgroundFilters.count, 1)
        layer.filters = nil
        XCTAssertNil(layer.filters)
    }

    func testFilterInputsThroughKeyPaths() throws {
        let path = try XCTUnwrap(LayerKeyPath("filters.soft.inputRadius"))
        XCTAssertEqual(path.key, .filters)
        XCTAssertEqual(path.filterInput, FilterInputPath(filter: "soft", input: "inputRadius"))
        XCTAssertEqual(path.kind, .number)
        XCTAssertEqual(path.description, "filters.soft.inputRadius")
        XCTAssertEqual(LayerKeyPath("backgroundFilters.tint.inputRVector")?.kind, .numbers)
        XCTAssertNil(LayerKeyPath("filters.soft"), "a filter input needs the filter's name and the input")
        XCTAssertNil(LayerKeyPath("filters.soft.radius"), "inputs are named input…")

        let layer = CALayer()
        let blur = try XCTUnwrap(CIFilter(name: "CIGaussianBlur"))
        blur.name = "soft"
        layer.filters = [blur]
        XCTAssertEqual(layer.value(forKeyPath: "filters.soft.inputRadius") as? CGFloat, 10)
        layer.setValue(20, forKeyPath: "filters.soft.inputRadius")
        XCTAssertEqual(layer.properties.filters[0].number(kCIInputRadiusKey), 20)
        layer.setValue(5, forKeyPath: "filters.hard.inputRadius")
        XCTAssertEqual(layer.properties.filters[0].number(kCIInputRadiusKey), 20, "no filter of that name: nothing changes")
    }

    func testInputRadiusAnimatesThroughItsKeyPath() throws {
        let layer = CALayer()
        let blur = try XCTUnwrap(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 0]))
        blur.name = "blur"
        layer.filters = [blur]
        let grow = CABasicAnimation(keyPath: "filters.blur.inputRadius")
        grow.fromValue = 0
        grow.toValue = 8
        grow.duration = 1
        grow.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.add(grow, forKey: "grow", atMediaTime: 0)
        XCTAssertEqual(layer.presentationProperties(atLocalTime: 0.25).filters[0].number(kCIInputRadiusKey) ?? -1, 2, accuracy: 1e-9)
        XCTAssertEqual(layer.presentationProperties(atLocalTime: 0.75).filters[0].number(kCIInputRadiusKey) ?? -1, 6, accuracy: 1e-9)
        XCTAssertEqual(layer.properties.filters[0].number(kCIInputRadiusKey), 0, "the model keeps its value")
    }

    func testCompositingFilterAnimatesDiscretely() {
        let layer = CALayer()
        layer.compositingFilter = "multiplyBlendMode"
        let change = CABasicAnimation(keyPath: "compositingFilter")
        change.fromValue = "multiplyBlendMode"
        change.toValue = CIFilter(name: "CIScreenBlendMode")
        change.duration = 1
        change.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.add(change, forKey: "change", atMediaTime: 0)
        XCTAssertEqual(layer.presentationProperties(atLocalTime: 0.4).compositingFilter?.kind, .multiplyBlendMode)
        XCTAssertEqual(layer.presentationProperties(atLocalTime: 0.6).compositingFilter?.kind, .screenBlendMode)
    }

    func testChangingAFilterInputInALiveTreeAnimatesItImplicitly() throws {
        let root = CALayer()
        let child = CALayer()
        root.addSublayer(child)
        let blur = try XCTUnwrap(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 2]))
        blur.name = "blur"
        child.filters = [blur]
        let timeline = LayerTimeline(root: root)
        defer { withExtendedLifetime(timeline) {} }
        child.setValue(10, forKeyPath: "filters.blur.inputRadius")
        XCTAssertEqual(child.animationKeys() ?? [], ["filters"])
        // The filter lists match: their inputs interpolate, 2 → 10 with the default curve.
        let halfway = child.presentationProperties(atLocalTime: 0.125).filters[0].number(kCIInputRadiusKey) ?? -1
        XCTAssertEqual(halfway, 2 + 8 * 0.802403, accuracy: 1e-4)
        XCTAssertEqual(child.presentationProperties(atLocalTime: 0.25).filters[0].number(kCIInputRadiusKey) ?? -1, 10, accuracy: 1e-9)
    }
}
