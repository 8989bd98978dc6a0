import Foundation
import Geometry
import Timing

/// A property animation with its values converted to the animated property's type, ready to be
/// sampled every frame without touching `Any` (built once, when the animation is added).
///
/// A class so each frame's evaluation borrows it instead of copying its values.
public final class PreparedPropertyAnimation {
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
    /// Whether `value(at:underlying:)` reads the underlying (model) value: only when an
    /// endpoint is missing and no value function supplies its own identity.
    public let needsUnderlying: Bool
    /// Start and end when they do not depend on the underlying value (resolved once).
    private let fixedEndpoints: (start: AnimatableValue, end: AnimatableValue)?
    /// Basic and spring animations of numbers, points, sizes, rects and colours — nearly all
    /// animations — are evaluated on four-component vectors, without intermediate enum values.
    public let vector: VectorEndpoints?
    /// Keyframes of numbers, points, sizes, rects and colours, or along a path (without a value
    /// function), as vectors.
    public let vectorKeyframes: VectorKeyframes?
    /// A basic animation between two fixed transforms, both ends decomposed once.
    private let fixedTransforms: TransformInterpolation?

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
        var needs = false
        var fixed: (AnimatableValue, AnimatableValue)?
        switch source {
        case .basic(let from, let to, let by), .spring(_, let from, let to, let by):
            switch (from, to, by) {
            case (.some, .some, _), (.some, nil, .some), (nil, .some, .some): break
            default: needs = valueFunction == nil
            }
            if !needs {
                let base = valueFunction?.identityInput ?? .number(0)
                fixed = Self.endpoints(from: from, to: to, by: by, underlying: base)
            }
        case .keyframes:
            break
        }
        needsUnderlying = needs
        fixedEndpoints = fixed
        vector = valueFunction == nil ? VectorEndpoints(source) : nil
        if valueFunction == nil, case .keyframes(let track) = source { vectorKeyframes = VectorKeyframes(track) } else { vectorKeyframes = nil }
        if case .basic = source, case (.transform(let a), .transform(let b))? = fixed {
            fixedTransforms = TransformInterpolation(from: a, to: b)
        } else {
            fixedTransforms = nil
        }
    }

    /// The animation's value at a resolved time, before `additive` is applied.
    ///
    /// - Parameter underlying: the property's model value (Core Animation's "current value" for
    ///   missing `fromValue`/`toValue`), in the property's own type.
    public func value(at time: ResolvedTime, underlying: AnimatableValue?) -> AnimatableValue {
        if let vector, let result = vector.value(at: time, underlying: underlying, curve: timingFunction?.curve,
                                                   cumulative: isCumulative) {
            return result
        }
        let base: AnimatableValue = valueFunction?.identityInput ?? underlying ?? .number(0)
        var result: AnimatableValue
        switch source {
        case .basic(let from, let to, let by):
            let (start, end) = fixedEndpoints ?? Self.endpoints(from: from, to: to, by: by, underlying: base)
            let f = timingFunction?.solve(time.fraction) ?? time.fraction
            result = fixedTransforms.map { .transform($0.value(at: f)) } ?? start.interpolated(to: end, fraction: f)
            if isCumulative, time.iteration > 0 {
                result = end.scaled(by: Double(time.iteration)).adding(result)
            }
        case .spring(let motion, let from, let to, let by):
            let (start, end) = fixedEndpoints ?? Self.endpoints(from: from, to: to, by: by, underlying: base)
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

/// From/to/by of a basic or spring animation as vectors, with the from/to/by rules of §3.1
/// applied on the fly against the underlying value. Stored inline (no optionals of vectors, whose
/// padding would double the size), so a layer's compiled animations stay compact.
public struct VectorEndpoints: Sendable {
    public let kind: AnimatableValueKind
    /// Which of from, to and by are given (bits 1, 2, 4); absent ones are zero.
    @usableFromInline let given: UInt8
    @usableFromInline let from: SIMD4<Double>, to: SIMD4<Double>, by: SIMD4<Double>
    @usableFromInline let spring: SpringMotion?

    init?(_ source: PreparedPropertyAnimation.Source) {
        let parts: (AnimatableValue?, AnimatableValue?, AnimatableValue?)
        switch source {
        case .basic(let f, let t, let b): parts = (f, t, b); spring = nil
        case .spring(let motion, let f, let t, let b): parts = (f, t, b); spring = motion
        case .keyframes: return nil
        }
        guard let kind = (parts.0 ?? parts.1 ?? parts.2)?.kind,
              [.number, .point, .size, .rect, .color].contains(kind) else { return nil }
        for part in [parts.0, parts.1, parts.2] {
            if let part, Self.vector(part) == nil || part.kind != kind { return nil }
        }
        self.kind = kind
        let f = parts.0.flatMap(Self.vector), t = parts.1.flatMap(Self.vector), b = parts.2.flatMap(Self.vector)
        given = (f == nil ? 0 : 1) | (t == nil ? 0 : 2) | (b == nil ? 0 : 4)
        from = f ?? .zero; to = t ?? .zero; by = b ?? .zero
    }

    /// The vector of a number, point, size, rectangle or non-nil colour.
    public static func vector(_ v: AnimatableValue) -> SIMD4<Double>? {
        switch v {
        case .number(let n): SIMD4(n, 0, 0, 0)
        case .point(let p): SIMD4(Double(p.x), Double(p.y), 0, 0)
        case .size(let s): SIMD4(Double(s.width), Double(s.height), 0, 0)
        case .rect(let r): SIMD4(Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height))
        case .color(let c?): SIMD4(Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
        default: nil
        }
    }

    /// The value of `kind` a vector stands for.
    public func value(_ v: SIMD4<Double>) -> AnimatableValue { Self.value(v, kind: kind) }

    /// The value of `kind` a vector stands for.
    public static func value(_ v: SIMD4<Double>, kind: AnimatableValueKind) -> AnimatableValue {
        switch kind {
        case .number: .number(v.x)
        case .point: .point(CGPoint(x: v.x, y: v.y))
        case .size: .size(CGSize(width: v.x, height: v.y))
        case .rect: .rect(CGRect(x: v.x, y: v.y, width: v.z, height: v.w))
        default: .color(CGColor(red: v.x, green: v.y, blue: v.z, alpha: v.w))
        }
    }

    /// The value at a resolved time; nil when the underlying value is not a vector (a nil colour).
    @inline(__always)
    public func value(at time: ResolvedTime, underlying: AnimatableValue?, curve: TimingCurve?,
                      cumulative: Bool) -> AnimatableValue? {
        vector(at: time, underlying: underlying.flatMap(Self.vector), curve: curve, cumulative: cumulative).map(value)
    }

    /// The value at a resolved time as a vector of `kind`; nil when it needs the underlying
    /// value and `underlying` is nil (a nil colour).
    @inlinable @inline(__always)  // sampled for every basic and spring animation every frame
    public func vector(at time: ResolvedTime, underlying: SIMD4<Double>?, curve: TimingCurve?,
                       cumulative: Bool) -> SIMD4<Double>? {
        let start: SIMD4<Double>, end: SIMD4<Double>
        switch given {
        case 3, 7: (start, end) = (from, to)
        case 5: (start, end) = (from, from + by)
        case 6: (start, end) = (to - by, to)
        default:
            guard let u = underlying else { return nil }
            switch given {
            case 1: (start, end) = (from, u)
            case 2: (start, end) = (u, to)
            case 4: (start, end) = (u, u + by)
            default: (start, end) = (u, u)
            }
        }
        let p = spring.map { $0.progress(at: time.basicTime) } ?? (curve?.solve(time.fraction) ?? time.fraction)
        var v = start + (end - start) * p
        if cumulative, time.iteration > 0 { v += end * Double(time.iteration) }
        return v
    }
}
