import Foundation
import Geometry

/// A segment's arc length sampled once, so pacing along a path costs a lookup and one short
/// Newton correction per frame instead of integrating the whole curve.
struct ArcLengthTable {
    let segment: PathSegment
    /// Cumulative length at t = i / (count − 1).
    let lengths: [CGFloat]

    init(_ segment: PathSegment, samples: Int = 16) {
        self.segment = segment
        var lengths: [CGFloat] = [0]
        var total: CGFloat = 0
        for i in 1...samples {
            total += segment.length(from: CGFloat(i - 1) / CGFloat(samples), to: CGFloat(i) / CGFloat(samples))
            lengths.append(total)
        }
        self.lengths = lengths
    }

    var length: CGFloat { lengths[lengths.count - 1] }

    /// The parameter where the arc length from the start is `distance` (clamped to the segment).
    func parameter(atLength distance: CGFloat) -> CGFloat {
        let total = length
        guard total > 0, distance > 0 else { return 0 }
        guard distance < total else { return 1 }
        if segment.kind == .line { return distance / total }
        var low = 0, high = lengths.count - 1
        while low + 1 < high {
            let mid = (low + high) / 2
            if lengths[mid] < distance { low = mid } else { high = mid }
        }
        let step = 1 / CGFloat(lengths.count - 1)
        let t0 = CGFloat(low) * step
        let span = lengths[high] - lengths[low]
        var t = t0 + (span > 0 ? (distance - lengths[low]) / span : 0) * step
        // Newton on L(t) = L(t0) + ∫ |B'|, measured from the bracket start: the interval is at most
        // 1/16 of a smooth curve, where a fixed 5-point Gauss rule is exact to ~1e-10.
        for _ in 0..<3 {
            let error = lengths[low] + gaussLength(from: t0, to: t) - distance
            if abs(error) <= 1e-10 * total { break }
            let speed = segment.tangent(at: t).length
            guard speed > 0 else { break }
            t = min(max(t - error / speed, t0), t0 + step)
        }
        return t
    }

    private static let nodes: [(x: CGFloat, w: CGFloat)] = [
        (0, 0.5688888888888889), (-0.5384693101056831, 0.47862867049936647), (0.5384693101056831, 0.47862867049936647),
        (-0.9061798459386640, 0.23692688505618908), (0.9061798459386640, 0.23692688505618908)]

    private func gaussLength(from a: CGFloat, to b: CGFloat) -> CGFloat {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum: CGFloat = 0
        for node in Self.nodes { sum += node.w * segment.tangent(at: mid + half * node.x).length }
        return sum * half
    }
}
