import Foundation

/// lottie-ios's `Keyframes.combined`: several properties that must animate as one value (a
/// rectangle's size, position and roundness make one path). Groups with the same keyframe timing
/// are zipped; otherwise the values are sampled at every frame and played linearly in between.
enum KeyframeCombining {
    /// `sampled`: values at every frame even where the timings match (what the combined value
    /// cannot be interpolated from its keyframes, like a skew whose axis turns).
    static func combined<V: LottieInterpolatable>(_ groups: [KeyframeGroup<V>], sampled: Bool = false) -> KeyframeGroup<[V]> {
        let animated = groups.filter(\.isAnimated)
        guard let base = animated.first else {
            return .constant(groups.map(\.first))
        }
        if !sampled, animated.allSatisfy({ $0.hasSameTiming(as: base) }) {
            return KeyframeGroup<[V]>(keyframes: base.keyframes.indices.map { i in
                let k = base.keyframes[i]
                return Keyframe(time: k.time, value: groups.map { $0.isAnimated ? $0.keyframes[i].value : $0.first },
                                isHold: k.isHold, inTangent: k.inTangent, outTangent: k.outTangent)
            })
        }
        let times = animated.flatMap { $0.keyframes.map(\.time) }
        let low = times.min() ?? 0, high = times.max() ?? 0
        var keyframes: [Keyframe<[V]>] = []
        var frame = low
        while true {
            keyframes.append(Keyframe(time: frame, value: groups.map { $0.value(at: frame) }))
            if frame >= high { break }
            frame = min(frame + 1, high)
        }
        return KeyframeGroup(keyframes: keyframes)
    }

    /// Two number properties combined into a value computed from both.
    static func combined<T>(_ a: KeyframeGroup<[Double]>, _ b: KeyframeGroup<[Double]>, _ make: ([Double], [Double]) -> T) -> KeyframeGroup<T> {
        combined([a, b]).map { make($0[0], $0[1]) }
    }
}

extension KeyframeGroup where Value == [Double] {
    /// The first component of every keyframe (`LottieVector1D`).
    var scalar: KeyframeGroup<Double> { map { $0.first ?? 0 } }
}

extension Double: LottieInterpolatable {
    func interpolated(to other: Double, fraction t: Double) -> Double { self + (other - self) * t }
}

extension Array: LottieInterpolatable where Element: LottieInterpolatable {
    /// Element-wise; where one array is longer, its extra elements are kept as they are.
    func interpolated(to other: [Element], fraction t: Double) -> [Element] {
        (0..<Swift.max(count, other.count)).map { i in
            i < count && i < other.count ? self[i].interpolated(to: other[i], fraction: t) : (i < count ? self[i] : other[i])
        }
    }
}
