import Foundation
import Geometry
import Timing

/// A keyframe track of numbers, points, sizes, rectangles or colours held as four-lane vectors
/// (or a path's points), so a frame samples it without building an `AnimatableValue` per
/// keyframe touched. Sampling follows `KeyframeTrack.value(at:)` operation for operation (the
/// same segment search, weights and order of additions), so results are bit-identical to the
/// general track's.
///
/// A class so compiled animations borrow it instead of copying its arrays every frame.
public final class VectorKeyframes: @unchecked Sendable {
    public let kind: AnimatableValueKind
    let track: KeyframeTrack
    let values: [SIMD4<Double>]
    /// Outgoing and incoming tangents per keyframe (cubic modes); empty otherwise.
    let tangentsOut: [SIMD4<Double>]
    let tangentsIn: [SIMD4<Double>]
    /// The value at fraction 1, added per completed cycle by cumulative animations.
    public let end: SIMD4<Double>

    /// Points along a path source (empty for values).
    let segments: [PathSegment]
    /// Whether the track follows a path (`segments`) rather than values; stored so a prefetch
    /// can tell without reading an array.
    let followsPath: Bool

    /// Nil unless every keyframe (and tangent) is a vector of one kind, or the track follows a
    /// path (points).
    init?(_ track: KeyframeTrack) {
        if case .path(let segments) = track.source, track.mode != .discrete {
            kind = .point
            self.track = track
            self.segments = segments
            followsPath = true
            values = []; tangentsOut = []; tangentsIn = []
            let last = track.pathPoint(segments, at: 1)
            end = SIMD4(last.x, last.y, 0, 0)
            return
        }
        segments = []
        followsPath = false
        guard case .values(let list) = track.source, let first = list.first,
              [.number, .point, .size, .rect, .color].contains(first.kind) else { return nil }
        var vectors: [SIMD4<Double>] = []
        vectors.reserveCapacity(list.count)
        for value in list {
            guard value.kind == first.kind, let v = VectorEndpoints.vector(value) else { return nil }
            vectors.append(v)
        }
        var outs: [SIMD4<Double>] = [], ins: [SIMD4<Double>] = []
        for (out, inc) in track.tangents {
            guard out.kind == first.kind, inc.kind == first.kind,
                  let o = VectorEndpoints.vector(out), let i = VectorEndpoints.vector(inc) else { return nil }
            outs.append(o); ins.append(i)
        }
        kind = first.kind
        self.track = track
        values = vectors
        tangentsOut = outs
        tangentsIn = ins
        end = Self.sample(track, vectors, outs, ins, at: 1)
    }

    /// The value at animation fraction `u` (after the animation-level timing function).
    @inline(__always)
    public func value(at u: Double) -> SIMD4<Double> {
        if followsPath {
            let p = track.pathPoint(segments, at: u)
            return SIMD4(p.x, p.y, 0, 0)
        }
        return Self.sample(track, values, tangentsOut, tangentsIn, at: u)
    }

    private static func sample(_ track: KeyframeTrack, _ v: [SIMD4<Double>], _ outs: [SIMD4<Double>],
                               _ ins: [SIMD4<Double>], at u: Double) -> SIMD4<Double> {
        let n = v.count
        if n == 1 { return v[0] }
        if track.mode == .discrete { return v[min(track.discreteKey(at: u), n - 1)] }
        let (i, s) = track.segment(at: u)
        if track.mode == .cubic, !outs.isEmpty {
            return hermite(v[i], v[i + 1], outs[i], ins[i + 1], s)
        }
        if track.mode == .cubicPaced, !outs.isEmpty {
            let scale = track.pacedTangentScales(segment: i)
            return hermite(v[i], v[i + 1], outs[i] * scale.start, ins[i + 1] * scale.end, s)
        }
        let a = v[i], b = v[i + 1]
        return a + (b - a) * s
    }

    @inline(__always)
    private static func hermite(_ p0: SIMD4<Double>, _ p1: SIMD4<Double>, _ m0: SIMD4<Double>, _ m1: SIMD4<Double>,
                                _ s: Double) -> SIMD4<Double> {
        let w = KeyframeTrack.hermiteWeights(s)
        return p0 * w.p0 + m0 * w.m0 + p1 * w.p1 + m1 * w.m1
    }
}
