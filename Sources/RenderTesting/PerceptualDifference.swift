import Foundation
import Rendering

/// Pixel-by-pixel comparison with swift-snapshot-testing's two knobs: `precision`, the share of
/// pixels that must match, and `perceptualPrecision`, how close a pixel must be to match —
/// its CIE94 colour difference (graphic-arts weights, sRGB → Lab under D65) at most
/// (1 − perceptualPrecision) × 100, where 1 means identical bytes. A ΔE of about 2.3 is the
/// smallest difference most people see, so 0.98 allows what the eye cannot tell apart.
public enum PerceptualDifference {
    /// The share of pixels of `a` and `b` (same size) that match under `perceptualPrecision`,
    /// comparing colours over opaque black (premultiplied) and alpha separately.
    public static func matchingFraction(_ a: Image, _ b: Image, perceptualPrecision: Float) -> Double? {
        guard a.width == b.width, a.height == b.height, a.width * a.height > 0 else { return nil }
        let threshold = Double(max(0, 1 - perceptualPrecision)) * 100
        let count = a.width * a.height
        var matching = 0
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for i in 0..<count {
                    let o = i * 4
                    if p[o] == q[o], p[o + 1] == q[o + 1], p[o + 2] == q[o + 2], p[o + 3] == q[o + 3] { matching += 1; continue }
                    guard threshold > 0 else { continue }
                    let alphaDelta = abs(Double(p[o + 3]) - Double(q[o + 3])) / 255 * 100
                    if alphaDelta <= threshold,
                       deltaE94(lab(p[o], p[o + 1], p[o + 2]), lab(q[o], q[o + 1], q[o + 2])) <= threshold {
                        matching += 1
                    }
                }
            }
        }
        return Double(matching) / Double(count)
    }

    /// CIE94 ΔE of two Lab colours (graphic-arts weights: kL = 1, K1 = 0.045, K2 = 0.015).
    public static func deltaE94(_ x: (l: Double, a: Double, b: Double), _ y: (l: Double, a: Double, b: Double)) -> Double {
        let dl = x.l - y.l
        let c1 = (x.a * x.a + x.b * x.b).squareRoot(), c2 = (y.a * y.a + y.b * y.b).squareRoot()
        let dc = c1 - c2
        let da = x.a - y.a, db = x.b - y.b
        let dh2 = max(0, da * da + db * db - dc * dc)
        let sc = 1 + 0.045 * c1, sh = 1 + 0.015 * c1
        return (dl * dl + (dc / sc) * (dc / sc) + dh2 / (sh * sh)).squareRoot()
    }

    /// Lab (D65) of an 8-bit sRGB colour.
    public static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (l: Double, a: Double, b: Double) {
        func linear(_ c: UInt8) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : Foundation.pow((v + 0.055) / 1.055, 2.4)
        }
        let (lr, lg, lb) = (linear(r), linear(g), linear(b))
        let x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047
        let y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
        let z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? Foundation.cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let (fx, fy, fz) = (f(x), f(y), f(z))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }
}
