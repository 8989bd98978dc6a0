import Foundation
import Geometry
import Layers

/// A loaded scene file: the layer tree and how to render it (scene-format.md).
public struct Scene {
    /// Output size in pixels.
    public var width: Int
    public var height: Int
    /// Pixels per point (the root's `contentsScale`).
    public var scale: Double
    public var framesPerSecond: Double
    /// Seconds of timeline to render; required for video output.
    public var duration: Double?
    /// Cleared before the root draws (nil: transparent).
    public var background: CGColor?
    /// The root layer, as the equivalent Swift calls would build it.
    public var root: CALayer
    /// Assets by name.
    public var assets: [String: SceneAsset]
    /// Composite over a video: the asset and the layer that shows its frames.
    public var video: VideoBinding?
    /// Where the scene was read from.
    public var fileURL: URL?
    /// The scene's budget: the defaults, or lower figures its `"limits"` asked for.
    public var limits: SceneLimits.Budget = .standard
    /// What the loader accepted but the author likely did not mean (keyTimes Core Animation
    /// ignores), one line each in the `file:line:column: path: reason` form.
    public var warnings: [SceneProblem] = []

    /// The asset name an image was loaded from, for printing presentation values.
    public func assetName(of image: CGImage) -> String? {
        assets.first { $0.value.image === image }?.key
    }

    /// `assetName(of:)` for many lookups: the names indexed once (`PresentationJSON(imageName:)`).
    public func assetNamer() -> @Sendable (CGImage) -> String? {
        let names = Dictionary(assets.compactMap { name, asset in asset.image.map { (ObjectIdentifier($0), name) } },
                               uniquingKeysWith: { a, _ in a })
        return { names[ObjectIdentifier($0)] }
    }
}

/// An image or video named in a scene's `assets`.
public struct SceneAsset {
    public enum Kind: String, Sendable { case image, video }
    public var kind: Kind
    public var url: URL
    /// The image (size known, pixels loaded by the renderer) for image assets.
    public var image: CGImage?
}

/// The scene's `"video"` entry.
public struct VideoBinding: Sendable {
    public var asset: String
    public var layerName: String
}

