import Foundation
import Geometry
import Timing
import Layers
import Presentation
import Rendering
import ImageIO
import ContentRaster
import GLRenderer
import CPURenderer

/// Which renderer draws the frames.
public enum BackendKind: String, Sendable, CaseIterable {
    /// Headless EGL + OpenGL ES 3 (Mesa llvmpipe where there is no GPU).
    case gpu
    /// The CPU reference renderer.
    case cpu

    /// A new renderer of this kind; `gpu` throws when no EGL display or GLES 3 context can be made.
    public func makeBackend() throws(GLContextError) -> any RenderBackend {
        switch self {
        case .gpu: try GLRenderer()
        case .cpu: CPURenderer()
        }
    }
}

/// Renders a layer tree at a time into an image: presentation → render plan → backend → pixels.
/// The one frame loop of Lamina: PNG frames and sequences, video export, the demo, snapshot
/// tests and the benchmarks all draw through it.
///
/// Holds one backend (a GL context for `.gpu`), the content cache (shape, text and shadow-path
/// rasters, kept while their inputs are unchanged) and the decoded image files; call it from
/// one thread. A frame depends only on the tree and its time (and the frame's inputs), never on
/// which frames were drawn before.
public final class FrameRenderer {
    public let width: Int
    public let height: Int
    /// Pixels per point.
    public let scale: CGFloat
    public var background: CGColor?
    public let backend: any RenderBackend
    /// Decoded image files, kept while the renderer lives; in-memory images are served as they are.
    public let images: FileImageProvider
    /// Whether the root is placed by its position, anchor and transform (default, as a scene's
    /// root), or drawn in its own bounds space from the output's origin (`CALayer.render(in:)`).
    public var placesRoot = true
    /// Which way y grows in the frames: `topLeft` (default; scene files, iOS) or `bottomLeft`
    /// (Core Animation's unflipped space, used for AVFoundation's export tool).
    public var origin = OutputOrigin.topLeft
    /// Shape, text and shadow-path rasters, kept while their inputs are unchanged.
    public let contentCache: ContentCache
    /// What a render into a sink may cost (`RenderBudget`), checked before its first frame and
    /// again for each frame's offscreen pixels; nil checks nothing. Default: the standard budget.
    public var budget: SceneLimits.Budget? = .standard
    /// What is rendered, as budget errors name it (a scene file's name).
    public var subject = "the layer tree"
    /// Whether a render of several frames may plan each frame on a second thread while the backend
    /// draws the one before (`true`, the default): the same frames, sooner on more than one core.
    /// It does once a run's last few frames took long enough to plan (`planningAheadThreshold`).
    /// Custom drawing (`draw(in:)`, delegates) then runs on that thread, one frame at a time.
    public var plansAhead = true
    /// Planning ahead pays where planning a frame takes long enough that overlapping it with
    /// drawing gains more than handing the plan to another thread costs (waking it, the plan's
    /// memory moving between cores). A run plans its frames on the calling thread, timing them,
    /// until the fastest of the last few took this long (seconds; 0: from the first frame,
    /// whenever a run has more than one). Default: the backend's (`RenderBackend
    /// .planningAheadThreshold`: 0 for the CPU backend and for GL on a GPU, 0.2 ms for GL on
    /// llvmpipe).
    public var planningAheadThreshold: Double
    /// How many of the last frames planned on the calling thread decide whether to plan ahead.
    static let framesTimedBeforePlanningAhead = 3
    /// The last render that passed the budget check (so an export checks once).
    private var checked: (root: ObjectIdentifier, times: [Double])?

    /// A renderer of `width`×`height` pixel frames at `scale` pixels per point.
    public init(width: Int, height: Int, scale: CGFloat = 1, background: CGColor? = nil,
                backend: BackendKind = .gpu, contentCache: ContentCache = ContentCache(),
                images: FileImageProvider = FileImageProvider()) throws(GLContextError) {
        self.width = width; self.height = height; self.scale = scale; self.background = background
        self.backend = try backend.makeBackend()
        self.contentCache = contentCache
        self.images = images
        planningAheadThreshold = self.backend.planningAheadThreshold
    }

    /// A renderer drawing with `backend` (an existing one, shared between renderers of one thread).
    public init(width: Int, height: Int, scale: CGFloat = 1, background: CGColor? = nil,
                backend: any RenderBackend, contentCache: ContentCache = ContentCache(),
                images: FileImageProvider = FileImageProvider()) {
        self.width = width; self.height = height; self.scale = scale; self.background = background
        self.backend = backend
        self.contentCache = contentCache
        self.images = images
        planningAheadThreshold = backend.planningAheadThreshold
    }

