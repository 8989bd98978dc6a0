import CCairo
import Foundation
import Geometry

/// A Core Graphics drawing destination: a bitmap drawn with cairo. Core Graphics: `CGContext`.
///
/// Coordinates follow Core Graphics. Device space has its origin at the bottom left of the
/// bitmap and y growing upward, in pixels; the current transformation matrix (`ctm`) maps user
/// space to it. A plain bitmap context (`CGContext(data:width:…)`) starts with the identity, so
/// y grows upward; the contexts UIKit makes (`UIGraphicsImageRenderer`, a layer's `draw(in:)`)
/// start flipped, with the origin at the top left and y growing downward, in points. Points
/// added to the path are transformed by the CTM when they are added, and the line width and
/// dashes by the CTM when the path is stroked, as in Core Graphics.
///
/// `draw(_:in:)` puts an image's first row at the top of the rectangle in y-up terms, so in a
/// flipped (UIKit) context the image comes out upside down — Core Graphics' well-known trap;
/// `UIImage.draw(in:)` draws upright there.
public final class CGContext {
    /// Pixels.
    public let width: Int
    public let height: Int
    public let bitsPerComponent: Int
    public let bitsPerPixel: Int
    public let bytesPerRow: Int
    public let colorSpace: CGColorSpace?
    public let bitmapInfo: CGBitmapInfo
    /// The caller's pixel buffer, kept in step with every drawing operation; nil when the
    /// context owns its pixels.
    public let data: UnsafeMutableRawPointer?

    /// The cairo surface holding the pixels (ARGB32, or RGB24 for bitmaps without alpha).
    package let surface: OpaquePointer
    /// The cairo context drawing into `surface`.
    package let cairo: OpaquePointer
    /// The caller's buffer layout, when `data` was given.
    let external: BitmapLayout?
    /// Default user space → device space when the context was made (shadows are measured in it).
    let baseTransform: CGAffineTransform
    /// The drawing operations performed so far (a drawn layer that performed none is left as it was).
    package internal(set) var operationCount = 0

    var state = GraphicsState()
    var savedStates: [GraphicsState] = []
    /// The current path in device space.
    var pathStorage = CGMutablePath()

