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

    /// Whole-pixel texels in runs of eight checked two words at a time (all transparent: left;
    /// all opaque: copied; else one by one), and row extents scanned the same way: blocks with one
    /// texel off in every position, over a translucent backdrop, give each texel blended by hand.
    func testTexelRunsCheckedWordByWordBlendTexelByTexel() throws {
        let width = 64, height = 24
        var texels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let k = (y + x / 8) % 8, inBlock = x % 8
                switch (y / 4) % 6 {
                case 0: texels[y * width + x] = 0xFF10_2030                                        // opaque runs
                case 1: texels[y * width + x] = inBlock == k ? 0xFE10_2030 : 0xFF10_2030          // one alpha 254
                case 2: texels[y * width + x] = inBlock == k ? 0x8040_2010 : 0                    // one texel set
                case 3: texels[y * width + x] = inBlock == k ? 0 : 0xFF80_4020                    // one hole
                case 4: texels[y * width + x] = x < 8 * (y % 4) + 3 ? 0 : 0x7F3F_2F1F             // ragged extents
                default: texels[y * width + x] = 0
                }
            }
        }
        let bytes = texels.flatMap { c in [UInt8(c & 255), UInt8(c >> 8 & 255), UInt8(c >> 16 & 255), UInt8(c >> 24)] }
        let image = try XCTUnwrap(CGImage(width: width, height: height, premultipliedRGBA: bytes))
        func plan(withImage: Bool) -> RenderPlan {
            let root = rootLayer(width: CGFloat(width), height: CGFloat(height))
            let backdrop = CALayer()
            backdrop.frame = CGRect(x: 0, y: 0, width: width, height: height - 4)
            backdrop.backgroundColor = CGColor(red: 0.2, green: 0.7, blue: 0.4, alpha: 0.5)
            root.addSublayer(backdrop)
            if withImage {
                let layer = CALayer()
                layer.frame = root.bounds
                layer.contents = image
                root.addSublayer(layer)
            }
            return RenderPlanBuilder(width: width, height: height, contentRasterizer: ContentCache())
                .plan(for: PresentationTree.evaluate(root, at: 0))
        }
        let images = FileImageProvider()
        let under = try XCTUnwrap(CPURenderer(threads: 1).render(plan(withImage: false), images: images))
        let frame = try XCTUnwrap(CPURenderer(threads: 1).render(plan(withImage: true), images: images))
        var expected = under.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }   // little-endian RGBA8
        expected.withUnsafeMutableBufferPointer { out in
            for i in 0..<(width * height) { PackedSpans.blend(PackedSpans.widen(texels[i]), into: out.baseAddress! + i) }
        }
        let expectedBytes = expected.flatMap { c in [UInt8(c & 255), UInt8(c >> 8 & 255), UInt8(c >> 16 & 255), UInt8(c >> 24)] }
        XCTAssertEqual(frame.pixels.count, expectedBytes.count)
        XCTAssertEqual(zip(frame.pixels, expectedBytes).filter { $0 != $1 }.count, 0)
        XCTAssertGreaterThanOrEqual(Set(expected).count, 6, "every kind of block shows")
        XCTAssertGreaterThan(zip(frame.pixels, under.pixels).filter { $0 != $1 }.count, 2000, "the texels change the backdrop")
        // The texture's row extents: the first and last texel holding anything, per row.
        let texture = Texture(try XCTUnwrap(images.pixels(for: image)))
        let extents = try XCTUnwrap(texture.rowExtents)
        for y in 0..<height {
            let row = texels[(y * width)..<((y + 1) * width)]
            let first = row.firstIndex { $0 != 0 }.map { $0 - y * width }, last = row.lastIndex { $0 != 0 }.map { $0 - y * width }
            let found = (Int(extents[2 * y]), Int(extents[2 * y + 1]))
            if let first, let last { XCTAssertTrue(found == (first, last + 1), "row \(y): \(found)") } else { XCTAssertTrue(found.1 <= found.0, "row \(y) empty") }
        }
    }

    /// Axis-aligned rectangles look their rows' spans up: the same spans as the edge functions
    /// give, row by row (fractional corners, edges on pixel centres, clipped to the bounds,
    /// thinner than a pixel); other polygons go on through the edge functions.
    func testRectangleSpansAreTheEdgeFunctionsSpans() throws {
        let bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        var rectangles = 0
        for (x, y, w, h) in [(2.0, 3.0, 10.0, 7.0), (0.5, 0.5, 12.0, 3.0), (-4.3, 27.6, 50.0, 9.0), (7.49, 2.51, 0.02, 8.0),
                             (3.2, 4.7, 11.9, 0.6), (10.0, 10.0, 20.0, 20.0)] as [(CGFloat, CGFloat, CGFloat, CGFloat)] {
            for angle in [0.0, 0.3] as [CGFloat] {
                let corners = [CGPoint(x: 0, y: 0), CGPoint(x: w, y: 0), CGPoint(x: w, y: h), CGPoint(x: 0, y: h)]
                let transform = CATransform3DConcat(CATransform3DMakeRotation(angle, 0, 0, 1), CATransform3DMakeTranslation(x, y, 0))
                guard let polygon = ScreenPolygon(corners: corners, transform: transform, bounds: bounds) else { continue }
                XCTAssertEqual(polygon.isAxisAlignedRectangle, angle == 0)
                if angle == 0 { rectangles += 1 }
                for row in -2..<34 { XCTAssertEqual(polygon.span(row: row), polygon.edgeSpan(row: row), "\((x, y, w, h, angle)) row \(row)") }
            }
        }
        XCTAssertGreaterThanOrEqual(rectangles, 5)
    }
}
