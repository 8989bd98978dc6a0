import Foundation
import Rendering

extension FillBody {
    /// The rectangles a body of `rect` is drawn as: the strip between its top cut squares, the
    /// full-width middle, the strip between its bottom cut squares (empty ones left out).
    ///
    /// They tile the body exactly — `rect` less the `side`×`side` squares at `corners` — so no
    /// pixel needs to be discarded: on llvmpipe a shader that can `discard` tests depth only
    /// after shading, and the opaque cards' hidden pixels were all shaded. Their edges are the
    /// body's cuts, which the plan keeps at least 1/64 pixel from pixel centres
    /// (`DrawItem.edgesClearPixelCentres`), so each pixel is drawn by exactly the piece whose
    /// rectangle holds its centre, as the per-pixel test chose.
    ///
    /// - Parameter covered: the cut corners whose squares lie wholly under something opaque
    ///   drawn later: the pieces may reach over them (fewer pieces, nothing of them shows).
    func pieces(of rect: CGRect, covered: RoundedCorners = [], _ body: (CGRect) -> Void) {
        let cuts = corners.subtracting(covered)
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
