import Foundation
import Geometry
import Drawing

/// How an image renderer's bitmaps are made. UIKit: `UIGraphicsImageRendererFormat`.
open class UIGraphicsImageRendererFormat: @unchecked Sendable {
    /// Pixels per point; 1 by default (`UIScreen.main.scale`).
    open var scale: CGFloat = UIScreen.main.scale
    /// An opaque bitmap has no alpha (it starts black).
    open var opaque = false

    public init() {}

    /// The default format.
    open class func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
    open class func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// The drawing context inside `UIGraphicsImageRenderer.image(actions:)`. UIKit: `UIGraphicsImageRendererContext`.
open class UIGraphicsImageRendererContext {
    /// The Core Graphics context: y down, origin at the top left of the renderer's bounds, in points.
    public let cgContext: CGContext
    public let format: UIGraphicsImageRendererFormat

    init(cgContext: CGContext, format: UIGraphicsImageRendererFormat) {
        self.cgContext = cgContext
        self.format = format
    }

    /// The image drawn so far.
    open var currentImage: UIImage {
        cgContext.makeImage().map { UIImage(cgImage: $0, scale: format.scale) } ?? UIImage(cgImage: CGImage(width: 0, height: 0, source: nil))
    }

    open func fill(_ rect: CGRect) { cgContext.fill(rect) }
    open func fill(_ rect: CGRect, blendMode: CGBlendMode) {
        cgContext.saveGState()
        cgContext.setBlendMode(blendMode)
        cgContext.fill(rect)
        cgContext.restoreGState()
    }
    open func stroke(_ rect: CGRect) { cgContext.stroke(rect) }
    open func clip(to rect: CGRect) { cgContext.clip(to: rect) }
}

/// The drawing closure of an image renderer.
public typealias UIGraphicsImageDrawingActions = (UIGraphicsImageRendererContext) -> Void

/// Makes images by drawing into a fresh bitmap context. UIKit: `UIGraphicsImageRenderer`.
open class UIGraphicsImageRenderer {
    public let format: UIGraphicsImageRendererFormat
    /// The area drawn, in points.
    public let bounds: CGRect

    public init(size: CGSize, format: UIGraphicsImageRendererFormat = .default()) {
        bounds = CGRect(origin: .zero, size: size)
        self.format = format
    }

    public init(bounds: CGRect, format: UIGraphicsImageRendererFormat = .default()) {
        self.bounds = bounds
        self.format = format
    }

    /// Draws with `actions` (the context is also UIKit's current one) and returns the image;
    /// an empty size gives an empty image.
    open func image(actions: UIGraphicsImageDrawingActions) -> UIImage {
        guard let context = render(actions), let image = context.makeImage() else {
            return UIImage(cgImage: CGImage(width: 0, height: 0, source: nil), scale: format.scale)
        }
        return UIImage(cgImage: image, scale: format.scale)
    }

    /// The drawing as PNG bytes.
    open func pngData(actions: UIGraphicsImageDrawingActions) -> Data {
        image(actions: actions).pngData() ?? Data()
    }

    /// The drawing as JPEG bytes.
    open func jpegData(withCompressionQuality compressionQuality: CGFloat, actions: UIGraphicsImageDrawingActions) -> Data {
        image(actions: actions).jpegData(compressionQuality: compressionQuality) ?? Data()
    }

    private func render(_ actions: UIGraphicsImageDrawingActions) -> CGContext? {
        guard let context = CGContext(size: bounds.size, origin: bounds.origin, scale: format.scale, opaque: format.opaque)
        else { return nil }
        UIGraphicsPushContext(context)
        actions(UIGraphicsImageRendererContext(cgContext: context, format: format))
        UIGraphicsPopContext()
        return context
    }
}

// MARK: - Image contexts (the older UIKit API)

/// The image contexts begun on this thread, innermost last, with their scales.
private final class ImageContextStack {
    var entries: [(context: CGContext, scale: CGFloat)] = []
}

private var imageContexts: ImageContextStack { threadLocal("Lamina.UIGraphicsImageContexts", ImageContextStack.init) }

/// Begins an image context of `size` points at `scale` pixels per point (0: the screen's, 1)
/// and makes it current. UIKit: `UIGraphicsBeginImageContextWithOptions`.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    let scale = scale > 0 ? scale : UIScreen.main.scale
    guard let context = CGContext(size: size, scale: scale, opaque: opaque) else { return }
    imageContexts.entries.append((context, scale))
    UIGraphicsPushContext(context)
}

/// Begins a transparent image context at one pixel per point. UIKit: `UIGraphicsBeginImageContext`.
public func UIGraphicsBeginImageContext(_ size: CGSize) { UIGraphicsBeginImageContextWithOptions(size, false, 1) }

/// The image drawn in the current image context; nil when the current context is not one.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let entry = imageContexts.entries.last, entry.context === UIGraphicsGetCurrentContext(),
          let image = entry.context.makeImage() else { return nil }
    return UIImage(cgImage: image, scale: entry.scale)
}

/// Ends the image context begun last and restores the context current before it.
public func UIGraphicsEndImageContext() {
    guard let entry = imageContexts.entries.popLast() else { return }
    if entry.context === UIGraphicsGetCurrentContext() { UIGraphicsPopContext() }
}
