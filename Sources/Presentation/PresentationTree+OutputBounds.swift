import Foundation
import Geometry

extension PresentationTree {
    /// Where layer `index`'s bounds land in the output: the axis-aligned box of its four
    /// corners mapped through `transformToRoot` (divided by w) and `scale` pixels per point —
    /// pixels, y down, for a render whose root is placed by its own geometry (a scene's root).
    ///
    /// What the box covers is the layer's bounds as drawn in its plane: contents and sublayers
    /// past the bounds, shadows and borders outside them are not included. Nil when a corner
    /// lies at or behind the eye of a perspective (w ≤ 0), where no finite box exists.
    public func outputBounds(of index: Int, scale: CGFloat = 1) -> CGRect? {
        let layer = layers[index]
        let b = layer.properties.bounds
        var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.minX, b.maxY), (b.maxX, b.maxY)] {
            let p = layer.transformToRoot.transform(x: x, y: y)
            guard p.w > 1e-9, p.x.isFinite, p.y.isFinite else { return nil }
            let px = p.x / p.w * scale, py = p.y / p.w * scale
            minX = min(minX, px); maxX = max(maxX, px)
            minY = min(minY, py); maxY = max(maxY, py)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
