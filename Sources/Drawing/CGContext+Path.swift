import CCairo
import Foundation
import Geometry

// Building the current path (kept in device space, as Core Graphics keeps it), and filling,
// stroking and clipping with it.

extension CGContext {
    // MARK: - Building

    /// Discards the current path.
    public func beginPath() { pathStorage = CGMutablePath() }
    public func move(to point: CGPoint) { pathStorage.move(to: point, transform: state.ctm) }
    public func addLine(to point: CGPoint) { pathStorage.addLine(to: point, transform: state.ctm) }
    public func addLines(between points: [CGPoint]) { pathStorage.addLines(between: points, transform: state.ctm) }
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        pathStorage.addCurve(to: end, control1: control1, control2: control2, transform: state.ctm)
    }
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        pathStorage.addQuadCurve(to: end, control: control, transform: state.ctm)
    }
    public func closePath() { pathStorage.closeSubpath() }
    public func addRect(_ rect: CGRect) { pathStorage.addRect(rect, transform: state.ctm) }
    public func addRects(_ rects: [CGRect]) { pathStorage.addRects(rects, transform: state.ctm) }
    public func addEllipse(in rect: CGRect) { pathStorage.addEllipse(in: rect, transform: state.ctm) }
    /// A circular arc; `clockwise` is in user space with y up (so it looks counter-clockwise in
    /// a flipped UIKit context), as in Core Graphics.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        pathStorage.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                    clockwise: clockwise, transform: state.ctm)
    }
    /// An arc tangent to the lines current point → `tangent1End` → `tangent2End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        pathStorage.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: state.ctm)
    }
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat) {
        pathStorage.addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: delta, transform: state.ctm)
    }
    /// Appends `path` (in user space).
    public func addPath(_ other: CGPath) { pathStorage.addPath(other, transform: state.ctm) }

    /// The current path in user space; nil when it is empty.
    public var path: CGPath? {
        guard !pathStorage.isEmpty else { return nil }
        return pathStorage.copy(using: state.ctm.inverted())
    }
    public var isPathEmpty: Bool { pathStorage.isEmpty }
    /// The current point in user space (`.zero` when the path is empty).
    public var currentPointOfPath: CGPoint { pathStorage.currentPoint.applying(state.ctm.inverted()) }
    /// The bounds of the current path in user space (`.null` when empty).
    public var boundingBoxOfPath: CGRect { path?.boundingBox ?? .null }

    // MARK: - Painting

    /// Fills the current path with the fill colour and clears it.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        let elements = takePath()
        guard !elements.isEmpty else { return }
        perform { cr in fill(elements, rule: rule, on: cr) }
    }

    public func eoFillPath() { fillPath(using: .evenOdd) }

    /// Strokes the current path with the stroke colour and line style, and clears it.
    public func strokePath() {
        let elements = takePath()
        guard !elements.isEmpty else { return }
        perform { cr in stroke(elements, on: cr) }
    }

    /// Fills and/or strokes the current path, then clears it.
    public func drawPath(using mode: CGPathDrawingMode) {
        let elements = takePath()
        guard !elements.isEmpty else { return }
        perform { cr in
            switch mode {
            case .fill: fill(elements, rule: .winding, on: cr)
            case .eoFill: fill(elements, rule: .evenOdd, on: cr)
            case .stroke: stroke(elements, on: cr)
            case .fillStroke: fill(elements, rule: .winding, on: cr); stroke(elements, on: cr)
            case .eoFillStroke: fill(elements, rule: .evenOdd, on: cr); stroke(elements, on: cr)
            }
        }
    }

    /// Fills a rectangle (the current path is left alone).
    public func fill(_ rect: CGRect) { fill([rect]) }
    public func fill(_ rects: [CGRect]) { paintShape(.fill) { $0.addRects(rects, transform: state.ctm) } }
    public func fillEllipse(in rect: CGRect) { paintShape(.fill) { $0.addEllipse(in: rect, transform: state.ctm) } }
    public func stroke(_ rect: CGRect) { paintShape(.stroke) { $0.addRect(rect, transform: state.ctm) } }
    public func stroke(_ rect: CGRect, width: CGFloat) {
        saveGState()
        setLineWidth(width)
        stroke(rect)
        restoreGState()
    }
    public func strokeEllipse(in rect: CGRect) { paintShape(.stroke) { $0.addEllipse(in: rect, transform: state.ctm) } }
    /// Strokes the segments points[0]→points[1], points[2]→points[3], …
    public func strokeLineSegments(between points: [CGPoint]) {
        paintShape(.stroke) { p in
            for i in Swift.stride(from: 0, to: points.count - 1, by: 2) {
                p.move(to: points[i], transform: state.ctm)
                p.addLine(to: points[i + 1], transform: state.ctm)
            }
        }
    }

    /// Makes a rectangle transparent (within the clip).
    public func clear(_ rect: CGRect) {
        let shape = CGMutablePath()
        shape.addRect(rect, transform: state.ctm)
        operationCount += 1
        cairo_save(cairo)
        useDeviceSpace(cairo)
        cairo_new_path(cairo)
        appendCairoPath(shape.elements, to: cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
        cairo_fill(cairo)
        cairo_restore(cairo)
        writeExternalPixels()
    }

    // MARK: - Clipping

    /// Intersects the clip with the current path's inside, then clears the path.
    public func clip(using rule: CGPathFillRule = .winding) {
        let elements = takePath()
        cairo_new_path(cairo)
        useDeviceSpace(cairo)
        appendCairoPath(elements, to: cairo)
        cairo_set_fill_rule(cairo, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_clip(cairo)  // an empty path clips everything away, as in Core Graphics
    }

    public func eoClip() { clip(using: .evenOdd) }

    /// Intersects the clip with a rectangle (the current path is left alone).
    public func clip(to rect: CGRect) { clip(to: [rect]) }

    public func clip(to rects: [CGRect]) {
        let shape = CGMutablePath()
        shape.addRects(rects, transform: state.ctm)
        cairo_new_path(cairo)
        useDeviceSpace(cairo)
        appendCairoPath(shape.elements, to: cairo)
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
        cairo_clip(cairo)
    }

    /// The bounds of the clip in user space.
    public var boundingBoxOfClipPath: CGRect {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_save(cairo)
        useDeviceSpace(cairo)
        cairo_clip_extents(cairo, &x1, &y1, &x2, &y2)
        cairo_restore(cairo)
        return CGRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1).applying(state.ctm.inverted())
    }

    // MARK: - Helpers

    /// The current path's elements (device space), leaving the path empty.
    func takePath() -> [PathElement] {
        let elements = pathStorage.elements
        pathStorage = CGMutablePath()
        return elements
    }

    enum ShapeMode { case fill, stroke }

    /// Paints a shape built by `build` (in device space) without touching the current path.
    func paintShape(_ mode: ShapeMode, _ build: (CGMutablePath) -> Void) {
        let shape = CGMutablePath()
        build(shape)
        let elements = shape.elements
        guard !elements.isEmpty else { return }
        perform { cr in
            if mode == .fill { fill(elements, rule: .winding, on: cr) } else { stroke(elements, on: cr) }
        }
    }

    /// Fills device-space elements with the fill colour.
    func fill(_ elements: [PathElement], rule: CGPathFillRule, on cr: OpaquePointer) {
        cairo_new_path(cr)
        useDeviceSpace(cr)
        appendCairoPath(elements, to: cr)
        cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        setSource(state.fillColor, on: cr)
        cairo_fill(cr)
    }

    /// Strokes device-space elements with the stroke colour, the pen in user space.
    func stroke(_ elements: [PathElement], on cr: OpaquePointer) {
        let toUser = state.ctm.inverted()
        guard state.lineWidth >= 0, useUserSpace(cr) else { return }
        cairo_new_path(cr)
        appendCairoPath(elements.map { $0.applying(toUser) }, to: cr)
        cairo_set_line_width(cr, Double(state.lineWidth))
        cairo_set_line_cap(cr, state.lineCap.cairoCap)
        cairo_set_line_join(cr, state.lineJoin.cairoJoin)
        cairo_set_miter_limit(cr, Double(state.miterLimit.isFinite ? max(state.miterLimit, 1) : 10))
        let dashes = state.dashLengths.map { Double(max(0, $0)) }
        if !dashes.isEmpty, dashes.contains(where: { $0 > 0 }) {
            cairo_set_dash(cr, dashes, Int32(dashes.count), Double(state.dashPhase))
        } else {
            cairo_set_dash(cr, nil, 0, 0)
        }
        setSource(state.strokeColor, on: cr)
        cairo_stroke(cr)
    }
}

extension CGLineCap {
    var cairoCap: cairo_line_cap_t {
        switch self {
        case .butt: CAIRO_LINE_CAP_BUTT
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        }
    }
}

extension CGLineJoin {
    var cairoJoin: cairo_line_join_t {
        switch self {
        case .miter: CAIRO_LINE_JOIN_MITER
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        }
    }
}
