import Foundation
import Geometry
import Timing

/// A layer that draws its sublayers several times with accumulating transform, colour and delay.
/// Core Animation: `CAReplicatorLayer`.
open class CAReplicatorLayer: CALayer {
    /// Measured on Apple: `instanceCount` 1 and a white `instanceColor`; `instanceDelay` (0) answers nil.
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "instanceCount": 1
        case "instanceColor": CGColor.white
        case "preservesDepth": false
        default: super.defaultValue(forKey: key)
        }
    }

    open override func configureContent() {
        if case .replicator = properties.content { return }
        properties.content = .replicator(ReplicatorProperties())
    }

    /// The class-specific properties.
    public var replicator: ReplicatorProperties {
        if case .replicator(let r) = properties.content { return r }
        return ReplicatorProperties()
    }

    private func set<V>(_ key: LayerKey?, _ path: WritableKeyPath<ReplicatorProperties, V>, _ value: V) {
        updateContent(key) { content in
            guard case .replicator(var r) = content else { return }
            r[keyPath: path] = value
            content = .replicator(r)
        }
    }

    public var instanceCount: Int { get { replicator.instanceCount } set { set(.instanceCount, \.instanceCount, newValue) } }
    override var presentedCopiesOfSublayers: Int { instanceCount }
    public var instanceDelay: CFTimeInterval { get { replicator.instanceDelay } set { set(.instanceDelay, \.instanceDelay, newValue) } }
    public var instanceTransform: CATransform3D {
        get { replicator.instanceTransform }
        set { set(.instanceTransform, \.instanceTransform, newValue) }
    }
    public var preservesDepth: Bool { get { replicator.preservesDepth } set { set(nil, \.preservesDepth, newValue) } }
    public var instanceColor: CGColor? { get { replicator.instanceColor } set { set(.instanceColor, \.instanceColor, newValue) } }
    public var instanceRedOffset: Float { get { replicator.instanceRedOffset } set { set(.instanceRedOffset, \.instanceRedOffset, newValue) } }
    public var instanceGreenOffset: Float { get { replicator.instanceGreenOffset } set { set(.instanceGreenOffset, \.instanceGreenOffset, newValue) } }
    public var instanceBlueOffset: Float { get { replicator.instanceBlueOffset } set { set(.instanceBlueOffset, \.instanceBlueOffset, newValue) } }
    public var instanceAlphaOffset: Float { get { replicator.instanceAlphaOffset } set { set(.instanceAlphaOffset, \.instanceAlphaOffset, newValue) } }
}
