import Foundation

/// Arc-length measurements of a path, computed once and reused: the engine behind
/// `CAKeyframeAnimation.path` (position and `rotationMode` along a path) and
/// `CAShapeLayer.strokeStart`/`strokeEnd` trimming. Distances are in points.
public struct PathMeasure: Sendable {
    /// The drawable segments of the path, in order (see ``CGPath/segments``).
    public let segments: [PathSegment]
    /// The arc length of each segment, in points.
    public let segmentLengths: [CGFloat]
    /// The total arc length, in points.
    public let length: CGFloat

    /// Cumulative length at the end of each segment.
    private let ends: [CGFloat]
    /// Whether segment `i` is the first one of a subpath (a move precedes it).
    private let startsSubpath: [Bool]
    /// Whether segment `i` is the implicit line drawn by `closeSubpath`.
    private let closesSubpath: [Bool]

    /// Measures `path`.
    public init(_ path: CGPath) {
        let (segments, starts, closes) = Self.decompose(path.elements)
        self.segments = segments
        self.startsSubpath = starts
        self.closesSubpath = closes
        self.segmentLengths = segments.map(\.length)
        var running: CGFloat = 0
        self.ends = segmentLengths.map { running += $0; return running }
        self.length = running
    }

    /// Splits elements into segments, flagging subpath starts and `closeSubpath` lines.
    static func decompose(
        _ elements: [PathElement]
    ) -> (segments: [PathSegment], starts: [Bool], closes: [Bool]) {
        var segments: [PathSegment] = []
        var starts: [Bool] = [], closes: [Bool] = []
        var current: CGPoint?
        var subpathStart = CGPoint.zero
        var pendingStart = true
        func append(_ segment: PathSegment, closing: Bool) {
            segments.append(segment)
            starts.append(pendingStart)
            closes.append(closing)
            pendingStart = false
        }
        for element in elements {
            switch element {
            case .move(let p):
                current = p
                subpathStart = p
                pendingStart = true
            case .closeSubpath:
                if let from = current {
                    append(PathSegment(from: from, to: subpathStart), closing: true)
                    current = subpathStart
                    pendingStart = true
                }
            case .line, .quadCurve, .curve:
                let end = element.endPoint ?? .zero
                guard let from = current else {
                    // No current point (never produced by CGMutablePath): treat as a move.
                    current = end
                    subpathStart = end
                    pendingStart = true
                    continue
                }
                switch element {
                case .quadCurve(_, let c): append(PathSegment(from: from, control: c, to: end), closing: false)
                case .curve(_, let c1, let c2):
                    append(PathSegment(from: from, control1: c1, control2: c2, to: end), closing: false)
                default: append(PathSegment(from: from, to: end), closing: false)
                }
                current = end
            }
        }
        return (segments, starts, closes)
    }

    /// The segment index and parameter at `distance` points from the start (clamped), or
    /// `nil` for a path without segments. Zero-length segments are skipped when possible.
    public func location(atDistance distance: CGFloat) -> (segment: Int, t: CGFloat)? {
        guard !segments.isEmpty else { return nil }
        guard length > 0, length.isFinite else { return (0, 0) }
        let d = distance.isNaN ? 0 : min(max(distance, 0), length)
        // First segment of positive length that ends at or beyond d (binary search on ends).
        var low = 0, high = ends.count - 1
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] >= d { high = mid } else { low = mid + 1 }
        }
        var index = low
        while segmentLengths[index] == 0, index + 1 < segments.count { index += 1 }
        let local = d - (ends[index] - segmentLengths[index])
        return (index, segments[index].parameter(atLength: local))
    }

    /// The point `distance` points along the path (clamped to its ends), or `nil` when the
    /// path has no segments.
    public func point(atDistance distance: CGFloat) -> CGPoint? {
        guard let (index, t) = location(atDistance: distance) else { return nil }
        return segments[index].point(at: t)
    }

    /// The direction of travel `distance` points along the path as `atan2(dy, dx)` in
    /// radians (from +x toward +y) — what `CAKeyframeAnimation.rotationMode = .rotateAuto`
    /// applies. `nil` when the path has no segments.
    public func tangentAngle(atDistance distance: CGFloat) -> CGFloat? {
        guard let (index, t) = location(atDistance: distance) else { return nil }
        let direction = segments[index].direction(at: t)
        return atan2(direction.dy, direction.dx)
    }

    /// The part of the path between two fractions (0…1) of its length, as
    /// `CAShapeLayer.strokeStart`/`strokeEnd` draw it. Empty when `end <= start`.
    /// Subpaths kept whole keep their `closeSubpath` so their joins render correctly.
    public func trimmedPath(fromFraction start: CGFloat, toFraction end: CGFloat) -> CGPath {
        let lower = min(max(start.isNaN ? 0 : start, 0), 1) * length
        let upper = min(max(end.isNaN ? 0 : end, 0), 1) * length
        let path = CGMutablePath()
        guard upper > lower else { return path }
        var needsMove = true
        var subpathStartDistance: CGFloat = 0
        for (index, segment) in segments.enumerated() {
            let segmentLength = segmentLengths[index]
            let segmentEnd = ends[index], segmentStart = segmentEnd - segmentLength
            if startsSubpath[index] {
                needsMove = true
                subpathStartDistance = segmentStart
            }
            // Zero-length segments count when they sit inside or at the end of the range.
            let overlaps = segmentEnd > lower
                && (segmentStart < upper || (segmentLength == 0 && segmentStart <= upper))
            guard overlaps else { continue }
            let t0 = lower > segmentStart ? segment.parameter(atLength: lower - segmentStart) : 0
            let t1 = upper < segmentEnd ? segment.parameter(atLength: upper - segmentStart) : 1
            let piece = (t0 == 0 && t1 == 1) ? segment : segment.subsegment(from: t0, to: t1)
            if needsMove {
                path.elements.append(.move(to: piece.start))
                needsMove = false
            }
            if closesSubpath[index] && t1 == 1 && lower <= subpathStartDistance {
                path.elements.append(.closeSubpath)  // the whole subpath survived
            } else {
                path.elements.append(piece.element)
            }
        }
        return path
    }
}

extension CGPath {
    /// The drawable segments: one per non-move element, where `closeSubpath` becomes a line
    /// back to the subpath's start (zero-length when already there).
    public var segments: [PathSegment] { PathMeasure.decompose(elements).segments }

    /// The total arc length in points. Build a ``PathMeasure`` to query many distances.
    public var length: CGFloat { PathMeasure(self).length }

    /// The point `distance` points along the path (clamped), or `nil` without segments.
    public func point(atDistance distance: CGFloat) -> CGPoint? {
        PathMeasure(self).point(atDistance: distance)
    }

    /// The direction of travel (radians, `atan2` of the derivative) `distance` points along
    /// the path, or `nil` without segments.
    public func tangentAngle(atDistance distance: CGFloat) -> CGFloat? {
        PathMeasure(self).tangentAngle(atDistance: distance)
    }

    /// The part of the path between two fractions of its length (`strokeStart`/`strokeEnd`).
    public func trimmed(fromFraction start: CGFloat, toFraction end: CGFloat) -> CGPath {
        PathMeasure(self).trimmedPath(fromFraction: start, toFraction: end)
    }
}
