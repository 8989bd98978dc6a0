import XCTest
import Geometry
import Layers
import Presentation
@testable import Rendering
import ContentRaster
@testable import CPURenderer
import ImageIO
import TestSupport

/// A shape layer under a rotation (or skew, or uneven scale) is rasterized on the target's own
/// pixels (`ContentRequest.placedShape`) and drawn moved by whole pixels: the raster sits on
/// whole pixels, the shape lands where the layer is, the same transform reuses the raster, and
/// both backends composite it texel for texel.
final class PlacedShapeTests: XCTestCase {
    /// A 40×40 square rotated by `angle` about its centre at (`x`, `y`) of a 100×90 root.
    private func tree(angle: CGFloat, x: CGFloat = 50.3, y: CGFloat = 44.6, stroke: Bool = false) -> CALayer {
        let root = rootLayer(width: 100, height: 90)
        let shape = CAShapeLayer()
        shape.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        shape.position = CGPoint(x: x, y: y)
        shape.transform = CATransform3DMakeRotation(angle, 0, 0, 1)
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 40, height: 40), transform: nil)
        shape.fillColor = CGColor(red: 0.8, green: 0.4, blue: 0.2, alpha: 1)
        if stroke {
            shape.strokeColor = CGColor(red: 0.1, green: 0.2, blue: 0.8, alpha: 0.8)
            shape.lineWidth = 3
        }
        root.addSublayer(shape)
        return root
    }

    private func plan(_ root: CALayer, cache: ContentCache) -> RenderPlan {
        RenderPlanBuilder(width: 100, height: 90, contentRasterizer: cache).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    private func pathItem(_ plan: RenderPlan) throws -> DrawItem {
        try XCTUnwrap(plan.passes.last?.items.first { $0.role == "path" })
    }

    func testTheRasterSitsOnWholePixelsAndIsReusedForTheSameTransform() throws {
        let cache = ContentCache()
        let a = try pathItem(plan(tree(angle: 0.4), cache: cache))
        // Moved by whole pixels only: the corner of the raster lands on a pixel corner.
        XCTAssertTrue(CATransform3DEqualToTransform(
            a.transform, CATransform3DMakeTranslation(a.transform.m41.rounded(), a.transform.m42.rounded(), 0)), "\(a.transform)")
        XCTAssertEqual(a.rect.minX, a.rect.minX.rounded())
        guard case .image(let first, _, _, _) = a.paint else { return XCTFail("a raster") }
        // The rotated square's bounding box, 40·(cos + sin) ≈ 52.4 pixels, plus anti-aliasing.
        XCTAssertEqual(CGFloat(first.width), 40 * (cos(0.4) + sin(0.4)), accuracy: 3)
        // The same layer a whole pixel further: the same raster, one pixel further.
        let b = try pathItem(plan(tree(angle: 0.4, x: 51.3), cache: cache))
        guard case .image(let second, _, _, _) = b.paint else { return XCTFail("a raster") }
        XCTAssertTrue(first === second)
        XCTAssertEqual(b.transform.m41 - a.transform.m41, 1)
        // Another angle is another raster.
        guard case .image(let third, _, _, _) = try pathItem(plan(tree(angle: 0.5), cache: cache)).paint else { return XCTFail("a raster") }
        XCTAssertFalse(first === third)
        // Perspective keeps the raster in the layer's own space.
        let tilted = tree(angle: 0.4)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 300
        tilted.sublayerTransform = CATransform3DConcat(CATransform3DMakeRotation(0.3, 0, 1, 0), perspective)
        XCTAssertFalse(CATransform3DEqualToTransform(try pathItem(plan(tilted, cache: cache)).transform,
                                                     CATransform3DMakeTranslation(a.transform.m41, a.transform.m42, 0)))
    }

    /// Coverage against the geometry: the drawn square's alpha adds up to its area, and its
    /// centroid is the layer's position (to within the 1/64-pixel phase rounding and cairo's
    /// sampling of coverage, whose sample rows sit a little off centre: 0.04 pixel here).
    func testTheSquareCoversItsAreaAroundTheLayersPosition() throws {
        let frame = try XCTUnwrap(CPURenderer(threads: 2).render(plan(tree(angle: 0.4), cache: ContentCache()), images: FileImageProvider()))
        var sum = 0.0, sx = 0.0, sy = 0.0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let a = Double(frame[x, y].a) / 255
                sum += a; sx += a * (Double(x) + 0.5); sy += a * (Double(y) + 0.5)
            }
        }
        XCTAssertEqual(sum, 1600, accuracy: 1600 * 0.005)
        XCTAssertEqual(sx / sum, 50.3, accuracy: 0.05)
        XCTAssertEqual(sy / sum, 44.6, accuracy: 0.05)
        // Inside, the fill colour exactly.
        XCTAssertTrue(frame[50, 44] == (204, 102, 51, 255), "\(frame[50, 44])")
    }

    /// The GPU draws the same plan to the same pixels, within one step of 8 bits.
    func testBothBackendsCompositeThePlacedRasterAlike() throws {
        let gl = try TestBackends.gpu()
        let cache = ContentCache()
        for (angle, stroke) in [(0.4, false), (2.2, true), (-0.9, true)] as [(CGFloat, Bool)] {
            let plan = plan(tree(angle: angle, stroke: stroke), cache: cache)
            let cpu = try XCTUnwrap(CPURenderer(threads: 2).render(plan, images: FileImageProvider()))
            let gpu = try XCTUnwrap(gl.render(plan, images: FileImageProvider()))
            let largest = zip(cpu.pixels, gpu.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(largest, 1, "angle \(angle)")
        }
    }
}
