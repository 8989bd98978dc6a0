import Foundation

extension SceneLimits {
    /// The limits of a Lottie file (`LottieImport`), checked while it is read, before anything
    /// they bound is allocated. A Lottie file's size and its images share the scene file's
    /// limits (`maximumFileBytes`, `maximumImageSide`).
    public enum Lottie {
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
        public static let maximumFrames = Double(SceneLimits.maximumFrames)
        /// Entries of a `.lottie` archive, and the bytes all of them may inflate to (from the zip
        /// directory, before any is inflated).
        public static let maximumArchiveEntries = 10_000
        public static let maximumInflatedBytes = 256 << 20
    }
}
