import Foundation
import Synchronization

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
    /// `RowExtents` of `pixels`, found the first time they are asked for.
    private let foundRowExtents = Mutex<[Int32]?>(nil)
    private let foundOpaqueRuns = Mutex<[Int32]?>(nil)

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

    /// The `RowExtents` of an in-memory image's pixels (nil for one decoded from a file), found once
    /// and kept with the image: a renderer that drops its texture of the image and makes it again
    /// (a looping animation's rasters) does not scan the pixels again.
    public var rowExtents: [Int32]? {
        guard let pixels else { return nil }
        return foundRowExtents.withLock { found in
            if let found { return found }
            let extents = [Int32](unsafeUninitializedCapacity: 2 * height) { buffer, count in
                pixels.withUnsafeBytes { bytes in
                    RowExtents.scan(bytes.assumingMemoryBound(to: UInt32.self).baseAddress!, width: width, height: height,
                                    into: buffer.baseAddress!)
                }
                count = 2 * height
            }
            found = extents
            return extents
        }
    }

    /// The `OpaqueRuns` of an in-memory image's pixels (nil for one decoded from a file), found
    /// once and kept with the image, as `rowExtents` are.
    public var opaqueRuns: [Int32]? {
        guard let pixels, let extents = rowExtents else { return nil }
        return foundOpaqueRuns.withLock { found in
            if let found { return found }
            let runs = [Int32](unsafeUninitializedCapacity: 2 * height) { buffer, count in
                pixels.withUnsafeBytes { bytes in
                    extents.withUnsafeBufferPointer { extents in
                        OpaqueRuns.scan(bytes.assumingMemoryBound(to: UInt32.self).baseAddress!, width: width, height: height,
                                        extents: extents.baseAddress!, into: buffer.baseAddress!)
                    }
                }
                count = 2 * height
            }
            found = runs
            return runs
        }
    }

    /// The `opaqueRuns` if they were found already (a drawing thread does not scan for them).
    public var opaqueRunsIfFound: [Int32]? { foundOpaqueRuns.withLock { $0 } }

    /// Whether `rowExtents` were found already (for tests of who finds them when).
    var rowExtentsAreFound: Bool { foundRowExtents.withLock { $0 != nil } }

    public static func == (a: CGImage, b: CGImage) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "CGImage(\(width)×\(height)\(source.map { ", \($0)" } ?? ""))" }
}
