import Foundation
import Geometry

/// Executes render plans into frames: the GL compositor and the CPU reference renderer both
/// conform, so everything after the plan (PNG output, comparison, benchmarks) works with either.
public protocol RenderBackend: AnyObject {
    /// `gpu` or `cpu`, as the command line names backends.
    var name: String { get }
    /// Draws `plan` and returns the frame (RGBA8 premultiplied, top row first), or nil when the
    /// backend cannot draw it. Adds the time spent drawing the passes (`composite`) and reading
    /// the frame back (`readback`, where the frame is not already in memory) to `stopwatch`.
    func render(_ plan: RenderPlan, images: ImageProvider, stopwatch: Stopwatch?) -> Image?
    /// Does the work on `plan` that needs nothing the backend holds, on the thread that made the
    /// plan: while frames are planned ahead, that is while the frame before draws. It may run at
    /// the same time as `render`, so it touches only what is safe to share (the plan's images).
    func prepare(_ plan: RenderPlan)
    /// Releases what the backend keeps for `image` (its uploaded texture). Video export calls it
    /// for each frame it has drawn, so memory stays flat over a long video.
    func forget(_ image: CGImage)
    /// Whether the backend rasterizes shapes placed on its pixels itself as it draws them
    /// (`Paint.shape`), so a plan for it hands new ones over unrasterized.
    var drawsDeferredShapes: Bool { get }
    /// How long a run's frames must take to plan (seconds) before a run of frames with this
    /// backend plans each while the one before draws (`FrameRenderer.planningAheadThreshold`'s
    /// default; 0: from the first frame).
    var planningAheadThreshold: Double { get }
    /// Told before each frame of a run planned ahead whether planning is what the frames wait
    /// for (false again when the run ends): a backend drawing on several threads then leaves a
    /// core to the planning thread, since drawing faster would only wait longer.
    func planningPacesFrames(_ paces: Bool)
}

extension RenderBackend {
    /// Draws `plan` without measuring.
    public func render(_ plan: RenderPlan, images: ImageProvider) -> Image? {
        render(plan, images: images, stopwatch: nil)
    }

    /// Default: everything happens in `render`.
    public func prepare(_ plan: RenderPlan) {}

    /// Default: nothing is kept per image.
    public func forget(_ image: CGImage) {}

    /// Default: drawing does not change with it.
    public func planningPacesFrames(_ paces: Bool) {}

    /// Default: shapes come as rasters.
    public var drawsDeferredShapes: Bool { false }

    /// Default: 0.2 ms. Where drawing keeps every core busy (as llvmpipe's shading does), a
    /// planning thread competes with it, and overlapping pays only once planning takes that long.
    public var planningAheadThreshold: Double { 0.2e-3 }
}
