import Foundation
import Geometry
import Layers

extension RenderPlanBuilder.Walk {
    /// The paint of content `request`, the rectangle it covers and its pixel size: its raster,
    /// or — for a shape placed on the target's pixels where the plan defers shapes, the request
    /// is new (`ContentRasterizer.rasterizeIfRepeated`) and the item can be drawn that way — the
    /// shape itself, for the backend to rasterize a band at a time as it composites it (`Paint.shape`).
    /// An unchanged shape keeps its raster; a changing one (an export's animated path) costs no
    /// raster of its own. Either way the same bytes. Deferred only when not blended, tinted,
    /// inside a 3D context or with anti-aliased edges. Nil: nothing to draw.
    mutating func contentPaint(_ request: ContentRequest, layer index: Int, antialiasEdges: Bool)
        -> (paint: Paint, rect: CGRect, width: Int, height: Int)? {
        guard let rasterizer else { return nil }
        let rasterized: RasterizedContent?
        if let shapeDrawer, request.isPlacedOnTargetPixels, !antialiasEdges, blendOverride == nil, toContext == nil,
           tree.layers[index].tint == nil {
            guard let repeated = shapeDrawer.rasterizeIfRepeated(request, stopwatch: stopwatch) else {
                guard let footprint = shapeDrawer.rasterFootprint(of: request) else { return nil }
                let deferred = DeferredShape(request: request, width: footprint.width, height: footprint.height, drawer: shapeDrawer)
                return (.shape(deferred), footprint.rect, footprint.width, footprint.height)
            }
            rasterized = repeated
        } else {
            rasterized = rasterizer.rasterize(request, stopwatch: stopwatch)
        }
        guard let rasterized else { return nil }
        return (.image(rasterized.image, source: CGRect(x: 0, y: 0, width: 1, height: 1), minification: .linear, magnification: .linear),
                rasterized.rect, rasterized.image.width, rasterized.image.height)
    }
}

extension ContentRequest {
    /// A shape whose raster lies on the target's own pixels (`alignedShape`, `placedShape`, maybe clipped).
    var isPlacedOnTargetPixels: Bool {
        switch unclipped {
        case .alignedShape, .placedShape: true
        default: false
        }
    }
}
