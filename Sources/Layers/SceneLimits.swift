import Foundation

/// Resource limits, in one place (scene-format.md, docs/scene-limits.md): checked before anything
/// is allocated, by the scene loader, the image decoders, the presentation, the render plan,
/// export and the preview server.
///
/// The fixed limits below bound what one file or one value can ask for. `Budget` bounds what a
/// whole scene costs once expanded (replicator copies, particles, offscreen images): its default
/// values are `SceneLimits`' own; a scene file may lower them (`"limits"`), an embedding program
/// may set others.
public enum SceneLimits {
    /// Layers in a scene file.
    public static let maximumLayers = 100_000
    /// Nesting depth of a scene file's JSON (and so of its layer tree).
    public static let maximumDepth = 256
    /// Width or height of a decoded image (PNG, JPEG).
    public static let maximumImageSide = 16_384
    /// Width or height of a decoded input video frame.
    public static let maximumVideoSide = 8_192
    /// Width or height of a rendered frame.
    public static let maximumOutputSide = 16_384
    /// Width or height of an offscreen pass; larger ones are drawn coarser.
    public static let maximumPassSide = 8_192
    /// Width or height of a rasterized shape or text; larger content is rasterized coarser.
    public static let maximumRasterSide = 8_192
    /// `instanceCount` a scene file may give one replicator.
    public static let maximumInstanceCount = 100_000
    /// Copies one replicator presents, whatever its (animated) `instanceCount`.
    public static let maximumPresentedInstances = 10_000
    /// Particles alive at once in one emitter; when more are alive the newest are dropped.
    public static let maximumLiveParticles = 100_000
    /// Frames of one render (a PNG sequence or a video).
    public static let maximumFrames = 1_000_000
    /// Scene files larger than this are refused unread.
    public static let maximumFileBytes = 64 << 20
    /// Frames per second of a render (`fps`, `--fps`): 0.001…1000.
    public static let minimumFramesPerSecond = 0.001
    public static let maximumFramesPerSecond = 1_000.0

    /// Default: layers presented at once after replicator copies and particles are expanded.
    public static let maximumPresentedLayers = 100_000
    /// Default: offscreen pixels of one frame (offscreen passes and content rasters, each clipped
    /// to what the output can show): 64 Mi pixels, 256 MiB of RGBA.
    public static let maximumOffscreenPixels = 64 << 20
    /// Default: keyframe values of every animation of a scene together.
    public static let maximumKeyframeValues = 1_000_000
    /// Default: path elements (move, line, curve, close) of every path of a scene together.
    public static let maximumPathElements = 1_000_000

    // `lamina preview`'s HTTP server.
    /// Bytes of one request's line and headers (GET and HEAD carry no body).
    public static let maximumRequestBytes = 16 << 10
    /// Header lines of one request.
    public static let maximumRequestHeaders = 64
    /// Connections served at once; more are answered 503 and closed.
    public static let maximumConnections = 32
    /// Seconds a client may take to send one request's line and headers.
    public static let requestReadTimeout = 10.0
    /// Seconds a kept-alive connection may wait idle for its next request.
    public static let connectionIdleTimeout = 15.0
    /// Bytes of encoded frames the preview keeps (least recently used go first).
    public static let maximumPreviewCacheBytes = 256 << 20

    /// What one scene may cost once expanded, checked before its first frame renders
    /// (`RenderBudget`). Every figure is an upper bound worked out from the model.
    public struct Budget: Sendable, Equatable {
        /// Layers presented at once (replicator copies multiplied through, particles of every emitter).
        public var presentedLayers: Int
        /// Offscreen pixels of one frame.
        public var offscreenPixels: Int
        /// Keyframe values of all animations.
        public var keyframeValues: Int
        /// Path elements of all paths (layer paths, shadow paths, animated paths).
        public var pathElements: Int
        /// Estimated bytes of the whole render (nil: no limit), `--max-memory`.
        public var memoryBytes: Int?

        public init(presentedLayers: Int = SceneLimits.maximumPresentedLayers,
                    offscreenPixels: Int = SceneLimits.maximumOffscreenPixels,
                    keyframeValues: Int = SceneLimits.maximumKeyframeValues,
                    pathElements: Int = SceneLimits.maximumPathElements, memoryBytes: Int? = nil) {
            self.presentedLayers = presentedLayers; self.offscreenPixels = offscreenPixels
            self.keyframeValues = keyframeValues; self.pathElements = pathElements; self.memoryBytes = memoryBytes
        }

        /// The defaults.
        public static let standard = Budget()

        /// Each figure the smaller of the two (a scene lowering an embedder's budget).
        public func lowered(to other: Budget) -> Budget {
            Budget(presentedLayers: min(presentedLayers, other.presentedLayers),
                   offscreenPixels: min(offscreenPixels, other.offscreenPixels),
                   keyframeValues: min(keyframeValues, other.keyframeValues),
                   pathElements: min(pathElements, other.pathElements),
                   memoryBytes: [memoryBytes, other.memoryBytes].compactMap { $0 }.min())
        }
    }
}
