import Foundation

/// Bilinear samples of a texture's texels at 16.16 fixed-point texel coordinates (half texel
/// subtracted), widened (`PackedSpans.bilinear`).
protocol BilinearTexels {
    var width: Int { get }
    var height: Int { get }
    func bilinear(_ x: Int32, _ y: Int32) -> UInt64
}

/// Texels as they are stored, RGBA8 packed.
struct PackedTexels: BilinearTexels {
    let texels: UnsafePointer<UInt32>
    let width: Int, height: Int
    @inline(__always) func bilinear(_ x: Int32, _ y: Int32) -> UInt64 {
        PackedSpans.bilinear(texels, width: width, height: height, x: x, y: y)
    }
}

/// Texels widened once for many samples (`Texture.widenedTexelsIfReused`).
struct WidenedTexels: BilinearTexels {
    let texels: UnsafePointer<UInt64>
    let width: Int, height: Int
    @inline(__always) func bilinear(_ x: Int32, _ y: Int32) -> UInt64 {
        PackedSpans.bilinear(texels, width: width, height: height, x: x, y: y)
    }
}

/// What a textured item's pixel shows before it is blended: its texture's bilinear sample,
/// masked and modulated. A type per combination, so the pixel loop is compiled for each.
protocol TexelSampler {
    var width: Int { get }
    func sample(_ x: Int32, _ y: Int32) -> UInt64
}

/// The modulated sample.
struct UnmaskedSampler<C: BilinearTexels, M: TexelModulation>: TexelSampler {
    let color: C
    let m: M
    var width: Int { color.width }
    @inline(__always) func sample(_ x: Int32, _ y: Int32) -> UInt64 { m.apply(color.bilinear(x, y)) }
}

/// The modulated sample times the alpha of a mask of the texture's size sampled at the same place.
struct MaskedSampler<C: BilinearTexels, M: TexelModulation>: TexelSampler {
    let color: C
    let mask: UnsafePointer<UInt32>
    let width: Int, height: Int
    let m: M

    init(color: C, mask: UnsafePointer<UInt32>, width: Int, height: Int, m: M) {
        self.color = color; self.mask = mask; self.width = width; self.height = height; self.m = m
    }

    @inline(__always) func sample(_ x: Int32, _ y: Int32) -> UInt64 {
        let a = PackedSpans.bilinearAlpha(mask, width: width, height: height, x: x, y: y)
        if a == 0 { return 0 }
        return m.apply(PackedSpans.scale(color.bilinear(x, y), a + (a >> 7)))  // 0…255 → 0…256
    }
}

extension PackedSpans {
    /// The alpha channel of `bilinear` alone (0…255): the lanes of `lerp` never carry into each
    /// other, so the alpha lane's arithmetic is the same on its own.
    @inline(__always)
    static func bilinearAlpha(_ texels: UnsafePointer<UInt32>, width: Int, height: Int, x: Int32, y: Int32) -> UInt64 {
        let (t00, t10, t01, t11) = quad(texels, width: width, height: height, x: x, y: y)
        let a00 = UInt64(t00 >> 24), a10 = UInt64(t10 >> 24), a01 = UInt64(t01 >> 24), a11 = UInt64(t11 >> 24)
        if a00 == a10, a00 == a01, a00 == a11 { return a00 }
        let wx = UInt64(truncatingIfNeeded: x >> 8) & 255, wy = UInt64(truncatingIfNeeded: y >> 8) & 255
        let top = (a00 &* (256 - wx) &+ a10 &* wx &+ 0x80) >> 8, bottom = (a01 &* (256 - wx) &+ a11 &* wx &+ 0x80) >> 8
        return (top &* (256 - wy) &+ bottom &* wy &+ 0x80) >> 8
    }
}

extension PackedSpans {
    /// `blend(widen(c), into: p)` for a packed colour: stored where it is opaque or the pixel is
    /// transparent zero (nothing over nothing stores the zero that is there), else blended.
    @inline(__always)
    static func blendPacked(_ c: UInt32, into p: UnsafeMutablePointer<UInt32>) {
        let d = p.pointee
        if c >= 0xFF00_0000 || d == 0 { p.pointee = c } else if c != 0 { p.pointee = over(widen(c), d) }
    }
}
