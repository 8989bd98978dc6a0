import Foundation
import Rendering

/// layer.glsl's BLEND_SEPARABLE and BLEND_NONSEPARABLE stages and its COLOR_MATRIX stage, in
/// the same Float arithmetic: W3C Compositing and Blending Level 1's B(Cb, Cs) on
/// un-premultiplied colour, composited source-over with the source's alpha.
enum BlendMath {
    /// The premultiplied colour to draw source-over so that the result is `mode` of `source`
    /// over `backdrop` (both premultiplied, 0…1): `cs·(1 − αb) + αs·αb·B(Cb, Cs)`, alpha αs.
    @inline(__always)
    static func composite(_ source: SIMD4<Float>, backdrop: SIMD4<Float>, mode: BlendMode) -> SIMD4<Float> {
        guard source.w > 0 else { return source }
        let cs = clamp(SIMD3(source.x, source.y, source.z) / source.w)
        let cb = backdrop.w > 0 ? clamp(SIMD3(backdrop.x, backdrop.y, backdrop.z) / backdrop.w) : SIMD3<Float>(repeating: 0)
        let b = mode.family == .nonSeparable ? nonSeparable(cb, cs, mode) : separable(cb, cs, mode)
        let rgb = SIMD3(source.x, source.y, source.z) * (1 - backdrop.w) + source.w * backdrop.w * b
        return SIMD4(rgb.x, rgb.y, rgb.z, source.w)
    }

    /// Each channel clamped to 0…1 (component by component: the generic SIMD clamp is not
    /// inlined, and cost more than the blend).
    @inline(__always)
    static func clamp(_ c: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(min(max(c.x, 0), 1), min(max(c.y, 0), 1), min(max(c.z, 0), 1))
    }

    @inline(__always)
    static func separable(_ cb: SIMD3<Float>, _ cs: SIMD3<Float>, _ mode: BlendMode) -> SIMD3<Float> {
        SIMD3(channel(cb.x, cs.x, mode), channel(cb.y, cs.y, mode), channel(cb.z, cs.z, mode))
    }

    @inline(__always)
    static func channel(_ b: Float, _ s: Float, _ mode: BlendMode) -> Float {
        switch mode {
        case .multiply: return b * s
        case .screen: return b + s - b * s
        case .overlay: return hardLight(s, b)
        case .darken: return min(b, s)
        case .lighten: return max(b, s)
        case .colorDodge:
            if b == 0 { return 0 }
            if s >= 1 { return 1 }
            return min(1, b / (1 - s))
        case .colorBurn:
            if b >= 1 { return 1 }
            if s <= 0 { return 0 }
            return 1 - min(1, (1 - b) / s)
        case .hardLight: return hardLight(b, s)
        case .softLight:
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (d - b)
        case .difference: return abs(b - s)
        case .exclusion: return b + s - 2 * b * s
        default: return s
        }
    }

    /// HardLight(Cb, Cs): multiply or screen by the source's side of ½.
    @inline(__always)
    static func hardLight(_ b: Float, _ s: Float) -> Float {
        s <= 0.5 ? b * (2 * s) : b + (2 * s - 1) - b * (2 * s - 1)
    }

    static func luminosity(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = luminosity(c)
        let n = min(c.x, c.y, c.z), x = max(c.x, c.y, c.z)
        var result = c
        if n < 0, l - n > 1e-6 { result = l + (result - l) * (l / (l - n)) }
        if x > 1, x - l > 1e-6 { result = l + (result - l) * ((1 - l) / (x - l)) }
        return result
    }

    static func setLuminosity(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> { clipColor(c + (l - luminosity(c))) }

    static func saturation(_ c: SIMD3<Float>) -> Float { max(c.x, c.y, c.z) - min(c.x, c.y, c.z) }

    /// SetSat: the largest channel becomes s, the smallest 0, the middle one in proportion.
    static func setSaturation(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let n = min(c.x, c.y, c.z), x = max(c.x, c.y, c.z)
        guard x > n else { return SIMD3(repeating: 0) }
        return (c - n) * (s / (x - n))
    }

    @inline(__always)
    static func nonSeparable(_ cb: SIMD3<Float>, _ cs: SIMD3<Float>, _ mode: BlendMode) -> SIMD3<Float> {
        switch mode {
        case .hue: setLuminosity(setSaturation(cs, saturation(cb)), luminosity(cb))
        case .saturation: setLuminosity(setSaturation(cb, saturation(cs)), luminosity(cb))
        case .color: setLuminosity(cs, luminosity(cb))
        default: setLuminosity(cb, luminosity(cs))
        }
    }

}

/// Another source's colour through a colour matrix: un-premultiplied, mapped, clamped,
/// premultiplied again (layer.glsl's COLOR_MATRIX).
struct ColorMatrixSource<Source: PaintSource>: PaintSource {
    let source: Source
    let r: SIMD4<Float>, g: SIMD4<Float>, b: SIMD4<Float>, a: SIMD4<Float>, bias: SIMD4<Float>

    init(source: Source, matrix: ColorMatrix) {
        self.source = source
        (r, g, b, a, bias) = (matrix.rows[0], matrix.rows[1], matrix.rows[2], matrix.rows[3], matrix.bias)
    }

    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        let c = source.color(uv, x: x, y: y)
        let straight = c.w > 0 ? SIMD4(c.x / c.w, c.y / c.w, c.z / c.w, c.w) : SIMD4<Float>(repeating: 0)
        let m = SIMD4((r * straight).sum(), (g * straight).sum(), (b * straight).sum(), (a * straight).sum()) + bias
        let alpha = min(max(m.w, 0), 1)
        return SIMD4(BlendMath.clamp(SIMD3(m.x, m.y, m.z)) * alpha, alpha)
    }
}
