import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer
import TestSupport

/// The CPU renderer's packed loops (textures read packed, stored where the target is empty,
/// blends skipped where they change nothing; pass targets cleared only where they were drawn)
/// against its Float shading loop, on layer trees shaped like imported Lottie files.
final class CPUFastPathTests: XCTestCase {
    /// Shape layers as the Lottie importer makes them: filled and stroked paths on whole pixels
    /// and moved by fractions of one, rotated, faded, in a group with opacity, one masked, over
    /// a gradient; `shift` moves and turns them.
    private func plan(shift: CGFloat, cache: ContentCache) -> RenderPlan {
        let root = rootLayer(width: 120, height: 96)
        root.addSublayer(diagonalGradient(frame: CGRect(x: 4, y: 50, width: 90, height: 40)))
        let group = CALayer()
        group.frame = root.bounds
        group.opacity = 0.7
        root.addSublayer(group)
        for i in 0..<6 {
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: 6 + CGFloat(i) * 17 + (i % 2 == 0 ? shift : shift.rounded()), y: 8 + CGFloat(i % 3) * 14, width: 30, height: 26)
            let path = CGMutablePath()
            path.addEllipse(in: CGRect(x: 2, y: 3, width: 24, height: 20))
            path.addRect(CGRect(x: 10, y: 0, width: 8, height: 26))
            shape.path = path
            shape.fillColor = CGColor(red: CGFloat(i) / 6, green: 0.5, blue: 1 - CGFloat(i) / 6, alpha: i == 2 ? 0.6 : 1)
            shape.fillRule = .evenOdd
            shape.strokeColor = CGColor(gray: 0.1, alpha: 0.9)
            shape.lineWidth = 1.5
            if i == 3 { shape.transform = CATransform3DMakeRotation(0.4 + shift / 10, 0, 0, 1) }
            if i == 4 { shape.opacity = 0.5 }
            if i == 5 {
                let mask = CAShapeLayer()
                mask.frame = CGRect(x: 0, y: 0, width: 30, height: 26)
                mask.path = CGPath(ellipseIn: CGRect(x: 4, y: 2, width: 22, height: 22), transform: nil)
                mask.fillColor = CGColor(gray: 0, alpha: 1)
                shape.mask = mask
            }
            (i < 3 ? root : group).addSublayer(shape)
        }
        return RenderPlanBuilder(width: 120, height: 96, contentRasterizer: cache).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testPackedLoopsDrawWhatTheFloatLoopDraws() throws {
        let cache = ContentCache()
        for shift: CGFloat in [0, 0.3, 5.75] {
            let plan = plan(shift: shift, cache: cache)
            XCTAssertGreaterThan(plan.passes.count, 2, "the group and the mask need passes")
            let fast = try XCTUnwrap(CPURenderer(threads: 2).render(plan, images: FileImageProvider()))
            let reference = CPURenderer(threads: 2)
            reference.usesFastPaths = false
            let general = try XCTUnwrap(reference.render(plan, images: FileImageProvider()))
            XCTAssertGreaterThan(Set(fast.pixels).count, 50, "a frame with real content")
            // The packed loops round filter weights and fades to 8 bits: one step of 8 bits apart at most.
            let largest = zip(fast.pixels, general.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(largest, 1, "shift \(shift)")
        }
    }

    /// A renderer drawing frame after frame (targets reused, cleared only where the last frame
    /// drew) gives each frame exactly as a new renderer does.
    func testAReusedRendererDrawsEveryFrameAsANewOneDoes() throws {
        let cache = ContentCache()
        let renderer = CPURenderer(threads: 2)
        for shift: CGFloat in [0, 9, 0.5, 21, 0, 3.25] {
            let plan = plan(shift: shift, cache: cache)
            let reused = try XCTUnwrap(renderer.render(plan, images: FileImageProvider()))
            let fresh = try XCTUnwrap(CPURenderer(threads: 1).render(plan, images: FileImageProvider()))
            XCTAssertEqual(reused.pixels, fresh.pixels, "shift \(shift)")
        }
    }

    /// An image drawn in perspective again (a second frame, or a second layer) is sampled from
    /// its widened copy: exactly what its first, packed draw gives.
    func testAWidenedTextureDrawsWhatItsPackedDrawDraws() throws {
        var pixels = [UInt8](repeating: 0, count: 64 * 48 * 4)
        for y in 0..<48 {
            for x in 0..<64 {
                let i = (y * 64 + x) * 4, a = UInt8((x * 4 + y) % 256)
                // Premultiplied: colour channels at most alpha.
                pixels[i] = UInt8(Int(a) * x / 64); pixels[i + 1] = UInt8(Int(a) * y / 48); pixels[i + 2] = a / 2; pixels[i + 3] = a
            }
        }
        let image = try XCTUnwrap(CGImage(width: 64, height: 48, premultipliedRGBA: pixels))
        func plan(opacity: Float) -> RenderPlan {
            let root = rootLayer(width: 160, height: 120)
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 300
            root.sublayerTransform = perspective
            let layer = CALayer()
            layer.contents = image
            layer.frame = CGRect(x: 30, y: 25, width: 90, height: 70)
            layer.transform = CATransform3DMakeRotation(0.7, 0.3, 1, 0.2)
            layer.opacity = opacity
            root.addSublayer(layer)
            return RenderPlanBuilder(width: 160, height: 120, contentRasterizer: ContentCache()).plan(for: PresentationTree.evaluate(root, at: 0))
        }
        for opacity: Float in [1, 0.6] {
            let plan = plan(opacity: opacity)
            let packed = try XCTUnwrap(CPURenderer(threads: 1).render(plan, images: FileImageProvider()))
            XCTAssertGreaterThan(Set(packed.pixels).count, 100, "a frame with real content")
            let renderer = CPURenderer(threads: 2)
            _ = try XCTUnwrap(renderer.render(plan, images: FileImageProvider()))
            let widened = try XCTUnwrap(renderer.render(plan, images: FileImageProvider()))
            XCTAssertEqual(widened.pixels, packed.pixels, "opacity \(opacity)")
        }
    }
}
