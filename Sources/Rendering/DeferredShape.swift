import Foundation
import Geometry

/// A shape layer's path to be drawn on the target's own pixels, handed to the backend instead of
/// its raster (`Paint.shape`): a backend that draws shapes itself (`RenderBackend.drawsDeferredShapes`,
/// the CPU backend) rasterizes it a band of rows at a time into memory it reuses and composites
/// each band while it is in cache, where a raster made whole costs fresh memory (allocated, page
/// faulted, cleared) and a second pass over it. The bytes drawn are those of the raster
/// composited. A backend that cannot, or an item it cannot draw that way, asks for the raster
/// instead (`rasterized`), which is the image the plan would otherwise have held.
///
/// The shape is placed as its raster would be: the raster's pixel (0, 0) lies on a whole target
/// pixel (`ContentRequest.alignedShape` and `.placedShape`, maybe clipped).
public struct DeferredShape: Sendable, Equatable {
    /// What the raster would be made from.
    public let request: ContentRequest
    /// The raster's size in pixels.
    public let width: Int, height: Int
    /// Where the raster came from, and where it is drawn from.
    public let drawer: any ContentRasterizer & Sendable

    public init(request: ContentRequest, width: Int, height: Int, drawer: any ContentRasterizer & Sendable) {
        self.request = request; self.width = width; self.height = height; self.drawer = drawer
    }

    /// The raster, made (or found in the drawer's cache) on the calling thread.
    public func rasterized() -> RasterizedContent? { drawer.rasterize(request) }

    /// Equal when the same content would be drawn (whichever drawer draws it).
    public static func == (a: DeferredShape, b: DeferredShape) -> Bool {
        a.width == b.width && a.height == b.height && a.request == b.request
    }
}

extension RenderPlan {
    /// The plan with every deferred shape (`Paint.shape`) replaced by its raster, as a plan for
    /// a backend that does not draw shapes itself holds it (an item whose raster is empty is left out).
    public func rasterizingShapes() -> RenderPlan {
        guard passes.contains(where: { $0.items.contains { if case .shape = $0.paint { true } else { false } } }) else { return self }
        var plan = self
        for p in plan.passes.indices {
            plan.passes[p].items = plan.passes[p].items.compactMap { item in
                guard case .shape(let shape) = item.paint else { return item }
                guard let raster = shape.rasterized() else { return nil }
                var rasterized = item
                rasterized.paint = .image(raster.image, source: CGRect(x: 0, y: 0, width: 1, height: 1), minification: .linear, magnification: .linear)
                rasterized.rect = raster.rect
                return rasterized
            }
        }
        return plan
    }
}
