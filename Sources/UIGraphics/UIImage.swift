import Foundation
import Geometry
import Drawing
import Rendering
import ImageIO

/// An image with a scale and an orientation, as UIKit code handles images. UIKit: `UIImage`.
///
/// Files are decoded when the image is made (PNG or JPEG, recognized by their bytes), so
/// `cgImage` is always an in-memory image usable as layer contents or in a `CGContext`.
open class UIImage: @unchecked Sendable, CustomStringConvertible {
    /// UIKit's orientations; `size` and `draw(in:)` honour the rotations (`up`, `down`, `left`,
    /// `right`) and ignore mirroring.
    public enum Orientation: Int, Sendable {
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    public let cgImage: CGImage?
    /// Pixels per point.
    public let scale: CGFloat
    public let imageOrientation: Orientation

    /// The folders `init?(named:)` searches after the current directory, in order: the
    /// `LAMINA_ASSETS` environment variable's folders (separated by `:`), then `Assets` in the
    /// current directory. Set it to add your own.
    nonisolated(unsafe) public static var assetDirectories: [URL] = {
        let environment = ProcessInfo.processInfo.environment["LAMINA_ASSETS"]?.split(separator: ":").map(String.init) ?? []
        return (environment + ["Assets"]).map { URL(fileURLWithPath: $0) }
    }()

    public init(cgImage: CGImage, scale: CGFloat = 1, orientation: Orientation = .up) {
        self.cgImage = cgImage
        self.scale = scale > 0 && scale.isFinite ? scale : 1
        imageOrientation = orientation
    }

    /// The image named `name` (with or without its extension) in the current directory or an
    /// asset folder (`assetDirectories`): `name`, `name@2x.png`, `name@3x.png`, `name.png`,
    /// `name.jpg`, `name.jpeg`, in that order; an `@2x`/`@3x` suffix sets the scale.
    public convenience init?(named name: String) {
        guard !name.isEmpty else { return nil }
        let folders = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] + Self.assetDirectories
        let candidates = (URL(fileURLWithPath: name).pathExtension.isEmpty ? [] : [name])
            + ["@2x.png", "@3x.png", ".png", ".jpg", ".jpeg"].map { name + $0 }
        for folder in folders {
            for candidate in candidates {
                let url = folder.appendingPathComponent(candidate)
                if FileManager.default.fileExists(atPath: url.path) {
                    self.init(contentsOfFile: url.path)
                    return
                }
            }
        }
        return nil
    }

    /// The image in a PNG or JPEG file; the scale comes from an `@2x`/`@3x` suffix of the name.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let scale: CGFloat = stem.hasSuffix("@3x") ? 3 : stem.hasSuffix("@2x") ? 2 : 1
        self.init(data: data, scale: scale)
    }

    /// The image PNG or JPEG bytes hold; nil for anything else.
    public convenience init?(data: Data, scale: CGFloat = 1) {
        guard let image = try? ImageFile.decode([UInt8](data)),
              let cgImage = CGImage(width: image.width, height: image.height, premultipliedRGBA: image.pixels) else { return nil }
        self.init(cgImage: cgImage, scale: scale)
    }

    /// The size in points (pixels divided by `scale`; width and height swapped for quarter turns).
    public var size: CGSize {
        guard let cgImage else { return .zero }
        let w = CGFloat(cgImage.width) / scale, h = CGFloat(cgImage.height) / scale
        switch imageOrientation {
        case .left, .right, .leftMirrored, .rightMirrored: return CGSize(width: h, height: w)
        default: return CGSize(width: w, height: h)
        }
    }

    /// PNG bytes of the pixels (orientation not applied, as UIKit's).
    public func pngData() -> Data? {
        guard let image = pixels, let bytes = try? PNGCodec.encode(image) else { return nil }
        return Data(bytes)
    }

    /// JPEG bytes of the pixels at `compressionQuality` 0…1 (transparency becomes black).
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        guard let image = pixels else { return nil }
        let quality = Int((min(max(compressionQuality, 0), 1) * 99).rounded()) + 1
        return (try? JPEGCodec.encode(image, quality: quality)).map { Data($0) }
    }

    private var pixels: Image? {
        guard let cgImage, let bytes = cgImage.pixels else { return nil }
        return Image(width: cgImage.width, height: cgImage.height, pixels: bytes)
    }

    /// Draws the image upright into `rect` of the current context (UIKit's y-down), rotated by
    /// its orientation.
    public func draw(in rect: CGRect) { draw(in: rect, blendMode: .normal, alpha: 1) }

    /// Draws the image at its size with its top left at `point`.
    public func draw(at point: CGPoint) { draw(in: CGRect(origin: point, size: size)) }

    public func draw(in rect: CGRect, blendMode: CGBlendMode, alpha: CGFloat) {
        guard let context = UIGraphicsGetCurrentContext(), let cgImage else { return }
        context.saveGState()
        context.setBlendMode(blendMode)
        context.setAlpha(alpha)
        // Core Graphics draws an image's first row at the rectangle's max y: flip about the
        // rectangle so that, in a y-down context, the image is upright.
        context.translateBy(x: rect.midX, y: rect.midY)
        context.scaleBy(x: 1, y: -1)
        let turns: CGFloat = switch imageOrientation {
        case .down, .downMirrored: .pi
        case .left, .leftMirrored: .pi / 2
        case .right, .rightMirrored: -.pi / 2
        default: 0
        }
        context.rotate(by: turns)
        let quarter = turns.magnitude == .pi / 2
        let w = quarter ? rect.height : rect.width, h = quarter ? rect.width : rect.height
        context.draw(cgImage, in: CGRect(x: -w / 2, y: -h / 2, width: w, height: h))
        context.restoreGState()
    }

    public var description: String { "UIImage(\(size.width)×\(size.height) @\(scale)x)" }
}

/// The screen UIKit code asks for its scale. Lamina renders off screen: one pixel per point.
public final class UIScreen: Sendable {
    public static let main = UIScreen()
    public let scale: CGFloat = 1
    public let nativeScale: CGFloat = 1
}
