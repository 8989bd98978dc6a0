import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer
import TestSupport

/// Shape rasters on whole pixels, overlapping (the texel loop that blends packed texels as they
/// are): the frame is each raster's texels blended over the ones before with `PackedSpans.blend`,
/// byte for byte, and within one step of the Float loop.
final class CPUTexelBlendTests: XCTestCase {
    func testOverlappingRastersOnWholePixelsBlendTexelByTexel() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 90, height: 70)
        root.position = CGPoint(x: 45, y: 35)
        let fills: [(CGRect, CGColor)] = [
            (CGRect(x: -6, y: 4, width: 50, height: 40), CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1)),
            (CGRect(x: 20, y: 12, width: 44, height: 36), CGColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.6)),
            (CGRect(x: 30, y: 30, width: 70, height: 50), CGColor(red: 0.2, green: 0.8, blue: 0.3, alpha: 1)),
            (CGRect(x: 8, y: 20, width: 60, height: 24), CGColor(red: 1, green: 1, blue: 1, alpha: 0.35)),
        ]
        for (frame, color) in fills {
            let shape = CAShapeLayer()
            shape.frame = frame
            shape.path = CGPath(ellipseIn: CGRect(origin: .zero, size: frame.size), transform: nil)
            shape.fillColor = color
            shape.strokeColor = CGColor(gray: 0.1, alpha: 1)
            shape.lineWidth = 2
            root.addSublayer(shape)
        }
        let plan = RenderPlanBuilder(width: 90, height: 70, contentRasterizer: ContentCache()).plan(for: PresentationTree.evaluate(root, at: 0))
        let images = FileImageProvider()
        let fast = try XCTUnwrap(CPURenderer(threads: 2).render(plan, images: images))
        let reference = CPURenderer(threads: 1)
        reference.usesFastPaths = false
        let general = try XCTUnwrap(reference.render(plan, images: images))
        XCTAssertLessThanOrEqual(zip(fast.pixels, general.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0, 1)

        // The same by hand: every texel blended at its whole-pixel place.
        var expected = [UInt32](repeating: 0, count: 90 * 70)
        let items = try XCTUnwrap(plan.passes.last?.items)
        XCTAssertEqual(items.count, fills.count)
        for item in items {
            guard case .image(let image, _, _, _) = item.paint else { return XCTFail("a raster") }
            let pixels = try XCTUnwrap(images.pixels(for: image))
            let corner = item.transform.projecting(CGPoint(x: item.rect.minX, y: item.rect.minY))
            XCTAssertEqual(corner.x, corner.x.rounded(), accuracy: 1e-9, "on whole pixels")
            let ox = Int(corner.x.rounded()), oy = Int(corner.y.rounded())
            try expected.withUnsafeMutableBufferPointer { out in
                for ty in 0..<pixels.height {
                    for tx in 0..<pixels.width {
                        let x = ox + tx, y = oy + ty
                        guard x >= 0, x < 90, y >= 0, y < 70 else { continue }
                        let i = (ty * pixels.width + tx) * 4
                        let texel = UInt32(pixels.pixels[i]) | UInt32(pixels.pixels[i + 1]) << 8
                            | UInt32(pixels.pixels[i + 2]) << 16 | UInt32(pixels.pixels[i + 3]) << 24
                        PackedSpans.blend(PackedSpans.widen(texel), into: try XCTUnwrap(out.baseAddress) + y * 90 + x)
                    }
                }
            }
        }
        let expectedBytes = expected.flatMap { c in [UInt8(c & 255), UInt8(c >> 8 & 255), UInt8(c >> 16 & 255), UInt8(c >> 24)] }
        XCTAssertGreaterThan(Set(expected).count, 20, "overlapping content")
        XCTAssertEqual(zip(fast.pixels, expectedBytes).filter { $0 != $1 }.count, 0)
    }

    /// A texture is widened on its second bilinear draw: the bands of one draw (on several
    /// threads) ask once each but count as one draw.
    func testTheBandsOfOneDrawCountAsOneDraw() throws {
        let image = try XCTUnwrap(Image(width: 4, height: 3, pixels: (0..<48).map { UInt8($0 * 5) }))
        let texture = Texture(image)
        XCTAssertNil(texture.widenedTexelsIfReused(draw: 7))
        XCTAssertNil(texture.widenedTexelsIfReused(draw: 7), "another band of the same draw")
        let widened = try XCTUnwrap(texture.widenedTexelsIfReused(draw: 8), "a second draw")
        XCTAssertEqual(widened[5], PackedSpans.widen(texture.texels[5]))
        texture.invalidateDerived()
        XCTAssertNil(texture.widenedTexelsIfReused(draw: 8), "counted anew after the pixels change")
    }
}
