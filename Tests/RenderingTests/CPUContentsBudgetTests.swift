import XCTest
import Geometry
import Layers
import Presentation
@testable import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer

/// The CPU backend's textures of layer contents are kept for reuse within a byte budget: a new
/// image every frame (what an animated Lottie path rasterizes to) does not pile up 30 frames of
/// them, while an image shown again and again keeps its texture.
final class CPUContentsBudgetTests: XCTestCase {
    /// A 64×64 frame showing `image` scaled into it, and a small `kept` image beside it.
    private func plan(_ image: CGImage, kept: CGImage) -> RenderPlan {
        let root = rootLayer(width: 64, height: 64)
        let big = CALayer()
        big.frame = CGRect(x: 0, y: 0, width: 48, height: 64)
        big.contents = image
        let small = CALayer()
        small.frame = CGRect(x: 48, y: 0, width: 16, height: 16)
        small.contents = kept
        root.addSublayer(big)
        root.addSublayer(small)
        return RenderPlanBuilder(width: 64, height: 64, contentRasterizer: ContentCache()).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    private func image(side: Int, value: UInt8) -> CGImage {
        CGImage(width: side, height: side, premultipliedRGBA: [UInt8](repeating: value, count: side * side * 4))!
    }

    func testANewImageEveryFrameStaysWithinTheBudget() throws {
        let renderer = CPURenderer(threads: 1), images = FileImageProvider()
        let kept = image(side: 16, value: 200)
        let side = 1500  // 9 MB a frame: 30 frames would be 270 MB
        for frame in 0..<24 {
            let drawn = try XCTUnwrap(renderer.render(plan(image(side: side, value: UInt8(frame * 10)), kept: kept), images: images))
            // The frame shows this frame's image, not a texture left from another.
            XCTAssertEqual(drawn[10, 10].r, UInt8(frame * 10))
            XCTAssertLessThanOrEqual(renderer.contentsBytes, renderer.contentsByteBudget + 2 * side * side * 4)
        }
        XCTAssertLessThan(renderer.contentsBytes, 24 * side * side * 4 / 2)
        // The small image drawn every frame is still kept.
        let before = renderer.contentsBytes
        _ = renderer.render(plan(image(side: 2, value: 1), kept: kept), images: images)
        XCTAssertLessThanOrEqual(renderer.contentsBytes, before + 16)
    }
}
