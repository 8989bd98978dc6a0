import Foundation
import Geometry
import Rendering

// Shapes rasterized a band of rows at a time as they are composited (`Paint.shape`): the bytes
// of their raster composited, without a raster of their own in fresh memory.

extension PassRasterizer {
    /// Pixels a band of a deferred shape's raster holds at most (256 KiB: it stays in cache
    /// between cairo writing it and the blend reading it).
    static let shapeBandPixels = 1 << 16

    /// Composites `shape`'s raster, its pixel (0, 0) on pixel (x, y), into rows `rows`: each
    /// band of rows rasterized into one reused buffer and drawn from there as `drawTextured`
    /// draws a raster placed on whole pixels (one texel per pixel, faded by the item's opacity,
    /// not over pixels a later opaque item owns).
    func drawDeferred(_ shape: DeferredShape, x: Int, y: Int, item: PreparedItem, rows: Range<Int>) {
        let rows = rows.clamped(to: y..<(y + shape.height))
        guard !rows.isEmpty, shape.width > 0 else { return }
        let band = min(rows.count, max(8, Self.shapeBandPixels / shape.width))
        let buffer = Texture(target: shape.width, height: band)
        let opacity = min(max(item.opacity, 0), 1), fade = UInt64(opacity * 256 + 0.5)
        _ = shape.drawer.rasterizeRows(shape.request, rows: (rows.lowerBound - y)..<(rows.upperBound - y), bandHeight: band,
                                       into: buffer.targetPixels) { rasterRows in
            // The buffer's row 0 is the raster's row rasterRows.lowerBound, on target row `start`.
            let start = rasterRows.lowerBound + y, targetRows = start..<(rasterRows.upperBound + y)
            if fade < 256 {
                drawTexels(item, texture: buffer, offset: (-x, -start), extents: nil, rows: targetRows, claiming: false, Faded(fade: fade))
            } else {
                drawTexels(item, texture: buffer, offset: (-x, -start), extents: nil, rows: targetRows, claiming: false, Unmodulated())
            }
        }
    }
}

extension DrawItem {
    /// The target pixel a deferred shape's raster pixel (0, 0) lies on, when the item can be
    /// drawn a band at a time: its raster placed one texel per pixel on whole pixels (no turn,
    /// scale or perspective left; within `drawTextured`'s 1/512 pixel), source-over, unmasked,
    /// untinted, with no colour matrix, shape, border or piece. Nil otherwise (drawn from the raster).
    func deferredOrigin(of shape: DeferredShape) -> (x: Int, y: Int)? {
        guard blendMode == .normal, colorMatrix == nil, tint == nil, maskPass == nil, polygon == nil, self.shape == nil,
              borderWidth == nil, body == nil, borderTint == nil else { return nil }
        let m = transform
        guard m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1 else { return nil }
        let a = m.projecting(CGPoint(x: rect.minX, y: rect.minY)), b = m.projecting(CGPoint(x: rect.maxX, y: rect.maxY))
        let x = a.x.rounded(), y = a.y.rounded()
        let tolerance: CGFloat = 1.0 / 1024
        guard abs(a.x - x) < tolerance, abs(a.y - y) < tolerance, abs(b.x - a.x - CGFloat(shape.width)) < tolerance,
              abs(b.y - a.y - CGFloat(shape.height)) < tolerance, abs(x) < 1e9, abs(y) < 1e9 else { return nil }
        return (Int(x), Int(y))
    }
}
