import Foundation
import Geometry
import Timing

/// A value that Lottie keyframes can blend between.
protocol LottieInterpolatable {
    func interpolated(to other: Self, fraction: Double) -> Self
}

/// One keyframe, as lottie-ios reads Bodymovin's span form: the value that holds from `time`, and
/// the easing tangents of the segments on either side.
struct Keyframe<Value> {
    var time: Double
    var value: Value
    /// The segment from this keyframe to the next does not interpolate.
    var isHold = false
    /// Easing control point of the segment arriving here (the previous keyframe's `i`).
    var inTangent: CGPoint?
    /// Easing control point of the segment leaving here (this keyframe's `o`).
    var outTangent: CGPoint?
    /// Spatial tangents (position paths), relative to the value.
    var spatialInTangent: [Double]?
    var spatialOutTangent: [Double]?
}

/// An animatable property: one keyframe when it does not animate.
struct KeyframeGroup<Value> {
    var keyframes: [Keyframe<Value>]
    /// The property carries an After Effects expression (ignored, as lottie-ios does).
    var hasExpression = false

    static func constant(_ value: Value) -> KeyframeGroup {
        KeyframeGroup(keyframes: [Keyframe(time: 0, value: value)])
    }

    var isAnimated: Bool { keyframes.count > 1 }
    var first: Value { keyframes[0].value }

    func map<T>(_ transform: (Value) -> T) -> KeyframeGroup<T> {
        KeyframeGroup<T>(keyframes: keyframes.map {
            Keyframe(time: $0.time, value: transform($0.value), isHold: $0.isHold, inTangent: $0.inTangent,
                     outTangent: $0.outTangent, spatialInTangent: $0.spatialInTangent, spatialOutTangent: $0.spatialOutTangent)
        }, hasExpression: hasExpression)
    }

    /// Same times, holds and easing as `other` (spatial tangents aside), so values can be zipped.
    func hasSameTiming<T>(as other: KeyframeGroup<T>) -> Bool {
        guard keyframes.count == other.keyframes.count else { return false }
        for (a, b) in zip(keyframes, other.keyframes) {
            guard a.time == b.time, a.isHold == b.isHold, a.inTangent == b.inTangent, a.outTangent == b.outTangent else { return false }
        }
        return true
    }
}

extension Keyframe {
    /// The easing of the segment from this keyframe to `next` (lottie-ios's timing function).
    func timingFunction(to next: Keyframe) -> CAMediaTimingFunction {
        let c1 = outTangent ?? .zero
        let c2 = next.inTangent ?? CGPoint(x: 1, y: 1)
        return CAMediaTimingFunction(controlPoints: Float(c1.x), Float(c1.y), Float(c2.x), Float(c2.y))
    }
}

extension KeyframeGroup {
    /// The keyframes around `frame` (binary search: sampled tracks have one per frame): the
    /// last at or before it and the next, or the first or last alone outside the track.
    func bracket(_ frame: Double) -> (Keyframe<Value>, Keyframe<Value>?) {
        let k = keyframes
        guard k.count > 1, frame > k[0].time else { return (k[0], nil) }
        guard frame < k[k.count - 1].time else { return (k[k.count - 1], nil) }
        var low = 0, high = k.count - 1
        while low + 1 < high {
            let mid = (low + high) / 2
            if k[mid].time <= frame { low = mid } else { high = mid }
        }
        return (k[low], k[high])
    }
}

extension KeyframeGroup where Value: LottieInterpolatable {
    /// The value at `frame`, interpolated the way Core Animation plays the keyframes lottie-ios
    /// makes of them (eased in time; spatial tangents are applied by `positionValue`).
    func value(at frame: Double) -> Value {
        let (a, b) = bracket(frame)
        guard let b, !a.isHold, b.time > a.time else { return a.value }
        let u = (frame - a.time) / (b.time - a.time)
        let eased = a.timingFunction(to: b).solve(u)
        return a.value.interpolated(to: b.value, fraction: eased)
    }
}

extension KeyframeGroup where Value == [Double] {
    /// A position at `frame`, following the spatial bezier between keyframes when there is one.
    func positionValue(at frame: Double) -> [Double] {
        let (a, b) = bracket(frame)
        guard let b, !a.isHold, b.time > a.time else { return a.value }
        let s = a.timingFunction(to: b).solve((frame - a.time) / (b.time - a.time))
        guard let to = a.spatialOutTangent, let ti = b.spatialInTangent,
              to.contains(where: { $0 != 0 }) || ti.contains(where: { $0 != 0 }) else {
            return a.value.interpolated(to: b.value, fraction: s)
        }
        let n = Swift.min(a.value.count, b.value.count)
        return (0..<n).map { i in
            let p0 = a.value[i], p3 = b.value[i]
            let p1 = p0 + (i < to.count ? to[i] : 0), p2 = p3 + (i < ti.count ? ti[i] : 0)
            let m = 1 - s
            return m * m * m * p0 + 3 * m * m * s * p1 + 3 * m * s * s * p2 + s * s * s * p3
        }
    }

    /// Every keyframe value satisfies `predicate`.
    func allValues(_ predicate: ([Double]) -> Bool) -> Bool { keyframes.allSatisfy { predicate($0.value) } }
}
