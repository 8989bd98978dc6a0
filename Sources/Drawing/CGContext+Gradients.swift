import CCairo
import Foundation
import Geometry

// Axial and radial gradients, painted over the whole clip as Core Graphics paints them.

extension CGContext {
    /// Paints the clip with `gradient` varying from `start` to `end` (user space); the options
    /// extend the end colours before the start and past the end.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions) {
        guard start != end else { return }
        perform { cr in
            guard useUserSpace(cr), let pattern = cairo_pattern_create_linear(Double(start.x), Double(start.y), Double(end.x), Double(end.y))
            else { return }
            defer { cairo_pattern_destroy(pattern) }
            addStops(gradient, to: pattern)
            let before = options.contains(.drawsBeforeStartLocation), after = options.contains(.drawsAfterEndLocation)
            cairo_pattern_set_extend(pattern, before || after ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE)
            if before != after {
                // One end padded: clip to the half-plane on that side of the other end's line.
                let d = CGPoint(x: end.x - start.x, y: end.y - start.y)
                let n = CGPoint(x: -d.y, y: d.x)
                let far = farDistance(along: hypot(d.x, d.y))
                let (edge, outward): (CGPoint, CGFloat) = before ? (end, -1) : (start, 1)
                let corners = [(-far, outward * 0), (far, outward * 0), (far, outward * far), (-far, outward * far)].map { side, depth in
                    CGPoint(x: edge.x + n.x * side + d.x * depth, y: edge.y + n.y * side + d.y * depth)
                }
                cairo_new_path(cr)
                appendCairoPath([.move(to: corners[0])] + corners.dropFirst().map { .line(to: $0) } + [.closeSubpath], to: cr)
                cairo_clip(cr)
            }
            cairo_set_source(cr, pattern)
            cairo_paint_with_alpha(cr, Double(state.alpha))
        }
    }

    /// Paints the clip with `gradient` varying from the circle (`startCenter`, `startRadius`)
    /// to (`endCenter`, `endRadius`); the options fill the start circle with the first colour
    /// and the outside of the end circle with the last.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        guard startRadius >= 0, endRadius >= 0, startRadius != endRadius || startCenter != endCenter else { return }
        perform { cr in
            guard useUserSpace(cr),
                  let pattern = cairo_pattern_create_radial(Double(startCenter.x), Double(startCenter.y), Double(startRadius),
                                                            Double(endCenter.x), Double(endCenter.y), Double(endRadius))
            else { return }
            defer { cairo_pattern_destroy(pattern) }
            addStops(gradient, to: pattern)
            let before = options.contains(.drawsBeforeStartLocation), after = options.contains(.drawsAfterEndLocation)
            cairo_pattern_set_extend(pattern, before && after ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE)
            cairo_set_source(cr, pattern)
            cairo_paint_with_alpha(cr, Double(state.alpha))
            guard before != after, let color = before ? gradient.colors.first : gradient.colors.last else { return }
            // One end padded: the start circle filled, or everything outside the end circle.
            cairo_new_path(cr)
            if before {
                cairo_arc(cr, Double(startCenter.x), Double(startCenter.y), Double(startRadius), 0, 2 * .pi)
            } else {
                let far = Double(farDistance(along: 1))
                cairo_rectangle(cr, Double(endCenter.x) - far, Double(endCenter.y) - far, 2 * far, 2 * far)
                cairo_new_sub_path(cr)
                cairo_arc(cr, Double(endCenter.x), Double(endCenter.y), Double(endRadius), 0, 2 * .pi)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            }
            setSource(color, on: cr)
            cairo_fill(cr)
        }
    }

    private func addStops(_ gradient: CGGradient, to pattern: OpaquePointer) {
        for (color, location) in zip(gradient.colors, gradient.locations) {
            let c = color.clampedComponents
            cairo_pattern_add_color_stop_rgba(pattern, Double(location), c.red, c.green, c.blue, c.alpha)
        }
    }

    /// A user-space length reaching past every pixel of the context, in units of `unit`.
    private func farDistance(along unit: CGFloat) -> CGFloat {
        let m = state.ctm
        let shrink = max(1e-6, min(hypot(m.a, m.b), hypot(m.c, m.d)))
        return CGFloat(width + height) * 2 / shrink / max(unit, 1e-9) + 1
    }
}
