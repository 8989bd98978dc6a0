import Foundation
import Geometry
import Timing

/// Something that responds to an action event: animations (added to the layer) and `NSNull` (stops
/// the action search and does nothing). Core Animation: `CAAction`.
public protocol CAAction {
    /// Performs the action for `event` on `anObject` (a layer).
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

extension NSNull: CAAction {
    /// Does nothing: `NSNull` in an `actions` dictionary means "no action, stop searching".
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// An object animations can be added to (a layer). Lets `CAAnimation.run` work without knowing layers.
public protocol CAAnimationHost: AnyObject {
    func add(_ animation: CAAnimation, forKey key: String?)
}

/// Receives start and stop messages. Core Animation: `CAAnimationDelegate`.
public protocol CAAnimationDelegate: AnyObject {
    /// The active duration began.
    func animationDidStart(_ anim: CAAnimation)
    /// The active duration ended (`flag` true) or the animation was removed first (`flag` false).
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract base of all animations. Core Animation: `CAAnimation`.
///
/// `add(_:forKey:)` copies the animation, so later edits to the original have no effect.
open class CAAnimation: CAMediaTiming, CAAction {
    open var beginTime: CFTimeInterval = 0
    open var duration: CFTimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: CFTimeInterval = 0
    open var repeatCount: Float = 0
    open var repeatDuration: CFTimeInterval = 0
    open var autoreverses = false
    open var fillMode: CAMediaTimingFillMode = .removed
    /// Pacing of the animation; `nil` means linear.
    open var timingFunction: CAMediaTimingFunction?
    /// Receives start/stop messages; held strongly, as Core Animation does.
    open var delegate: CAAnimationDelegate?
    /// When true (the default) the animation has no effect, and is taken off its layer, once its
    /// active duration has passed.
    open var isRemovedOnCompletion = true
    private var userValues: [String: Any] = [:]

    public required init() {}

    /// Copies every property of `other`.
    public required init(copying other: CAAnimation) {
        beginTime = other.beginTime; duration = other.duration; speed = other.speed
        timeOffset = other.timeOffset; repeatCount = other.repeatCount; repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses; fillMode = other.fillMode; timingFunction = other.timingFunction
        delegate = other.delegate; isRemovedOnCompletion = other.isRemovedOnCompletion; userValues = other.userValues
    }

    /// A new animation of this class. Core Animation: `+animation`.
    public class func animation() -> Self { Self() }

    /// A copy of the animation (`NSCopying`).
    open func copy() -> Any { Self(copying: self) }

    /// Stores an arbitrary value, as key-value coding lets Core Animation code do.
    open func setValue(_ value: Any?, forKey key: String) { userValues[key] = value }
    /// Reads a value stored with `setValue(_:forKey:)`.
    open func value(forKey key: String) -> Any? { userValues[key] }

    /// Adds the animation to the layer under `event` (the implicit-action path).
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CAAnimationHost)?.add(self, forKey: event)
    }

    /// The default of a property. Core Animation: `+defaultValueForKey:`.
    ///
    /// As measured on Apple: the non-zero defaults only (`speed`, `fillMode`,
    /// `removedOnCompletion`); nil for zero defaults (`duration`, `beginTime`, `autoreverses`)
    /// and for Swift spellings (`isRemovedOnCompletion`).
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "speed": Float(1)
        case "fillMode": CAMediaTimingFillMode.removed
        case "removedOnCompletion": true
        default: nil
        }
    }

    /// Whether every timing curve of the animation is valid (finite control points); an animation
    /// with an invalid one changes nothing.
    open var hasValidTiming: Bool { timingFunction?.isValid ?? true }

    /// The timing properties as a value.
    public var timing: TimingParameters { TimingParameters(self) }
}

/// An animation of one layer property named by a key path. Core Animation: `CAPropertyAnimation`.
open class CAPropertyAnimation: CAAnimation {
    /// The animated key path, such as `"position"`, `"transform.rotation.z"` or `"bounds.size.width"`.
    open var keyPath: String?
    /// Adds the animation's value to the value underneath instead of replacing it.
    open var isAdditive = false
    /// Accumulates the end value of each finished repeat.
    open var isCumulative = false
    /// Builds the property's transform from the interpolated numbers.
    open var valueFunction: CAValueFunction?

    public required init() { super.init() }

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CAPropertyAnimation else { return }
        keyPath = other.keyPath; isAdditive = other.isAdditive; isCumulative = other.isCumulative
        valueFunction = other.valueFunction
    }
}

