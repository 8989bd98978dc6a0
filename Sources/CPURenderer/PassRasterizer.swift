import Foundation
import Rendering

/// Draws one pass's prepared items into its RGBA8 target, rows `rows` only (one thread's band).
///
/// As the GL backend does, opaque items go first, front to back, each claiming the pixels it
/// covers (`owner`), so hidden pixels are never shaded; translucent items follow in painter's
/// order and touch only pixels no later opaque item owns. Colours are computed in Float and
/// blended in 8 bits with the rounding of Mesa's unorm8 blend (source-over, premultiplied).
struct PassRasterizer {
    let target: UnsafeMutablePointer<UInt8>
    let owner: UnsafeMutablePointer<Int32>?
    let width: Int
    /// The target's `TargetExtents`, widened by each item drawn.
    let written: UnsafeMutablePointer<Int32>
    /// Whether the packed loops may draw what they can (false: everything through the Float
    /// shading loop, which tests compare them with).
    var fastPaths = true
    /// Whether masked textures are drawn only where their mask holds anything (false: over the
    /// whole item, which tests compare with).
    var narrowsToMasks = true
    /// Names this draw of the items among the renderer's draws (with an item's order: one item's
    /// draw, whichever band draws it).
    var drawSerial = 0
    /// While one item is drawn: the columns of its rows that later items hide.
    var hidden: HiddenColumns.Slot?
    /// Counts the pixels skipped for `hidden`.
    var hiddenTally: HiddenPixelTally?

    /// `hiding`: which items hide what others draw (`HiddenColumns`; only where `owner` is nil),
    /// found once for the pass's bands.
    func draw(_ items: [PreparedItem], opaque: [Int], translucent: [Int], rows: Range<Int>, hiding: HiddenColumns.Roles? = nil) {
        for i in opaque.reversed() {
            draw(items[i], rows: rows, claiming: true)
            markWritten(items[i], rows: rows)
        }
        let hiddenColumns = hiding.flatMap { roles in
            items.withUnsafeBufferPointer { HiddenColumns(roles, items: $0, rows: rows) }
        }
        defer { hiddenColumns?.release() }
        for i in translucent {
            let item = items[i]
            if !item.isOpaque {
                if let slot = hiddenColumns?.slot(for: i) {
                    var around = self
                    around.hidden = slot
                    around.draw(item, rows: rows, claiming: false)
                } else {
                    draw(item, rows: rows, claiming: false)
                }
                markWritten(item, rows: rows)
            }
            // Within the body's rectangle, which it marked written.
            if let corners = item.cornerTexels { drawBodyCorners(corners, order: item.order, opacity: item.opacity, rows: rows) }
        }
    }

    private func draw(_ item: PreparedItem, rows: Range<Int>, claiming: Bool) {
        let rows = rows.clamped(to: item.polygon.rows)
        guard !rows.isEmpty else { return }
        if case .deferred(let shape, let x, let y) = item.paint { return drawDeferred(shape, x: x, y: y, item: item, rows: rows) }
        let plain = item.shape == nil && item.mask == nil && item.body == nil
        // Blend modes and colour matrices take the general path (the packed loops only blend over).
        guard fastPaths, item.blendMode == .normal, item.colorMatrix == nil else { return drawGeneral(item, rows: rows, claiming: claiming) }
        switch item.paint {
        case .solid(let color) where plain:
            drawSolid(item, color: color, rows: rows, claiming: claiming)
        case .solid(let color) where item.body != nil && item.shape == nil && item.mask == nil:
            drawBody(item, color: color, body: item.body!, rows: rows, claiming: claiming)
        case .gradient(let gradient) where plain && item.tint == nil && item.borderTint == nil && gradient.kind != .conic:
            drawGradient(item, gradient: gradient, rows: rows)
        case .texture(let texture, .linear, .linear)
            where item.shape == nil && item.borderTint == nil && item.mask.map { $0.width == texture.width && $0.height == texture.height } ?? true:
            drawTextured(item, texture: texture, rows: rows, claiming: claiming)
        case .texture(let texture, .linear, .linear) where item.borderTint != nil:
            if !drawPairedCornerTexels(item, texture: texture, border: item.borderTint!, rows: rows, claiming: claiming) {
                drawGeneral(item, rows: rows, claiming: claiming)
            }
        default:
            drawGeneral(item, rows: rows, claiming: claiming)
        }
    }

    /// Any item, through the Float shading loop.
    private func drawGeneral(_ item: PreparedItem, rows: Range<Int>, claiming: Bool) {
        switch item.paint {
        case .solid(let color):
            shade(item, rows: rows, claiming: claiming, SolidSource(color: color))
        case .gradient(let gradient):
            shade(item, rows: rows, claiming: claiming, GradientSource(gradient: gradient))
        case .tinted(let texture, let color):
            shade(item, rows: rows, claiming: claiming, TintedSource(view: texture.level0, color: color))
        case .texture(let texture, let minification, let magnification):
            if minification == .trilinear {
                shade(item, rows: rows, claiming: claiming,
                      TrilinearSource(texture: texture, item: item, magnifyNearest: magnification == .nearest))
            } else if minification != magnification {
                shade(item, rows: rows, claiming: claiming,
                      MixedFilterSource(view: texture.level0, item: item, minifyNearest: minification == .nearest))
            } else if magnification == .nearest {
                shade(item, rows: rows, claiming: claiming, NearestSource(view: texture.level0))
            } else {
                shade(item, rows: rows, claiming: claiming, LinearSource(view: texture.level0))
            }
        case .deferred(let shape, let x, let y):
            drawDeferred(shape, x: x, y: y, item: item, rows: rows)
        }
    }

