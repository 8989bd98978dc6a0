import Foundation
import Geometry

/// What part of a layer's plane can show in a target: offscreen passes and content rasters are
/// allocated for that part only, so a layer of 10⁷ points drawn into a 32×32 frame costs what
/// 32×32 pixels cost, never what its bounds would.
public enum VisibleRegion {
    /// Target pixels kept around what can show: bilinear sampling reads one texel beyond.
    public static let samplingMargin: CGFloat = 2

    /// The part of `rect` (a layer's plane, z = 0) that `toTarget` can map into `target`
    /// (pixels), grown by `margin` layer points; nil when no part of it can. `rect` itself when
    /// that cannot be worked out: a plane seen edge on, or one whose horizon crosses the target
    /// (some target pixel then sees the plane at infinity).
    public static func clip(_ rect: CGRect, toTarget m: CATransform3D, target: CGRect, margin: CGFloat = 0) -> CGRect? {
        guard let seen = preimage(of: target, under: m) else { return rect }
        let part = seen.insetBy(dx: -margin, dy: -margin).intersection(rect)
        return part.isNull || part.width <= 0 || part.height <= 0 ? nil : part
    }

    /// The bounding box of the points of the plane z = 0 that `m` maps into `target`; nil when
    /// some of `target` shows the plane behind the eye or at infinity, or sees it edge on.
    static func preimage(of target: CGRect, under m: CATransform3D) -> CGRect? {
        guard let inverse = RenderPlanBuilder.Walk.planeInverse(m) else { return nil }
        var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        for (sx, sy) in [(target.minX, target.minY), (target.maxX, target.minY), (target.minX, target.maxY), (target.maxX, target.maxY)] {
            let q = inverse.transform(x: sx, y: sy)
            guard abs(q.w) > 1e-12 else { return nil }
            let x = q.x / q.w, y = q.y / q.w
            // In front of the eye: the plane point's own w must be positive.
            let w = x * m.m14 + y * m.m24 + m.m44
            guard w > 1e-9, x.isFinite, y.isFinite else { return nil }
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// `rect` grown outward to the grid of `step` points from `origin`, so that a region that
    /// moves a little keeps the same raster (cache hits) and the same texel alignment.
    public static func snapped(_ rect: CGRect, origin: CGPoint, step: CGSize) -> CGRect {
        guard step.width > 0, step.height > 0 else { return rect }
        let x0 = ((rect.minX - origin.x) / step.width).rounded(.down), x1 = ((rect.maxX - origin.x) / step.width).rounded(.up)
        let y0 = ((rect.minY - origin.y) / step.height).rounded(.down), y1 = ((rect.maxY - origin.y) / step.height).rounded(.up)
        return CGRect(x: origin.x + x0 * step.width, y: origin.y + y0 * step.height,
                      width: (x1 - x0) * step.width, height: (y1 - y0) * step.height)
    }
}