    /// The render plan of `root` at absolute time `time`, with `inputs` as the contents of the
    /// layers they name (see `RenderPlanBuilder.frameInputs`).
    public func plan(_ root: CALayer, at time: Double, inputs: [ObjectIdentifier: CGImage] = [:],
                     stopwatch: Stopwatch? = nil) -> RenderPlan {
        let tree = stopwatch.measure(.evaluate) { PresentationTree.evaluateDrawable(root, at: time) }
        var builder = RenderPlanBuilder(width: width, height: height, scale: scale, background: background,
                                        contentRasterizer: contentCache)
        builder.frameInputs = inputs
        builder.placesRoot = placesRoot
        builder.origin = origin
        if backend.drawsDeferredShapes { builder.shapeDrawer = contentCache }
        // The plan stage (the backend's preparation included) without the contents it
        // rasterized (counted as `raster`).
        let start = stopwatch == nil ? 0 : Stopwatch.now(), rasterBefore = stopwatch?[.raster] ?? 0
        let plan = builder.plan(for: tree, stopwatch: stopwatch)
        backend.prepare(plan)
        if let stopwatch { stopwatch.add(Stopwatch.now() - start - (stopwatch[.raster] - rasterBefore), to: .plan) }
        return plan
    }

    /// The frame of `root` at absolute time `time` (the presentation at that time).
    public func render(_ root: CALayer, at time: Double, inputs: [ObjectIdentifier: CGImage] = [:],
                       stopwatch: Stopwatch? = nil) -> Image? {
        backend.render(plan(root, at: time, inputs: inputs, stopwatch: stopwatch), images: images, stopwatch: stopwatch)
    }

    /// The frame of `root` at the time a clock reads.
    public func render(_ root: CALayer, clock: some MediaClock) -> Image? { render(root, at: clock.currentTime) }

    /// The frame of `root` at `time` (any time, not only a frame's) into `sink` as frame `index`,
    /// then finishes the sink; cancels it on failure, or when `isCancelled` answers true once
    /// the frame is drawn (the file written is removed).
    public func render(_ root: CALayer, at time: Double, into sink: any FrameSink, index: Int = 0,
                       stopwatch: Stopwatch? = nil, isCancelled: () -> Bool = { false }) throws(ExportError) {
        do throws(ExportError) {
            try checkBudget(root, times: [time])
            try sink.begin(frames: index...index)
            guard let image = try renderChecked(root, at: time, index: index, inputs: [:], stopwatch: stopwatch) else {
                throw .renderFailed(frame: index)
            }
            try sink.consume(index, image)
            if isCancelled() { throw .cancelled }
            try sink.finish()
        } catch {
            sink.cancel()
            throw isCancelled() ? .cancelled : error
        }
    }

    /// What went differently from what the tree asked for, each once: images that could not be
    /// decoded, fonts substituted.
    public var warnings: [String] { images.problems + contentCache.warnings }

