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
    /// Seconds at which a whole-file export begins (a Lottie animation's first frame, `ip / fr`);
    /// single frames are always placed by absolute time.
    public var startTime: Double = 0
    /// The root's size in points when it is not a whole number of pixels at `scale` (a Lottie
    /// composition of 100 × 58.84): fitting to an output size uses it instead of `width`×`height`.
    public var pointSize: CGSize?

    /// A scene of `width`×`height` pixels at `scale` around `root`.
    public init(width: Int, height: Int, scale: Double = 1, framesPerSecond: Double, duration: Double? = nil,
                background: CGColor? = nil, root: CALayer, assets: [String: SceneAsset] = [:], video: VideoBinding? = nil,
                fileURL: URL? = nil, limits: SceneLimits.Budget = .standard) {
        self.width = width; self.height = height; self.scale = scale; self.framesPerSecond = framesPerSecond
        self.duration = duration; self.background = background; self.root = root; self.assets = assets
        self.video = video; self.fileURL = fileURL; self.limits = limits
    }

    /// The scale that fits the scene into `width`×`height` pixels, drawn from the top-left.
    public func scaleToFit(width w: Int, height h: Int) -> Double {
        let size = pointSize ?? CGSize(width: Double(width) / scale, height: Double(height) / scale)
        guard size.width > 0, size.height > 0 else { return scale }
        return min(Double(w) / size.width, Double(h) / size.height)
    }

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

/// Makes scene-file layers of a type that a later stage knows (`{"type": "lottie", "source": …}`):
/// `make` builds the layer from the file `source` names (resolved and confined as assets are),
/// with warnings about what it leaves out, before the layer's own properties are read; `finish`
/// runs after them (to lay out for the final bounds).
public struct SceneLayerImporter: Sendable {
    public var make: @Sendable (URL) throws(SceneLoadError) -> (layer: CALayer, warnings: [SceneProblem])
    public var finish: @Sendable (CALayer) -> Void

    public init(make: @escaping @Sendable (URL) throws(SceneLoadError) -> (layer: CALayer, warnings: [SceneProblem]),
                finish: @escaping @Sendable (CALayer) -> Void = { _ in }) {
        self.make = make; self.finish = finish
    }
}
