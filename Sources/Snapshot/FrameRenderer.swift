import Foundation
import Geometry
import Timing
import Layers
import Presentation
import Rendering
import ImageIO
import GLRenderer

/// Renders a layer tree at a time into an image: the live entry point for Swift programs and
/// test suites (presentation → render plan → GL backend → pixels).
///
/// Uses one GL context; call it from one thread.
public final class FrameRenderer {
    public let width: Int
    public let height: Int
    /// Pixels per point.
    public let scale: CGFloat
    public var background: CGColor?
    private let renderer: GLRenderer
    private let images = FileImageProvider()

    /// A renderer of `width`×`height` pixel frames at `scale` pixels per point.
    public init(width: Int, height: Int, scale: CGFloat = 1, background: CGColor? = nil) throws(GLContextError) {
        self.width = width; self.height = height; self.scale = scale; self.background = background
        renderer = try GLRenderer()
    }

    /// The frame of `root` at absolute time `time` (the presentation at that time).
    public func render(_ root: CALayer, at time: Double) -> Image? {
        let tree = PresentationTree.evaluate(root, at: time)
        let plan = RenderPlanBuilder(width: width, height: height, scale: scale, background: background).plan(for: tree)
        return renderer.render(plan, images: images)
    }

    /// The frame of `root` at the time a clock reads.
    public func render(_ root: CALayer, clock: some MediaClock) -> Image? { render(root, at: clock.currentTime) }
}
