import XCTest
import Geometry
import Layers
import Presentation
import Rendering
@testable import CPURenderer
import ContentRaster
import GLRenderer
import ImageIO
import TestSupport

/// The CPU reference renderer's own promises: deterministic output at any thread count.
final class CPURendererTests: XCTestCase {
    /// A frame exercising every path of the renderer: perspective textures (bilinear, trilinear),
    /// rounded corners and borders, a mask, group opacity, a blurred shadow, a gradient.
    private func plan() -> RenderPlan {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.position = CGPoint(x: 80, y: 60)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 300
        root.sublayerTransform = perspective
        var stripes = [UInt8]()
        for y in 0..<64 { for x in 0..<64 { stripes += (x / 3 + y / 5) % 2 == 0 ? [250, 240, 30, 255] : [20, 40, 200, 255] } }
        let image = CGImage(width: 64, height: 64, premultipliedRGBA: stripes)!
        for i in 0..<4 {
            let card = CALayer()
            card.frame = CGRect(x: 8 + CGFloat(i) * 38, y: 10, width: 34, height: 44)
            card.contents = image
            card.minificationFilter = i % 2 == 0 ? .trilinear : .linear
            card.transform = CATransform3DMakeRotation(0.5 - 0.3 * CGFloat(i), 0, 1, 0)
            card.cornerRadius = 6
            card.masksToBounds = i == 3
            card.borderWidth = 2
            card.borderColor = CGColor(gray: 1, alpha: 0.8)
            root.addSublayer(card)
        }
        let shadowed = CALayer()
        shadowed.frame = CGRect(x: 12, y: 64, width: 60, height: 40)
        shadowed.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.3, alpha: 1)
        shadowed.shadowOpacity = 0.8
        shadowed.shadowRadius = 5
        shadowed.opacity = 0.7
        let child = CALayer()
        child.frame = CGRect(x: 20, y: 10, width: 50, height: 20)
        child.backgroundColor = CGColor(red: 0.2, green: 0.8, blue: 0.3, alpha: 1)
        shadowed.addSublayer(child)
        let mask = CALayer()
        mask.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        mask.cornerRadius = 20
        mask.backgroundColor = CGColor(gray: 0, alpha: 1)
        shadowed.mask = mask
        root.addSublayer(shadowed)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 90, y: 64, width: 60, height: 44)
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)]
        gradient.type = .radial
        gradient.startPoint = CGPoint(x: 0.5, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        root.addSublayer(gradient)
        return RenderPlanBuilder(width: 160, height: 120, background: CGColor(gray: 0.1, alpha: 1))
            .plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testFramesAreByteIdenticalAcrossRunsAndThreadCounts() throws {
        let plan = plan()
        XCTAssertGreaterThan(plan.passes.count, 4, "the scene should need offscreen passes")
        let reference = try XCTUnwrap(CPURenderer(threads: 1).render(plan, images: FileImageProvider()))
        XCTAssertGreaterThan(Set(reference.pixels).count, 100, "a frame with real content")
        for threads in [1, 2, 3, 8] {
            let renderer = CPURenderer(threads: threads)
            for run in 0..<2 {
                let frame = try XCTUnwrap(renderer.render(plan, images: FileImageProvider()))
                XCTAssertEqual(frame.pixels, reference.pixels, "\(threads) threads, run \(run)")
            }
        }
    }

    /// Draws split into bands only where their items cover enough pixels to be worth the other
    /// threads; a frame with both kinds comes out the same at every thread count.
    func testSmallDrawsRunOnOneBandAndLargeOnesSplit() throws {
        XCTAssertEqual(CPURenderer.bandCount(work: 50_000, height: 400, threads: 2), 1)
        XCTAssertEqual(CPURenderer.bandCount(work: 10_000_000, height: 400, threads: 2), 8)
        XCTAssertEqual(CPURenderer.bandCount(work: 3 * CPURenderer.pixelsPerBand, height: 400, threads: 2), 3)
        XCTAssertEqual(CPURenderer.bandCount(work: 10_000_000, height: 5, threads: 2), 5, "no more bands than rows")
        XCTAssertEqual(CPURenderer.bandCount(work: 10_000_000, height: 400, threads: 1), 1)
        // A 640×480 frame of large translucent shapes (split) over a small faded group (one band).
        let root = rootLayer(width: 640, height: 480)
        for i in 0..<4 {
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: CGFloat(i) * 90 - 40, y: CGFloat(i) * 50, width: 420, height: 330)
            shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 420, height: 330), transform: nil)
            shape.fillColor = CGColor(red: CGFloat(i) / 4, green: 0.6, blue: 0.3, alpha: 0.7)
            shape.transform = CATransform3DMakeRotation(CGFloat(i) * 0.2, 0, 0, 1)
            root.addSublayer(shape)
        }
        let group = CALayer()
        group.frame = CGRect(x: 20, y: 20, width: 60, height: 40)
        group.opacity = 0.5
        group.backgroundColor = CGColor(red: 0.9, green: 0.1, blue: 0.2, alpha: 1)
        let inner = CALayer()
        inner.frame = CGRect(x: 10, y: 10, width: 30, height: 20)
        inner.backgroundColor = CGColor(red: 0.1, green: 0.2, blue: 0.9, alpha: 1)
        group.addSublayer(inner)
        root.addSublayer(group)
        let plan = RenderPlanBuilder(width: 640, height: 480, contentRasterizer: ContentCache()).plan(for: PresentationTree.evaluate(root, at: 0))
        XCTAssertGreaterThan(plan.passes.count, 1, "the faded group is a pass of its own")
        let reference = try XCTUnwrap(CPURenderer(threads: 1).render(plan, images: FileImageProvider()))
        for threads in [2, 3] {
            let frame = try XCTUnwrap(CPURenderer(threads: threads).render(plan, images: FileImageProvider()))
            XCTAssertTrue(frame.pixels == reference.pixels, "\(threads) threads")
        }
    }

    /// Random trees with extreme geometry — edge-on and zero-scale layers, layers behind the eye,
    /// far off-screen, huge — render without trapping, identically twice, and the GPU agrees.
    func testExtremeGeometryRendersDeterministicallyAndAgreesWithTheGPU() throws {
        // The particle system's hash as the random source: the same scene on every run.
        var draws = 0
        func random(_ upper: CGFloat) -> CGFloat {
            draws += 1
            return CGFloat(DeterministicRandom.unit(seed: 7, stream: 0, index: 0, draw: draws)) * upper
        }
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 96, height: 64)
        root.position = CGPoint(x: 48, y: 32)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 60
        root.sublayerTransform = perspective
        let scales: [CGFloat] = [0, 1e-6, 0.5, 1, 3, 1e4]
        for i in 0..<120 {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 4 + random(40), height: 4 + random(40))
            layer.position = CGPoint(x: random(200) - 50, y: random(160) - 48)
            layer.zPosition = random(160) - 80
            layer.backgroundColor = CGColor(red: random(1), green: random(1), blue: random(1), alpha: i % 3 == 0 ? 1 : 0.6)
            let angle = [0, CGFloat.pi / 2, random(7)][i % 3]
            let s = scales[i % scales.count]
            layer.transform = CATransform3DScale(CATransform3DMakeRotation(angle, i % 2 == 0 ? 0 : 1, 1, 0), s, s, 1)
            if i % 5 == 0 { layer.cornerRadius = random(20) }
            root.addSublayer(layer)
        }
        let plan = RenderPlanBuilder(width: 96, height: 64).plan(for: PresentationTree.evaluate(root, at: 0))
        let first = try XCTUnwrap(CPURenderer(threads: 2).render(plan, images: FileImageProvider()))
        let second = try XCTUnwrap(CPURenderer(threads: 3).render(plan, images: FileImageProvider()))
        XCTAssertEqual(first.pixels, second.pixels)
        let frame = try XCTUnwrap(try TestBackends.gpu().render(plan, images: FileImageProvider()))
        let difference = try XCTUnwrap(ImageComparison.compare(frame, first))
        XCTAssertGreaterThanOrEqual(difference.psnr, 40)
        XCTAssertLessThanOrEqual(difference.pixelsOverTolerance, difference.pixelCount / 200)
    }
}
