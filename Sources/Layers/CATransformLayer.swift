import Foundation
import Geometry
import Timing

/// A layer that draws only its sublayers, which share its 3D space instead of being flattened.
/// Core Animation: `CATransformLayer`.
open class CATransformLayer: CALayer {
    open override func configureContent() { properties.content = .transformLayer }
}
