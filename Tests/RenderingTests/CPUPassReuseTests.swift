import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer
import TestSupport

/// Offscreen passes drawn the same as last frame keep their pixels (`PassReuse`): frames come out
/// byte for byte as a renderer that draws every pass gives them.
final class CPUPassReuseTests: XCTestCase {
    /// A gradient under an ellipse mask and a faded group (both offscreen passes), with a shape
    /// that moves by `shift` at the root; `inner` moves a shape inside the group, `maskScale`
    /// resizes the mask.
    private func plan(shift: CGFloat, inner: CGFloat, maskScale: CGFloat, cache: ContentCache) -> RenderPlan {
        let root = rootLayer(width: 120, height: 96)
        let gradient = diagonalGradient(frame: CGRect(x: 4, y: 30, width: 90, height: 60))
        let mask = CAShapeLayer()
        mask.frame = gradient.bounds
        mask.path = CGPath(ellipseIn: CGRect(x: 5, y: 5, width: 80 * maskScale, height: 50 * maskScale), transform: nil)
        mask.fillColor = CGColor(gray: 0, alpha: 1)
        gradient.mask = mask
        gradient.transform = CATransform3DMakeRotation(0.2, 0, 0, 1)
        root.addSublayer(gradient)
        let group = CALayer()
        group.frame = CGRect(x: 10, y: 4, width: 100, height: 50)
        group.opacity = 0.6
        root.addSublayer(group)
        for i in 0..<3 {
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: 4 + CGFloat(i) * 30 + (i == 1 ? inner : 0), y: 6, width: 28, height: 30)
            shape.path = CGPath(ellipseIn: CGRect(x: 1, y: 2, width: 24, height: 26), transform: nil)
            shape.fillColor = CGColor(red: CGFloat(i) / 3, green: 0.4, blue: 0.8, alpha: 1)
            group.addSublayer(shape)
        }
        let moving = CAShapeLayer()
        moving.frame = CGRect(x: 20 + shift, y: 40, width: 30, height: 30)
        moving.path = CGPath(rect: CGRect(x: 0, y: 0, width: 30, height: 30), transform: nil)
        moving.fillColor = CGColor(red: 0.2, green: 0.9, blue: 0.3, alpha: 0.7)
        root.addSublayer(moving)
        return RenderPlanBuilder(width: 120, height: 96, contentRasterizer: cache).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testKeptPassesGiveTheFramesADrawingRendererGives() throws {
        let cache = ContentCache()
        let images = FileImageProvider()
        let reusing = CPURenderer(threads: 2)
        let drawing = CPURenderer(threads: 2)
        drawing.reusesPasses = false
        // (root shift, shift inside the group, mask scale, passes expected kept)
        let frames: [(CGFloat, CGFloat, CGFloat, Int?)] = [
            (0, 0, 1, 0), (7, 0, 1, nil), (7, 0, 1, nil), (3.5, 4, 1, nil), (3.5, 4, 0.8, nil), (0, 0, 1, nil), (0, 0, 1, nil),
        ]
        var keptAny = false
        for (n, (shift, inner, scale, expected)) in frames.enumerated() {
            let plan = plan(shift: shift, inner: inner, maskScale: scale, cache: cache)
            XCTAssertGreaterThanOrEqual(plan.passes.count, 4, "the mask, the masked gradient and the group need passes")
            let reused = try XCTUnwrap(reusing.render(plan, images: images))
            let drawn = try XCTUnwrap(drawing.render(plan, images: images))
            XCTAssertGreaterThan(Set(reused.pixels).count, 50, "a frame with real content")
            XCTAssertEqual(reused.pixels, drawn.pixels, "frame \(n)")
            if let expected { XCTAssertEqual(reusing.keptPassCount, expected, "frame \(n)") }
            keptAny = keptAny || reusing.keptPassCount > 0
            XCTAssertEqual(drawing.keptPassCount, 0)
        }
        XCTAssertTrue(keptAny, "unchanged passes are kept")
    }

    /// Which passes are kept: those unchanged whose inputs were kept too.
    func testAPassIsKeptOnlyWhenItAndWhatItReadsAreUnchanged() throws {
        let cache = ContentCache()
        let images = FileImageProvider()
        let renderer = CPURenderer(threads: 1)
        let still = plan(shift: 0, inner: 0, maskScale: 1, cache: cache)
        _ = try XCTUnwrap(renderer.render(still, images: images))
        XCTAssertEqual(renderer.keptPassCount, 0, "a first frame draws everything")
        _ = try XCTUnwrap(renderer.render(plan(shift: 9, inner: 0, maskScale: 1, cache: cache), images: images))
        XCTAssertEqual(renderer.keptPassCount, still.passes.count - 1, "only the frame's own pass is drawn")
        let innerMoved = plan(shift: 9, inner: 3, maskScale: 1, cache: cache)
        _ = try XCTUnwrap(renderer.render(innerMoved, images: images))
        XCTAssertEqual(renderer.keptPassCount, innerMoved.passes.count - 2, "the group's pass is drawn again")
        _ = try XCTUnwrap(renderer.render(innerMoved, images: FileImageProvider()))
        XCTAssertEqual(renderer.keptPassCount, 0, "another image provider: nothing is kept")
    }
}