/// An animation between two values. Core Animation: `CABasicAnimation`.
///
/// With `U` the property's model value: from+to, from+by (from → from+by), by+to (to−by → to),
/// from alone (from → U), to alone (U → to), by alone (U → U+by), none (U → U).
open class CABasicAnimation: CAPropertyAnimation {
    open var fromValue: Any?
    open var toValue: Any?
    open var byValue: Any?

    public required init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CABasicAnimation else { return }
        fromValue = other.fromValue; toValue = other.toValue; byValue = other.byValue
    }
}

/// A basic animation moved by a damped spring instead of a timing curve. Core Animation: `CASpringAnimation`.
open class CASpringAnimation: CABasicAnimation {
    /// Mass, > 0; an invalid value (≤ 0, not finite) becomes the default 1, as on Apple.
    open var mass: CGFloat = 1 {
        didSet { if !(mass > 0 && mass.isFinite) { mass = 1 } }
    }
    /// Spring constant, > 0; an invalid value becomes the default 100.
    open var stiffness: CGFloat = 100 {
        didSet { if !(stiffness > 0 && stiffness.isFinite) { stiffness = 100 } }
    }
    /// Friction, ≥ 0 (infinite only from the perceptual initializer's bounce −1); an invalid
    /// value becomes the default 10.
    open var damping: CGFloat = 10 {
        didSet { if !(damping >= 0) { damping = 10 } }
    }
    /// Start velocity in fractions of the distance per second; positive moves toward the target.
    open var initialVelocity: CGFloat = 0
    /// When false (the default) an over-damped spring moves as a critically damped one.
    open var allowsOverdamping = false

    public required init() { super.init() }

    /// A spring of period `perceptualDuration` with the given bounce (−1…1: 0 critical, negative
    /// over-damped, −1 infinitely damped), over-damping allowed and `duration` its settling
    /// duration, as on Apple. A duration that is not positive and finite, or a bounce that is not
    /// finite, leaves the defaults.
    public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        guard perceptualDuration.isFinite, perceptualDuration > 0, bounce.isFinite else { return }
        let motion = SpringMotion(perceptualDuration: perceptualDuration, bounce: Double(bounce))
        mass = motion.mass; stiffness = motion.stiffness; damping = motion.damping
        allowsOverdamping = true
        duration = settlingDuration
    }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CASpringAnimation else { return }
        mass = other.mass; stiffness = other.stiffness; damping = other.damping
        initialVelocity = other.initialVelocity; allowsOverdamping = other.allowsOverdamping
    }

    /// The closed-form motion of these parameters.
    public var motion: SpringMotion {
        SpringMotion(mass: Double(mass), stiffness: Double(stiffness), damping: Double(damping),
                     initialVelocity: Double(initialVelocity), allowsOverdamping: allowsOverdamping)
    }

    /// Estimated time until the spring is at rest, seconds.
    open var settlingDuration: CFTimeInterval { motion.settlingDuration }

    /// 2π/√(k/m): the duration the perceptual initializer was given.
    open var perceptualDuration: CFTimeInterval { 2 * .pi / motion.naturalFrequency }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "mass": CGFloat(1)
        case "stiffness": CGFloat(100)
        case "damping": CGFloat(10)
        case "allowsOverdamping": false
        default: super.defaultValue(forKey: key)
        }
    }

    /// The bounce the perceptual initializer was given (1 − ζ, or 1/ζ − 1 when over-damped).
    open var bounce: CGFloat {
        let zeta = Double(damping) / (2 * (Double(stiffness) * Double(mass)).squareRoot())
        return CGFloat(zeta <= 1 ? 1 - zeta : 1 / zeta - 1)
    }
}

/// Runs several animations together in one time space. Core Animation: `CAAnimationGroup`.
///
/// Children see the group's basic local time as their parent time; they are clipped to the
/// group's duration, not scaled; their `delegate` and `isRemovedOnCompletion` are ignored.
open class CAAnimationGroup: CAAnimation {
    open var animations: [CAAnimation]?

    public required init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CAAnimationGroup else { return }
        // Deep: Apple copies the children too (a later change to a child leaves the copy alone).
        animations = other.animations?.map { ($0.copy() as? CAAnimation) ?? $0 }
    }

    open override var hasValidTiming: Bool {
        super.hasValidTiming && (animations ?? []).allSatisfy(\.hasValidTiming)
    }
}