    /// A bitmap context over `data` (nil: the context allocates its own, cleared), with the
    /// pixel layout `bitsPerComponent`, `space` and `bitmapInfo` describe. Supported: 8-bit RGB
    /// with premultiplied or skipped alpha first or last, in either 32-bit byte order, and 8-bit
    /// grey without alpha; nil for other layouts or sizes. A caller's buffer is read when the
    /// context is made and written after every drawing operation.
    /// Core Graphics: `CGContext(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`.
    public convenience init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                             bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        guard let layout = BitmapLayout(bitsPerComponent: bitsPerComponent, space: space,
                                        info: CGBitmapInfo(rawValue: bitmapInfo)) else { return nil }
        let minimumRow = width * layout.bytesPerPixel
        let rowBytes = bytesPerRow == 0 ? minimumRow : bytesPerRow
        guard rowBytes >= minimumRow else { return nil }
        self.init(width: width, height: height, opaque: !layout.hasAlpha, transform: .identity,
                  colorSpace: space, bitmapInfo: CGBitmapInfo(rawValue: bitmapInfo), bytesPerRow: rowBytes,
                  data: data, layout: layout)
    }

    /// A context of `width`×`height` pixels whose default user space is `transform` → device
    /// space; opaque contexts have no alpha (they start black).
    package convenience init?(width: Int, height: Int, opaque: Bool, transform: CGAffineTransform) {
        let info = CGBitmapInfo(alphaInfo: opaque ? .noneSkipFirst : .premultipliedFirst).union(.byteOrder32Little)
        self.init(width: width, height: height, opaque: opaque, transform: transform, colorSpace: CGColorSpaceCreateDeviceRGB(),
                  bitmapInfo: info, bytesPerRow: width * 4, data: nil, layout: nil)
    }

    /// A context UIKit would make for `size` points at `scale` pixels per point: origin at the top
    /// left of `size`, y growing downward (`origin` is the point at the top left).
    package convenience init?(size: CGSize, origin: CGPoint = .zero, scale: CGFloat, opaque: Bool) {
        let s = scale.isFinite && scale > 0 ? scale : 1
        let pixelWidth = Self.pixelCount(size.width * s), pixelHeight = Self.pixelCount(size.height * s)
        let flip = CGAffineTransform(a: s, b: 0, c: 0, d: -s, tx: -origin.x * s, ty: CGFloat(pixelHeight) + origin.y * s)
        self.init(width: pixelWidth, height: pixelHeight, opaque: opaque, transform: flip)
    }

    private init?(width: Int, height: Int, opaque: Bool, transform: CGAffineTransform, colorSpace: CGColorSpace?,
                  bitmapInfo: CGBitmapInfo, bytesPerRow: Int, data: UnsafeMutableRawPointer?, layout: BitmapLayout?) {
        // cairo's limit is 32767 pixels a side.
        guard width > 0, height > 0, width < 1 << 15, height < 1 << 15,
              let surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32,
                                                       Int32(width), Int32(height)) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cairo = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        self.width = width
        self.height = height
        self.surface = surface
        self.cairo = cairo
        self.colorSpace = colorSpace
        self.bitmapInfo = bitmapInfo
        self.bytesPerRow = bytesPerRow
        self.bitsPerComponent = 8
        self.bitsPerPixel = (layout?.bytesPerPixel ?? 4) * 8
        self.data = layout == nil ? nil : data
        external = data == nil ? nil : layout
        baseTransform = transform
        state.ctm = transform
        if let external, let data { external.read(from: data, bytesPerRow: bytesPerRow, into: surface) }
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// Whole pixels for a length, 20.000001 counting as 20.
    package static func pixelCount(_ length: CGFloat) -> Int {
        guard length.isFinite, length > 0 else { return 0 }
        let nearest = length.rounded()
        return Int(abs(length - nearest) < 1e-6 ? nearest : length.rounded(.up))
    }

    // MARK: - Graphics state

    /// Pushes a copy of the graphics state (CTM, clip, colours, line style, alpha, blend mode,
    /// shadow); the path is not part of it.
    public func saveGState() {
        savedStates.append(state)
        cairo_save(cairo)
    }

    /// Restores the state saved last; does nothing when none is saved.
    public func restoreGState() {
        guard let saved = savedStates.popLast() else { return }
        state = saved
        cairo_restore(cairo)
    }

    /// User space → device space.
    public var ctm: CGAffineTransform { state.ctm }
    /// Same as `ctm`.
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { state.ctm }

    public func translateBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(translationX: x, y: y)) }
    public func scaleBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(scaleX: x, y: y)) }
    /// Rotates user space by `angle` radians (from +x toward +y).
    public func rotate(by angle: CGFloat) { concatenate(CGAffineTransform(rotationAngle: angle)) }
    /// Applies `transform` to user space before the current CTM.
    public func concatenate(_ transform: CGAffineTransform) { state.ctm = transform.concatenating(state.ctm) }

    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm) }
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm.inverted()) }
    public func convertToDeviceSpace(_ rect: CGRect) -> CGRect { rect.applying(state.ctm) }
    public func convertToUserSpace(_ rect: CGRect) -> CGRect { rect.applying(state.ctm.inverted()) }

    // MARK: - Colour, alpha, compositing

    public func setFillColor(_ color: CGColor) { state.fillColor = color }
    public func setStrokeColor(_ color: CGColor) { state.strokeColor = color }
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { state.fillColor = CGColor(gray: gray, alpha: alpha) }
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { state.strokeColor = CGColor(gray: gray, alpha: alpha) }
    /// The space `setFillColor(_:)` with components reads them in (device RGB at first).
    public func setFillColorSpace(_ space: CGColorSpace) { state.fillSpace = space }
    public func setStrokeColorSpace(_ space: CGColorSpace) { state.strokeSpace = space }
    /// A fill colour from components in the fill colour space, alpha last.
    public func setFillColor(_ components: UnsafePointer<CGFloat>) {
        if let color = CGColor(colorSpace: state.fillSpace, components: components) { state.fillColor = color }
    }
    /// A stroke colour from components in the stroke colour space, alpha last.
    public func setStrokeColor(_ components: UnsafePointer<CGFloat>) {
        if let color = CGColor(colorSpace: state.strokeSpace, components: components) { state.strokeColor = color }
    }

    /// The alpha set by `setAlpha(_:)`.
    package var alpha: CGFloat { state.alpha }

    /// Multiplies everything drawn afterwards (0…1).
    public func setAlpha(_ alpha: CGFloat) { state.alpha = alpha.isFinite ? min(max(alpha, 0), 1) : 1 }
    public func setBlendMode(_ mode: CGBlendMode) { state.blendMode = mode }
    /// Casts a shadow under everything drawn afterwards: `offset` and `blur` are in the context's
    /// default user space (in a UIKit context a positive height points down); a nil colour
    /// turns shadows off.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        guard let color, color.alpha > 0 else { state.shadow = nil; return }
        state.shadow = Shadow(offset: offset, blur: max(0, blur.isFinite ? blur : 0), color: color)
    }
    /// A shadow of black at one third opacity (Core Graphics' default colour).
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3))
    }
    /// Resampling of images drawn scaled.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolation }
        set { state.interpolation = newValue }
    }
    /// Whether edges are anti-aliased (default true).
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.antialias = shouldAntialias }
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) { state.antialias = allowsAntialiasing }
    /// Accepted for porting; cairo flattens curves to its own tolerance.
    public func setFlatness(_ flatness: CGFloat) {}

    // MARK: - Line style

    public func setLineWidth(_ width: CGFloat) { state.lineWidth = width }
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    public func setMiterLimit(_ limit: CGFloat) { state.miterLimit = limit }
    /// Dash lengths, alternately painted and skipped, starting `phase` into the pattern; an
    /// empty list draws solid lines.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        state.dashPhase = phase
        state.dashLengths = lengths
    }

    /// Pixels are kept in step with the caller's buffer after every operation; nothing to do.
    public func flush() {}
    public func synchronize() {}
}

