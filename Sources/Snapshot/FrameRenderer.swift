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

/// Renders a layer tree at a time into an image: the live entry point for Swift programs and
/// test suites (presentation → render plan → backend → pixels).
///
/// Holds one backend (a GL context for `.gpu`); call it from one thread.
public final class FrameRenderer {
    public let width: Int
    public let height: Int
    /// Pixels per point.
    public let scale: CGFloat
    public var background: CGColor?
    public let backend: any RenderBackend
    private let images = FileImageProvider()
    /// Shape, text and shadow-path rasters, kept while their inputs are unchanged.
    public let contentCache = ContentCache()

    /// A renderer of `width`×`height` pixel frames at `scale` pixels per point.
    public init(width: Int, height: Int, scale: CGFloat = 1, background: CGColor? = nil,
                backend: BackendKind = .gpu) throws(GLContextError) {
        self.width = width; self.height = height; self.scale = scale; self.background = background
        self.backend = try backend.makeBackend()
    }

    /// The render plan of `root` at absolute time `time`.
    public func plan(_ root: CALayer, at time: Double) -> RenderPlan {
        let tree = PresentationTree.evaluate(root, at: time)
        return RenderPlanBuilder(width: width, height: height, scale: scale, background: background,
                                 contentRasterizer: contentCache).plan(for: tree)
    }

    /// The frame of `root` at absolute time `time` (the presentation at that time).
    public func render(_ root: CALayer, at time: Double) -> Image? {
        backend.render(plan(root, at: time), images: images)
    }

    /// The frame of `root` at the time a clock reads.
    public func render(_ root: CALayer, clock: some MediaClock) -> Image? { render(root, at: clock.currentTime) }
}
