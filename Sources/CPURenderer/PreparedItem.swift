import Foundation
import Geometry
import Rendering

/// A draw item made ready for the CPU: its covered pixels, the projective map from pixels back
/// to the item's plane (what the GPU's perspective-correct interpolation computes), and its
/// paint and coverage in the form the shading loops read.
struct PreparedItem {
    /// Position in the pass's painter's order.
    let order: Int32
    let polygon: ScreenPolygon
    /// Covers its whole polygon with alpha 1 (drawn front to back, hiding what is below).
    let isOpaque: Bool
    /// Pixel centre → item space, numerators x and y; `denominator` divides both.
    let localX: SIMD3<Float>, localY: SIMD3<Float>, denominator: SIMD3<Float>
    /// Item space → normalised texture coordinates: uv = offset + local · scale.
    let uvScale: SIMD2<Float>, uvOffset: SIMD2<Float>
    let paint: PreparedPaint
    let opacity: Float
    let shape: ShapeCoverage?
    let mask: Texture?
    /// Multiplies texture colours (premultiplied), nil for none.
    let tint: SIMD4<Float>?
    let blendMode: BlendMode
    let colorMatrix: ColorMatrix?
    /// A fill's body (layer.glsl's BODY variant): corner squares left out, the edge band recoloured.
    let body: BodyCoverage?
    /// A corner-mask pair's border colour (`DrawItem.borderTint`); `tint` is then the fill's.
    let borderTint: SIMD4<Float>?
    /// A body's corners drawn on whole pixels after it (`FillBody.cornerPair`).
    var cornerTexels: BodyCornerTexels?

    init?(_ item: DrawItem, order: Int, bounds: CGRect, paint: PreparedPaint, mask: Texture?) {
        guard item.rect.width > 0, item.rect.height > 0 else { return nil }
        let r = item.rect
        let corners = item.polygon ?? [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                                       CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]
        guard let polygon = ScreenPolygon(corners: corners, transform: item.transform, bounds: bounds) else { return nil }
        // The plane's map (x, y, 1) → (X, Y, W), inverted: pixels → plane, up to scale.
        let m = item.transform
        let h = [[Double(m.m11), Double(m.m21), Double(m.m41)],
                 [Double(m.m12), Double(m.m22), Double(m.m42)],
                 [Double(m.m14), Double(m.m24), Double(m.m44)]]
        let cof00 = h[1][1] * h[2][2] - h[1][2] * h[2][1], cof01 = h[1][2] * h[2][0] - h[1][0] * h[2][2]
        let cof02 = h[1][0] * h[2][1] - h[1][1] * h[2][0]
        let det = h[0][0] * cof00 + h[0][1] * cof01 + h[0][2] * cof02
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        // Adjugate rows (the inverse up to the determinant, which cancels in the division).
        let row0 = SIMD3(cof00, h[0][2] * h[2][1] - h[0][1] * h[2][2], h[0][1] * h[1][2] - h[0][2] * h[1][1])
        let row1 = SIMD3(cof01, h[0][0] * h[2][2] - h[0][2] * h[2][0], h[0][2] * h[1][0] - h[0][0] * h[1][2])
        let row2 = SIMD3(cof02, h[0][1] * h[2][0] - h[0][0] * h[2][1], h[0][0] * h[1][1] - h[0][1] * h[1][0])
        // Normalise so the numbers stay in Float's comfortable range.
        let norm = max(abs(row2.x), abs(row2.y), abs(row2.z), 1e-300)
        localX = SIMD3<Float>(row0 / norm); localY = SIMD3<Float>(row1 / norm); denominator = SIMD3<Float>(row2 / norm)

        let uv = item.sourceRect
        uvScale = SIMD2(Float(uv.width / r.width), Float(uv.height / r.height))
        uvOffset = SIMD2(Float(uv.minX - r.minX * uv.width / r.width), Float(uv.minY - r.minY * uv.height / r.height))
        self.order = Int32(order)
        self.polygon = polygon
        self.paint = paint
        self.opacity = item.opacity
        self.mask = mask
        tint = item.tint.map { SIMD4($0.red, $0.green, $0.blue, $0.alpha) }
        blendMode = item.blendMode
        colorMatrix = item.colorMatrix
        let shape = item.shape ?? (item.borderWidth != nil ? RoundedShape(rect: item.rect, radius: 0) : nil)
        self.shape = shape.map { ShapeCoverage($0, borderWidth: item.borderWidth ?? 0) }
        body = item.body.map { BodyCoverage($0, rect: item.rect) }
        borderTint = item.borderTint.map { SIMD4($0.red, $0.green, $0.blue, $0.alpha) }
        isOpaque = item.opacity >= 1 && item.shape == nil && item.borderWidth == nil && item.maskPass == nil
            && item.polygon == nil && paint.isOpaque && (item.tint?.alpha ?? 1) >= 1
            && item.blendMode == .normal && item.colorMatrix == nil && (item.body?.band?.color.alpha ?? 1) >= 1
    }

