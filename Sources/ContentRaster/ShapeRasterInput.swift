import Foundation
import Geometry
import Layers

/// Everything that determines a shape's pixels: the path, its style, the image size and the
/// mapping from layer points to pixels. Equal inputs give equal images, so this is also the
/// ``ContentCache`` key.
public struct ShapeRasterInput: Hashable, Sendable {
    /// The path in layer points; nil draws nothing.
    public var path: CGPath?
    /// Fill, stroke, dash and trim.
    public var style: ShapeStyle
    /// The image width in pixels.
    public var pixelWidth: Int
    /// The image height in pixels.
    public var pixelHeight: Int
    /// Layer points → pixels, with pixel (0, 0) the top-left corner of the image.
    public var transform: CGAffineTransform

    /// An input with an explicit pixel size and point-to-pixel transform.
    public init(path: CGPath?, style: ShapeStyle, pixelWidth: Int, pixelHeight: Int,
                transform: CGAffineTransform) {
        self.path = path
        self.style = style
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.transform = transform
    }

    /// An input covering `region` (layer points) at `scale` pixels per point: the image is
    /// `region.size · scale` pixels (rounded up) and `region.origin` lands on pixel (0, 0).
    ///
    /// Pass the layer's bounds and `contentsScale` for a bounds-sized image; shapes are not
    /// clipped to the bounds (§15.1), so pass ``PathRasterizer/paintedBounds(of:style:)``
    /// instead to keep strokes that overhang them.
    public init(path: CGPath?, style: ShapeStyle, region: CGRect, scale: CGFloat) {
        let s = scale > 0 && scale.isFinite ? scale : 1
        self.init(
            path: path, style: style,
            pixelWidth: pixelCount(region.width * s), pixelHeight: pixelCount(region.height * s),
            transform: CGAffineTransform(a: s, b: 0, c: 0, d: s, tx: -region.minX * s, ty: -region.minY * s))
    }

    /// The input for a shape layer's properties over `region` (usually its bounds).
    public init(shape: ShapeProperties, region: CGRect, scale: CGFloat) {
        self.init(path: shape.path, style: ShapeStyle(shape), region: region, scale: scale)
    }
}

/// The whole pixels needed to cover `length` pixels; 20.000001 counts as 20 (float noise from
/// scaling), negative and non-finite lengths as 0.
func pixelCount(_ length: CGFloat) -> Int {
    guard length.isFinite, length > 0 else { return 0 }
    let nearest = length.rounded()
    if abs(length - nearest) < 1e-6 { return Int(min(nearest, 1_048_576)) }
    return Int(min(length.rounded(.up), 1_048_576))
}