    /// Renders frames `frames` of `root` into `sink`, frame n at `clock.time(ofFrame: n)`, then
    /// finishes the sink. On any failure, or when `isCancelled` answers true between frames, the
    /// sink is cancelled (it leaves nothing under its output's name) and the error is thrown
    /// (`.cancelled` for a cancellation). With `plansAhead`, later frames are being planned while
    /// `progress` and `isCancelled` run: the tree must not change until the render returns.
    ///
    /// - Parameters:
    ///   - inputs: images from outside the model for each frame (an input video's frames).
    ///   - stopwatch: where the stages' times go.
    ///   - progress: called after each frame with the number of frames done.
    public func render(_ root: CALayer, frames: ClosedRange<Int>, clock: FrameClock, inputs: (any FrameInputs)? = nil,
                       into sink: any FrameSink, stopwatch: Stopwatch? = nil, isCancelled: () -> Bool = { false },
                       progress: ((Int) -> Void)? = nil) throws(ExportError) {
        do throws(ExportError) {
            try checkBudget(root, times: RenderBudget.sampleTimes(frames, clock: clock))
            try sink.begin(frames: frames)
            let planFrame = { [self] (index: Int) throws(ExportError) -> PlannedFrame in
                let frameInputs = try inputs.map { source throws(ExportError) in
                    try stopwatch.measure(.decodeWait) { () throws(ExportError) in try source.images(forFrame: index) }
                } ?? [:]
                return PlannedFrame(plan: try checkedPlan(root, at: clock.time(ofFrame: index), index: index,
                                                          inputs: frameInputs, stopwatch: stopwatch),
                                    inputs: frameInputs)
            }
            // Frames are planned on this thread, and timed, until the last few say planning ahead pays.
            var planTimes: [Double] = []
            func startsPlanningAhead(after index: Int?) -> PlanAhead? {
                let next = index.map { $0 + 1 } ?? frames.lowerBound
                guard plansAhead, next < frames.upperBound, inputs?.isReadableAhead ?? true,
                      planningAheadThreshold <= 0 || planTimes.count == Self.framesTimedBeforePlanningAhead
                        && planTimes.min()! >= planningAheadThreshold else { return nil }
                return PlanAhead(frames: next...frames.upperBound, plan: planFrame)
            }
            var ahead = startsPlanningAhead(after: nil)
            defer {
                ahead?.stop()
                backend.planningPacesFrames(false)
            }
            var done = 0
            for index in frames {
                if isCancelled() { throw .cancelled }
                let frame: PlannedFrame
                if let ahead {
                    frame = try ahead.next()
                    backend.planningPacesFrames(ahead.pacesFrames)
                } else {
                    let start = Stopwatch.now()
                    frame = try planFrame(index)
                    planTimes.append(Stopwatch.now() - start)
                    if planTimes.count > Self.framesTimedBeforePlanningAhead { planTimes.removeFirst() }
                }
                guard let image = backend.render(frame.plan, images: images, stopwatch: stopwatch) else {
                    throw .renderFailed(frame: index)
                }
                // Input frames are drawn once: their textures go at once, so memory stays flat.
                for input in frame.inputs.values { backend.forget(input) }
                try sink.consume(index, image)
                // The last reference, so the planning thread frees it (see `PlanAhead.recycle`).
                if let ahead { ahead.recycle(consume frame) }
                done += 1
                progress?(done)
                if ahead == nil { ahead = startsPlanningAhead(after: index) }
            }
            if isCancelled() { throw .cancelled }
            try sink.finish()
        } catch {
            sink.cancel()
            throw isCancelled() ? .cancelled : error
        }
    }

    /// Checks `budget` for a render of `root` at `times` (`RenderBudget`): throws `.overBudget`
    /// naming `subject`, the figure and the layer. A render just checked is not checked again.
    public func checkBudget(_ root: CALayer, times: [Double], queueDepth: Int = 0) throws(ExportError) {
        guard let budget else { return }
        if let checked, checked.root == ObjectIdentifier(root), checked.times == times { return }
        try RenderBudget.measure(root, width: width, height: height, scale: scale, placesRoot: placesRoot, times: times,
                                 limits: budget, queueDepth: queueDepth, backend: backend is GLRenderer ? .gpu : .cpu)
            .check(subject: subject)
        checked = (ObjectIdentifier(root), times)
    }

    /// A frame drawn only when its plan's offscreen pixels fit the budget (content is rasterized
    /// clipped to what shows, so the plan itself stays small): one frame of a render whose
    /// budget `checkBudget` passed (the preview draws its frames one at a time with it).
    public func renderChecked(_ root: CALayer, at time: Double, index: Int, inputs: [ObjectIdentifier: CGImage],
                               stopwatch: Stopwatch?) throws(ExportError) -> Image? {
        backend.render(try checkedPlan(root, at: time, index: index, inputs: inputs, stopwatch: stopwatch),
                       images: images, stopwatch: stopwatch)
    }

    /// The plan of frame `index` (at `time`), or `.overBudget` when its offscreen pixels do not fit.
    private func checkedPlan(_ root: CALayer, at time: Double, index: Int, inputs: [ObjectIdentifier: CGImage],
                             stopwatch: Stopwatch?) throws(ExportError) -> RenderPlan {
        let plan = plan(root, at: time, inputs: inputs, stopwatch: stopwatch)
        if let budget, plan.offscreenPixels > budget.offscreenPixels {
            let largest = plan.offscreen.max { $0.pixels < $1.pixels }
            throw .overBudget("\(subject): " + RenderBudget.offscreenProblem(
                pixels: plan.offscreenPixels, at: String(format: "in frame %d (t = %g s)", index, time), largest: largest,
                limit: budget.offscreenPixels))
        }
        return plan
    }
}
