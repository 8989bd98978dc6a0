import Foundation

/// A 2-D displacement (points); the Core Graphics `CGVector` counterpart (missing on Linux).
public struct CGVector: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The x component, in points.
    public var dx: CGFloat
    /// The y component, in points.
    public var dy: CGFloat

    /// Creates a vector from its components.
    public init(dx: CGFloat, dy: CGFloat) {
        self.dx = dx
        self.dy = dy
    }

    /// Creates the zero vector.
    public init() { self.init(dx: 0, dy: 0) }

    /// The zero vector.
    public static let zero = CGVector()

    /// The Euclidean length, in points.
    public var length: CGFloat { hypot(dx, dy) }

    /// Formats like Apple: `CGVector(dx: 1.0, dy: 2.0)`.
    public var description: String { "CGVector(dx: \(dx), dy: \(dy))" }
}

/// One drawable piece of a path — a line, quadratic or cubic Bézier — with the geometry
/// needed to animate along it (`CAKeyframeAnimation.path`) and to trim strokes
/// (`CAShapeLayer.strokeStart`/`strokeEnd`). Parameters `t` run from 0 (start) to 1 (end);
/// lengths are in points.
public struct PathSegment: Equatable, Hashable, Sendable {
    /// The degree of a segment.
    public enum Kind: Equatable, Hashable, Sendable {
        /// A straight line (degree 1).
        case line
        /// A quadratic Bézier (degree 2).
        case quadCurve
        /// A cubic Bézier (degree 3).
        case cubicCurve
    }

    /// Whether this is a line, quadratic or cubic segment.
    public var kind: Kind
    /// The point at `t = 0`.
    public var start: CGPoint
    /// The first control point (`start` for lines; the only control point for quadratics).
    public var control1: CGPoint
    /// The second control point (`end` for lines; equal to `control1` for quadratics).
    public var control2: CGPoint
    /// The point at `t = 1`.
    public var end: CGPoint

    /// Creates a straight line segment.
    public init(from start: CGPoint, to end: CGPoint) {
        self.kind = .line
        self.start = start
        self.control1 = start
        self.control2 = end
        self.end = end
    }

    /// Creates a quadratic Bézier segment.
    public init(from start: CGPoint, control: CGPoint, to end: CGPoint) {
        self.kind = .quadCurve
        self.start = start
        self.control1 = control
        self.control2 = control
        self.end = end
    }

    /// Creates a cubic Bézier segment.
    public init(from start: CGPoint, control1: CGPoint, control2: CGPoint, to end: CGPoint) {
        self.kind = .cubicCurve
        self.start = start
        self.control1 = control1
        self.control2 = control2
        self.end = end
    }

    /// The Bézier control polygon: 2, 3 or 4 points depending on `kind`.
    public var controlPolygon: [CGPoint] {
        switch kind {
        case .line: [start, end]
        case .quadCurve: [start, control1, end]
        case .cubicCurve: [start, control1, control2, end]
        }
    }

    /// The point at parameter `t` (0…1; values outside extrapolate).
    public func point(at t: CGFloat) -> CGPoint {
        // de Casteljau, as `blossom` with every parameter t, on locals instead of an array
        // (paced path animations sample it every frame).
        @inline(__always) func lerp(_ a: CGPoint, _ b: CGPoint) -> CGPoint {
            CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        }
        switch kind {
        case .line: return lerp(start, end)
        case .quadCurve: return lerp(lerp(start, control1), lerp(control1, end))
        case .cubicCurve:
            let q0 = lerp(start, control1), q1 = lerp(control1, control2), q2 = lerp(control2, end)
            return lerp(lerp(q0, q1), lerp(q1, q2))
        }
    }

