import Foundation

extension PassRasterizer {
    /// A corner-mask pair (`DrawItem.borderTint`: red the fill's coverage, green the border's)
    /// placed on whole pixels, as the rounded cards of a scene are: one texel read per pixel
    /// instead of a bilinear sample, and the pair's transparent texels (outside the curve)
    /// skipped. The colour is computed with the same Float operations as `PairedCorner` over a
    /// `LinearSource`, which a sample at a texel centre reduces to (`PairedCornerColors`); returns false (nothing
    /// drawn) when the item does not qualify, for the general loop to draw it.
    func drawPairedCornerTexels(_ item: PreparedItem, texture: Texture, border: SIMD4<Float>, rows: Range<Int>,
                                claiming: Bool) -> Bool {
        guard !claiming, item.shape == nil, item.mask == nil, item.body == nil else { return false }
        let tw = texture.width, th = texture.height
        let texel = item.texelNumerators(width: tw, height: th)
        let d = item.denominator
        guard let offset = Self.texelOffset(u: texel.u - d * 0.5, v: texel.v - d * 0.5, d: d) else { return false }
        let texels = UnsafeRawPointer(texture.level0.base).assumingMemoryBound(to: UInt32.self)
        let pixels = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt32.self)
        let order = item.order
        var colors = PairedCornerColors(fill: item.tint ?? SIMD4(repeating: 1), border: border, opacity: item.opacity)
        // An item on whole texels is an axis-aligned rectangle on the target (unless split into
        // a polygon): every row but its first and last (whose centres may lie outside) has the
        // same span, found once (a small item's rows would spend more on their spans than on
        // their pixels).
        let outer = item.polygon.rows
        let rectangle = item.polygon.isAxisAlignedRectangle
        var inner: Range<Int>?
        for y in rows {
            let span: Range<Int>
            if !rectangle || y == outer.lowerBound || y == outer.upperBound - 1 {
                span = item.polygon.span(row: y)
            } else if let inner {
                span = inner
            } else {
                span = item.polygon.span(row: y)
                inner = span
            }
            guard !span.isEmpty else { continue }
            let texelRow = texels + min(max(y + offset.1, 0), th - 1) * tw
            let ownerRow = owner.map { $0 + y * width }
            let row = pixels + y * width
            for x in span {
                if let ownerRow, ownerRow[x] > order { continue }
                guard let source = colors.source(texelRow[min(max(x + offset.0, 0), tw - 1)]) else { continue }
                PackedSpans.blend(source, into: row + x)
            }
        }
        return true
    }
}
