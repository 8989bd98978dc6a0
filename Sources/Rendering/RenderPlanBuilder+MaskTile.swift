import Foundation
import Geometry

extension RenderPlanBuilder.Walk {
    /// `covered` (what a mask covers, in the masked layer's space) grown to a grid from the
    /// origin of `region` (what the layer draws), its step a power of two near 1/32 of the
    /// covered side (so at most 1/16 of it is added per side): a mask whose shape changes a
    /// little from frame to frame (a Lottie shape animating) leaves the masked content's pass
    /// where it was, so the pass is drawn the same and kept (`PassReuse`) instead of drawn again
    /// every frame.
    static func maskTile(_ covered: CGRect, of region: CGRect) -> CGRect {
        guard !covered.isNull, !region.isNull, region.minX.isFinite, region.minY.isFinite else { return covered }
        let side = max(covered.width, covered.height) / 32
        guard side > 0, side.isFinite else { return covered }
        let step = Foundation.pow(2, Foundation.log2(side).rounded(.down))
        return VisibleRegion.snapped(covered, origin: region.origin, step: CGSize(width: step, height: step))
    }
}
