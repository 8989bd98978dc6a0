import Foundation
import Geometry
import Timing

/// A layer that emits particles. Core Animation: `CAEmitterLayer`.
open class CAEmitterLayer: CALayer {
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "birthRate", "lifetime", "velocity", "scale", "spin": Float(1)
        case "emitterShape": CAEmitterLayerEmitterShape.point
        case "emitterMode": CAEmitterLayerEmitterMode.volume
        case "renderMode": CAEmitterLayerRenderMode.unordered
        case "preservesDepth": false
        default: super.defaultValue(forKey: key)
        }
    }

    open override func configureContent() {
        if case .emitter = properties.content { return }
        properties.content = .emitter(EmitterProperties())
    }

    /// The class-specific properties.
    public var emitter: EmitterProperties {
        if case .emitter(let e) = properties.content { return e }
        return EmitterProperties()
    }

    private func set<V>(_ key: LayerKey?, _ path: WritableKeyPath<EmitterProperties, V>, _ value: V) {
        updateContent(key) { content in
            guard case .emitter(var e) = content else { return }
            e[keyPath: path] = value
            content = .emitter(e)
        }
    }

    private var cells: [CAEmitterCell]?
    /// The top-level cells.
    public var emitterCells: [CAEmitterCell]? {
        get { cells }
        set { cells = newValue; set(nil, \.emitterCells, newValue?.map(\.properties)) }
    }
    public var birthRate: Float { get { emitter.birthRate } set { set(.birthRate, \.birthRate, newValue) } }
    public var lifetime: Float { get { emitter.lifetime } set { set(.lifetime, \.lifetime, newValue) } }
    public var velocity: Float { get { emitter.velocity } set { set(.velocity, \.velocity, newValue) } }
    public var scale: Float { get { emitter.scale } set { set(.scale, \.scale, newValue) } }
    public var spin: Float { get { emitter.spin } set { set(.spin, \.spin, newValue) } }
    public var emitterPosition: CGPoint { get { emitter.emitterPosition } set { set(.emitterPosition, \.emitterPosition, newValue) } }
    public var emitterZPosition: CGFloat { get { emitter.emitterZPosition } set { set(.emitterZPosition, \.emitterZPosition, newValue) } }
    public var emitterSize: CGSize { get { emitter.emitterSize } set { set(.emitterSize, \.emitterSize, newValue) } }
    public var emitterDepth: CGFloat { get { emitter.emitterDepth } set { set(.emitterDepth, \.emitterDepth, newValue) } }
    public var emitterShape: CAEmitterLayerEmitterShape { get { emitter.emitterShape } set { set(nil, \.emitterShape, newValue) } }
    public var emitterMode: CAEmitterLayerEmitterMode { get { emitter.emitterMode } set { set(nil, \.emitterMode, newValue) } }
    public var renderMode: CAEmitterLayerRenderMode { get { emitter.renderMode } set { set(nil, \.renderMode, newValue) } }
    public var preservesDepth: Bool { get { emitter.preservesDepth } set { set(nil, \.preservesDepth, newValue) } }
    public var seed: UInt32 { get { emitter.seed } set { set(nil, \.seed, newValue) } }
}
