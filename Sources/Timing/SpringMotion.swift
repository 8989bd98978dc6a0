import Foundation

/// The closed-form motion of a damped spring, as `CASpringAnimation` moves (semantics §5).
///
/// `progress(at:)` is `1 − x(t)`, where x is the normalised distance to the target
/// (x(0) = 1, x'(0) = −initialVelocity). Time is in real local seconds: the curve is never
/// stretched to an animation's duration.
public struct SpringMotion: Sendable, Equatable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double
    /// Fraction of the start→end distance per second; positive moves toward the target.
    public var initialVelocity: Double
    /// When false (the default), an over-damped spring moves as a critically damped one.
    public var allowsOverdamping: Bool

    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
                initialVelocity: Double = 0, allowsOverdamping: Bool = false) {
        self.mass = mass; self.stiffness = stiffness; self.damping = damping
        self.initialVelocity = initialVelocity; self.allowsOverdamping = allowsOverdamping
    }

    /// The spring SwiftUI and Flutter derive from a perceptual duration and a bounce (−1…1).
    public init(perceptualDuration: Double, bounce: Double) {
        let stiffness = pow(2 * Double.pi / max(perceptualDuration, 1e-9), 2)
        // Bounce −1 (or below) is infinite damping: the value jumps to the target.
        let ratio = bounce >= 0 ? 1 - bounce : bounce > -1 ? 1 / (1 + bounce) : .infinity
        self.init(mass: 1, stiffness: stiffness, damping: 2 * ratio * (stiffness).squareRoot(),
                  allowsOverdamping: bounce < 0)
    }

    /// Infinite damping with over-damping allowed: the value is at the target at once.
    var isInfinitelyDamped: Bool { damping == .infinity && allowsOverdamping }

    /// Undamped angular frequency ω0 = √(k/m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// ζ = c / (2√(k·m)), clamped to 1 unless over-damping is allowed.
    public var dampingRatio: Double {
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        return allowsOverdamping ? zeta : min(zeta, 1)
    }

    /// Fraction of the way from start to end at local time `t` (overshoots above 1 when bouncy).
    public func progress(at t: Double) -> Double {
        guard mass > 0, stiffness > 0, damping >= 0 else { return 1 }
        if t <= 0 { return 0 }
        if isInfinitelyDamped { return 1 }
        return 1 - displacement(at: t)
    }

    /// Normalised remaining distance x(t).
    public func displacement(at t: Double) -> Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return exp(-zeta * w0 * t) * (cos(wd * t) + ((zeta * w0 - v0) / wd) * sin(wd * t))
        }
        if zeta == 1 {
            return (1 + (w0 - v0) * t) * exp(-w0 * t)
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
        let c2 = (-v0 - r1) / (r2 - r1), c1 = 1 - c2
        return c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }

    /// A time after which |x(t)| < `threshold` is guaranteed (critically and over-damped springs).
    private func decayBound(threshold: Double) -> Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if zeta == 1 {
            // (1 + |ω0 − v0|·t)·e^(−ω0 t) ≤ threshold: iterate t = ln((1 + k t)/threshold)/ω0.
            let k = abs(w0 - v0)
            var t = log(1 / threshold) / w0
            for _ in 0..<64 { t = log((1 + k * t) / threshold) / w0 }
            return t * 1.01
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
        let c2 = (-v0 - r1) / (r2 - r1), c1 = 1 - c2
        // |x| ≤ (|c1| + |c2|)·e^(r1 t), r1 being the slower (less negative) root.
        return log((abs(c1) + abs(c2)) / threshold) / -r1 * 1.01
    }

    /// Estimated time until the spring is at rest. Core Animation: `settlingDuration`.
    ///
    /// Under-damped: `ln((1 + |(ζω0 − v0)/ωd|) / 0.001) / (ζω0)`, which reproduces Apple's measured
    /// values to 15 digits. Critically/over-damped: the first 0.1 s step at which |x| stays below
    /// 0.001 — an inferred rule that reproduces Apple's measured 1.0 s for m 1, k 100, c 20 and c 100.
    public var settlingDuration: Double {
        guard mass > 0, stiffness > 0, damping > 0 else { return damping == 0 ? .infinity : 0 }
        if isInfinitelyDamped { return 0 }
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return log((1 + abs((zeta * w0 - v0) / wd)) / 0.001) / (zeta * w0)
        }
        // x(t) of a critically/over-damped spring crosses zero at most once, then decays. Find the
        // last time |x| ≥ 0.001 below an analytic bound, on a geometric grid refined by bisection
        // (bounded work for any parameters), then round up to the 0.1 s grid.
        let horizon = decayBound(threshold: 0.001)
        guard horizon.isFinite else { return .infinity }
        var last = 0.0
        func crossing(_ low: Double, _ high: Double) -> Double {
            var (low, high) = (low, high)
            for _ in 0..<60 {
                let mid = (low + high) / 2
                if abs(displacement(at: mid)) >= 0.001 { low = mid } else { high = mid }
            }
            return low
        }
        var t = min(horizon, 1e-3 / max(w0, 1e-300))
        var above = false
        while t < horizon {
            if abs(displacement(at: t)) >= 0.001 { last = t; above = true } else if above {
                last = crossing(last, t)  // between the last sample above and this one
                above = false
            }
            t *= 1.02
        }
        if above { last = crossing(last, horizon) }
        return (last * 10).rounded(.up) / 10
    }
}
