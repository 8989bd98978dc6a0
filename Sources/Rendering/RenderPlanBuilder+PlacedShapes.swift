import Foundation
import Geometry
import Layers

// Shapes under a rotation, skew or uneven scale, rasterized straight onto the target's pixels.

extension RenderPlanBuilder.Walk {
    /// Layer points → target pixels where `t` maps the plane z = 0 by a 2D affine map (no
    /// perspective) that neither collapses it nor magnifies it past 64: `t`'s x, y and
    /// translation parts.
    static func planeMap(_ t: CATransform3D) -> CGAffineTransform? {
        guard abs(t.m14) <= 1e-12, abs(t.m24) <= 1e-12, abs(t.m44 - 1) <= 1e-12 else { return nil }
        let largest = max(abs(t.m11), abs(t.m12), abs(t.m21), abs(t.m22))
        let det = t.m11 * t.m22 - t.m12 * t.m21
        guard largest.isFinite, largest <= 64, abs(det) >= 1e-3 * largest * largest, t.m41.isFinite, t.m42.isFinite else { return nil }
        return CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
    }

    /// A shape layer's path drawn with `toTarget`, a 2D map other than a plain scale and move,
    /// as a raster made on the target's own pixels (`ContentRequest.placedShape`) and drawn
    /// moved by whole pixels: no resampling when it is composited, on either backend. As for
    /// shapes on the target's grid, the raster is made at the sub-pixel phase rounded to
    /// 1/32 pixel (`rasterPhase`), the shape drawn moved by the rounding, so a layer that only
    /// moves reuses a few rasters. `reach` bounds what the shape paints (layer points). False
    /// where this does not apply (perspective, a 3D context, geometry past cairo's range); the
    /// caller then rasterizes the shape in its own space.
    mutating func appendPlacedShape(_ shape: ShapeProperties, of p: LayerProperties, path: LayerLabel, reach: CGRect,
                                    toTarget: CATransform3D, opacity: Float, into items: inout [DrawItem]) -> Bool {
        guard toContext == nil, rasterizer != nil, let map = Self.planeMap(toTarget), !reach.isNull else { return false }
        let origin = CGPoint(x: map.tx.rounded(.down), y: map.ty.rounded(.down))
        let rounded = Self.rasterPhase(CGPoint(x: map.tx - origin.x, y: map.ty - origin.y))
        // Where the raster's pixel (0, 0) lands: whole target pixels (a phase rounded up to 1 is
        // the next pixel's 0).
        let offset = CGPoint(x: (map.tx + rounded.shift.x - rounded.phase.x).rounded(), y: (map.ty + rounded.shift.y - rounded.phase.y).rounded())
        let toRaster = CGAffineTransform(a: map.a, b: map.b, c: map.c, d: map.d, tx: rounded.phase.x, ty: rounded.phase.y)
        let whole = reach.applying(toRaster)
        // cairo's fixed point must hold every point of the path, not only the part drawn.
        let range = 4_194_304.0
        guard whole.minX.isFinite, whole.minY.isFinite, whole.maxX.isFinite, whole.maxY.isFinite,
              max(abs(whole.minX), abs(whole.maxX), abs(whole.minY), abs(whole.maxY)) < range else { return false }
        let visible = samplingTarget.offsetBy(dx: -offset.x, dy: -offset.y).intersection(whole)
        guard !visible.isNull, visible.width > 0, visible.height > 0 else { return true }  // nothing of it can show
        let side = CGFloat(SceneLimits.maximumRasterSide)
        guard visible.width < side - 2, visible.height < side - 2 else { return false }
        var request = ContentRequest.placedShape(shape, transform: toRaster)
        if visible != whole { request = .clipped(request, region: Self.rasterTile(visible, scale: 1, pixels: Self.shapeTilePixels)) }
        guard let placed = contentPaint(request, layer: path.index, antialiasEdges: p.allowsEdgeAntialiasing)
        else { return true }
        offscreen.append(OffscreenArea(layer: path, purpose: "path", width: placed.width, height: placed.height))
        items.append(tagged(DrawItem(layer: path, role: "path", transform: CATransform3DMakeTranslation(offset.x, offset.y, 0),
                                     rect: placed.rect, paint: placed.paint, opacity: opacity, antialiasEdges: p.allowsEdgeAntialiasing)))
        return true
    }
}
