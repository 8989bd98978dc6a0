import XCTest
import Geometry
import Layers
import Presentation
@testable import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer
import TestSupport

/// A masked layer's pass covers what its mask covers grown to a grid of 1/16 of what the layer
/// draws (`maskTile`): a mask whose shape changes a little leaves the masked content's pass as it
/// was, so the CPU backend keeps its pixels, and the frames are still those of a renderer that
/// draws every pass.
final class MaskTileTests: XCTestCase {
    /// A large rotated gradient (a Lottie gradient fill's layer) under an ellipse mask of
    /// `inset` points smaller than 300×260 each side.
    private func plan(inset: CGFloat, cache: ContentCache) -> RenderPlan {
        let root = rootLayer(width: 160, height: 140)
        let gradient = diagonalGradient(frame: CGRect(x: -220, y: -240, width: 600, height: 620))
        gradient.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        gradient.opacity = 0.8
        let mask = CAShapeLayer()
        mask.frame = gradient.bounds
        mask.path = CGPath(ellipseIn: CGRect(x: 150 + inset, y: 180 + inset, width: 300 - 2 * inset, height: 260 - 2 * inset), transform: nil)
        mask.fillColor = CGColor(gray: 0, alpha: 1)
        gradient.mask = mask
        root.addSublayer(gradient)
        return RenderPlanBuilder(width: 160, height: 140, contentRasterizer: cache).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testAMaskChangingALittleKeepsTheMaskedPass() throws {
        let cache = ContentCache()
        let a = plan(inset: 0, cache: cache), b = plan(inset: 0.5, cache: cache)
        // The masked gradient's pass: its size and its items are the same in both plans.
        let content = { (plan: RenderPlan) in try XCTUnwrap(plan.passes.first { $0.items.contains { $0.role == "gradient" } }) }
        let passA = try content(a), passB = try content(b)
        XCTAssertEqual(passA.width, passB.width)
        XCTAssertEqual(passA.height, passB.height)
        XCTAssertEqual(passA.items.map(\.description), passB.items.map(\.description))
        // The mask's own pass follows the ellipse.
        func maskImage(_ plan: RenderPlan) -> CGImage? {
            guard case .image(let image, _, _, _)? = plan.passes.first(where: { $0.purpose.hasPrefix("mask of") })?.items.first?.paint else { return nil }
            return image
        }
        XCTAssertFalse(try XCTUnwrap(maskImage(a)) === XCTUnwrap(maskImage(b)))
        let images = FileImageProvider()
        let reusing = CPURenderer(threads: 2), drawing = CPURenderer(threads: 2)
        drawing.reusesPasses = false
        for (n, plan) in [a, b, a].enumerated() {
            let kept = try XCTUnwrap(reusing.render(plan, images: images)), drawn = try XCTUnwrap(drawing.render(plan, images: images))
            XCTAssertEqual(kept.pixels, drawn.pixels, "frame \(n)")
            if n > 0 { XCTAssertGreaterThanOrEqual(reusing.keptPassCount, 1, "the gradient's pass is kept in frame \(n)") }
        }
    }

    func testTheGridStartsAtTheRegionAndHoldsWhatTheMaskCovers() {
        typealias Walk = RenderPlanBuilder.Walk
        let region = CGRect(x: -100.5, y: 20, width: 320, height: 160)
        // 70/32 ≈ 2.19: a step of 2 points from the region's origin.
        let covered = CGRect(x: 3, y: 41, width: 70, height: 18.5)
        let tile = Walk.maskTile(covered, of: region)
        XCTAssertEqual(tile, CGRect(x: 1.5, y: 40, width: 72, height: 20))
        XCTAssertTrue(tile.contains(covered))
        // A little smaller or moved, the same tile.
        XCTAssertEqual(Walk.maskTile(covered.insetBy(dx: 0.4, dy: 0.3), of: region), tile)
        XCTAssertEqual(Walk.maskTile(.null, of: region), .null)
    }
}
