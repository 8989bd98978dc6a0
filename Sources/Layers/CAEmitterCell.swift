import Foundation
import Geometry
import Timing

/// One kind of particle an emitter layer sends out. Core Animation: `CAEmitterCell`.
///
/// Mean/range pairs draw uniformly from `[mean − range/2, mean + range/2]`. Drawing particles is
/// the renderers' job; this is the model.
public final class CAEmitterCell: CAMediaTiming {
    /// The cell's properties as a value.
    public var properties = EmitterCellProperties()

    public init() {}

    /// A new cell. Core Animation: `+emitterCell`.
    public static func emitterCell() -> CAEmitterCell { CAEmitterCell() }

    public var name: String? { get { properties.name } set { properties.name = newValue } }
    public var isEnabled: Bool { get { properties.isEnabled } set { properties.isEnabled = newValue } }
    public var birthRate: Float { get { properties.birthRate } set { properties.birthRate = newValue } }
    public var lifetime: Float { get { properties.lifetime } set { properties.lifetime = newValue } }
    public var lifetimeRange: Float { get { properties.lifetimeRange } set { properties.lifetimeRange = newValue } }
    public var emissionLatitude: CGFloat { get { properties.emissionLatitude } set { properties.emissionLatitude = newValue } }
    public var emissionLongitude: CGFloat { get { properties.emissionLongitude } set { properties.emissionLongitude = newValue } }
    public var emissionRange: CGFloat { get { properties.emissionRange } set { properties.emissionRange = newValue } }
    public var velocity: CGFloat { get { properties.velocity } set { properties.velocity = newValue } }
    public var velocityRange: CGFloat { get { properties.velocityRange } set { properties.velocityRange = newValue } }
    public var xAcceleration: CGFloat { get { properties.xAcceleration } set { properties.xAcceleration = newValue } }
    public var yAcceleration: CGFloat { get { properties.yAcceleration } set { properties.yAcceleration = newValue } }
    public var zAcceleration: CGFloat { get { properties.zAcceleration } set { properties.zAcceleration = newValue } }
    public var scale: CGFloat { get { properties.scale } set { properties.scale = newValue } }
    public var scaleRange: CGFloat { get { properties.scaleRange } set { properties.scaleRange = newValue } }
    public var scaleSpeed: CGFloat { get { properties.scaleSpeed } set { properties.scaleSpeed = newValue } }
    public var spin: CGFloat { get { properties.spin } set { properties.spin = newValue } }
    public var spinRange: CGFloat { get { properties.spinRange } set { properties.spinRange = newValue } }
    public var color: CGColor? { get { properties.color } set { properties.color = newValue } }
    public var redRange: Float { get { properties.redRange } set { properties.redRange = newValue } }
    public var greenRange: Float { get { properties.greenRange } set { properties.greenRange = newValue } }
    public var blueRange: Float { get { properties.blueRange } set { properties.blueRange = newValue } }
    public var alphaRange: Float { get { properties.alphaRange } set { properties.alphaRange = newValue } }
    public var redSpeed: Float { get { properties.redSpeed } set { properties.redSpeed = newValue } }
    public var greenSpeed: Float { get { properties.greenSpeed } set { properties.greenSpeed = newValue } }
    public var blueSpeed: Float { get { properties.blueSpeed } set { properties.blueSpeed = newValue } }
    public var alphaSpeed: Float { get { properties.alphaSpeed } set { properties.alphaSpeed = newValue } }
    /// The particle image (a `CGImage`).
    public var contents: Any? {
        get { properties.contents }
        set { properties.contents = newValue as? CGImage }
    }
    public var contentsRect: CGRect { get { properties.contentsRect } set { properties.contentsRect = newValue } }
    public var contentsScale: CGFloat { get { properties.contentsScale } set { properties.contentsScale = newValue } }
    public var minificationFilter: String { get { properties.minificationFilter } set { properties.minificationFilter = newValue } }
    public var magnificationFilter: String { get { properties.magnificationFilter } set { properties.magnificationFilter = newValue } }
    public var minificationFilterBias: Float { get { properties.minificationFilterBias } set { properties.minificationFilterBias = newValue } }
    /// Sub-cells: every particle of this cell emits them.
    public var emitterCells: [CAEmitterCell]? {
        get { subcells }
        set { subcells = newValue; properties.emitterCells = newValue?.map(\.properties) }
    }
    private var subcells: [CAEmitterCell]?
    public var style: [AnyHashable: Any]?

    public var beginTime: CFTimeInterval { get { properties.timing.beginTime } set { properties.timing.beginTime = newValue } }
    public var duration: CFTimeInterval { get { properties.timing.duration } set { properties.timing.duration = newValue } }
    public var speed: Float { get { Float(properties.timing.speed) } set { properties.timing.speed = Double(newValue) } }
    public var timeOffset: CFTimeInterval { get { properties.timing.timeOffset } set { properties.timing.timeOffset = newValue } }
    public var repeatCount: Float { get { Float(properties.timing.repeatCount) } set { properties.timing.repeatCount = Double(newValue) } }
    public var repeatDuration: CFTimeInterval { get { properties.timing.repeatDuration } set { properties.timing.repeatDuration = newValue } }
    public var autoreverses: Bool { get { properties.timing.autoreverses } set { properties.timing.autoreverses = newValue } }
    public var fillMode: CAMediaTimingFillMode { get { properties.timing.fillMode } set { properties.timing.fillMode = newValue } }
}

/// A `CAEmitterCell`'s properties as a value (§15.5 defaults).
public struct EmitterCellProperties: Sendable, Equatable {
    public var name: String?
    public var isEnabled = true
    public var birthRate: Float = 0
    public var lifetime: Float = 0
    public var lifetimeRange: Float = 0
    public var emissionLatitude: CGFloat = 0
    public var emissionLongitude: CGFloat = 0
    public var emissionRange: CGFloat = 0
    public var velocity: CGFloat = 0
    public var velocityRange: CGFloat = 0
    public var xAcceleration: CGFloat = 0
    public var yAcceleration: CGFloat = 0
    public var zAcceleration: CGFloat = 0
    public var scale: CGFloat = 1
    public var scaleRange: CGFloat = 0
    public var scaleSpeed: CGFloat = 0
    public var spin: CGFloat = 0
    public var spinRange: CGFloat = 0
    public var color: CGColor? = .white
    public var redRange: Float = 0, greenRange: Float = 0, blueRange: Float = 0, alphaRange: Float = 0
    public var redSpeed: Float = 0, greenSpeed: Float = 0, blueSpeed: Float = 0, alphaSpeed: Float = 0
    public var contents: CGImage?
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    public var contentsScale: CGFloat = 1
    public var minificationFilter = "linear"
    public var magnificationFilter = "linear"
    public var minificationFilterBias: Float = 0
    public var emitterCells: [EmitterCellProperties]?
    /// A cell's duration of 0 means it never stops emitting.
    public var timing = TimingParameters()
    public init() {}
}
