import XCTest
import Geometry
import Layers
import Presentation
@testable import Rendering
import ContentRaster
import ImageIO
import CPURenderer

/// A turned layer that must be drawn in a pass of its own (a mask, group opacity) is drawn into
/// a pass of the target's own pixels and copied one to one (`rotatedTargetPass`), not drawn in
/// its own space and resampled turned: it looks as the layer drawn straight into the target.
final class TargetPixelPassTests: XCTestCase {
    /// A 120×100 frame with a 50×40 card turned 0.4 rad, holding a red square and, when
    /// `masked`, under a mask covering all of it (so the mask changes nothing it shows).
    private func scene(masked: Bool) -> CALayer {
        let root = rootLayer(width: 120, height: 100)
        root.backgroundColor = CGColor(gray: 1, alpha: 1)
        let card = CALayer()
        card.frame = CGRect(x: 35, y: 30, width: 50, height: 40)
        card.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
        let square = CALayer()
        square.frame = CGRect(x: 5.3, y: 4.7, width: 30, height: 30)
        square.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.2, alpha: 1)
        card.addSublayer(square)
        if masked {
            let mask = CAShapeLayer()
            mask.frame = CGRect(x: -10, y: -10, width: 70, height: 60)
            mask.path = CGPath(rect: mask.bounds, transform: nil)
            mask.fillColor = CGColor(gray: 0, alpha: 1)
            card.mask = mask
        }
        root.addSublayer(card)
        return root
    }

    private func plan(_ root: CALayer) -> RenderPlan {
        RenderPlanBuilder(width: 120, height: 100, contentRasterizer: ContentCache()).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testTheTurnedLayersPassIsMadeOfTargetPixels() throws {
        let plan = plan(scene(masked: true))
        let group = try XCTUnwrap(plan.passes.last?.items.first { $0.role == "group" })
        XCTAssertTrue(group.transform.isIdentity)
        XCTAssertEqual(group.rect, group.rect.integral)
        guard case .pass(let id, _) = group.paint else { return XCTFail("the group draws a pass: \(group.paint)") }
        let pass = try XCTUnwrap(plan.passes.first { $0.id == id })
        XCTAssertEqual(CGFloat(pass.width), group.rect.width)
        XCTAssertEqual(CGFloat(pass.height), group.rect.height)
        XCTAssertNotNil(group.maskPass)
    }

    /// Masked or not, the same pixels: what a pass in the layer's space resampled turned blurs
    /// along every edge (by up to a third of full scale here) stays within 1/255.
    func testAMaskCoveringEverythingLooksLikeNoMask() throws {
        let renderer = CPURenderer(threads: 1), images = FileImageProvider()
        let masked = try XCTUnwrap(renderer.render(plan(scene(masked: true)), images: images))
        let plain = try XCTUnwrap(renderer.render(plan(scene(masked: false)), images: images))
        let largest = zip(masked.pixels, plain.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(largest, 1)
        // The square is there: the card's centre is red.
        XCTAssertGreaterThan(masked[60, 50].r, 200)
        XCTAssertLessThan(masked[60, 50].g, 60)
    }
}
