import XCTest
@testable import ImageIO

final class PremultiplyTests: XCTestCase {
    func testScalarPremultiplyMatchesRoundedFormulaForAllValues() {
        for a in 0...255 {
            for c in 0...255 {
                let expected = UInt8((c * a + 127) / 255)
                XCTAssertEqual(PremultipliedAlpha.premultiply(UInt8(c), alpha: UInt8(a)), expected, "c=\(c) a=\(a)")
            }
        }
    }

    func testBufferPremultiplyMatchesScalarForAllValues() {
        var pixels: [UInt8] = []
        for a in 0...255 {
            for c in 0...255 { pixels += [UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)] }
        }
        let original = pixels
        PremultipliedAlpha.premultiply(&pixels)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = original[i + 3]
            for k in 0..<3 {
                XCTAssertEqual(pixels[i + k], PremultipliedAlpha.premultiply(original[i + k], alpha: a))
            }
            XCTAssertEqual(pixels[i + 3], a)
        }
    }

    func testBufferUnpremultiplyMatchesFormulaForAllValues() {
        var pixels: [UInt8] = []
        for a in 0...255 {
            for c in 0...255 { pixels += [UInt8(c), UInt8(255 - c), UInt8(c / 3), UInt8(a)] }
        }
        let original = pixels
        PremultipliedAlpha.unpremultiply(&pixels)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Int(original[i + 3])
            for k in 0..<3 {
                let p = Int(original[i + k])
                // a = 255 leaves the pixel alone; a = 0 gives 0; otherwise the clamped rounded quotient.
                let expected = a == 255 ? p : a == 0 ? 0 : min(255, (p * 255 + a / 2) / a)
                XCTAssertEqual(Int(pixels[i + k]), expected, "p=\(p) a=\(a)")
                XCTAssertEqual(pixels[i + k], PremultipliedAlpha.unpremultiply(original[i + k], alpha: UInt8(a)))
            }
            XCTAssertEqual(Int(pixels[i + 3]), a)
        }
    }

    /// Unpremultiply then premultiply returns every valid premultiplied value (p ≤ a) unchanged:
    /// c = p·255/a + e with |e| ≤ ½, so c·a/255 = p + e·a/255 lies within ½ of p.
    func testUnpremultiplyThenPremultiplyIsExactForValidPremultipliedValues() {
        for a in 1...255 {
            for p in 0...a {
                let c = PremultipliedAlpha.unpremultiply(UInt8(p), alpha: UInt8(a))
                XCTAssertEqual(Int(PremultipliedAlpha.premultiply(c, alpha: UInt8(a))), p, "p=\(p) a=\(a)")
            }
        }
    }

    func testOpaqueAndTransparentPixels() {
        var pixels: [UInt8] = [10, 20, 30, 255, 10, 20, 30, 0]
        PremultipliedAlpha.premultiply(&pixels)
        XCTAssertEqual(pixels, [10, 20, 30, 255, 0, 0, 0, 0])
        PremultipliedAlpha.unpremultiply(&pixels)
        XCTAssertEqual(pixels, [10, 20, 30, 255, 0, 0, 0, 0])
    }
}
