import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import CPURenderer
import ContentRaster
import ImageIO
import TestSupport

/// Offscreen passes and content rasters cover only what the output can show (`VisibleRegion`):
/// a huge layer costs the pixels it shows, and draws exactly the pixels it drew before.
final class VisibleRegionTests: XCTestCase {
    let unit = CGRect(x: 0, y: 0, width: 100, height: 100)

    func testClipOfAffineMappings() throws {
        let target = CGRect(x: 0, y: 0, width: 64, height: 48)
        // Entirely visible: the rect itself.
        XCTAssertEqual(VisibleRegion.clip(CGRect(x: 10, y: 10, width: 20, height: 20), toTarget: .identity, target: target),
                       CGRect(x: 10, y: 10, width: 20, height: 20))
        // Partly: the visible part, in layer space (scale 2 and a move).
        let m = CATransform3DMakeScale(2, 2, 1).concatenating(CATransform3DMakeTranslation(-20, 0, 0))
        XCTAssertEqual(VisibleRegion.clip(CGRect(x: 0, y: 0, width: 1e7, height: 1e7), toTarget: m, target: target),
                       CGRect(x: 10, y: 0, width: 32, height: 24))
        // With a margin in layer points.
        XCTAssertEqual(VisibleRegion.clip(CGRect(x: 0, y: 0, width: 1e7, height: 1e7), toTarget: m, target: target, margin: 3),
                       CGRect(x: 7, y: 0, width: 38, height: 27))
        // Nothing of it shows.
        XCTAssertNil(VisibleRegion.clip(CGRect(x: 100, y: 100, width: 5, height: 5), toTarget: .identity, target: target))
        // Rotated by 45°: the preimage of the target's corners, bounded.
        let turned = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let part = try XCTUnwrap(VisibleRegion.clip(CGRect(x: -1e6, y: -1e6, width: 2e6, height: 2e6), toTarget: turned, target: target))
        XCTAssertLessThan(part.width, 120)
        XCTAssertLessThan(part.height, 120)
    }

    func testPerspectiveWithTheHorizonInSightIsLeftWhole() {
        var p = CATransform3DIdentity
        p.m34 = -1 / 100
        // A floor tilted almost flat: its horizon crosses the target, so no bound can be given.
        let floor = CATransform3DMakeRotation(1.5, 1, 0, 0).concatenating(p).concatenating(CATransform3DMakeTranslation(32, 24, 0))
        let rect = CGRect(x: -1e6, y: -1e6, width: 2e6, height: 2e6)
        XCTAssertEqual(VisibleRegion.clip(rect, toTarget: floor, target: CGRect(x: 0, y: 0, width: 64, height: 48)), rect)
        // Seen from the front, a bound exists.
        let front = CATransform3DMakeRotation(0.3, 1, 0, 0).concatenating(p).concatenating(CATransform3DMakeTranslation(32, 24, 0))
        let seen = VisibleRegion.clip(rect, toTarget: front, target: CGRect(x: 0, y: 0, width: 64, height: 48))
        XCTAssertNotNil(seen)
        XCTAssertLessThan(seen?.width ?? .infinity, 1_000)
    }

    // MARK: - Pixels: clipped passes draw what whole ones drew

