import Foundation
import Geometry
import Timing

/// Keyframe values with validated key times, ready to be sampled (semantics §4).
struct KeyframeTrack {
    enum Source {
        case values([AnimatableValue])
        /// Path segments; keyframe i is the start of segment i (and the path's end last).
        case path([PathSegment])
    }

    /// Arc-length tables of the path's segments, for paced timing.
    private(set) var arcTables: [ArcLengthTable] = []

    /// The calculation modes a track runs (an unknown mode makes no track).
    enum Mode {
        case linear, discrete, paced, cubic, cubicPaced

        init?(_ mode: CAAnimationCalculationMode) {
            switch mode {
            case .linear: self = .linear
            case .discrete: self = .discrete
            case .paced: self = .paced
            case .cubic: self = .cubic
            case .cubicPaced: self = .cubicPaced
            default: return nil
            }
        }
    }

    let source: Source
    /// The calculation mode as a plain enum: `CAAnimationCalculationMode` is a string, and
    /// comparing strings on every sample cost more than the interpolation.
    let mode: Mode
    /// Boundary times, one per keyframe (plus one more in discrete mode).
    let keyTimes: [Double]
    let segmentFunctions: [CAMediaTimingFunction?]
    /// Kochanek–Bartels tangents (outgoing, incoming) per keyframe, for the cubic modes.
    let tangents: [(out: AnimatableValue, in: AnimatableValue)]

    /// Keyframes: the values, or the path's segments + 1. Stored: each sample asks, and reading
    /// it from `source` was one more heap block (a cache miss on a big tree) per sample.
    let count: Int

    init?(animation a: CAKeyframeAnimation, kind: AnimatableValueKind) {
        var mode = a.calculationMode
        // An unknown mode makes the animation inert (Apple's raw string is stored, but not run).
        guard Mode(mode) != nil else { return nil }
        if let path = a.path {
            let segments = path.segments
            guard !segments.isEmpty else { return nil }
            source = .path(segments)
            if mode == .cubicPaced { mode = .paced }
            if mode == .cubic { mode = .linear }  // a path's own curves already are the spline
        } else {
            var converted: [AnimatableValue] = []
            for value in a.values ?? [] {
                guard let v = AnimatableValue(converting: value, to: kind) else { continue }
                converted.append(v)
            }
            guard !converted.isEmpty else { return nil }
            source = .values(converted)
        }
        self.mode = Mode(mode)!
        let n: Int
        switch source {
        case .values(let v): n = v.count
        case .path(let s): n = s.count + 1
        }
        count = n

        // Key times: the given ones where they fit the mode, else even spacing (paced: below).
        var times = KeyTimes.resolve((a.keyTimes ?? []).map(\.doubleValue), mode: mode, count: n, alongPath: a.path != nil).times ?? []

        // Paced: key times proportional to distance (arc length for paths).
        if mode == .paced || mode == .cubicPaced {
            var lengths: [Double] = []
            switch source {
            case .path(let segments):
                arcTables = segments.map { ArcLengthTable($0) }
                lengths = arcTables.map { Double($0.length) }
            case .values(let v):
                for i in 0..<max(0, v.count - 1) {
                    guard let d = v[i].distance(to: v[i + 1]) else { lengths = []; break }
                    lengths.append(d)
                }
            }
            let total = lengths.reduce(0, +)
            if lengths.count == n - 1, total > 0 {
                var acc = 0.0
                times = [0] + lengths.map { acc += $0; return acc / total }
                times[times.count - 1] = 1
            } else {
                times = n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
            }
        }
        keyTimes = times
        segmentFunctions = (mode == .paced || mode == .cubicPaced) ? [] : (a.timingFunctions ?? []).map { Optional($0) }

        // Cubic tangents (values only).
        var tangents: [(out: AnimatableValue, in: AnimatableValue)] = []
        if (mode == .cubic || mode == .cubicPaced), case .values(let v) = source, v.count > 1, AnimatableValue.supportsCubic(v) {
            func param(_ list: [NSNumber]?, _ i: Int) -> Double {
                guard let list, i < list.count else { return 0 }
                return list[i].doubleValue
            }
            for i in 0..<v.count {
                // Missing neighbours are extrapolated: v₋₁ = 2v₀ − v₁, vₙ = 2vₙ₋₁ − vₙ₋₂.
                let prev = i > 0 ? v[i - 1] : v[0].scaled(by: 2).subtracting(v[1])
                let next = i < v.count - 1 ? v[i + 1] : v[i].scaled(by: 2).subtracting(v[i - 1])
                let back = v[i].subtracting(prev), ahead = next.subtracting(v[i])
                let t = param(a.tensionValues, i), c = param(a.continuityValues, i), b = param(a.biasValues, i)
                let out = back.scaled(by: (1 - t) * (1 + b) * (1 + c) / 2).adding(ahead.scaled(by: (1 - t) * (1 - b) * (1 - c) / 2))
                let inc = back.scaled(by: (1 - t) * (1 + b) * (1 - c) / 2).adding(ahead.scaled(by: (1 - t) * (1 - b) * (1 + c) / 2))
                tangents.append((out, inc))
            }
        }
        self.tangents = tangents
    }

