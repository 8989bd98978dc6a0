import Foundation
import Geometry
import Layers
import Presentation
import SceneFormat

/// How a scene file renders: its output size and density, its frame clock, the frames of its
/// video and the input video it composites over — what `lamina render` works out from a scene
/// and its options before drawing anything.
public struct SceneOutput {
    public let scene: Scene
    /// Output size in pixels.
    public let width: Int
    public let height: Int
    /// Pixels per point.
    public let scale: CGFloat
    public let clock: FrameClock
    /// What rendering it may cost: the scene's limits (`"limits"`), lowered further by an
    /// embedder or `--max-memory`.
    public var budget: SceneLimits.Budget
    /// How errors name the scene: its file's name.
    public var subject: String

    /// The scene's own size, scale and frame rate, or those given: a `size` without `scale`
    /// scales the scene to fit it, drawn from the top-left (`min` of the two ratios); a `scale`
    /// alone scales the scene's size with it.
    public init(scene: Scene, size: (width: Int, height: Int)? = nil, scale: Double? = nil, framesPerSecond: Double? = nil) {
        self.scene = scene
        var pixelsPerPoint = scale ?? scene.scale
        var (w, h) = (Int((Double(scene.width) / scene.scale * pixelsPerPoint).rounded()),
                      Int((Double(scene.height) / scene.scale * pixelsPerPoint).rounded()))
        if let size {
            (w, h) = size
            if scale == nil {
                pixelsPerPoint = scene.scaleToFit(width: w, height: h)
            }
        }
        width = w
        height = h
        self.scale = CGFloat(pixelsPerPoint)
        clock = FrameClock(framesPerSecond: framesPerSecond ?? scene.framesPerSecond)
        budget = scene.limits
        subject = scene.fileURL?.lastPathComponent ?? "scene"
    }

    /// A renderer of this output (the scene's background).
    public func makeRenderer(backend: BackendKind) throws(ExportError) -> FrameRenderer {
        do {
            let renderer = try FrameRenderer(width: width, height: height, scale: scale, background: scene.background, backend: backend)
            renderer.budget = budget
            renderer.subject = subject
            return renderer
        } catch {
            throw .backendUnavailable(error.description)
        }
    }

    /// The budget figures of rendering the scene at `times` (`lamina inspect --budget`).
    public func measureBudget(times: [Double], queueDepth: Int = 0, backend: BackendKind = .gpu) -> RenderBudget {
        RenderBudget.measure(scene.root, width: width, height: height, scale: scale, times: times, limits: budget,
                             queueDepth: queueDepth, backend: backend)
    }

    /// The scene's `video` entry: its input and the layers named to show it (nil without one).
    public var videoComposition: VideoComposition? {
        guard let binding = scene.video, let asset = scene.assets[binding.asset] else { return nil }
        var layers: [CALayer] = []
        scene.root.forEachLayerInTree { if $0.name == binding.layerName { layers.append($0) } }
        return VideoComposition(url: asset.url, layers: layers)
    }

    /// The frames of the scene as a video: those of its `duration`, or of its input video's
    /// (probed) when it has no duration. Throws `.invalidSettings` when it has neither.
    public func videoFrames() throws(ExportError) -> ClosedRange<Int> {
        let frames: ClosedRange<Int>
        if let duration = scene.duration {
            // A Lottie animation's video covers its frames ip … op − 1.
            let all = clock.frames(forDuration: duration), first = clock.frame(at: scene.startTime)
            frames = (all.lowerBound + first)...(all.upperBound + first)
        } else if let composition = videoComposition {
            frames = clock.frames(forDuration: try VideoInfo.probe(composition.url).duration)
        } else {
            throw .invalidSettings("\(subject): a video needs the scene's \"duration\" or --frames A..B")
        }
        guard frames.count <= SceneLimits.maximumFrames else {
            throw .invalidSettings("\(subject): \(ModelFigures.grouped(frames.count)) frames at \(clock.framesPerSecond) fps, "
                                   + "more than the limit of \(ModelFigures.grouped(SceneLimits.maximumFrames)) (use --frames A..B or a lower --fps)")
        }
        return frames
    }

    /// Export options writing `frames` of this output to `url` (the scene's background).
    public func exportOptions(to url: URL, frames: ClosedRange<Int>, backend: BackendKind = .gpu) -> VideoExportOptions {
        var options = VideoExportOptions(output: url, width: width, height: height, framesPerSecond: clock.framesPerSecond, frames: frames)
        options.scale = scale
        options.background = scene.background
        options.backend = backend
        options.budget = budget
        options.subject = subject
        return options
    }
}
