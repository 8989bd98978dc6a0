import Foundation
import Rendering

/// The colour an item shows at a pixel before coverage: layer.glsl's paint variants.
protocol PaintSource {
    /// Premultiplied colour, channels 0…1, at normalised texture coordinates `uv` of the pixel
    /// whose centre is (x, y).
    func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float>
}

struct SolidSource: PaintSource {
    let color: SIMD4<Float>
    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> { color }
}

struct LinearSource: PaintSource {
    let view: TextureLevelView
    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        view.bilinear(uv.x, uv.y) * (1 / 255)
    }
}

struct NearestSource: PaintSource {
    let view: TextureLevelView
    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        view.nearest(uv.x, uv.y) * (1 / 255)
    }
}

/// An earlier pass's alpha times a colour (shadows).
struct TintedSource: PaintSource {
    let view: TextureLevelView
    let color: SIMD4<Float>
    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        color * (view.bilinear(uv.x, uv.y).w * (1 / 255))
    }
}

/// Another source's colour times a premultiplied multiplier (a replicator instance's colour).
struct TintMultiplied<Source: PaintSource>: PaintSource {
    let source: Source
    let tint: SIMD4<Float>
    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        source.color(uv, x: x, y: y) * tint
    }
}

/// A corner-mask pair's texel (red: the fill's coverage, green: its border's) as the border drawn
/// over the fill at `opacity` (layer.glsl's PAIRED; the opacity itself is applied after).
struct PairedCorner<Source: PaintSource>: PaintSource {
    let source: Source
    let fill: SIMD4<Float>, border: SIMD4<Float>
    let opacity: Float
    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        let m = source.color(uv, x: x, y: y)
        return border * m.y + fill * (m.x * (1 - opacity * border.w * m.y))
    }
}

/// A `CAGradientLayer`'s colour at the pixel's unit-space point (layer.glsl's GRADIENT).
struct GradientSource: PaintSource {
    let gradient: GradientPaint
    let kind: GradientPaint.Kind
    init(gradient: GradientPaint) {
        self.gradient = gradient
        kind = gradient.kind
    }
    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        gradient.color(at: gradient.parameter(uv, kind: kind))
    }
}

/// The level of detail λ = log2 ρ of GL's texture sampling, from the exact derivatives of the
/// item's projective map (the GPU takes differences over 2×2 pixel quads; they agree to first order).
struct LevelOfDetail {
    let u: SIMD3<Float>, v: SIMD3<Float>, w: SIMD3<Float>
    let size: SIMD2<Float>

    init(_ item: PreparedItem, width: Int, height: Int) {
        (u, v) = item.texelNumerators(width: width, height: height)
        w = item.denominator
        size = SIMD2(Float(width), Float(height))
    }

    @inline(__always) func lambda(x: Float, y: Float) -> Float {
        let p = SIMD3<Float>(x, y, 1)
        let wp = (w * p).sum(), up = (u * p).sum(), vp = (v * p).sum()
        let inv = 1 / (wp * wp)
        let dudx = (u.x * wp - up * w.x) * inv, dvdx = (v.x * wp - vp * w.x) * inv
        let dudy = (u.y * wp - up * w.y) * inv, dvdy = (v.y * wp - vp * w.y) * inv
        let rho = max((dudx * dudx + dvdx * dvdx).squareRoot(), (dudy * dudy + dvdy * dvdy).squareRoot())
        return Foundation.log2(max(rho, 1e-20))
    }
}

/// Different minification and magnification filters: λ picks one per pixel.
struct MixedFilterSource: PaintSource {
    let view: TextureLevelView
    let lod: LevelOfDetail
    let minifyNearest: Bool

    init(view: TextureLevelView, item: PreparedItem, minifyNearest: Bool) {
        self.view = view
        lod = LevelOfDetail(item, width: view.width, height: view.height)
        self.minifyNearest = minifyNearest
    }

    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        let nearest = lod.lambda(x: x, y: y) > 0 ? minifyNearest : !minifyNearest
        return (nearest ? view.nearest(uv.x, uv.y) : view.bilinear(uv.x, uv.y)) * (1 / 255)
    }
}

/// Trilinear minification (`GL_LINEAR_MIPMAP_LINEAR`): bilinear in the two nearest levels, mixed.
struct TrilinearSource: PaintSource {
    let levels: [TextureLevelView]
    let lod: LevelOfDetail
    let magnifyNearest: Bool

    init(texture: Texture, item: PreparedItem, magnifyNearest: Bool) {
        levels = texture.levels
        lod = LevelOfDetail(item, width: texture.width, height: texture.height)
        self.magnifyNearest = magnifyNearest
    }

    @inline(__always) func color(_ uv: SIMD2<Float>, x: Float, y: Float) -> SIMD4<Float> {
        let lambda = lod.lambda(x: x, y: y)
        guard lambda > 0 else {
            return (magnifyNearest ? levels[0].nearest(uv.x, uv.y) : levels[0].bilinear(uv.x, uv.y)) * (1 / 255)
        }
        let d = min(lambda, Float(levels.count - 1))
        let lower = Int(d), fraction = d - Float(lower)
        let a = levels[lower].bilinear(uv.x, uv.y)
        guard fraction > 0, lower + 1 < levels.count else { return a * (1 / 255) }
        let b = levels[lower + 1].bilinear(uv.x, uv.y)
        return (a + (b - a) * fraction) * (1 / 255)
    }
}
