import Foundation

/// Bilinear samples of a texture's texels at 16.16 fixed-point texel coordinates (half texel
/// subtracted), widened (`PackedSpans.bilinear`).
protocol BilinearTexels {
    var width: Int { get }
    var height: Int { get }
    func bilinear(_ x: Int32, _ y: Int32) -> UInt64
    /// `bilinear` where its four texels lie inside the texture, from `offset` (the first one's
    /// index) and the 8-bit weights.
    func bilinear(at offset: Int, wx: UInt64, wy: UInt64) -> UInt64
}

/// Texels as they are stored, RGBA8 packed.
struct PackedTexels: BilinearTexels {
    let texels: UnsafePointer<UInt32>
    let width: Int, height: Int
    @inline(__always) func bilinear(_ x: Int32, _ y: Int32) -> UInt64 {
        PackedSpans.bilinear(texels, width: width, height: height, x: x, y: y)
    }
    @inline(__always) func bilinear(at offset: Int, wx: UInt64, wy: UInt64) -> UInt64 {
        let p = texels + offset
        let t00 = p[0], t10 = p[1], t01 = p[width], t11 = p[width + 1]
        if t00 == t10, t00 == t01, t00 == t11 { return PackedSpans.widen(t00) }
        return PackedSpans.lerp(PackedSpans.lerp(PackedSpans.widen(t00), PackedSpans.widen(t10), wx),
                                PackedSpans.lerp(PackedSpans.widen(t01), PackedSpans.widen(t11), wx), wy)
    }
}

/// Texels widened once for many samples (`Texture.widenedTexelsIfReused`).
struct WidenedTexels: BilinearTexels {
    let texels: UnsafePointer<UInt64>
    let width: Int, height: Int
    @inline(__always) func bilinear(_ x: Int32, _ y: Int32) -> UInt64 {
        PackedSpans.bilinear(texels, width: width, height: height, x: x, y: y)
    }
    @inline(__always) func bilinear(at offset: Int, wx: UInt64, wy: UInt64) -> UInt64 {
        let p = texels + offset
        return PackedSpans.lerp(PackedSpans.lerp(p[0], p[1], wx), PackedSpans.lerp(p[width], p[width + 1], wx), wy)
    }
}

/// What a textured item's pixel shows before it is blended: its texture's bilinear sample,
/// masked and modulated. A type per combination, so the pixel loop is compiled for each.
protocol TexelSampler {
    var width: Int { get }
    var height: Int { get }
    func sample(_ x: Int32, _ y: Int32) -> UInt64
    /// `sample` where its four texels lie inside the texture (`reachesOnlyInside`).
    func sampleInside(_ x: Int32, _ y: Int32) -> UInt64
}

extension TexelSampler {
    /// Whether the samples between fixed-point texel coordinates (u0, v0) and (u1, v1) all mix
    /// four texels inside the texture (none clamped to its edge).
    @inline(__always)
    func reachesOnlyInside(u u0: Int32, _ u1: Int32, v v0: Int32, _ v1: Int32) -> Bool {
        min(u0, u1) >= 0 && min(v0, v1) >= 0 && Int(max(u0, u1) >> 16) < width - 1 && Int(max(v0, v1) >> 16) < height - 1
    }
}

/// The first of a sample's four texels and its weights, for a sample inside the texture.
@inline(__always)
private func texelOffset(_ x: Int32, _ y: Int32, width: Int) -> (offset: Int, wx: UInt64, wy: UInt64) {
    (Int(y >> 16) * width + Int(x >> 16), UInt64(truncatingIfNeeded: x >> 8) & 255, UInt64(truncatingIfNeeded: y >> 8) & 255)
}

/// The modulated sample.
struct UnmaskedSampler<C: BilinearTexels, M: TexelModulation>: TexelSampler {
    let color: C
    let m: M
    var width: Int { color.width }
    var height: Int { color.height }
    @inline(__always) func sample(_ x: Int32, _ y: Int32) -> UInt64 { m.apply(color.bilinear(x, y)) }
    @inline(__always) func sampleInside(_ x: Int32, _ y: Int32) -> UInt64 {
        let (offset, wx, wy) = texelOffset(x, y, width: width)
        return m.apply(color.bilinear(at: offset, wx: wx, wy: wy))
    }
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
        return masked(color.bilinear(x, y), by: a)
    }

    /// The mask and the colour read at the same four texels, their index found once.
    @inline(__always) func sampleInside(_ x: Int32, _ y: Int32) -> UInt64 {
        let (offset, wx, wy) = texelOffset(x, y, width: width)
        let p = mask + offset
        let a = PackedSpans.bilinearAlpha(p[0], p[1], p[width], p[width + 1], wx: wx, wy: wy)
        return masked(color.bilinear(at: offset, wx: wx, wy: wy), by: a)
    }

    /// `color` times mask alpha `a` (0…255 → 0…256; 255 leaves it as it is), modulated.
    @inline(__always) private func masked(_ color: @autoclosure () -> UInt64, by a: UInt64) -> UInt64 {
        if a == 0 { return 0 }
        if a == 255 { return m.apply(color()) }
        return m.apply(PackedSpans.scale(color(), a + (a >> 7)))
    }
}

extension PackedSpans {
    /// The alpha channel of `bilinear` alone (0…255): the lanes of `lerp` never carry into each
    /// other, so the alpha lane's arithmetic is the same on its own.
    @inline(__always)
    static func bilinearAlpha(_ texels: UnsafePointer<UInt32>, width: Int, height: Int, x: Int32, y: Int32) -> UInt64 {
        let (t00, t10, t01, t11) = quad(texels, width: width, height: height, x: x, y: y)
        return bilinearAlpha(t00, t10, t01, t11, wx: UInt64(truncatingIfNeeded: x >> 8) & 255, wy: UInt64(truncatingIfNeeded: y >> 8) & 255)
    }

    /// The alpha mix of four texels with 8-bit weights.
    @inline(__always)
    static func bilinearAlpha(_ t00: UInt32, _ t10: UInt32, _ t01: UInt32, _ t11: UInt32, wx: UInt64, wy: UInt64) -> UInt64 {
        let a00 = UInt64(t00 >> 24), a10 = UInt64(t10 >> 24), a01 = UInt64(t01 >> 24), a11 = UInt64(t11 >> 24)
        if a00 == a10, a00 == a01, a00 == a11 { return a00 }
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
