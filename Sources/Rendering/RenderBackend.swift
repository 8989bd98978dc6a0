import Foundation
import Geometry

/// Executes render plans into frames: the GL compositor and the CPU reference renderer both
/// conform, so everything after the plan (PNG output, comparison, benchmarks) works with either.
public protocol RenderBackend: AnyObject {
    /// `gpu` or `cpu`, as the command line names backends.
    var name: String { get }
    /// Draws `plan` and returns the frame (RGBA8 premultiplied, top row first), or nil when the
    /// backend cannot draw it.
    func render(_ plan: RenderPlan, images: ImageProvider) -> Image?
    /// Seconds spent in the last `render`: drawing the passes, then reading the frame back
    /// (zero where the frame is already in memory).
    var lastTimings: (composite: Double, readback: Double) { get }
    /// Releases what the backend keeps for `image` (its uploaded texture). Video export calls it
    /// for each frame it has drawn, so memory stays flat over a long video.
    func forget(_ image: CGImage)
}

extension RenderBackend {
    /// Default: nothing is kept per image.
    public func forget(_ image: CGImage) {}
}
