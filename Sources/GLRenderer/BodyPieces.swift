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
    func pieces(of rect: CGRect, _ body: (CGRect) -> Void) {
        func cut(_ corner: RoundedCorners) -> CGFloat { corners.contains(corner) ? side : 0 }
        let top = CGRect(x: rect.minX + cut(.minXMinY), y: rect.minY,
                         width: rect.width - cut(.minXMinY) - cut(.maxXMinY), height: side)
        let middle = CGRect(x: rect.minX, y: rect.minY + side, width: rect.width, height: rect.height - 2 * side)
        let bottom = CGRect(x: rect.minX + cut(.minXMaxY), y: rect.maxY - side,
                            width: rect.width - cut(.minXMaxY) - cut(.maxXMaxY), height: side)
        if top.width > 0 { body(top) }
        if middle.height > 0 { body(middle) }
        if bottom.width > 0 { body(bottom) }
    }
}