    private func shade<S: PaintSource>(_ item: PreparedItem, rows: Range<Int>, claiming: Bool, _ source: S) {
        if let border = item.borderTint {
            return mapping(item, rows: rows, claiming: claiming,
                           PairedCorner(source: source, fill: item.tint ?? .one, border: border, opacity: item.opacity))
        }
        if let tint = item.tint {
            return mapping(item, rows: rows, claiming: claiming, TintMultiplied(source: source, tint: tint))
        }
        mapping(item, rows: rows, claiming: claiming, source)
    }

    private func mapping<S: PaintSource>(_ item: PreparedItem, rows: Range<Int>, claiming: Bool, _ source: S) {
        if let matrix = item.colorMatrix {
            return compositing(item, rows: rows, claiming: claiming, ColorMatrixSource(source: source, matrix: matrix))
        }
        compositing(item, rows: rows, claiming: claiming, source)
    }

    private func compositing<S: PaintSource>(_ item: PreparedItem, rows: Range<Int>, claiming: Bool, _ source: S) {
        switch item.blendMode {
        case .normal: applyingMask(item, rows: rows, claiming: claiming, source, SourceOverCompositor())
        case .addition: applyingMask(item, rows: rows, claiming: claiming, source, AdditionCompositor())
        default: applyingMask(item, rows: rows, claiming: claiming, source, BlendCompositor(mode: item.blendMode))
        }
    }

    private func applyingMask<S: PaintSource, C: PixelCompositor>(_ item: PreparedItem, rows: Range<Int>, claiming: Bool,
                                                                  _ source: S, _ compositor: C) {
        if let mask = item.mask {
            shade(item, rows: rows, claiming: claiming, source, compositor, mask: mask.level0)
        } else {
            shade(item, rows: rows, claiming: claiming, source, compositor, mask: nil)
        }
    }

    @inline(__always)
    private func shade<S: PaintSource, C: PixelCompositor>(_ item: PreparedItem, rows: Range<Int>, claiming: Bool, _ source: S,
                                                           _ compositor: C, mask: TextureLevelView?) {
        let order = item.order
        let shape = item.shape
        let opacity = item.opacity
        for y in rows {
            let span = item.polygon.span(row: y)
            guard !span.isEmpty else { continue }
            let py = Float(y) + 0.5
            let rowBase = y * width
            for x in span {
                let index = rowBase + x
                if let owner {
                    // Claiming: only unclaimed pixels; otherwise only pixels no later opaque item hides.
                    if claiming ? owner[index] >= 0 : owner[index] > order { continue }
                }
                let px = Float(x) + 0.5
                let p = SIMD3<Float>(px, py, 1)
                let w = (item.denominator * p).sum()
                let local = SIMD2((item.localX * p).sum(), (item.localY * p).sum()) / w
                let uv = item.uvOffset + local * item.uvScale
                var coverage = opacity
                var inBand = false
                if let body = item.body {
                    guard let band = body.classify(local) else { continue }
                    inBand = band
                }
                if let shape {
                    let d = shape.distance(local)
                    // dFdx and dFdy as Mesa computes them: differences within the 2×2 pixel quad.
                    let dx = shape.distance(item.local(Float(x ^ 1) + 0.5, py)) - d
                    let dy = shape.distance(item.local(px, Float(y ^ 1) + 0.5)) - d
                    coverage *= shape.coverage(distance: d, width: (dx * dx + dy * dy).squareRoot())
                }
                if let mask { coverage *= mask.bilinear(uv.x, uv.y).w * (1 / 255) }
                let color = inBand ? item.body!.band! : source.color(uv, x: px, y: py)
                compositor.write(color, coverage: coverage, to: target + index * 4, opaque: claiming)
                if claiming { owner?[index] = order }
            }
        }
    }

    /// 0…255 from a scaled channel; NaN (a degenerate sample) becomes 0 instead of trapping.
    @inline(__always)
    static func unorm8(_ v: Float) -> Int32 { Int32(min(255.5, Swift.max(0, v))) }

    /// a·b/255 rounded, as Mesa's unorm8 multiply computes it.
    @inline(__always)
    static func multiply(_ a: Int32, _ b: Int32) -> Int32 {
        let t = a * b + 0x80
        return (t + (t >> 8)) >> 8
    }
}

/// How a shaded pixel meets the target: its colour before coverage, combined in 8 bits as the
/// GPU's unorm8 blending rounds.
protocol PixelCompositor {
    func write(_ color: SIMD4<Float>, coverage: Float, to p: UnsafeMutablePointer<UInt8>, opaque: Bool)
}