    /// The derivative d(point)/dt at parameter `t`, in points per unit parameter.
    public func tangent(at t: CGFloat) -> CGVector {
        let s = 1 - t
        switch kind {
        case .line:
            return CGVector(dx: end.x - start.x, dy: end.y - start.y)
        case .quadCurve:
            return CGVector(
                dx: 2 * (s * (control1.x - start.x) + t * (end.x - control1.x)),
                dy: 2 * (s * (control1.y - start.y) + t * (end.y - control1.y)))
        case .cubicCurve:
            let w0 = 3 * s * s, w1 = 6 * s * t, w2 = 3 * t * t
            return CGVector(
                dx: w0 * (control1.x - start.x) + w1 * (control2.x - control1.x) + w2 * (end.x - control2.x),
                dy: w0 * (control1.y - start.y) + w1 * (control2.y - control1.y) + w2 * (end.y - control2.y))
        }
    }

    /// A non-zero direction of travel at `t` even where the derivative vanishes (a control
    /// point on an endpoint, a cusp); `.zero` only for a segment that is a single point.
    public func direction(at t: CGFloat) -> CGVector {
        let derivative = tangent(at: t)
        if derivative.length > 1e-12 * max(scale, 1e-300) { return derivative }
        let h: CGFloat = 1e-6
        let a = point(at: max(0, t - h)), b = point(at: min(1, t + h))
        if a != b { return CGVector(dx: b.x - a.x, dy: b.y - a.y) }
        return CGVector(dx: end.x - start.x, dy: end.y - start.y)
    }

    /// The arc length in points (adaptive Gauss–Legendre, ~1e-10 relative accuracy).
    public var length: CGFloat { length(from: 0, to: 1) }

    /// The arc length between parameters `t0` and `t1` (negative when `t1 < t0`).
    public func length(from t0: CGFloat, to t1: CGFloat) -> CGFloat {
        if t1 < t0 { return -length(from: t1, to: t0) }
        if t0 == t1 { return 0 }
        if kind == .line { return hypot(end.x - start.x, end.y - start.y) * (t1 - t0) }
        let tolerance = 1e-11 * max(scale, 1e-300)
        return integrate(t0, t1, gauss(t0, t1), tolerance: tolerance, depth: 0)
    }

    /// The parameter `t` at which the arc length from the start equals `distance` points
    /// (clamped to the segment); Newton's method safeguarded by bisection.
    public func parameter(atLength distance: CGFloat) -> CGFloat {
        let total = length
        guard total > 0, distance > 0 else { return 0 }
        guard distance < total else { return 1 }
        if kind == .line { return distance / total }
        var low: CGFloat = 0, high: CGFloat = 1
        var t = distance / total
        var measured = length(from: 0, to: t)
        for _ in 0..<64 {
            let error = measured - distance
            if abs(error) <= 1e-12 * total { break }
            if error > 0 { high = t } else { low = t }
            let speed = tangent(at: t).length
            var next = speed > 0 ? t - error / speed : .nan
            if !(next > low && next < high) { next = (low + high) / 2 }
            measured += length(from: t, to: next)
            t = next
            if high - low < 1e-15 { break }
        }
        return t
    }

    /// The tight axis-aligned bounds of the drawn curve (control points excluded).
    public var bounds: CGRect {
        var box = PathBoundsAccumulator()
        box.add(start)
        box.add(end)
        for t in extremaParameters() { box.add(point(at: t)) }
        return box.rect
    }

    /// The piece of this segment between parameters `t0` and `t1` (reversed if `t1 < t0`),
    /// as a segment of the same kind — used for stroke trimming.
    public func subsegment(from t0: CGFloat, to t1: CGFloat) -> PathSegment {
        switch kind {
        case .line:
            return PathSegment(from: point(at: t0), to: point(at: t1))
        case .quadCurve:
            return PathSegment(from: point(at: t0), control: blossom([t0, t1]), to: point(at: t1))
        case .cubicCurve:
            return PathSegment(
                from: point(at: t0), control1: blossom([t0, t0, t1]),
                control2: blossom([t0, t1, t1]), to: point(at: t1))
        }
    }

