import Foundation
import Geometry
import Timing

/// A property animation with its values converted to the animated property's type, ready to be
/// sampled every frame without touching `Any` (built once, when the animation is added).
public struct PreparedPropertyAnimation {
    enum Source {
        case basic(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        case spring(SpringMotion, from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        case keyframes(KeyframeTrack)
    }

    /// Kind of the interpolated values (numbers when a value function builds a transform).
    public let valueKind: AnimatableValueKind
    public let timing: TimingParameters
    public let timingFunction: CAMediaTimingFunction?
    public let isAdditive: Bool
    public let isCumulative: Bool
    public let valueFunction: CAValueFunction?
    public let rotationMode: CAAnimationRotationMode?
    let source: Source

    /// Prepares `animation` for a property of type `kind`; `nil` when it cannot animate it
    /// (a keyframe animation with no usable values, or a transition or group).
    ///
    /// - Parameter timing: timing to use instead of the animation's own (a group gives children
    ///   without a duration its own duration, without changing the shared child object).
    public init?(_ animation: CAPropertyAnimation, propertyKind kind: AnimatableValueKind, timing: TimingParameters? = nil) {
        valueFunction = kind == .transform ? animation.valueFunction : nil
        let valueKind: AnimatableValueKind = valueFunction.map { $0.takesVector ? .numbers : .number } ?? kind
        self.valueKind = valueKind
        self.timing = timing ?? animation.timing
        isAdditive = animation.isAdditive
        isCumulative = animation.isCumulative
        func convert(_ v: Any?) -> AnimatableValue? {
            guard let v else { return nil }
            return AnimatableValue(converting: v, to: valueKind)
        }
        switch animation {
        case let spring as CASpringAnimation:
            source = .spring(spring.motion, from: convert(spring.fromValue), to: convert(spring.toValue), by: convert(spring.byValue))
            timingFunction = nil  // a spring's own motion replaces the curve
            rotationMode = nil
        case let basic as CABasicAnimation:
            source = .basic(from: convert(basic.fromValue), to: convert(basic.toValue), by: convert(basic.byValue))
            timingFunction = basic.timingFunction
            rotationMode = nil
        case let keyframe as CAKeyframeAnimation:
            guard let track = KeyframeTrack(animation: keyframe, kind: valueKind) else { return nil }
            source = .keyframes(track)
            let paced = track.mode == .paced || track.mode == .cubicPaced
            timingFunction = paced ? nil : keyframe.timingFunction
            rotationMode = keyframe.path != nil ? keyframe.rotationMode : nil
        default:
            return nil
        }
    }

    /// Whether `value(at:underlying:)` reads the underlying (model) value: only when an
    /// endpoint is missing and no value function supplies its own identity.
    public var needsUnderlying: Bool {
        guard valueFunction == nil else { return false }
        switch source {
        case .basic(let from, let to, let by), .spring(_, let from, let to, let by):
            switch (from, to, by) {
            case (.some, .some, _), (.some, nil, .some), (nil, .some, .some): return false
            default: return true
            }
        case .keyframes: return false
        }
    }

    /// The animation's value at a resolved time, before `additive` is applied.
    ///
    /// - Parameter underlying: the property's model value (Core Animation's "current value" for
    ///   missing `fromValue`/`toValue`), in the property's own type.
    public func value(at time: ResolvedTime, underlying: AnimatableValue?) -> AnimatableValue {
        let base: AnimatableValue = valueFunction?.identityInput ?? underlying ?? .number(0)
        var result: AnimatableValue
        switch source {
        case .basic(let from, let to, let by):
            let (start, end) = Self.endpoints(from: from, to: to, by: by, underlying: base)
            let f = timingFunction?.solve(time.fraction) ?? time.fraction
            result = start.interpolated(to: end, fraction: f)
            if isCumulative, time.iteration > 0 {
                result = end.scaled(by: Double(time.iteration)).adding(result)
            }
        case .spring(let motion, let from, let to, let by):
            let (start, end) = Self.endpoints(from: from, to: to, by: by, underlying: base)
            result = Self.extrapolate(start, end, motion.progress(at: time.basicTime))
            if isCumulative, time.iteration > 0 {
                result = end.scaled(by: Double(time.iteration)).adding(result)
            }
        case .keyframes(let track):
            let u = timingFunction?.solve(time.fraction) ?? time.fraction
            result = track.value(at: u)
            if isCumulative, time.iteration > 0 {
                result = track.value(at: 1).scaled(by: Double(time.iteration)).adding(result)
            }
        }
        if let valueFunction { return .transform(valueFunction.transform(for: result)) }
        return result
    }

    /// The extra z rotation `rotationMode` adds at a resolved time, radians; `nil` without one.
    public func rotation(at time: ResolvedTime) -> Double? {
        guard let rotationMode, case .keyframes(let track) = source else { return nil }
        let u = timingFunction?.solve(time.fraction) ?? time.fraction
        guard let angle = track.tangentAngle(at: u) else { return nil }
        return rotationMode == .rotateAutoReverse ? angle + .pi : angle
    }

    /// Resolves from/to/by against the underlying value (semantics §3.1).
    static func endpoints(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?,
                          underlying u: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        switch (from, to, by) {
        case (let f?, let t?, _): (f, t)
        case (let f?, nil, let b?): (f, f.adding(b))
        case (nil, let t?, let b?): (t.subtracting(b), t)
        case (let f?, nil, nil): (f, u)
        case (nil, let t?, nil): (u, t)
        case (nil, nil, let b?): (u, u.adding(b))
        case (nil, nil, nil): (u, u)
        }
    }

    /// `start + (end − start)·p` without clamping p, so springs can overshoot.
    static func extrapolate(_ start: AnimatableValue, _ end: AnimatableValue, _ p: Double) -> AnimatableValue {
        switch (start, end) {
        case (.number, .number), (.point, .point), (.size, .size), (.rect, .rect), (.color(.some), .color(.some)),
             (.numbers, .numbers), (.colors, .colors):
            return start.adding(end.subtracting(start).scaled(by: p))
        default:
            return start.interpolated(to: end, fraction: min(max(p, 0), 1))
        }
    }
}
