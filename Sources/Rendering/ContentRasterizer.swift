import Foundation
import Geometry
import Layers

/// Layer content that has to be rasterized before it can be drawn: a shape layer's path, a text
/// layer's text, a filled `shadowPath`, a layer's own drawing. Values, so equal requests can
/// share one image.
public enum ContentRequest: Hashable, Sendable {
    /// A `CAShapeLayer`'s path, filled and stroked with its properties (§15.1), at `scale` pixels per point.
    case shape(ShapeProperties, scale: CGFloat)
    /// A shape drawn onto the target's own pixel grid (a layer under a plain scale and move):
    /// its path stretched by `stretch` (a near-uniform scale's x and y parts over `scale`) and
    /// rasterized at exactly `scale` pixels per point, the pixels offset by `phase` (0…1, the
    /// fraction of a target pixel the layer's origin sits at) so that they coincide with the
    /// target's and compositing resamples nothing.
    case alignedShape(ShapeProperties, scale: CGFloat, stretch: CGSize, phase: CGPoint)
    /// A shape drawn straight onto the target's pixels under a 2D map (a rotated, skewed or
    /// unevenly scaled layer): `transform` takes layer points to target pixels counted from a
    /// whole pixel (its translation is the sub-pixel phase), so the raster is drawn moved by
    /// whole pixels and compositing resamples nothing. The image covers `RasterizedContent.rect`
    /// of those pixels, not of the layer's points.
    case placedShape(ShapeProperties, transform: CGAffineTransform)
    /// A `CATextLayer`'s text laid out in bounds of `size` points, at `scale` pixels per point.
    case text(TextProperties, size: CGSize, scale: CGFloat)
    /// A path filled opaque white with the non-zero rule (a shadow's shape), at `scale` pixels per point.
    case filledPath(CGPath, scale: CGFloat)
    /// The anti-aliased coverage (white, alpha) of the circular corners of a rounded rectangle: a
    /// disc of radius `radius` texels in a square of twice that side, or with `ringWidth`
    /// (texels) only the ring of a border. Each corner draws its quadrant.
    case cornerMask(radius: Int, ringWidth: CGFloat?)
    /// A rounded fill's corner coverage and its border's ring (`cornerMask` without and with
    /// `ringWidth`) in the channels of one image: red the disc, green the ring, alpha the disc.
    /// A fill and its border then draw each corner as one item (`DrawItem.borderTint`).
    case cornerMaskPair(radius: Int, ringWidth: CGFloat)
    /// A custom-drawn layer's drawing (`draw(in:)`, a delegate), used as its contents; equal
    /// keys (layer, display generation, size, scale, animated display keys' values) share one image.
    case drawing(LayerDrawing)
    /// Only the part `region` of another request (a shape's or shadow path's layer points, a
    /// text's bounds-relative points): the part of huge content that can show.
    indirect case clipped(ContentRequest, region: CGRect)

    /// Pixels per point asked for (a corner mask's: 1).
    public var requestedScale: CGFloat {
        switch self {
        case .shape(_, let scale), .alignedShape(_, let scale, _, _), .text(_, _, let scale), .filledPath(_, let scale): scale
        case .cornerMask, .cornerMaskPair, .placedShape: 1
        case .drawing(let drawing): drawing.key.scale
        case .clipped(let inner, _): inner.requestedScale
        }
    }

    /// The request without its clip.
    public var unclipped: ContentRequest {
        if case .clipped(let inner, _) = self { return inner.unclipped }
        return self
    }
}

/// A rasterized request: the image and the rectangle of the layer's space (points) it covers.
public struct RasterizedContent: Sendable {
    public var image: CGImage
    public var rect: CGRect
    public init(image: CGImage, rect: CGRect) { self.image = image; self.rect = rect }
}

/// Turns content requests into images (the "raster contents" stage between the plan and the
/// backends). Implementations keep images of unchanged requests, returning the same `CGImage`
/// object so backends' texture caches hit too.
public protocol ContentRasterizer: AnyObject {
    /// The request's image and placement; nil when there is nothing to draw. Time spent
    /// rasterizing (not looking up what was rasterized before) is added to `stopwatch`'s `raster`.
    func rasterize(_ request: ContentRequest, stopwatch: Stopwatch?) -> RasterizedContent?
    /// The rectangle (as `RasterizedContent.rect`) and pixel size `rasterize` would give
    /// `request`, found without drawing; nil when it draws nothing or cannot say.
    func rasterFootprint(of request: ContentRequest) -> (rect: CGRect, width: Int, height: Int)?
    /// `request`'s raster when one is worth having: kept from before, or made now because the
    /// same request was asked for lately (unchanged content, likely to be asked for again);
    /// `nil` when it is new (an animated shape's path of this frame, which a raster would serve
    /// once), for the caller to draw it a band at a time (`rasterizeRows`).
    func rasterizeIfRepeated(_ request: ContentRequest, stopwatch: Stopwatch?) -> RasterizedContent??
    /// Rows `rows` of `request`'s raster (row 0 its top; its width given by `rasterFootprint`),
    /// `bandHeight` rows at a time: each band into `pixels`, one row after the other, the bytes
    /// of those rows of `rasterize`'s image, then handed to `body` (its rows of the raster), for a
    /// backend that composites a raster a band at a time without keeping it. False when it
    /// cannot (nothing more is drawn).
    func rasterizeRows(_ request: ContentRequest, rows: Range<Int>, bandHeight: Int, into pixels: UnsafeMutablePointer<UInt8>,
                       _ body: (Range<Int>) -> Void) -> Bool
}

extension ContentRasterizer {
    /// The request's image and placement, without measuring.
    public func rasterize(_ request: ContentRequest) -> RasterizedContent? { rasterize(request, stopwatch: nil) }

    /// Default: footprints are not known ahead.
    public func rasterFootprint(of request: ContentRequest) -> (rect: CGRect, width: Int, height: Int)? { nil }

    /// Default: always the raster.
    public func rasterizeIfRepeated(_ request: ContentRequest, stopwatch: Stopwatch?) -> RasterizedContent?? {
        .some(rasterize(request, stopwatch: stopwatch))
    }

    /// Default: rasters come whole.
    public func rasterizeRows(_ request: ContentRequest, rows: Range<Int>, bandHeight: Int, into pixels: UnsafeMutablePointer<UInt8>,
                              _ body: (Range<Int>) -> Void) -> Bool { false }
}

extension ContentRequest {
    /// Pixels per point for a shape's path drawn at `density` target pixels per point: the
    /// density rounded up to a power of √2, not held at `contentsScale` when the shape is drawn
    /// smaller (a path can be drawn at any size; a larger raster only costs pixels and samples
    /// the same path less well, and a composition scaled to fit a small frame would pay for
    /// every layer at full size).
    public static func vectorRasterScale(density: CGFloat) -> CGFloat {
        let wanted = density.isFinite && density > 0 ? density : 1
        let step = (2 * Foundation.log2(wanted)).rounded(.up) / 2
        return min(16, Foundation.pow(2, max(step, -4)))
    }

    /// Pixels per point for content drawn at `density` target pixels per point: at least the
    /// layer's `contentsScale`, rounded up to a power of √2 so that a layer whose scale animates
    /// is re-rasterized only when its sharpness would visibly change.
    public static func rasterScale(contentsScale: CGFloat, density: CGFloat) -> CGFloat {
        vectorRasterScale(density: max(contentsScale > 0 ? contentsScale : 1, density.isFinite ? density : 1))
    }
}
