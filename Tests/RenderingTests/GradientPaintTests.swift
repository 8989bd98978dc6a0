import XCTest
import Geometry
import Layers
import Rendering

/// §15.2's gradient rules as GradientPaint computes them (both backends use these formulas).
final class GradientPaintTests: XCTestCase {
    private func paint(_ colors: [CGColor], locations: [Double]? = nil, type: CAGradientLayerType = .axial,
                       start: CGPoint = CGPoint(x: 0.5, y: 0), end: CGPoint = CGPoint(x: 0.5, y: 1)) throws -> GradientPaint {
        var g = GradientProperties()
        g.colors = colors
        g.locations = locations
        g.type = type
        g.startPoint = start
        g.endPoint = end
        return try XCTUnwrap(GradientPaint(g))
    }

    func testC04AxialParameterIsTakenInUnitSpace() throws {
        let g = try paint([.black, .white], start: .zero, end: CGPoint(x: 1, y: 1))
        // Point (100, 0) of a 200×100 layer is unit (0.5, 0): t = 0.25, not the 0.4 of point space.
        XCTAssertEqual(g.parameter(SIMD2(0.5, 0)), 0.25, accuracy: 1e-6)
    }

    func testC07WhiteToClearInterpolatesStraightAlpha() throws {
        let g = try paint([CGColor(gray: 1, alpha: 1), CGColor(gray: 0, alpha: 0)])
        let mid = g.color(at: 0.5)
        // Straight (0.5, 0.5, 0.5, α 0.5), premultiplied: a grey band, as Apple draws it.
        XCTAssertEqual(mid.x, 0.25, accuracy: 1e-6)
        XCTAssertEqual(mid.w, 0.5, accuracy: 1e-6)
    }

    func testStopsPadAndDecreasingLocationsMakeAHardEdge() throws {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let band = try paint([red, blue], locations: [0.45, 0.55])
        XCTAssertEqual(band.color(at: 0.2), SIMD4(1, 0, 0, 1))
        XCTAssertEqual(band.color(at: 0.9), SIMD4(0, 0, 1, 1))
        XCTAssertEqual(band.color(at: 0.5).x, 0.5, accuracy: 1e-5)
        let raised = try paint([red, .white, blue], locations: [0, 0.6, 0.4])
        XCTAssertEqual(raised.locations, [0, 0.6, 0.6])
        // A locations array of another length is ignored: even spacing.
        XCTAssertEqual(try paint([red, .white, blue], locations: [0, 1]).locations, [0, 0.5, 1])
        var none = GradientProperties()
        none.colors = []
        XCTAssertNil(GradientPaint(none))
    }

    func testRadialEllipseAndConicTurn() throws {
        let radial = try paint([.black, .white], type: .radial, start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 1, y: 0.75))
        XCTAssertEqual(radial.parameter(SIMD2(1, 0.5)), 1, accuracy: 1e-6)       // (e.x, s.y)
        XCTAssertEqual(radial.parameter(SIMD2(0.5, 0.75)), 1, accuracy: 1e-6)    // (s.x, e.y)
        XCTAssertEqual(radial.parameter(SIMD2(1, 0.75)), Float(2).squareRoot(), accuracy: 1e-6)
        let flat = try paint([.black, .white], type: .radial, start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 1, y: 0.5))
        XCTAssertEqual(flat.color(at: flat.parameter(SIMD2(0.5, 0.5))), SIMD4(1, 1, 1, 1), "degenerate: the last colour")
        let conic = try paint([.black, .white], type: .conic, start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 1, y: 0.5))
        XCTAssertEqual(conic.parameter(SIMD2(1, 0.5)), 0, accuracy: 1e-6)
        // +x turns toward +y: a quarter turn reaches the point below the centre (y down).
        XCTAssertEqual(conic.parameter(SIMD2(0.5, 1)), 0.25, accuracy: 1e-6)
        XCTAssertEqual(conic.parameter(SIMD2(0.5, 0)), 0.75, accuracy: 1e-6)
    }
}