/// Source-over (premultiplied): `ONE, ONE_MINUS_SRC_ALPHA`.
struct SourceOverCompositor: PixelCompositor {
    @inline(__always)
    func write(_ color: SIMD4<Float>, coverage: Float, to p: UnsafeMutablePointer<UInt8>, opaque: Bool) {
        Self.over(color * coverage, p, opaque: opaque)
    }

    /// Source-over of a premultiplied colour (channels 0…1) onto the pixel at `p`, in 8 bits.
    @inline(__always)
    static func over(_ color: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>, opaque: Bool) {
        // Float → unorm8 as the GPU converts fragment outputs: clamp, scale, round to nearest.
        let scaled = color * 255 + 0.5
        let r = PassRasterizer.unorm8(scaled.x), g = PassRasterizer.unorm8(scaled.y)
        let b = PassRasterizer.unorm8(scaled.z), a = PassRasterizer.unorm8(scaled.w)
        let inverse = 255 - a
        if opaque || inverse <= 0 {
            p[0] = UInt8(truncatingIfNeeded: r); p[1] = UInt8(truncatingIfNeeded: g)
            p[2] = UInt8(truncatingIfNeeded: b); p[3] = UInt8(truncatingIfNeeded: a)
            return
        }
        p[0] = UInt8(truncatingIfNeeded: min(255, r + PassRasterizer.multiply(Int32(p[0]), inverse)))
        p[1] = UInt8(truncatingIfNeeded: min(255, g + PassRasterizer.multiply(Int32(p[1]), inverse)))
        p[2] = UInt8(truncatingIfNeeded: min(255, b + PassRasterizer.multiply(Int32(p[2]), inverse)))
        p[3] = UInt8(truncatingIfNeeded: min(255, a + PassRasterizer.multiply(Int32(p[3]), inverse)))
    }
}

/// The clamped sum: `ONE, ONE`.
struct AdditionCompositor: PixelCompositor {
    @inline(__always)
    func write(_ color: SIMD4<Float>, coverage: Float, to p: UnsafeMutablePointer<UInt8>, opaque: Bool) {
        let scaled = color * coverage * 255 + 0.5
        p[0] = UInt8(truncatingIfNeeded: min(255, PassRasterizer.unorm8(scaled.x) + Int32(p[0])))
        p[1] = UInt8(truncatingIfNeeded: min(255, PassRasterizer.unorm8(scaled.y) + Int32(p[1])))
        p[2] = UInt8(truncatingIfNeeded: min(255, PassRasterizer.unorm8(scaled.z) + Int32(p[2])))
        p[3] = UInt8(truncatingIfNeeded: min(255, PassRasterizer.unorm8(scaled.w) + Int32(p[3])))
    }
}

/// A blend mode reading the pixel under it (what the GPU reads from its copy of the backdrop).
struct BlendCompositor: PixelCompositor {
    let mode: BlendMode
    @inline(__always)
    func write(_ color: SIMD4<Float>, coverage: Float, to p: UnsafeMutablePointer<UInt8>, opaque: Bool) {
        let backdrop = SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) * (1 / 255)
        SourceOverCompositor.over(BlendMath.composite(color, backdrop: backdrop, mode: mode) * coverage, p, opaque: false)
    }
}

extension PassRasterizer {
    /// Where `item` hides what lies below it: its texture (with `OpaqueRuns`) and the whole-texel
    /// offset it is drawn at, when it is drawn texel by texel, unfaded, untinted, unmasked and
    /// source-over (its opaque texels are then stored as they are); nil otherwise.
    func hidingTexels(_ item: borrowing PreparedItem) -> (texture: Texture, offset: (Int, Int))? {
        guard item.mask == nil, item.tint == nil, item.body == nil, item.cornerTexels == nil,
              UInt64(min(max(item.opacity, 0), 1) * 256 + 0.5) >= 256,
              let placed = placedTexels(item), placed.texture.opaqueRuns != nil else { return nil }
        return placed
    }

    /// Whether `item` is drawn texel by texel (`drawTexels`), the draws that skip hidden columns.
    func drawsTexels(_ item: borrowing PreparedItem) -> Bool {
        if case .deferred = item.paint { return true }
        return placedTexels(item) != nil
    }

    /// A texture item that `drawTextured` draws texel by texel: the texture and the whole-texel
    /// offset (`texelOffset`) it is drawn at.
    private func placedTexels(_ item: borrowing PreparedItem) -> (texture: Texture, offset: (Int, Int))? {
        guard case .texture(let texture, .linear, .linear) = item.paint, item.shape == nil, item.borderTint == nil,
              item.blendMode == .normal, item.colorMatrix == nil else { return nil }
        let texel = item.texelNumerators(width: texture.width, height: texture.height)
        guard let offset = Self.texelOffset(u: texel.u - item.denominator * 0.5, v: texel.v - item.denominator * 0.5,
                                            d: item.denominator) else { return nil }
        return (texture, offset)
    }
}