    /// The scene at `offset`: a layer of `size` points whose right and bottom edges are at
    /// (20, 20) + offset, masking to its bounds, with a child; and one from (40, 40) + offset
    /// whose blurred shadow falls up and to the left of it.
    func scene(size: CGFloat, offset: CGFloat, output: CGFloat) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: output, height: output)
        root.position = CGPoint(x: output / 2, y: output / 2)
        let big = CALayer()
        big.frame = CGRect(x: offset + 20 - size, y: offset + 20 - size, width: size, height: size)
        big.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8)
        big.masksToBounds = true
        let child = CALayer()
        child.frame = CGRect(x: size - 14, y: size - 30, width: 10, height: 40)
        child.backgroundColor = CGColor(red: 1, green: 0.8, blue: 0, alpha: 1)
        big.addSublayer(child)
        root.addSublayer(big)
        let shadowed = CALayer()
        shadowed.frame = CGRect(x: offset + 40, y: offset + 40, width: size, height: size)
        shadowed.backgroundColor = CGColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 1)
        shadowed.shadowOpacity = 1
        shadowed.shadowRadius = 3
        shadowed.shadowOffset = CGSize(width: -6, height: -8)
        root.addSublayer(shadowed)
        return root
    }

    func testHugeLayersDrawTheSamePixelsWithSmallPasses() throws {
        for backend in [CPURenderer(), try TestBackends.gpu()] as [any RenderBackend] {
            // The output: 64×64 of a scene whose two layers are 50,000 points wide (whole passes of
            // them were capped at 8192 pixels and drawn coarser; far beyond, single-precision
            // vertices in the backends move edges by a fraction of a pixel, clipped or not).
            let huge = scene(size: 50_000, offset: 0, output: 64)
            let plan = RenderPlanBuilder(width: 64, height: 64).plan(for: PresentationTree.evaluate(huge, at: 0))
            for pass in plan.passes.dropLast() {
                XCTAssertLessThanOrEqual(max(pass.width, pass.height), 64 + 2 * 3 * 3 + 2 * 6 + 8, "\(pass.purpose) is clipped")
            }
            XCTAssertLessThan(plan.offscreenPixels, 6 * 100 * 100)
            // The reference: layers of 200 points drawn whole in a 460×460 output, the same
            // region shifted into view (at 200, 200) and cut out.
            let reference = scene(size: 200, offset: 200, output: 460)
            let whole = RenderPlanBuilder(width: 460, height: 460).plan(for: PresentationTree.evaluate(reference, at: 0))
            XCTAssertTrue(whole.passes.dropLast().allSatisfy { $0.width >= 200 }, "the reference passes are whole")
            let a = try XCTUnwrap(backend.render(plan, images: FileImageProvider()))
            let b = try XCTUnwrap(backend.render(whole, images: FileImageProvider()))
            var worst = 0
            for y in 0..<64 {
                for x in 0..<64 {
                    let p = a[x, y], q = b[x + 200, y + 200]
                    let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
                    worst = max(worst, d)
                }
            }
            XCTAssertLessThanOrEqual(worst, 1, "\(type(of: backend)): clipped passes draw what whole ones draw")
            XCTAssertGreaterThan(a[5, 5].b, 100, "the masked layer shows")
            XCTAssertGreaterThan(a[12, 5].r, 200, "its child shows")
            XCTAssertGreaterThan(a[36, 36].a, 100, "the shadow shows beside its layer")
            XCTAssertGreaterThan(a[50, 50].r, 200, "the shadowed layer shows")
        }
    }

    // MARK: - Content rasters

    func testAClippedShapeRasterIsThePartOfTheWholeOne() throws {
        let cache = ContentCache()
        var shape = ShapeProperties()
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 3, y: 5, width: 900, height: 700))
        shape.path = path
        shape.fillColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        shape.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        shape.lineWidth = 6
        let whole = try XCTUnwrap(cache.rasterize(.shape(shape, scale: 1)))
        let region = CGRect(x: 256, y: 0, width: 256, height: 256)
        let part = try XCTUnwrap(cache.rasterize(.clipped(.shape(shape, scale: 1), region: region)))
        XCTAssertEqual(part.rect, region)
        XCTAssertEqual([part.image.width, part.image.height], [256, 256])
        let w = try XCTUnwrap(whole.image.pixels), p = try XCTUnwrap(part.image.pixels)
        let dx = Int(region.minX - whole.rect.minX), dy = Int(region.minY - whole.rect.minY)
        var worst = 0
        for y in 0..<256 {
            for x in 0..<256 {
                let i = (y * 256 + x) * 4, j = ((y + dy) * whole.image.width + x + dx) * 4
                for c in 0..<4 { worst = max(worst, abs(Int(p[i + c]) - Int(w[j + c]))) }
            }
        }
        XCTAssertLessThanOrEqual(worst, 2, "the same pixel grid, the same pixels (cairo's coverage rounding aside)")
        // The measuring rasterizer gives the same placements, with no pixels.
        for request in [ContentRequest.shape(shape, scale: 1), .clipped(.shape(shape, scale: 1), region: region)] {
            let measured = try XCTUnwrap(MeasuringRasterizer().rasterize(request))
            let drawn = try XCTUnwrap(cache.rasterize(request))
            XCTAssertEqual(measured.rect, drawn.rect)
            XCTAssertEqual([measured.image.width, measured.image.height], [drawn.image.width, drawn.image.height])
            XCTAssertNil(measured.image.pixels)
        }
    }

    func testAClippedTextRasterIsThePartOfTheWholeOne() throws {
        let cache = ContentCache()
        var text = TextProperties()
        text.string = "Lamina draws only what shows"
        text.fontSize = 30
        let size = CGSize(width: 600, height: 80)
        let whole = try XCTUnwrap(cache.rasterize(.text(text, size: size, scale: 1)))
        let region = CGRect(x: 256, y: 0, width: 256, height: 80)
        let part = try XCTUnwrap(cache.rasterize(.clipped(.text(text, size: size, scale: 1), region: region)))
        XCTAssertEqual(part.rect, region)
        let w = try XCTUnwrap(whole.image.pixels), p = try XCTUnwrap(part.image.pixels)
        var worst = 0
        for y in 0..<80 {
            for x in 0..<256 {
                let i = (y * 256 + x) * 4, j = (y * whole.image.width + x + 256) * 4
                for c in 0..<4 { worst = max(worst, abs(Int(p[i + c]) - Int(w[j + c]))) }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1)
        XCTAssertTrue(p.contains { $0 > 0 }, "some text falls in the part")
    }

    /// The cache holds at most `maximumPixels` pixels: the least recently used go first.
    func testTheCacheIsBoundedByPixels() throws {
        let cache = ContentCache(capacity: 100, maximumPixels: 3 * 100 * 100)
        for i in 0..<5 {
            var shape = ShapeProperties()
            shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 99 - i, height: 99))
            shape.fillColor = CGColor(gray: 1, alpha: 1)
            _ = cache.rasterize(.shape(shape, scale: 1))
        }
        XCTAssertEqual(cache.statistics.count, 3)
    }
}
