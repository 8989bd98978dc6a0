import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer
import TestSupport

/// The CPU renderer's gradient loop (`drawGradient`) against its Float shading loop: the same
/// bytes, for axial and radial gradients with hard edges, padding, fades, rotation, perspective
/// and overlap.
final class CPUGradientSpanTests: XCTestCase {
    private func gradient(_ type: CAGradientLayerType, frame: CGRect, colors: [CGColor], locations: [NSNumber]?,
                          start: CGPoint, end: CGPoint) -> CAGradientLayer {
        let g = CAGradientLayer()
        g.type = type
        g.frame = frame
        g.colors = colors
        g.locations = locations
        g.startPoint = start
        g.endPoint = end
        return g
    }

    private func plan(angle: CGFloat, perspective: Bool) -> RenderPlan {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 140, height: 110)
        root.position = CGPoint(x: 70, y: 55)
        if perspective {
            var t = CATransform3DIdentity
            t.m34 = -1.0 / 250
            root.sublayerTransform = t
        }
        let red = CGColor(red: 0.9, green: 0.1, blue: 0.2, alpha: 1), blue = CGColor(red: 0.1, green: 0.3, blue: 0.95, alpha: 0.7)
        let green = CGColor(red: 0.2, green: 0.8, blue: 0.3, alpha: 0.35), clear = CGColor(red: 1, green: 1, blue: 1, alpha: 0)
        // Three stops with a hard edge (two equal locations), padded beyond both ends.
        let axial = gradient(.axial, frame: CGRect(x: 6, y: 8, width: 90, height: 60), colors: [red, blue, green, clear],
                             locations: [0.1, 0.45, 0.45, 0.9], start: CGPoint(x: 0.05, y: 0.3), end: CGPoint(x: 0.95, y: 0.6))
        axial.transform = CATransform3DMakeRotation(angle, 0, 0, 1)
        axial.opacity = 0.8
        root.addSublayer(axial)
        let radial = gradient(.radial, frame: CGRect(x: 40, y: 30, width: 80, height: 70), colors: [green, red, blue],
                              locations: nil, start: CGPoint(x: 0.4, y: 0.5), end: CGPoint(x: 1, y: 1))
        radial.transform = perspective ? CATransform3DMakeRotation(0.6, 0.2, 1, 0) : CATransform3DMakeRotation(-angle, 0, 0, 1)
        root.addSublayer(radial)
        // One stop, and a degenerate radial (start = end in x): a single colour each.
        root.addSublayer(gradient(.axial, frame: CGRect(x: 100, y: 4, width: 30, height: 20), colors: [blue], locations: nil,
                                  start: CGPoint(x: 0, y: 0), end: CGPoint(x: 1, y: 0)))
        root.addSublayer(gradient(.radial, frame: CGRect(x: 100, y: 80, width: 30, height: 20), colors: [red, green], locations: nil,
                                  start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 0.5, y: 1)))
        // An opaque layer over part of them: the pixels it owns are not shaded.
        let cover = CALayer()
        cover.frame = CGRect(x: 50, y: 20, width: 25, height: 40)
        cover.backgroundColor = CGColor(red: 0.3, green: 0.3, blue: 0.3, alpha: 1)
        root.addSublayer(cover)
        return RenderPlanBuilder(width: 140, height: 110, contentRasterizer: ContentCache()).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testTheGradientLoopDrawsTheFloatLoopsBytes() throws {
        for (angle, perspective) in [(0.0, false), (0.35, false), (2.2, false), (0.0, true)] {
            let plan = plan(angle: CGFloat(angle), perspective: perspective)
            XCTAssertEqual(plan.passes.flatMap(\.items).filter { if case .gradient = $0.paint { true } else { false } }.count, 4)
            let fast = try XCTUnwrap(CPURenderer(threads: 2).render(plan, images: FileImageProvider()))
            let reference = CPURenderer(threads: 2)
            reference.usesFastPaths = false
            let general = try XCTUnwrap(reference.render(plan, images: FileImageProvider()))
            XCTAssertGreaterThan(Set(fast.pixels).count, 200, "a frame with real content")
            let differing = zip(fast.pixels, general.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "angle \(angle) perspective \(perspective)")
        }
    }
}