    /// Pixel centre → texel coordinates of a `width`×`height` texture: the numerators of u·width
    /// and v·height over `denominator` (uv = offset + local · scale is affine in the plane).
    func texelNumerators(width: Int, height: Int) -> (u: SIMD3<Float>, v: SIMD3<Float>) {
        ((localX * uvScale.x + denominator * uvOffset.x) * Float(width),
         (localY * uvScale.y + denominator * uvOffset.y) * Float(height))
    }

    /// Item-space point under pixel centre (x, y) (pixel coordinates of the centre).
    @inline(__always)
    func local(_ x: Float, _ y: Float) -> SIMD2<Float> {
        let p = SIMD3<Float>(x, y, 1)
        let w = (denominator * p).sum()
        return SIMD2((localX * p).sum(), (localY * p).sum()) / w
    }
}

extension DrawItem {
    /// The normalised part of the texture or pass the item's rectangle shows (the unit square
    /// for solid paints, which masks are then sampled over).
    var sourceRect: CGRect {
        switch paint {
        case .image(_, let source, _, _), .pass(_, let source), .tintedPass(_, _, let source), .gradient(_, let source): source
        case .solid, .blur, .shape: CGRect(x: 0, y: 0, width: 1, height: 1)
        }
    }
}

/// What a prepared item's pixels are coloured with.
enum PreparedPaint {
    case solid(SIMD4<Float>)
    case texture(Texture, minification: TextureFilter, magnification: TextureFilter)
    /// The texture's alpha times a premultiplied colour.
    case tinted(Texture, SIMD4<Float>)
    case gradient(GradientPaint)
    /// A shape rasterized a band at a time as it is drawn (`DeferredShape`), its raster's
    /// pixel (0, 0) on target pixel (x, y).
    case deferred(DeferredShape, x: Int, y: Int)

    var isOpaque: Bool {
        switch self {
        case .solid(let c): c.w >= 1
        case .texture(let t, _, _): t.isOpaque
        case .tinted, .gradient, .deferred: false
        }
    }
}

/// The rounded-rectangle coverage of layer.glsl's SHAPED variant.
struct ShapeCoverage {
    let center: SIMD2<Float>
    let halfSize: SIMD2<Float>
    /// minX-minY, maxX-minY, maxX-maxY, minX-maxY.
    let radii: SIMD4<Float>
    let continuous: Bool
    let borderWidth: Float

    init(_ shape: RoundedShape, borderWidth: CGFloat) {
        center = SIMD2(Float(shape.rect.midX), Float(shape.rect.midY))
        halfSize = SIMD2(Float(shape.rect.width / 2), Float(shape.rect.height / 2))
        func radius(_ corner: RoundedCorners) -> Float { shape.corners.contains(corner) ? Float(shape.radius) : 0 }
        radii = SIMD4(radius(.minXMinY), radius(.maxXMinY), radius(.maxXMaxY), radius(.minXMaxY))
        continuous = shape.continuous
        self.borderWidth = Float(borderWidth)
    }

