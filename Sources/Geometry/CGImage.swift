import Foundation

/// A bitmap image used as layer contents.
///
/// The model only needs an image's identity and pixel size; decoding and pixels belong to the
/// image I/O stage. `source` names where the pixels come from (an asset path) so renderers can
/// load and cache them by identity. Core Animation counterpart: `CGImage`.
public final class CGImage: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Where the pixels come from (a file path), if known.
    public let source: String?
    /// RGBA8 premultiplied pixels, top row first, when the image was built in memory.
    public let pixels: [UInt8]?
    /// A PNG or JPEG file's bytes held in memory (an image embedded in another file), decoded by
    /// the image I/O stage as a `source` file would be.
    public let encodedData: [UInt8]?

    /// An image of the given size whose pixels are loaded from `source` when rendered.
    public init(width: Int, height: Int, source: String?) {
        self.width = max(0, width); self.height = max(0, height); self.source = source; pixels = nil; encodedData = nil
    }

    /// An image of the given size whose pixels are decoded from the PNG or JPEG bytes `encoded` when rendered.
    public init(width: Int, height: Int, encoded: [UInt8]) {
        self.width = max(0, width); self.height = max(0, height); source = nil; pixels = nil; encodedData = encoded
    }

    /// An in-memory image from RGBA8 premultiplied pixels (`width·height·4` bytes).
    public init?(width: Int, height: Int, premultipliedRGBA pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
        self.width = width; self.height = height; self.pixels = pixels; source = nil; encodedData = nil
    }

    public static func == (a: CGImage, b: CGImage) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "CGImage(\(width)×\(height)\(source.map { ", \($0)" } ?? ""))" }
}
