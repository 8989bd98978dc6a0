import Foundation
import Geometry
import Layers

/// How a path is painted: `CAShapeLayer`'s fill, stroke, dash and trim properties (§15.1
/// defaults), plus Lottie's fill trimming.
public struct ShapeStyle: Hashable, Sendable {
    /// The fill colour; nil fills nothing. Default opaque black.
    public var fillColor: CGColor?
    /// Non-zero winding (default) or even-odd; an unknown raw value counts as non-zero.
    public var fillRule: CAShapeLayerFillRule
    /// The stroke colour; nil (default) strokes nothing.
    public var strokeColor: CGColor?
    /// The stroke width in layer points; ≤ 0 strokes nothing. Default 1.
    public var lineWidth: CGFloat
    /// End caps on open ends (subpath, trim and dash ends). Default butt.
    public var lineCap: CAShapeLayerLineCap
    /// Corner joins. Default miter.
    public var lineJoin: CAShapeLayerLineJoin
    /// The largest miter length / line width ratio before a miter join is bevelled. Default 10.
    public var miterLimit: CGFloat
    /// Dash lengths in layer points, painted first; nil, empty, all-zero or negative entries
    /// give a solid line, and an odd-length list is used twice over.
    public var lineDashPattern: [CGFloat]?
    /// How far into the dash pattern the stroke starts, in layer points.
    public var lineDashPhase: CGFloat
    /// Start of the stroked part, as a fraction (0…1) of the whole path's arc length.
    public var strokeStart: CGFloat
    /// End of the stroked part, as a fraction (0…1) of the whole path's arc length.
    public var strokeEnd: CGFloat
    /// Whether the fill is trimmed too (Lottie's trim paths); Core Animation fills the whole
    /// path, so the default is `false`.
    public var trimsFill: Bool

    /// A style with the given values; every default is `CAShapeLayer`'s.
    public init(
        fillColor: CGColor? = .black, fillRule: CAShapeLayerFillRule = .nonZero,
        strokeColor: CGColor? = nil, lineWidth: CGFloat = 1,
        lineCap: CAShapeLayerLineCap = .butt, lineJoin: CAShapeLayerLineJoin = .miter,
        miterLimit: CGFloat = 10, lineDashPattern: [CGFloat]? = nil, lineDashPhase: CGFloat = 0,
        strokeStart: CGFloat = 0, strokeEnd: CGFloat = 1, trimsFill: Bool = false
    ) {
        self.fillColor = fillColor
        self.fillRule = fillRule
        self.strokeColor = strokeColor
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.lineDashPattern = lineDashPattern
        self.lineDashPhase = lineDashPhase
        self.strokeStart = strokeStart
        self.strokeEnd = strokeEnd
        self.trimsFill = trimsFill
    }

    /// The style of a shape layer's properties.
    public init(_ shape: ShapeProperties) {
        self.init(
            fillColor: shape.fillColor, fillRule: shape.fillRule, strokeColor: shape.strokeColor,
            lineWidth: shape.lineWidth, lineCap: shape.lineCap, lineJoin: shape.lineJoin,
            miterLimit: shape.miterLimit, lineDashPattern: shape.lineDashPattern?.map { CGFloat($0) },
            lineDashPhase: shape.lineDashPhase, strokeStart: shape.strokeStart, strokeEnd: shape.strokeEnd,
            trimsFill: shape.trimsFill)
    }

    /// The trim interval clamped to [0, 1] (§15.1: clamped, never wrapped); NaN counts as 0.
    var clampedTrim: (start: CGFloat, end: CGFloat) {
        func clamp(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
        return (clamp(strokeStart), clamp(strokeEnd))
    }

    /// Whether the trim keeps less than the whole path.
    var isTrimmed: Bool {
        let (start, end) = clampedTrim
        return start > 0 || end < 1
    }

    /// This style with red and blue exchanged in its colours (`PathRasterizer.rasterizeInPlace`).
    var swappingRedAndBlue: ShapeStyle {
        func swapped(_ color: CGColor?) -> CGColor? {
            guard let color else { return nil }
            let c = color.clampedComponents
            return CGColor(red: c.blue, green: c.green, blue: c.red, alpha: c.alpha)
        }
        var style = self
        style.fillColor = swapped(fillColor)
        style.strokeColor = swapped(strokeColor)
        return style
    }

    /// Whether a stroke is drawn at all.
    var strokes: Bool {
        guard let strokeColor, strokeColor.alpha > 0 else { return false }
        return lineWidth > 0 && lineWidth.isFinite
    }

    /// The dash lengths cairo should use (even count), or nil for a solid line.
    var effectiveDashes: [Double]? {
        guard let pattern = lineDashPattern, !pattern.isEmpty,
              pattern.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
        guard pattern.reduce(0, +) > 0 else { return nil }
        let lengths = pattern.map { Double($0) }
        // cairo toggles on/off through the list, which already doubles odd lists; doubling
        // here makes that explicit and keeps the period exact for the phase below.
        return lengths.count.isMultiple(of: 2) ? lengths : lengths + lengths
    }

    /// How far outside the path's curve bounds paint can reach, in layer points.
    var strokeOutset: CGFloat {
        guard strokes else { return 0 }
        var factor: CGFloat = 1
        if lineJoin == .miter { factor = max(factor, miterLimit.isFinite ? miterLimit : 1) }
        if lineCap == .square { factor = max(factor, 2.0.squareRoot()) }
        return lineWidth / 2 * factor
    }
}
