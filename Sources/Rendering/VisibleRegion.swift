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
    /// some of `target` shows the plane behind the eye or at infinity.
    static func preimage(of target: CGRect, under m: CATransform3D) -> CGRect? {
        // The plane z = 0 maps by the homography [x y 1] · H = [X Y W], H = rows (m11 m12 m14),
        // (m21 m22 m24), (m41 m42 m44); its inverse maps target corners back onto the plane.
        let h = [[m.m11, m.m12, m.m14], [m.m21, m.m22, m.m24], [m.m41, m.m42, m.m44]].map { $0.map(Double.init) }
        guard let inverse = invert(h) else { return nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (sx, sy) in [(target.minX, target.minY), (target.maxX, target.minY), (target.minX, target.maxY), (target.maxX, target.maxY)] {
            let s = [Double(sx), Double(sy), 1]
            let q = (0..<3).map { j in s[0] * inverse[0][j] + s[1] * inverse[1][j] + s[2] * inverse[2][j] }
            guard abs(q[2]) > 1e-12 else { return nil }
            let x = q[0] / q[2], y = q[1] / q[2]
            // In front of the eye: the point's own w must be positive.
            let w = x * h[0][2] + y * h[1][2] + h[2][2]
            guard w > 1e-9, x.isFinite, y.isFinite else { return nil }
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
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

    private static func invert(_ a: [[Double]]) -> [[Double]]? {
        let c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1]
        let c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2]
        let c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0]
        let det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let d = 1 / det
        return [[c00 * d, (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * d, (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * d],
                [c01 * d, (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * d, (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * d],
                [c02 * d, (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * d, (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * d]]
    }
}
