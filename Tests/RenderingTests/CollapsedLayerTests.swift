import XCTest
import Geometry
import Layers
import Presentation
@testable import Rendering
import ContentRaster

/// A layer scaled to nothing in x or y (Lottie files hide layers so) draws no pixel, nor does
/// anything it flattens: the plan leaves out its subtree, masks and passes included.
final class CollapsedLayerTests: XCTestCase {
    private func plan(scale: (x: CGFloat, y: CGFloat)) -> RenderPlan {
        let root = rootLayer(width: 100, height: 100)
        let group = CALayer()
        group.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
        group.transform = CATransform3DMakeScale(scale.x, scale.y, 1)
        group.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let child = CAShapeLayer()
        child.frame = group.bounds
        child.path = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 60, height: 60), transform: nil)
        child.fillColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        child.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        group.addSublayer(child)
        let mask = CALayer()
        mask.frame = group.bounds
        mask.backgroundColor = CGColor(gray: 0, alpha: 1)
        group.mask = mask
        root.addSublayer(group)
        return RenderPlanBuilder(width: 100, height: 100, contentRasterizer: ContentCache()).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testALayerScaledToNothingIsLeftOut() {
        for scale: (x: CGFloat, y: CGFloat) in [(0, 1), (1, 0), (0, 0)] {
            let plan = plan(scale: scale)
            XCTAssertEqual(plan.passes.count, 1, "only the frame's own pass at scale \(scale)")
            XCTAssertTrue(plan.passes.allSatisfy { $0.items.isEmpty }, "no items at scale \(scale)")
        }
        // Scaled small but not to nothing, it is drawn: its mask's pass and the group.
        let small = plan(scale: (x: 0.01, y: 1))
        XCTAssertGreaterThan(small.passes.count, 1)
        XCTAssertFalse(small.passes.last?.items.isEmpty ?? true)
    }

    func testThePlaneCollapsesExactlyWhenItsMapIsSingular() {
        typealias Walk = RenderPlanBuilder.Walk
        XCTAssertTrue(Walk.collapsesPlane(CATransform3DMakeScale(0, 2, 1)))
        XCTAssertFalse(Walk.collapsesPlane(CATransform3DMakeScale(1e-9, 2, 1)))
        // Scaled to nothing in z only: the plane z = 0 is untouched.
        XCTAssertFalse(Walk.collapsesPlane(CATransform3DMakeScale(1, 1, 0)))
        // A skew that sends x and y the same way: every point lands on one line.
        var skew = CATransform3DIdentity
        (skew.m11, skew.m12, skew.m21, skew.m22) = (1, 2, 2, 4)
        XCTAssertTrue(Walk.collapsesPlane(skew))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        XCTAssertFalse(Walk.collapsesPlane(CATransform3DMakeRotation(0.5, 0, 1, 0).concatenating(perspective)))
    }
}
