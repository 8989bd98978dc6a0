import Foundation
import Geometry
import Timing

/// A layer that draws a path, filled and stroked, between its contents and its sublayers.
/// Core Animation: `CAShapeLayer`.
open class CAShapeLayer: CALayer {
    /// The shape's non-zero defaults, as measured on Apple (`strokeStart`, 0, answers nil).
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fillColor": CGColor.black
        case "fillRule": CAShapeLayerFillRule.nonZero
        case "strokeEnd", "lineWidth": CGFloat(1)
        case "miterLimit": CGFloat(10)
        case "lineCap": CAShapeLayerLineCap.butt
        case "lineJoin": CAShapeLayerLineJoin.miter
        default: super.defaultValue(forKey: key)
        }
    }

    open override func configureContent() {
        if case .shape = properties.content { return }
        properties.content = .shape(ShapeProperties())
    }

    /// The class-specific properties.
    public var shape: ShapeProperties {
        if case .shape(let s) = properties.content { return s }
        return ShapeProperties()
    }

    private func set<V>(_ key: LayerKey?, _ path: WritableKeyPath<ShapeProperties, V>, _ value: V) {
        updateContent(key) { content in
            guard case .shape(var s) = content else { return }
            s[keyPath: path] = value
            content = .shape(s)
        }
    }

    /// The shape (stored as a copy). Animatable, never implicitly.
    public var path: CGPath? { get { shape.path } set { set(.path, \.path, newValue?.copy()) } }
    public var fillColor: CGColor? { get { shape.fillColor } set { set(.fillColor, \.fillColor, newValue) } }
    public var fillRule: CAShapeLayerFillRule { get { shape.fillRule } set { set(nil, \.fillRule, newValue) } }
    public var strokeColor: CGColor? { get { shape.strokeColor } set { set(.strokeColor, \.strokeColor, newValue) } }
    public var strokeStart: CGFloat { get { shape.strokeStart } set { set(.strokeStart, \.strokeStart, newValue) } }
    public var strokeEnd: CGFloat { get { shape.strokeEnd } set { set(.strokeEnd, \.strokeEnd, newValue) } }
    public var lineWidth: CGFloat { get { shape.lineWidth } set { set(.lineWidth, \.lineWidth, newValue) } }
    public var miterLimit: CGFloat { get { shape.miterLimit } set { set(.miterLimit, \.miterLimit, newValue) } }
    public var lineCap: CAShapeLayerLineCap { get { shape.lineCap } set { set(nil, \.lineCap, newValue) } }
    public var lineJoin: CAShapeLayerLineJoin { get { shape.lineJoin } set { set(nil, \.lineJoin, newValue) } }
    public var lineDashPhase: CGFloat { get { shape.lineDashPhase } set { set(.lineDashPhase, \.lineDashPhase, newValue) } }
    /// Lamina extension, not in Core Animation: `strokeStart`/`strokeEnd` trim the fill as well
    /// as the stroke, as Lottie's trim paths do. Default false (Core Animation's behaviour).
    public var trimsFill: Bool { get { shape.trimsFill } set { set(nil, \.trimsFill, newValue) } }
    /// Dash lengths, alternately painted and unpainted; nil draws a solid line.
    public var lineDashPattern: [NSNumber]? {
        get { shape.lineDashPattern?.map { NSNumber(value: $0) } }
        set { set(nil, \.lineDashPattern, newValue?.map(\.doubleValue)) }
    }
}
