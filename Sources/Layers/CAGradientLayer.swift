import Foundation
import Geometry
import Timing

/// A layer filled with a colour gradient. Core Animation: `CAGradientLayer`.
open class CAGradientLayer: CALayer {
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "startPoint": CGPoint(x: 0.5, y: 0)
        case "endPoint": CGPoint(x: 0.5, y: 1)
        case "type": CAGradientLayerType.axial
        default: super.defaultValue(forKey: key)
        }
    }

    open override func configureContent() {
        if case .gradient = properties.content { return }
        properties.content = .gradient(GradientProperties())
    }

    /// The class-specific properties.
    public var gradient: GradientProperties {
        if case .gradient(let g) = properties.content { return g }
        return GradientProperties()
    }

    private func set<V>(_ key: LayerKey?, _ path: WritableKeyPath<GradientProperties, V>, _ value: V) {
        updateContent(key) { content in
            guard case .gradient(var g) = content else { return }
            g[keyPath: path] = value
            content = .gradient(g)
        }
    }

    /// Stop colours (`CGColor` or `UIColor` values).
    public var colors: [Any]? {
        get { gradient.colors }
        set { set(.colors, \.colors, newValue?.compactMap { ($0 as? CGColor) ?? ($0 as? UIColor)?.cgColor }) }
    }
    /// Stop positions in 0…1; nil spaces the stops evenly.
    public var locations: [NSNumber]? {
        get { gradient.locations?.map { NSNumber(value: $0) } }
        set { set(.locations, \.locations, newValue?.map(\.doubleValue)) }
    }
    public var startPoint: CGPoint { get { gradient.startPoint } set { set(.startPoint, \.startPoint, newValue) } }
    public var endPoint: CGPoint { get { gradient.endPoint } set { set(.endPoint, \.endPoint, newValue) } }
    public var type: CAGradientLayerType { get { gradient.type } set { set(nil, \.type, newValue) } }
}
