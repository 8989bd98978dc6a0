import Foundation
import Rendering

extension FillBody {
    /// The rectangles a body of `rect` is drawn as, cut across its longer side: for a body at
    /// least as tall as wide, the strip between its top cut squares, the full-width middle, the
    /// strip between its bottom cut squares; for a wider one, the same in columns (the column
    /// between its left cut squares, the full-height middle, the column between its right ones).
    /// Empty ones are left out.
    ///
    /// They tile the body exactly — `rect` less the `side`×`side` squares at `corners` — so no
    /// pixel needs to be discarded: on llvmpipe a shader that can `discard` tests depth only
    /// after shading, and the opaque cards' hidden pixels were all shaded. Their edges are the
    /// body's cuts, which the plan keeps at least 1/64 pixel from pixel centres
    /// (`DrawItem.edgesClearPixelCentres`), so each pixel is drawn by exactly the piece whose
    /// rectangle holds its centre, as the per-pixel test chose.
    ///
    /// Cutting across the longer side keeps the pieces' shared edges and diagonals short: llvmpipe
    /// rasterizes each 4×4 block a piece's edge or diagonal crosses once per piece touching it (a
    /// 200×120 card cut in rows crossed about 80 blocks more than cut in columns).
    ///
    /// - Parameter covered: the cut corners whose squares lie wholly under something opaque
    ///   drawn later: the pieces may reach over them (fewer pieces, nothing of them shows).
    func pieces(of rect: CGRect, covered: RoundedCorners = [], _ body: (CGRect) -> Void) {
        let cuts = corners.subtracting(covered)
        if rect.width > rect.height {
            Self.rows(of: rect.transposed, cuts: cuts.transposed, side: side) { body($0.transposed) }
        } else {
            Self.rows(of: rect, cuts: cuts, side: side, body)
        }
    }

    /// Calls `body` with each cut corner and its `side`×`side` square of `rect`, in
    /// `DrawItem.cornerSquares` order (without building that array on the per-frame path).
    func forEachCutSquare(of rect: CGRect, _ body: (RoundedCorners, CGRect) -> Void) {
        func square(_ corner: RoundedCorners, _ x: CGFloat, _ y: CGFloat) {
            if corners.contains(corner) { body(corner, CGRect(x: x, y: y, width: side, height: side)) }
        }
        let right = rect.maxX - side, bottom = rect.maxY - side
        square(.minXMinY, rect.minX, rect.minY)
        square(.maxXMinY, right, rect.minY)
        square(.minXMaxY, rect.minX, bottom)
        square(.maxXMaxY, right, bottom)
    }

    /// The strip between the top cuts, the middle, the strip between the bottom cuts.
    private static func rows(of rect: CGRect, cuts: RoundedCorners, side: CGFloat, _ body: (CGRect) -> Void) {
        func cut(_ corner: RoundedCorners) -> CGFloat { cuts.contains(corner) ? side : 0 }
        let topCut = cut(.minXMinY) + cut(.maxXMinY) > 0, bottomCut = cut(.minXMaxY) + cut(.maxXMaxY) > 0
        // Rows with no cut left join the middle.
        let middleTop = topCut ? rect.minY + side : rect.minY, middleBottom = bottomCut ? rect.maxY - side : rect.maxY
        let top = CGRect(x: rect.minX + cut(.minXMinY), y: rect.minY,
                         width: rect.width - cut(.minXMinY) - cut(.maxXMinY), height: side)
        let middle = CGRect(x: rect.minX, y: middleTop, width: rect.width, height: middleBottom - middleTop)
        let bottom = CGRect(x: rect.minX + cut(.minXMaxY), y: rect.maxY - side,
                            width: rect.width - cut(.minXMaxY) - cut(.maxXMaxY), height: side)
        if topCut, top.width > 0 { body(top) }
        if middle.height > 0 { body(middle) }
        if bottomCut, bottom.width > 0 { body(bottom) }
    }
}

private extension CGRect {
    /// The rectangle mirrored about the line x = y.
    var transposed: CGRect { CGRect(x: minY, y: minX, width: height, height: width) }
}

private extension RoundedCorners {
    /// The corners mirrored about the line x = y (max-x min-y becomes min-x max-y).
    var transposed: RoundedCorners {
        var result: RoundedCorners = []
        if contains(.minXMinY) { result.insert(.minXMinY) }
        if contains(.maxXMaxY) { result.insert(.maxXMaxY) }
        if contains(.maxXMinY) { result.insert(.minXMaxY) }
        if contains(.minXMaxY) { result.insert(.maxXMinY) }
        return result
    }
}
