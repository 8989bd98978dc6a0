import Foundation
import Geometry
import Timing

/// An animation through a list of values or along a path. Core Animation: `CAKeyframeAnimation`.
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// One value per keyframe (ignored when `path` is set).
    open var values: [Any]?
    /// A path for point properties; every element except move-to is one keyframe segment.
    open var path: CGPath?
    /// Keyframe times as fractions of the duration; ignored when invalid for the mode.
    open var keyTimes: [NSNumber]?
    /// One timing function per segment.
    open var timingFunctions: [CAMediaTimingFunction]?
    open var calculationMode: CAAnimationCalculationMode = .linear
    /// Kochanek–Bartels parameters per keyframe for the cubic modes (missing entries are 0).
    open var tensionValues: [NSNumber]?
    open var continuityValues: [NSNumber]?
    open var biasValues: [NSNumber]?
    /// Turns the layer along the path's tangent (path animations only).
    open var rotationMode: CAAnimationRotationMode?

    public required init() { super.init() }

    open override class func defaultValue(forKey key: String) -> Any? {
        key == "calculationMode" ? CAAnimationCalculationMode.linear : super.defaultValue(forKey: key)
    }

    open override var hasValidTiming: Bool {
        super.hasValidTiming && (timingFunctions ?? []).allSatisfy(\.isValid)
    }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CAKeyframeAnimation else { return }
        values = other.values; path = other.path; keyTimes = other.keyTimes
        timingFunctions = other.timingFunctions; calculationMode = other.calculationMode
        tensionValues = other.tensionValues; continuityValues = other.continuityValues
        biasValues = other.biasValues; rotationMode = other.rotationMode
    }
}

/// Animates a layer's whole appearance from its old state to its new one. Core Animation: `CATransition`.
///
/// The model and timing live here; drawing the two states is the renderer's job.
open class CATransition: CAAnimation {
    open var type: CATransitionType = .fade
    open var subtype: CATransitionSubtype?
    /// Progress at the start, 0…1.
    open var startProgress: Float = 0
    /// Progress at the end, 0…1, ≥ `startProgress`.
    open var endProgress: Float = 1

    public required init() { super.init() }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "type": CATransitionType.fade
        case "endProgress": Float(1)
        default: super.defaultValue(forKey: key)
        }
    }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CATransition else { return }
        type = other.type; subtype = other.subtype
        startProgress = other.startProgress; endProgress = other.endProgress
    }

    /// Progress `start + (end − start)·f(u)` for a resolved time.
    public func progress(at time: ResolvedTime) -> Double {
        let f = timingFunction?.solve(time.fraction) ?? time.fraction
        let start = Double(min(max(startProgress, 0), 1)), end = Double(min(max(endProgress, 0), 1))
        return start + (max(end, start) - start) * f
    }
}

/// Names of the value functions. Core Animation: `CAValueFunctionName`.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let rotateX = CAValueFunctionName(rawValue: "rotateX")
    public static let rotateY = CAValueFunctionName(rawValue: "rotateY")
    public static let rotateZ = CAValueFunctionName(rawValue: "rotateZ")
    public static let scale = CAValueFunctionName(rawValue: "scale")
    public static let scaleX = CAValueFunctionName(rawValue: "scaleX")
    public static let scaleY = CAValueFunctionName(rawValue: "scaleY")
    public static let scaleZ = CAValueFunctionName(rawValue: "scaleZ")
    public static let translate = CAValueFunctionName(rawValue: "translate")
    public static let translateX = CAValueFunctionName(rawValue: "translateX")
    public static let translateY = CAValueFunctionName(rawValue: "translateY")
    public static let translateZ = CAValueFunctionName(rawValue: "translateZ")
}

/// Turns interpolated numbers into a transform. Core Animation: `CAValueFunction`.
public final class CAValueFunction: Hashable, Sendable {
    public let name: CAValueFunctionName

    /// The function called `name`, or `nil` for an unknown name.
    public init?(name: CAValueFunctionName) {
        let known: [CAValueFunctionName] = [.rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ,
                                            .translate, .translateX, .translateY, .translateZ]
        guard known.contains(name) else { return nil }
        self.name = name
    }

    /// True when the function takes three numbers (`scale`, `translate`) rather than one.
    public var takesVector: Bool { name == .scale || name == .translate }

    /// The input that leaves a transform unchanged (1 for scales, 0 otherwise).
    public var identityInput: AnimatableValue {
        let one = name == .scale || name == .scaleX || name == .scaleY || name == .scaleZ
        return takesVector ? .numbers(one ? [1, 1, 1] : [0, 0, 0]) : .number(one ? 1 : 0)
    }

    /// The transform for an input value (a number, or three numbers).
    public func transform(for input: AnimatableValue) -> CATransform3D {
        let v: [Double]
        switch input {
        case .number(let n): v = [n, n, n]
        case .numbers(let list): v = (0..<3).map { $0 < list.count ? list[$0] : (list.last ?? 0) }
        default: return .identity
        }
        let a = CGFloat(v[0])
        switch name {
        case .rotateX: return CATransform3DMakeRotation(a, 1, 0, 0)
        case .rotateY: return CATransform3DMakeRotation(a, 0, 1, 0)
        case .rotateZ: return CATransform3DMakeRotation(a, 0, 0, 1)
        case .scale: return CATransform3DMakeScale(CGFloat(v[0]), CGFloat(v[1]), CGFloat(v[2]))
        case .scaleX: return CATransform3DMakeScale(a, 1, 1)
        case .scaleY: return CATransform3DMakeScale(1, a, 1)
        case .scaleZ: return CATransform3DMakeScale(1, 1, a)
        case .translate: return CATransform3DMakeTranslation(CGFloat(v[0]), CGFloat(v[1]), CGFloat(v[2]))
        case .translateX: return CATransform3DMakeTranslation(a, 0, 0)
        case .translateY: return CATransform3DMakeTranslation(0, a, 0)
        default: return CATransform3DMakeTranslation(0, 0, a)
        }
    }

    public static func == (a: CAValueFunction, b: CAValueFunction) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
