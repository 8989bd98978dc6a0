import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer
import TestSupport

/// The textured loop's samplers (packed or widened texels, masked or not) and the packed
/// shortcuts beside them compute what the operations they replace compute, bit for bit.
final class CPUTexelSamplerTests: XCTestCase {
    /// Reproducible texels: runs of equal alpha (the four-equal shortcut), 0 and 255 among them.
    private func texels(width: Int, height: Int, seed: UInt64) -> [UInt32] {
        var state = seed
        func next() -> UInt32 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        return (0..<(width * height)).map { i in
            let alpha: UInt32 = [0, 255, next() & 255][Int(next() % 3)]
            return (i % 5 == 0 ? 0 : next() & 0x00FF_FFFF) | alpha << 24
        }
    }

    func testMaskAlphaAloneIsTheAlphaLaneOfTheFullSample() {
        let width = 13, height = 9
        let t = texels(width: width, height: height, seed: 7)
        t.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            // Fixed-point coordinates inside, on texel centres and past every edge (clamped).
            for y in stride(from: Int32(-3 << 16), through: Int32((height + 2) << 16), by: 9_311) {
                for x in stride(from: Int32(-3 << 16), through: Int32((width + 2) << 16), by: 7_919) {
                    let full = PackedSpans.bilinear(base, width: width, height: height, x: x, y: y) >> 48
                    XCTAssertEqual(PackedSpans.bilinearAlpha(base, width: width, height: height, x: x, y: y), full, "at \(x), \(y)")
                }
            }
        }
    }

    func testSamplesInsideTheTextureAreTheClampedSamples() {
        let width = 11, height = 8
        let color = texels(width: width, height: height, seed: 21), mask = texels(width: width, height: height, seed: 22)
        let widened = color.map(PackedSpans.widen)
        color.withUnsafeBufferPointer { c in
            mask.withUnsafeBufferPointer { k in
                widened.withUnsafeBufferPointer { w in
                    let packed = PackedTexels(texels: c.baseAddress!, width: width, height: height)
                    let wide = WidenedTexels(texels: w.baseAddress!, width: width, height: height)
                    let fade = Faded(fade: 200)
                    let samplers: [any TexelSampler] = [
                        UnmaskedSampler(color: packed, m: Unmodulated()), UnmaskedSampler(color: wide, m: fade),
                        MaskedSampler(color: packed, mask: k.baseAddress!, width: width, height: height, m: fade),
                        MaskedSampler(color: wide, mask: k.baseAddress!, width: width, height: height, m: Unmodulated()),
                    ]
                    for sampler in samplers {
                        var inside = 0
                        for y in stride(from: Int32(-1 << 16), through: Int32(height << 16), by: 5_531) {
                            for x in stride(from: Int32(-1 << 16), through: Int32(width << 16), by: 4_099)
                            where sampler.reachesOnlyInside(u: x, x, v: y, y) {
                                inside += 1
                                XCTAssertEqual(sampler.sampleInside(x, y), sampler.sample(x, y), "\(type(of: sampler)) at \(x), \(y)")
                            }
                        }
                        XCTAssertGreaterThan(inside, 500)
                        XCTAssertFalse(sampler.reachesOnlyInside(u: 0, Int32(width - 1) << 16, v: 0, 0), "the last column's right neighbour is clamped")
                        XCTAssertFalse(sampler.reachesOnlyInside(u: 0, 0, v: -1, 0), "above the first row")
                    }
                }
            }
        }
    }

    func testPackedBlendIsTheWidenedBlend() {
        let colors = texels(width: 40, height: 40, seed: 3) + [0, 0xFF00_0000, 0xFFFF_FFFF, 0x0100_0000]
        let backdrops = texels(width: 20, height: 20, seed: 11) + [0, 0xFF00_0000, 0x8040_2010]
        for c in colors {
            for d in backdrops {
                var viaWidened = d, viaPacked = d
                PackedSpans.blend(PackedSpans.widen(c), into: &viaWidened)
                PackedSpans.blendPacked(c, into: &viaPacked)
                XCTAssertEqual(viaPacked, viaWidened, "\(String(c, radix: 16)) over \(String(d, radix: 16))")
            }
        }
    }

    func testScalingByAWholeMaskTexelLeavesTheTexel() {
        for c in texels(width: 64, height: 16, seed: 5) + [0xFFFF_FFFF] {
            let a: UInt64 = 255
            XCTAssertEqual(PackedSpans.scale(PackedSpans.widen(c), a + (a >> 7)), PackedSpans.widen(c))
        }
    }

    /// A gradient under an ellipse mask, turned (so bilinear-sampled), over a shape: the first
    /// frame samples the gradient's pass packed, the second (the pass kept, drawn again) from its
    /// widened texels; both frames are the same bytes, as are a renderer's that keeps nothing, and
    /// within two steps of the Float loop (the mask's alpha, the fade and the colour each rounded
    /// to 8 bits; the loops before these samplers gave the same frame).
    func testWidenedAndPackedMaskedSamplesGiveTheSameFrame() throws {
        let root = rootLayer(width: 120, height: 100)
        let below = CAShapeLayer()
        below.frame = root.bounds
        below.path = CGPath(rect: CGRect(x: 6, y: 30, width: 108, height: 40), transform: nil)
        below.fillColor = CGColor(red: 0.9, green: 0.6, blue: 0.1, alpha: 1)
        root.addSublayer(below)
        let gradient = diagonalGradient(frame: CGRect(x: 20, y: 14, width: 76, height: 70))
        let mask = CAShapeLayer()
        mask.frame = gradient.bounds
        mask.path = CGPath(ellipseIn: CGRect(x: 4, y: 5, width: 66, height: 60), transform: nil)
        mask.fillColor = CGColor(gray: 0, alpha: 1)
        gradient.mask = mask
        gradient.opacity = 0.8
        gradient.transform = CATransform3DMakeRotation(2.9, 0, 0, 1)
        root.addSublayer(gradient)
        let plan = RenderPlanBuilder(width: 120, height: 100, contentRasterizer: ContentCache()).plan(for: PresentationTree.evaluate(root, at: 0))
        let images = FileImageProvider()
        let renderer = CPURenderer(threads: 2)
        let first = try XCTUnwrap(renderer.render(plan, images: images))
        let second = try XCTUnwrap(renderer.render(plan, images: images))
        XCTAssertGreaterThan(renderer.keptPassCount, 0, "the gradient's pass is kept and sampled again")
        XCTAssertGreaterThan(Set(first.pixels).count, 100, "a frame with real content")
        XCTAssertEqual(second.pixels, first.pixels)
        let fresh = CPURenderer(threads: 1)
        fresh.reusesPasses = false
        XCTAssertEqual(try XCTUnwrap(fresh.render(plan, images: images)).pixels, first.pixels)
        let reference = CPURenderer(threads: 1)
        reference.usesFastPaths = false
        let general = try XCTUnwrap(reference.render(plan, images: images))
        XCTAssertLessThanOrEqual(zip(first.pixels, general.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0, 2)
    }
}