/// The part of a context's state that `saveGState`/`restoreGState` keep (the clip is kept by
/// cairo's own state stack).
struct GraphicsState {
    var ctm = CGAffineTransform.identity
    var fillColor = CGColor.black
    var strokeColor = CGColor.black
    var fillSpace = CGColorSpaceCreateDeviceRGB()
    var strokeSpace = CGColorSpaceCreateDeviceRGB()
    var alpha: CGFloat = 1
    var blendMode = CGBlendMode.normal
    var shadow: Shadow?
    var interpolation = CGInterpolationQuality.default
    var antialias = true
    var lineWidth: CGFloat = 1
    var lineCap = CGLineCap.butt
    var lineJoin = CGLineJoin.miter
    var miterLimit: CGFloat = 10
    var dashPhase: CGFloat = 0
    var dashLengths: [CGFloat] = []
    /// A clip set by `clip(to:mask:)`: coverage per device pixel, multiplied into every operation.
    var mask: MaskSurface?
}

struct Shadow {
    var offset: CGSize
    var blur: CGFloat
    var color: CGColor
}

/// An A8 cairo surface the size of the context, in cairo's device space (top row first).
final class MaskSurface {
    let surface: OpaquePointer
    init(_ surface: OpaquePointer) { self.surface = surface }
    deinit { cairo_surface_destroy(surface) }
}
