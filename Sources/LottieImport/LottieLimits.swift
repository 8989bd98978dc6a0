import Foundation

/// Resource limits of the Lottie importer, checked before anything they bound is allocated.
public enum LottieLimits {
    /// Files larger than this are refused unread.
    public static let maximumFileBytes = 64 << 20
    /// Composition and asset sizes, in points.
    public static let maximumSide = 16_384.0
    /// Layers over the whole file, assets included.
    public static let maximumLayers = 20_000
    /// Layers built once precomps are expanded (a precomp used many times builds its layers each time).
    public static let maximumBuiltLayers = 100_000
    /// Keyframes over the whole file.
    public static let maximumKeyframes = 1_000_000
    /// Shape items over the whole file.
    public static let maximumShapeItems = 200_000
    /// Vertices of one bezier path.
    public static let maximumVertices = 100_000
    /// Nested shape groups, and nested precomps.
    public static let maximumNesting = 64
    /// JSON containers open at once.
    public static let maximumJSONDepth = 512
    /// Frames from `ip` to `op`.
    public static let maximumFrames = 1_000_000.0
    /// Pixels on a side of an embedded or external image.
    public static let maximumImageSide = 16_384
    /// Entries of a `.lottie` archive, and the bytes one entry may inflate to.
    public static let maximumArchiveEntries = 10_000
    public static let maximumInflatedBytes = 256 << 20
}
