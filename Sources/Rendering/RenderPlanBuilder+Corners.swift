import Foundation
import Geometry

extension RenderPlanBuilder {
    /// A pass's items with rounded solid fills and borders split at their corners
    /// (`DrawItem.splitAtCorners`) and the circular corner squares drawn from masks
    /// (`maskingCorner`), in one walk over the items and without intermediate arrays: plans are
    /// built every frame, and a scene of rounded cards spent more time here than in the tree walk.
    ///
    /// A rounded background followed by its border with nothing between them (no contents or
    /// sublayers), drawn axis-aligned, becomes one body — the fill with the border's straight
    /// parts — and one item per rounded corner with the fill's and the border's corner from a
    /// mask pair (`DrawItem.borderTint`): corners of one layer do not overlap, so drawing the
    /// pair at the fill corner's place in the order changes nothing.
    func cornerPieces(_ items: [DrawItem], _ stopwatch: Stopwatch?) -> [DrawItem] {
        var result: [DrawItem] = []
        // A rounded item becomes up to five (growing the array would move every item so far).
        var rounded = 0
        for i in items.indices where items[i].shape != nil { rounded += 1 }
        result.reserveCapacity(items.count + 4 * rounded)
        var i = 0
        while i < items.count {
            let item = items[i]
            if item.antialiasEdges {
                result.append(maskingCorner(item.withAntialiasedEdges(), stopwatch))
                i += 1
            } else if i + 1 < items.count, let band = item.band(mergingBorder: items[i + 1]) {
                appendCard(fill: item, border: items[i + 1], band: band, to: &result, stopwatch)
                i += 2
            } else {
                for piece in item.splitAtCorners() { result.append(maskingCorner(piece, stopwatch)) }
                i += 1
            }
        }
        return result
    }

    /// The body of `fill` with `band` (the straight parts of `border`), then each rounded
    /// corner: the fill's and the border's corner square as one mask-pair item, or each drawn
    /// on its own where no mask pair applies.
    private func appendCard(fill: DrawItem, border: DrawItem, band: BorderBand, to result: inout [DrawItem],
                            _ stopwatch: Stopwatch?) {
        guard let shape = fill.shape else { return result.append(fill) }
        // Continuous corners reach 1.528665 times further along the edges (the shader's curve).
        let r = min(shape.continuous ? shape.radius * 1.528665 : shape.radius, min(fill.rect.width, fill.rect.height) / 2)
        var body = fill
        body.shape = nil
        body.body = FillBody(side: r, corners: shape.corners, band: band)
        result.append(body)
        var fillCorner = fill, borderCorner = border
        for (corner, origin) in DrawItem.cornerSquares(of: fill.rect, side: r) where shape.corners.contains(corner) {
            fillCorner.rect = CGRect(x: origin.x, y: origin.y, width: r, height: r)
            borderCorner.rect = fillCorner.rect
            if let pair = maskingCorner(fillCorner, pairedBorder: borderCorner, stopwatch) {
                result.append(pair)
            } else {
                result.append(maskingCorner(fillCorner, stopwatch))
                result.append(maskingCorner(borderCorner, stopwatch))
            }
        }
    }
}