    /// Signed distance to the rounded rectangle at item-space point `local` (negative inside).
    @inline(__always)
    func distance(_ local: SIMD2<Float>) -> Float {
        let p = local - center
        var r = p.x < 0 ? (p.y < 0 ? radii.x : radii.w) : (p.y < 0 ? radii.y : radii.z)
        if continuous { r = min(r * 1.528665, min(halfSize.x, halfSize.y)) }
        let q = SIMD2(Swift.abs(p.x), Swift.abs(p.y)) - halfSize + SIMD2(repeating: r)
        let m = SIMD2(max(q.x, 0), max(q.y, 0))
        let corner = continuous ? Foundation.pow(Foundation.pow(m.x, 3) + Foundation.pow(m.y, 3), 1.0 / 3.0) : (m.x * m.x + m.y * m.y).squareRoot()
        return corner + min(max(q.x, q.y), 0) - r
    }

    /// Coverage given the distance and the length of its screen-space gradient (per pixel).
    @inline(__always)
    func coverage(distance d: Float, width: Float) -> Float {
        let aa = max(width, 1e-4)
        var c = min(max(0.5 - d / aa, 0), 1)
        if borderWidth > 0 { c *= min(max(0.5 + (d + borderWidth) / aa, 0), 1) }
        return c
    }
}

/// The body of a rounded fill (layer.glsl's BODY variant): which pixels it leaves to its corner
/// items and which take the band colour, decided at the pixel centre's item-space point.
struct BodyCoverage {
    let origin: SIMD2<Float>
    let end: SIMD2<Float>
    /// Cut square sides: minX-minY, maxX-minY, maxX-maxY, minX-maxY.
    let sides: SIMD4<Float>
    let bandWidth: Float
    /// Premultiplied band colour (nil: no band).
    let band: SIMD4<Float>?

    init(_ body: FillBody, rect: CGRect) {
        origin = SIMD2(Float(rect.minX), Float(rect.minY))
        end = SIMD2(Float(rect.maxX), Float(rect.maxY))
        sides = body.sides
        bandWidth = Float(body.band?.width ?? 0)
        band = body.band.map { SIMD4($0.color.red, $0.color.green, $0.color.blue, $0.color.alpha) }
    }

    /// nil where a corner item covers the point, else whether it lies in the band.
    @inline(__always)
    func classify(_ local: SIMD2<Float>) -> Bool? {
        let near = local - origin, far = end - local
        let e = SIMD2(min(near.x, far.x), min(near.y, far.y))
        let side = near.x < far.x ? (near.y < far.y ? sides.x : sides.w) : (near.y < far.y ? sides.y : sides.z)
        if e.x < side && e.y < side { return nil }
        return min(e.x, e.y) < bandWidth
    }

    /// One row of an axis-aligned body at item y `rowY`, as item x bounds: covered from `start`
    /// up to `end` (its cuts), in the fill colour from `fillStart` up to `fillEnd` and in the
    /// band colour elsewhere — `classify` of the row's points (each bound is where it changes).
    func runs(rowY: Float) -> (start: Float, end: Float, fillStart: Float, fillEnd: Float) {
        let nearY = rowY - origin.y, farY = end.y - rowY
        let top = nearY < farY
        let e = min(nearY, farY)
        let left = top ? sides.x : sides.w, right = top ? sides.y : sides.z
        let start = e < left ? origin.x + left : -Float.infinity
        let finish = e < right ? end.x - right : Float.infinity
        if e < bandWidth { return (start, finish, finish, finish) }
        return (start, finish, origin.x + bandWidth, end.x - bandWidth)
    }
}
