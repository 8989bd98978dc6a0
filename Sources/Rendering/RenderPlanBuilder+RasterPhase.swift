import Foundation
import Geometry

extension RenderPlanBuilder.Walk {
    /// Sub-pixel positions a shape raster is made at, per axis: a shape on the target's pixel
    /// grid is rasterized at its origin's phase rounded to 1/`rasterPhaseSteps` pixel and drawn
    /// moved by the rounding (at most 1/64 pixel), so a layer that moves without changing
    /// reuses one of a few rasters instead of being rasterized again every frame.
    static let rasterPhaseSteps: CGFloat = 32

    /// `phase` (each coordinate in 0 ..< 1) rounded to a step, as a raster's phase (0 ..< 1), and
    /// the move in target pixels that puts that raster's pixels back on the target's grid.
    static func rasterPhase(_ phase: CGPoint) -> (phase: CGPoint, shift: CGPoint) {
        let n = rasterPhaseSteps
        let kx = (phase.x * n).rounded(), ky = (phase.y * n).rounded()
        return (CGPoint(x: kx == n ? 0 : kx / n, y: ky == n ? 0 : ky / n), CGPoint(x: kx / n - phase.x, y: ky / n - phase.y))
    }

    /// `t` (a plain scale and move) moved by `shift` target pixels.
    static func moved(_ t: CATransform3D, by shift: CGPoint) -> CATransform3D {
        var moved = t
        moved.m41 += shift.x
        moved.m42 += shift.y
        return moved
    }
}