    /// The cubic Hermite basis at `s`: the weights of p0, m0, p1 and m1, in that order.
    @inline(__always)
    static func hermiteWeights(_ s: Double) -> (p0: Double, m0: Double, p1: Double, m1: Double) {
        let s2 = s * s, s3 = s2 * s
        return (2 * s3 - 3 * s2 + 1, s3 - 2 * s2 + s, -2 * s3 + 3 * s2, s3 - s2)
    }

    static func hermite(_ p0: AnimatableValue, _ p1: AnimatableValue, _ m0: AnimatableValue, _ m1: AnimatableValue,
                        _ s: Double) -> AnimatableValue {
        let w = hermiteWeights(s)
        return p0.scaled(by: w.p0).adding(m0.scaled(by: w.m0)).adding(p1.scaled(by: w.p1)).adding(m1.scaled(by: w.m1))
    }

    /// The value at animation fraction `u` (after the animation-level timing function).
    func value(at u: Double) -> AnimatableValue {
        let n = count
        if n == 1 { return keyframe(0) }
        if mode == .discrete {
            let j = discreteKey(at: u)
            if case .path(let segments) = source { return .point(segments[min(j, segments.count - 1)].start) }
            return keyframe(min(j, n - 1))
        }
        switch source {
        case .path(let segments):
            return .point(pathPoint(segments, at: u))
        case .values(let v):
            let (i, s) = segment(at: u)
            if mode == .cubic, !tangents.isEmpty {
                return Self.hermite(v[i], v[i + 1], tangents[i].out, tangents[i + 1].in, s)
            }
            if mode == .cubicPaced, !tangents.isEmpty {
                let scale = pacedTangentScales(segment: i)
                return Self.hermite(v[i], v[i + 1], tangents[i].out.scaled(by: scale.start),
                                    tangents[i + 1].in.scaled(by: scale.end), s)
            }
            return v[i].interpolated(to: v[i + 1], fraction: s)
        }
    }

    /// The point at fraction `u` along a path source's segments (not in discrete mode).
    func pathPoint(_ segments: [PathSegment], at u: Double) -> CGPoint {
        let (i, s) = segment(at: u)
        let segment = segments[i]
        // A move-to adds no time: at the boundary the next subpath's start shows (§4.4).
        if s >= 1, i + 1 < segments.count, segments[i + 1].start != segment.end { return segments[i + 1].start }
        if mode == .paced, i < arcTables.count {
            // Read in place (a copy of the table would retain and release its lengths).
            return segment.point(at: arcTables[i].parameter(atLength: CGFloat(s) * arcTables[i].length))
        }
        return segment.point(at: CGFloat(s))
    }

    /// Paced key times, cubic segments at the linear fraction: segment i's tangents are scaled
    /// for the uneven key times (1 at the first and last key) (§4.3).
    func pacedTangentScales(segment i: Int) -> (start: Double, end: Double) {
        let k = keyTimes, span = k[i + 1] - k[i]
        let start = i == 0 ? 1 : 2 * span / (k[i + 1] - k[i - 1])
        let end = i + 1 == count - 1 ? 1 : 2 * span / (k[i + 2] - k[i])
        return (start.isFinite ? start : 1, end.isFinite ? end : 1)
    }

    /// The path's tangent angle at fraction `u`, for `rotationMode`.
    func tangentAngle(at u: Double) -> Double? {
        guard case .path(let segments) = source else { return nil }
        let (i, s) = segment(at: u)
        let segment = segments[i]
        let parameter = mode == .paced && i < arcTables.count
            ? arcTables[i].parameter(atLength: CGFloat(s) * arcTables[i].length) : CGFloat(s)
        let d = segment.direction(at: parameter)
        return atan2(Double(d.dy), Double(d.dx))
    }

    /// Segment i with k_i ≤ u ≤ k_{i+1}, and the fraction s within it after its timing function.
    func segment(at u: Double) -> (index: Int, fraction: Double) {
        // The first segment whose end is ≥ u (binary search over the non-decreasing key times).
        var low = 0, high = max(0, count - 2)
        while low < high {
            let mid = (low + high) / 2
            if u > keyTimes[mid + 1] { low = mid + 1 } else { high = mid }
        }
        let i = low
        let span = keyTimes[i + 1] - keyTimes[i]
        var s = span > 0 ? min(max((u - keyTimes[i]) / span, 0), 1) : 0
        if i < segmentFunctions.count, let f = segmentFunctions[i] { s = f.solve(s) }
        return (i, s)
    }

    /// In discrete mode, the last key time ≤ u (binary search: long sampled tracks stay cheap).
    func discreteKey(at u: Double) -> Int {
        var low = 0, high = keyTimes.count
        while low < high {
            let mid = (low + high) / 2
            if keyTimes[mid] <= u { low = mid + 1 } else { high = mid }
        }
        return max(0, low - 1)
    }

    private func keyframe(_ i: Int) -> AnimatableValue {
        switch source {
        case .values(let v): return v[i]
        case .path(let segments): return .point(i < segments.count ? segments[i].start : segments[segments.count - 1].end)
        }
    }
}
