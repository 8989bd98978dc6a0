import Foundation

/// Resource limits, in one place (scene-format.md): checked before anything is allocated, by
/// the scene loader, the image decoders, the presentation, the render plan, export and the
/// preview server.
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
    /// Copies of a replicator's subtree (`instanceCount`).
    public static let maximumInstanceCount = 100_000
    /// Particles alive at once in one emitter; when more are alive the newest are dropped.
    public static let maximumLiveParticles = 100_000
    /// Frames of one render (a PNG sequence or a video).
    public static let maximumFrames = 1_000_000
    /// Scene files larger than this are refused unread.
    public static let maximumFileBytes = 64 << 20

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
}
