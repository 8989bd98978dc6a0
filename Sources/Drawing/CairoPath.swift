import CCairo
import Foundation
import Geometry

/// Appends path elements to the current cairo path, in user space (the context's CTM applies).
///
/// cairo has no quadratic Bézier, so quadratics become the equivalent cubics.
package func appendCairoPath<Elements: Sequence<PathElement>>(_ elements: Elements, to cr: OpaquePointer) {
    var current = CGPoint.zero
    var subpathStart = CGPoint.zero
    for element in elements {
        switch element {
        case .move(let p):
            cairo_move_to(cr, Double(p.x), Double(p.y))
            current = p
            subpathStart = p
        case .line(let p):
            cairo_line_to(cr, Double(p.x), Double(p.y))
            current = p
        case .quadCurve(let p, let c):
            // Degree elevation: the cubic's controls lie 2/3 of the way from each end to c.
            let c1 = CGPoint(x: current.x + (c.x - current.x) * 2 / 3, y: current.y + (c.y - current.y) * 2 / 3)
            let c2 = CGPoint(x: p.x + (c.x - p.x) * 2 / 3, y: p.y + (c.y - p.y) * 2 / 3)
            cairo_curve_to(cr, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
            current = p
        case .curve(let p, let c1, let c2):
            cairo_curve_to(cr, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
            current = p
        case .closeSubpath:
            cairo_close_path(cr)
            current = subpathStart
        }
    }
}

extension CGAffineTransform {
    /// The same mapping as a cairo matrix (`x' = xx·x + xy·y + x0`, `y' = yx·x + yy·y + y0`).
    package var cairoMatrix: cairo_matrix_t {
        cairo_matrix_t(xx: Double(a), yx: Double(b), xy: Double(c), yy: Double(d), x0: Double(tx), y0: Double(ty))
    }

    /// Whether the transform maps the plane onto itself (cairo rejects singular matrices).
    package var isInvertibleForRaster: Bool {
        let det = a * d - b * c
        return det != 0 && det.isFinite && tx.isFinite && ty.isFinite
    }
}

extension CGColor {
    /// The components clamped to 0…1, as cairo and Pango expect them (straight alpha).
    package var clampedComponents: (red: Double, green: Double, blue: Double, alpha: Double) {
        func clamp(_ v: CGFloat) -> Double { v.isNaN ? 0 : Double(min(max(v, 0), 1)) }
        return (clamp(red), clamp(green), clamp(blue), clamp(alpha))
    }
}