    /// The same curve traversed from `end` to `start`.
    public func reversed() -> PathSegment {
        var copy = self
        (copy.start, copy.end) = (end, start)
        (copy.control1, copy.control2) = (control2, control1)
        return copy
    }

    /// The path element that draws this segment from its start point.
    public var element: PathElement {
        switch kind {
        case .line: .line(to: end)
        case .quadCurve: .quadCurve(to: end, control: control1)
        case .cubicCurve: .curve(to: end, control1: control1, control2: control2)
        }
    }

    // MARK: - Private

    /// Length of the control polygon: an upper bound on the arc length, used to scale tolerances.
    private var scale: CGFloat {
        let p = controlPolygon
        return zip(p, p.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }

    /// The polar form (blossom) of the curve; with all arguments equal to `t` it is `point(at: t)`.
    private func blossom<S: Sequence<CGFloat>>(_ parameters: S) -> CGPoint {
        var points = controlPolygon
        for t in parameters {
            for i in 0..<(points.count - 1) {
                points[i] = CGPoint(x: points[i].x + (points[i + 1].x - points[i].x) * t,
                                    y: points[i].y + (points[i + 1].y - points[i].y) * t)
            }
            points.removeLast()
        }
        return points.first ?? start
    }

    private static let nodes: [CGFloat] = [
        0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845, 0.9739065285171717,
    ]
    private static let weights: [CGFloat] = [
        0.2955242247147529, 0.2692667193099963, 0.2190863625159820, 0.1494513491505806, 0.0666713443086881,
    ]

    /// 10-point Gauss–Legendre estimate of the length over [a, b].
    private func gauss(_ a: CGFloat, _ b: CGFloat) -> CGFloat {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum: CGFloat = 0
        for (x, w) in zip(Self.nodes, Self.weights) {
            sum += w * (tangent(at: mid - half * x).length + tangent(at: mid + half * x).length)
        }
        return sum * half
    }

    /// Splits until halves agree with the whole; depth-capped so cusps cannot loop forever.
    private func integrate(
        _ a: CGFloat, _ b: CGFloat, _ whole: CGFloat, tolerance: CGFloat, depth: Int
    ) -> CGFloat {
        let mid = (a + b) / 2
        let left = gauss(a, mid), right = gauss(mid, b)
        if depth >= 30 || abs(left + right - whole) <= tolerance || !whole.isFinite {
            return left + right
        }
        return integrate(a, mid, left, tolerance: tolerance / 2, depth: depth + 1)
            + integrate(mid, b, right, tolerance: tolerance / 2, depth: depth + 1)
    }

    /// Parameters in (0, 1) where x′(t) = 0 or y′(t) = 0.
    private func extremaParameters() -> [CGFloat] {
        var result: [CGFloat] = []
        func axis(_ p0: CGFloat, _ p1: CGFloat, _ p2: CGFloat, _ p3: CGFloat) {
            switch kind {
            case .line:
                return
            case .quadCurve:
                let denominator = p0 - 2 * p1 + p3
                if denominator != 0 { result.append((p0 - p1) / denominator) }
            case .cubicCurve:
                // x′(t)/3 = a t² + b t + c
                let a = -p0 + 3 * p1 - 3 * p2 + p3, b = 2 * (p0 - 2 * p1 + p2), c = p1 - p0
                if abs(a) < 1e-12 * (abs(b) + abs(c) + 1e-300) {
                    if b != 0 { result.append(-c / b) }
                } else {
                    let discriminant = b * b - 4 * a * c
                    if discriminant >= 0 {
                        let root = discriminant.squareRoot()
                        result.append((-b + root) / (2 * a))
                        result.append((-b - root) / (2 * a))
                    }
                }
            }
        }
        axis(start.x, control1.x, control2.x, end.x)
        axis(start.y, control1.y, control2.y, end.y)
        return result.filter { $0 > 0 && $0 < 1 }
    }
}
