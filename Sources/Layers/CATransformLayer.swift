import Foundation
import Geometry
import Timing

/// A layer that draws only its sublayers, which share its 3D space instead of being flattened.
/// Core Animation: `CATransformLayer`.
open class CATransformLayer: CALayer {
    open override func configureContent() { properties.content = .transformLayer }
}

/// A layer that shows the frames of a video: the layer `AVVideoCompositionCoreAnimationTool`
/// puts each composed video frame into. Its contents are set per frame by the export stage.
open class VideoFrameLayer: CALayer {
    open override func configureContent() { properties.content = .video }
}
