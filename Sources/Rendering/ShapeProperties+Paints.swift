import Foundation
import Geometry
import Layers

extension ShapeProperties {
    /// Whether the shape can paint anything: a visible fill, or a visible stroke of positive
    /// width. One that cannot (lottie-ios's stroke overlay of a gradient-filled path has neither)
    /// is left out of the plan: its raster would be transparent, drawn every frame its path
    /// changes, for nothing.
    var paints: Bool {
        if let fill = fillColor, fill.alpha > 0 { return true }
        guard let stroke = strokeColor, stroke.alpha > 0 else { return false }
        return lineWidth > 0 && lineWidth.isFinite
    }
}
