import Foundation
import Geometry
import Rendering

/// A content rasterizer that draws nothing: it answers each request with an image of the size
/// `ContentCache` would make (its pixels never allocated), so that a frame's plan, and what its
/// offscreen images would cost, can be worked out before any of them exists (`RenderBudget`).
public final class MeasuringRasterizer: ContentRasterizer, @unchecked Sendable {
    public init() {}

    public func rasterize(_ request: ContentRequest, stopwatch: Stopwatch?) -> RasterizedContent? {
        guard let placement = ContentCache.placement(of: request) else { return nil }
        return RasterizedContent(image: CGImage(width: placement.width, height: placement.height, source: nil), rect: placement.rect)
    }
}
