import Foundation
import Geometry
import Layers
import Presentation
import SceneFormat

/// What a Lottie file says about itself. lottie-ios counterpart: `LottieAnimation`.
public struct LottieAnimation: Sendable {
    /// A named point or range of the timeline (`markers`).
    public struct Marker: Sendable, Equatable {
        public var name: String
        /// Frame at which the marker starts.
        public var frame: Double
        /// Length in frames (0 for a point).
        public var durationFrames: Double
    }

    /// Composition size in points.
    public var size: CGSize
    /// Frames per second (`fr`).
    public var frameRate: Double
    /// First frame (`ip`) and the frame after the last (`op`).
    public var startFrame: Double
    public var endFrame: Double
    public var markers: [Marker]
    /// The Bodymovin version that wrote the file (`v`).
    public var version: String?
    public var name: String?

    /// Seconds from the first frame to the end: `(op − ip) / fr`.
    public var duration: Double { (endFrame - startFrame) / frameRate }

    /// Seconds of composition time at which `frame` shows (frame 0 is time 0, not `ip`).
    public func time(forFrame frame: Double) -> Double { frame / frameRate }
}

/// The result of importing a Lottie file: the layer tree and what was left out.
public struct LottieImport {
    public var animation: LottieAnimation
    /// The composition: `size` points, clipped to them, animations in composition time
    /// (seconds = frame / fr, from frame 0).
    public var root: CALayer
    /// One warning per feature the file uses that is not drawn (lottie-ios's Core Animation engine
    /// ignores the same ones).
    public var warnings: [SceneProblem]
}

/// A layer that plays a Lottie animation: the composition fitted into its bounds by
/// `contentsGravity`, starting at the animation's first frame at the layer's time 0, one pass
/// lasting the animation's duration (set `repeatCount` to loop it).
open class LottieLayer: CALayer {
    /// The animation's metadata (empty for a layer made with `init()`).
    public private(set) var animation = LottieAnimation(size: .zero, frameRate: 30, startFrame: 0, endFrame: 0, markers: [])
    /// The imported composition, a sublayer positioned by `layoutComposition()`.
    public private(set) var compositionLayer: CALayer?
    /// Features of the file that are not drawn.
    public private(set) var importWarnings: [SceneProblem] = []

    public override init() { super.init() }

    public override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? LottieLayer {
            animation = other.animation
            importWarnings = other.importWarnings
        }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Imports the Lottie JSON or `.lottie` file at `url`.
    public convenience init(contentsOf url: URL) throws(SceneLoadError) {
        self.init()
        let imported = try LottieImporter.load(contentsOf: url)
        animation = imported.animation
        importWarnings = imported.warnings
        let composition = imported.root
        // Local time 0 shows the first frame.
        composition.timeOffset = animation.startFrame / animation.frameRate
        compositionLayer = composition
        addSublayer(composition)
        duration = animation.duration
        bounds = CGRect(origin: .zero, size: animation.size)
        layoutComposition()
    }

    /// Places the composition in the layer's bounds per `contentsGravity` (call after changing
    /// `bounds` or `contentsGravity`).
    public func layoutComposition() {
        guard let composition = compositionLayer, animation.size.width > 0, animation.size.height > 0 else { return }
        let s = animation.size
        let rect = ContentsPlacement.rect(gravity: contentsGravity, contentSize: s, in: bounds, flipped: isGeometryFlipped)
        let sx = rect.width / s.width, sy = rect.height / s.height
        let (x, y) = (rect.minX, rect.minY)
        composition.anchorPoint = .zero
        composition.position = CGPoint(x: x, y: y)
        composition.transform = CATransform3DMakeScale(sx, sy, 1)
    }
}
