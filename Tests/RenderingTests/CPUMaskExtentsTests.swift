import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer
import TestSupport

/// Masked textures are drawn only where their mask holds anything (the mask pass's row extents
/// and tiles): frames byte for byte as drawing the whole item gives them.
final class CPUMaskExtentsTests: XCTestCase {
    /// A gradient under an ellipse mask (lottie-ios's gradient fill), turned by `angle` and
    /// moved by `shift`, faded by `opacity`, over an opaque shape, beside a second masked one.
    private func plan(angle: CGFloat, shift: CGFloat, opacity: Float, cache: ContentCache) -> RenderPlan {
        let root = rootLayer(width: 140, height: 110)
        let below = CAShapeLayer()
        below.frame = root.bounds
        below.path = CGPath(rect: CGRect(x: 10, y: 10, width: 120, height: 50), transform: nil)
        below.fillColor = CGColor(red: 0.2, green: 0.3, blue: 0.9, alpha: 1)
        root.addSublayer(below)
        for i in 0..<2 {
            let gradient = diagonalGradient(frame: CGRect(x: 8 + CGFloat(i) * 62 + shift, y: 20 + shift, width: 60, height: 70))
            let mask = CAShapeLayer()
            mask.frame = gradient.bounds
            mask.path = CGPath(ellipseIn: CGRect(x: 3, y: 6, width: 52, height: 58), transform: nil)
            mask.fillColor = CGColor(gray: 0, alpha: 1)
            gradient.mask = mask
            gradient.opacity = opacity
            if i == 0 { gradient.transform = CATransform3DMakeRotation(angle, 0, 0, 1) }
            root.addSublayer(gradient)
        }
        return RenderPlanBuilder(width: 140, height: 110, contentRasterizer: cache).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testMaskedDrawsNarrowedToTheMaskGiveTheWholeDrawsFrames() throws {
        let cache = ContentCache()
        let narrowing = CPURenderer(threads: 2)
        let whole = CPURenderer(threads: 2)
        whole.narrowsToMasks = false
        for (angle, shift, opacity) in [(0.0, 0.0, Float(1)), (0.35, 0.0, 1), (3.0, 0.4, 0.6), (0.0, 2.0, 0.75)] as [(CGFloat, CGFloat, Float)] {
            let plan = plan(angle: angle, shift: shift, opacity: opacity, cache: cache)
            XCTAssertGreaterThanOrEqual(plan.passes.count, 5, "two masks and two masked gradients need passes")
            let narrowed = try XCTUnwrap(narrowing.render(plan, images: FileImageProvider()))
            let reference = try XCTUnwrap(whole.render(plan, images: FileImageProvider()))
            XCTAssertGreaterThan(Set(narrowed.pixels).count, 100, "a frame with real content")
            XCTAssertEqual(narrowed.pixels, reference.pixels, "angle \(angle), shift \(shift), opacity \(opacity)")
            // The gradient shows inside the ellipse, the shape below outside it.
            let inside = narrowed[8 + 62 + 30 + Int(shift), 20 + 35 + Int(shift)]
            XCTAssertGreaterThan(inside.r, 60, "the gradient's red half inside the second ellipse")
            let corner = narrowed[8 + 62 + 1 + Int(shift), 20 + 1 + Int(shift)]
            XCTAssertTrue(corner == (51, 76, 230, 255), "outside the mask only the shape below shows: \(corner)")
        }
    }
}
