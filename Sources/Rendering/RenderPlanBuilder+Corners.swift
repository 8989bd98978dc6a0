import Foundation
import Geometry

extension RenderPlanBuilder {
    /// A pass's items with rounded solid fills and borders split at their corners
    /// (`DrawItem.splitAtCorners`) and the circular corner squares drawn from masks
    /// (`maskingCorner`), in one walk over the items and without intermediate arrays: plans are
    /// built every frame, and a scene of rounded cards spent more time here than in the tree walk.
    ///
    /// A rounded background followed by its border with nothing between them (no contents or
    /// sublayers), drawn axis-aligned, becomes one item: the body — the fill with the border's
    /// straight parts — carrying its rounded corners as a mask pair (`BodyCorners`), which
    /// backends draw after the body at its place in the order: corners of one layer do not
    /// overlap each other or the body, so that changes nothing.
    func cornerPieces(_ items: [DrawItem], _ stopwatch: Stopwatch?) -> [DrawItem] {
        var result: [DrawItem] = []
        // A rounded item becomes up to five (growing the array would move every item so far).
        var rounded = 0
        for i in items.indices where items[i].shape != nil { rounded += 1 }
        result.reserveCapacity(items.count + 4 * rounded)
        var memo: CornerPairMemo?
        var i = 0
        while i < items.count {
            let item = items[i]
            if item.antialiasEdges {
                result.append(maskingCorner(item.withAntialiasedEdges(), stopwatch))
                i += 1
            } else if i + 1 < items.count, let band = item.band(mergingBorder: items[i + 1]) {
                appendCard(fill: item, border: items[i + 1], band: band, to: &result, stopwatch, memo: &memo)
                i += 2
            } else {
                for piece in item.splitAtCorners() { result.append(maskingCorner(piece, stopwatch)) }
                i += 1
            }
        }
        return result
    }

    /// The body of `fill` with `band` (the straight parts of `border`) and, where a mask pair
    /// applies, its rounded corners too (`FillBody.cornerPair`: the card is one item); else the
    /// fill's and the border's corner squares each drawn on their own after the body.
    private func appendCard(fill: DrawItem, border: DrawItem, band: BorderBand, to result: inout [DrawItem],
                            _ stopwatch: Stopwatch?, memo: inout CornerPairMemo?) {
        guard let shape = fill.shape else { return result.append(fill) }
        // Continuous corners reach 1.528665 times further along the edges (the shader's curve).
        let r = min(shape.continuous ? shape.radius * 1.528665 : shape.radius, min(fill.rect.width, fill.rect.height) / 2)
        var body = fill
        body.shape = nil
        body.body = FillBody(side: r, corners: shape.corners, band: band)
        var fillCorner = fill, borderCorner = border
        // The pair depends on the radius and ring alone (every corner of a card shares it):
        // asked for with the first rounded corner's square.
        if !shape.corners.isEmpty {
            // The lowest corner bit set: one of the rounded corners.
            let corner = RoundedCorners(rawValue: shape.corners.rawValue & (~shape.corners.rawValue &+ 1))
            fillCorner.rect = DrawItem.cornerSquare(corner, of: fill.rect, side: r)
            borderCorner.rect = fillCorner.rect
            if let pair = maskingCorner(fillCorner, pairedBorder: borderCorner, stopwatch, memo: &memo),
               case .image(let mask, _, _, _) = pair.paint, let fillColor = pair.tint, let borderColor = pair.borderTint {
                body.body?.cornerPair = BodyCorners(mask: mask, fill: fillColor, border: borderColor)
                return result.append(body)
            }
        }
        result.append(body)
        for (corner, origin) in DrawItem.cornerSquares(of: fill.rect, side: r) where shape.corners.contains(corner) {
            fillCorner.rect = CGRect(x: origin.x, y: origin.y, width: r, height: r)
            borderCorner.rect = fillCorner.rect
            result.append(maskingCorner(fillCorner, stopwatch))
            result.append(maskingCorner(borderCorner, stopwatch))
        }
    }
}
