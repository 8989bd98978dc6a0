import XCTest
@testable import CPURenderer

/// The four-pixel forms of the packed arithmetic give, lane by lane, the bytes of the one-pixel
/// forms the texel and gradient loops used before them (and still use at row edges).
final class PackedLaneTests: XCTestCase {
    /// Deterministic pseudo-random words, so a failure repeats.
    private struct Words {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 32)
        }
        /// A premultiplied pixel; one in eight transparent, one in eight opaque.
        mutating func pixel() -> UInt32 {
            let w = next()
            switch w & 7 {
            case 0: return 0
            case 1: return w | 0xFF00_0000
            default:
                let a = (w >> 24) & 0xFF
                return (next() % (a + 1)) | (next() % (a + 1)) << 8 | (next() % (a + 1)) << 16 | a << 24
            }
        }
    }

    func testFourPixelOverGivesTheBytesOfBlend() {
        var words = Words()
        for _ in 0..<20_000 {
            let src = SIMD4(words.pixel(), words.pixel(), words.pixel(), words.pixel())
            let dst = SIMD4(words.pixel(), words.pixel(), words.pixel(), words.pixel())
            let lanes = PackedSpans.over(src, dst)
            for i in 0..<4 {
                var expected = dst[i]
                PackedSpans.blend(PackedSpans.widen(src[i]), into: &expected)
                XCTAssertEqual(lanes[i], expected, "src \(String(src[i], radix: 16)) over \(String(dst[i], radix: 16))")
            }
        }
        // Saturation of channels above alpha (not premultiplied) as `over` saturates.
        let bright = SIMD4<UInt32>(repeating: 0x80FF_FFFF)
        XCTAssertEqual(PackedSpans.over(bright, SIMD4(repeating: 0xFFFF_FFFF)), SIMD4(repeating: PackedSpans.over(PackedSpans.widen(0x80FF_FFFF), 0xFFFF_FFFF)))
        XCTAssertEqual(PackedSpans.over(bright, SIMD4(repeating: 0xFFFF_FFFF))[0] & 0xFF, 0xFF)
    }

    func testFourPixelScaleGivesTheBytesOfScaleAndMultiply() {
        var words = Words()
        for _ in 0..<20_000 {
            let c = SIMD4(words.pixel(), words.pixel(), words.pixel(), words.pixel())
            let s = SIMD4(words.next() % 257, words.next() % 257, words.next() % 257, words.next() % 257)
            let scaled = PackedSpans.scale(c, rb: s | s &<< 16, ga: s | s &<< 16)
            let f = SIMD4(UInt64(words.next() % 257), UInt64(words.next() % 257), UInt64(words.next() % 257), UInt64(words.next() % 257))
            let tinted = TintFactors(factors: f).apply(c)
            for i in 0..<4 {
                XCTAssertEqual(scaled[i], PackedSpans.narrow(PackedSpans.scale(PackedSpans.widen(c[i]), UInt64(s[i]))))
                XCTAssertEqual(tinted[i], PackedSpans.narrow(PackedSpans.multiply(PackedSpans.widen(c[i]), f)))
            }
        }
        // A whole factor (256) leaves each channel as it is; none clears it.
        XCTAssertEqual(Faded(fade: 256).apply(SIMD4<UInt32>(repeating: 0xC0_80_40_FF)), SIMD4(repeating: 0xC0_80_40_FF))
        XCTAssertEqual(Faded(fade: 0).apply(SIMD4<UInt32>(repeating: 0xC0_80_40_FF)), .zero)
    }

    func testFourLanePackTruncatesAsUnorm8() {
        // Clamped below (negatives, NaN) and above 255.5, truncated between, exact on integers and halves.
        let edges: [Float] = [-1, -0.0, 0, 0.25, 0.5, 0.9999, 1, 1.5, 127.49, 127.5, 127.999, 128, 254.5, 254.99, 255, 255.4, 255.5,
                              255.9, 256, 1e9, .infinity, -.infinity, .nan, .leastNonzeroMagnitude]
        var words = Words()
        var values = edges
        for _ in 0..<4000 { values.append(Float(words.next() % 300_000) / 1000 - 20) }
        while values.count % 4 != 0 { values.append(0) }
        for i in stride(from: 0, to: values.count, by: 4) {
            let v = SIMD4(values[i], values[i + 1], values[i + 2], values[i + 3])
            let w = SIMD4(v[3], v[0], v[1], v[2])
            let packed = PackedSpans.pack(red: v, green: w, blue: v, alpha: w)
            for lane in 0..<4 {
                let expected = UInt32(PassRasterizer.unorm8(v[lane])) | UInt32(PassRasterizer.unorm8(w[lane])) << 8
                    | UInt32(PassRasterizer.unorm8(v[lane])) << 16 | UInt32(PassRasterizer.unorm8(w[lane])) << 24
                XCTAssertEqual(packed[lane], expected, "\(v[lane]), \(w[lane])")
            }
        }
    }
}
