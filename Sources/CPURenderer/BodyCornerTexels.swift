import Foundation
import Geometry
import Rendering

/// The corners a card's body carries (`FillBody.cornerPair`) placed on whole pixels: each
/// corner square's pixel rectangle and the mask-pair texel under its first pixel, so the
/// corners are drawn texel by texel with no item, polygon or plane map of their own — what
/// `drawPairedCornerTexels` draws for the same corner as an item of its own, byte for byte.
struct BodyCornerTexels {
    struct Corner {
        /// The square's first pixel column and row, and the texel they show.
        let x: Int, y: Int, texelX: Int, texelY: Int
    }
    let mask: Texture
    let side: Int
    let corners: [Corner]
    let fill: SIMD4<Float>, border: SIMD4<Float>

    /// nil unless `item` is a body with corners drawn at scale 1 on whole pixels, its mask pair
    /// one texel per pixel (else its corners are drawn as items of their own).
    init?(_ item: DrawItem, mask: Texture) {
        guard let body = item.body, let pair = body.cornerPair else { return nil }
        let m = item.transform
        guard m.m11 == 1, m.m22 == 1, m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1 else { return nil }
        let side = Int(body.side)
        guard CGFloat(side) == body.side, side > 0, mask.width == 2 * side, mask.height == 2 * side else { return nil }
        var corners: [Corner] = []
        corners.reserveCapacity(4)
        for (which, origin) in DrawItem.cornerSquares(of: item.rect, side: body.side) where body.corners.contains(which) {
            let x = origin.x + m.m41, y = origin.y + m.m42
            guard x == x.rounded(), y == y.rounded(), abs(x) < 16_777_216, abs(y) < 16_777_216 else { return nil }
            let quadrant = DrawItem.quadrant(of: which)
            corners.append(Corner(x: Int(x), y: Int(y), texelX: quadrant.minX > 0 ? side : 0, texelY: quadrant.minY > 0 ? side : 0))
        }
        self.mask = mask
        self.side = side
        self.corners = corners
        fill = SIMD4(pair.fill.red, pair.fill.green, pair.fill.blue, pair.fill.alpha)
        border = SIMD4(pair.border.red, pair.border.green, pair.border.blue, pair.border.alpha)
    }
}

/// A mask pair texel's colour — `PairedCorner`'s, border · g + fill · r · (1 − opacity · Bα · g),
/// at opacity — rounded to 8 bits as `SourceOverCompositor` rounds it (the packed blend then
/// matches its blend exactly), computed once per run of equal texels (masks hold long runs of
/// one texel: inside the fill, along the ring).
struct PairedCornerColors {
    let fill: SIMD4<Float>, border: SIMD4<Float>, opacity: Float
    private var lastKey: UInt32 = 0, lastSource: UInt64 = 0

    init(fill: SIMD4<Float>, border: SIMD4<Float>, opacity: Float) {
        self.fill = fill; self.border = border; self.opacity = opacity
    }

    /// The widened premultiplied colour of texel `t`; nil where neither coverage is (source-over
    /// of nothing leaves the pixel as it is).
    @inline(__always)
    mutating func source(_ t: UInt32) -> UInt64? {
        let key = t & 0xFFFF
        guard key != 0 else { return nil }
        if key != lastKey {
            lastKey = key
            let m = SIMD2<Float>(Float(t & 0xFF), Float(t >> 8 & 0xFF)) * (1 / 255)
            let color = border * m.y + fill * (m.x * (1 - opacity * border.w * m.y))
            lastSource = PackedSpans.widen(PackedSpans.pack(color * opacity))
        }
        return lastSource
    }
}

extension PassRasterizer {
    /// A body's corners (`BodyCornerTexels`), rows `rows` only, where no later opaque item owns
    /// the pixel.
    func drawBodyCorners(_ corners: BodyCornerTexels, order: Int32, opacity: Float, rows: Range<Int>) {
        let tw = corners.mask.width
        let texels = UnsafeRawPointer(corners.mask.level0.base).assumingMemoryBound(to: UInt32.self)
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        var colors = PairedCornerColors(fill: corners.fill, border: corners.border, opacity: opacity)
        let side = corners.side
        for corner in corners.corners {
            let first = max(corner.x, 0), end = min(corner.x + side, width)
            guard first < end else { continue }
            let columns = first..<end
            for y in rows.clamped(to: corner.y..<(corner.y + side)) {
                let texelRow = texels + (y - corner.y + corner.texelY) * tw + corner.texelX - corner.x
                let row = pixels + y * width
                let ownerRow = owner.map { $0 + y * width }
                for x in columns {
                    if let ownerRow, ownerRow[x] > order { continue }
                    guard let source = colors.source(texelRow[x]) else { continue }
                    PackedSpans.blend(source, into: row + x)
                }
            }
        }
    }
}
