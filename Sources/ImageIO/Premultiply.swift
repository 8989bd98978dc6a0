/// Conversions between straight and premultiplied alpha for RGBA8 pixels.
///
/// `Image` holds premultiplied RGBA8; PNG stores straight alpha, so the codecs convert on the way
/// in and out. Both directions round to nearest:
/// - premultiply: `p = (c·a + 127) / 255` (integer division), the nearest integer to `c·a/255`;
/// - unpremultiply: `c = min(255, (p·255 + a/2) / a)`, the nearest integer to `p·255/a`;
///   `a = 0` gives `(0, 0, 0, 0)`.
///
/// Opaque pixels (`a = 255`) are unchanged in both directions, and so is a fully transparent
/// premultiplied pixel. A translucent premultiplied pixel comes back from unpremultiply and
/// premultiply within 1 of itself per channel, and exactly for most values.
///
/// The buffer loops read and write one packed `UInt32` per pixel (R in the lowest byte on this
/// little-endian platform) and skip opaque pixels, which keeps typical frames at memory speed.
public enum PremultipliedAlpha {
    /// The premultiplied value of colour channel `c` under alpha `a`: `(c·a + 127) / 255`.
    @inlinable
    public static func premultiply(_ c: UInt8, alpha a: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: divideBy255Rounded(UInt32(c) &* UInt32(a)))
    }

    /// The straight value of premultiplied channel `p` under alpha `a`:
    /// `min(255, (p·255 + a/2) / a)`, and 0 when `a` is 0.
    @inlinable
    public static func unpremultiply(_ p: UInt8, alpha a: UInt8) -> UInt8 {
        guard a != 0 else { return 0 }
        let v = (UInt32(p) * 255 + UInt32(a) / 2) / UInt32(a)
        return UInt8(truncatingIfNeeded: min(v, 255))
    }

    /// Premultiplies straight RGBA8 pixels in place (`count` = number of pixels).
    public static func premultiply(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count {
            let w = UInt32(littleEndian: pixels[i])
            let a = w >> 24
            if a == 255 { continue }
            if a == 0 { pixels[i] = 0; continue }
            let r = divideBy255Rounded((w & 0xFF) &* a)
            let g = divideBy255Rounded(((w >> 8) & 0xFF) &* a)
            let b = divideBy255Rounded(((w >> 16) & 0xFF) &* a)
            pixels[i] = UInt32(littleEndian: r | g << 8 | b << 16 | a << 24)
        }
    }

    /// Un-premultiplies premultiplied RGBA8 pixels in place (`count` = number of pixels).
    ///
    /// Channels larger than alpha (not valid premultiplied data) clamp to 255.
    public static func unpremultiply(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        reciprocals.withUnsafeBufferPointer { recip in
            for i in 0..<count {
                let w = UInt32(littleEndian: pixels[i])
                let a = w >> 24
                if a == 255 { continue }
                if a == 0 { pixels[i] = 0; continue }
                let m = UInt64(recip[Int(a)])
                let half = a / 2
                @inline(__always) func channel(_ p: UInt32) -> UInt32 {
                    // floor((p·255 + a/2) / a) as a multiply and shift; exact for every p, a ≤ 255
                    // (checked exhaustively by the tests).
                    let q = UInt32(truncatingIfNeeded: (UInt64(p &* 255 &+ half) &* m) >> 24)
                    return min(q, 255)
                }
                let r = channel(w & 0xFF)
                let g = channel((w >> 8) & 0xFF)
                let b = channel((w >> 16) & 0xFF)
                pixels[i] = UInt32(littleEndian: r | g << 8 | b << 16 | a << 24)
            }
        }
    }

    /// Premultiplies a straight RGBA8 byte array in place.
    public static func premultiply(_ pixels: inout [UInt8]) {
        let count = pixels.count / 4
        pixels.withUnsafeMutableBytes { raw in
            UnsafeMutableRawBufferPointer(rebasing: raw[0..<count * 4]).withMemoryRebound(to: UInt32.self) { words in
                if let base = words.baseAddress { premultiply(base, count: count) }
            }
        }
    }

    /// Un-premultiplies a premultiplied RGBA8 byte array in place.
    public static func unpremultiply(_ pixels: inout [UInt8]) {
        let count = pixels.count / 4
        pixels.withUnsafeMutableBytes { raw in
            UnsafeMutableRawBufferPointer(rebasing: raw[0..<count * 4]).withMemoryRebound(to: UInt32.self) { words in
                if let base = words.baseAddress { unpremultiply(base, count: count) }
            }
        }
    }

    /// `(x + 127) / 255` for `x ≤ 255·255`, without a division.
    @inlinable @inline(__always)
    static func divideBy255Rounded(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// `ceil(2²⁴ / a)` for a in 1…255 (index 0 unused).
    static let reciprocals: [UInt32] = (0..<256).map { (a: Int) -> UInt32 in
        let numerator: Int = (1 << 24) + a - 1
        return a == 0 ? 0 : UInt32(numerator / a)
    }
}
