import Foundation
import Geometry

/// One Lottie bezier path (`{"c", "v", "i", "o"}`): vertices with tangents relative to them.
struct BezierShape: LottieInterpolatable, Equatable {
    struct Vertex: Equatable {
        var point: CGPoint
        /// Relative to `point`.
        var inTangent: CGPoint
        var outTangent: CGPoint
    }

    var vertices: [Vertex]
    var closed: Bool
    /// A closed path's last vertex joins the first with a curve of their tangents (paths read
    /// from a file); shapes built from parameters repeat their first vertex and only close.
    var joinsEnds = true

    /// Vertex-wise blend; paths of different lengths blend over their common prefix, as lottie-ios does.
    func interpolated(to other: BezierShape, fraction t: Double) -> BezierShape {
        guard vertices.count == other.vertices.count else { return t < 1 ? self : other }
        func mix(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
        return BezierShape(vertices: zip(vertices, other.vertices).map {
            Vertex(point: mix($0.point, $1.point), inTangent: mix($0.inTangent, $1.inTangent), outTangent: mix($0.outTangent, $1.outTangent))
        }, closed: closed, joinsEnds: joinsEnds)
    }

    /// The Core Graphics path: a line where both tangents of a segment are zero, a cubic otherwise.
    func append(to path: CGMutablePath) {
        guard let first = vertices.first else { return }
        path.move(to: first.point)
        func segment(_ a: Vertex, _ b: Vertex) {
            if a.outTangent == .zero, b.inTangent == .zero {
                path.addLine(to: b.point)
            } else {
                path.addCurve(to: b.point, control1: CGPoint(x: a.point.x + a.outTangent.x, y: a.point.y + a.outTangent.y),
                              control2: CGPoint(x: b.point.x + b.inTangent.x, y: b.point.y + b.inTangent.y))
            }
        }
        for i in vertices.indices.dropFirst() { segment(vertices[i - 1], vertices[i]) }
        if closed {
            if joinsEnds { segment(vertices[vertices.count - 1], first) }
            path.closeSubpath()
        }
    }

    var cgPath: CGPath {
        let path = CGMutablePath()
        append(to: path)
        return path
    }

    /// The path drawn the other way round (Lottie's `d: 3`).
    var reversedDirection: BezierShape {
        BezierShape(vertices: vertices.reversed().map { Vertex(point: $0.point, inTangent: $0.outTangent, outTangent: $0.inTangent) },
                    closed: closed, joinsEnds: joinsEnds)
    }
}

// MARK: - Parametric shapes, built as After Effects builds them

extension BezierShape {
    /// The ellipse's Bézier constant (AE starts at 12 o'clock and runs clockwise).
    static let ellipseControl = 0.55228

    static func ellipse(center c: CGPoint, size: CGSize, reversed: Bool) -> BezierShape {
        var half = CGSize(width: size.width / 2, height: size.height / 2)
        if reversed { half.width = -half.width }
        let cp = CGSize(width: half.width * ellipseControl, height: half.height * ellipseControl)
        let top = CGPoint(x: c.x, y: c.y - half.height)
        return BezierShape(vertices: [
            Vertex(point: top, inTangent: CGPoint(x: -cp.width, y: 0), outTangent: CGPoint(x: cp.width, y: 0)),
            Vertex(point: CGPoint(x: c.x + half.width, y: c.y), inTangent: CGPoint(x: 0, y: -cp.height), outTangent: CGPoint(x: 0, y: cp.height)),
            Vertex(point: CGPoint(x: c.x, y: c.y + half.height), inTangent: CGPoint(x: cp.width, y: 0), outTangent: CGPoint(x: -cp.width, y: 0)),
            Vertex(point: CGPoint(x: c.x - half.width, y: c.y), inTangent: CGPoint(x: 0, y: cp.height), outTangent: CGPoint(x: 0, y: -cp.height)),
            Vertex(point: top, inTangent: CGPoint(x: -cp.width, y: 0), outTangent: CGPoint(x: cp.width, y: 0)),
        ], closed: true, joinsEnds: false)
    }

    /// A rectangle from its top-right corner, clockwise (rounded corners as quarter ellipses).
    static func rectangle(center c: CGPoint, size: CGSize, radius r0: Double, reversed: Bool) -> BezierShape {
        let hw = size.width / 2, hh = size.height / 2
        let r = min(min(r0, hw), hh)
        var v: [Vertex] = []
        func add(_ x: Double, _ y: Double, in i: CGPoint = .zero, out o: CGPoint = .zero) {
            v.append(Vertex(point: CGPoint(x: c.x + x, y: c.y + y), inTangent: i, outTangent: o))
        }
        if r <= 0 {
            add(hw, -hh); add(hw, hh); add(-hw, hh); add(-hw, -hh); add(hw, -hh)
        } else {
            let k = r * ellipseControl
            add(hw, -hh + r)
            add(hw, hh - r, out: CGPoint(x: 0, y: k))
            add(hw - r, hh, in: CGPoint(x: k, y: 0))
            add(-hw + r, hh, out: CGPoint(x: -k, y: 0))
            add(-hw, hh - r, in: CGPoint(x: 0, y: k))
            add(-hw, -hh + r, out: CGPoint(x: 0, y: -k))
            add(-hw + r, -hh, in: CGPoint(x: -k, y: 0))
            add(hw - r, -hh, out: CGPoint(x: k, y: 0))
            add(hw, -hh + r, in: CGPoint(x: 0, y: -k))
        }
        let shape = BezierShape(vertices: v, closed: true, joinsEnds: false)
        return reversed ? shape.reversedDirection : shape
    }

    /// A star (`sy: 1`) or polygon (`sy: 2`) as After Effects draws it.
    static func star(_ s: StarValues, polygon: Bool, reversed: Bool) -> BezierShape {
        let points = s.points
        guard points > 0, points.isFinite else { return BezierShape(vertices: [], closed: true) }
        var angle = (s.rotation - 90) * .pi / 180
        let perPoint = 2 * Double.pi / points
        var v: [Vertex] = []
        func point(_ r: Double, _ a: Double) -> CGPoint { CGPoint(x: r * cos(a), y: r * sin(a)) }
        func offset(_ p: CGPoint) -> CGPoint { CGPoint(x: p.x + s.center.x, y: p.y + s.center.y) }
        func control(_ p: CGPoint, _ radius: Double, _ roundness: Double, _ k: Double) -> CGPoint {
            let theta = atan2(p.y, p.x) - .pi / 2
            return CGPoint(x: radius * roundness * k * cos(theta), y: radius * roundness * k * sin(theta))
        }
        if polygon {
            let roundness = s.outerRoundness / 100
            var p = point(s.outerRadius, angle)
            v.append(Vertex(point: offset(p), inTangent: .zero, outTangent: .zero))
            angle += perPoint
            for _ in 0..<Int(points.rounded(.up)) {
                let previous = p
                p = point(s.outerRadius, angle)
                if roundness != 0 {
                    let cp1 = control(previous, s.outerRadius, roundness, 0.25), cp2 = control(p, s.outerRadius, roundness, 0.25)
                    v[v.count - 1].outTangent = CGPoint(x: -cp1.x, y: -cp1.y)
                    v.append(Vertex(point: offset(p), inTangent: cp2, outTangent: .zero))
                } else {
                    v.append(Vertex(point: offset(p), inTangent: .zero, outTangent: .zero))
                }
                angle += perPoint
            }
        } else {
            let half = perPoint / 2
            let partial = points - points.rounded(.down)
            let outerRound = s.outerRoundness / 100, innerRound = s.innerRoundness / 100
            var partialRadius = 0.0
            var p: CGPoint
            if partial != 0 {
                angle += half * (1 - partial)
                partialRadius = s.innerRadius + partial * (s.outerRadius - s.innerRadius)
                p = point(partialRadius, angle)
                angle += perPoint * partial / 2
            } else {
                p = point(s.outerRadius, angle)
                angle += half
            }
            v.append(Vertex(point: offset(p), inTangent: .zero, outTangent: .zero))
            var long = false
            let count = Int(points.rounded(.up) * 2)
            for i in 0..<count {
                var radius = long ? s.outerRadius : s.innerRadius
                var dTheta = half
                if partialRadius != 0, i == count - 2 { dTheta = perPoint * partial / 2 }
                if partialRadius != 0, i == count - 1 { radius = partialRadius }
                let previous = p
                p = point(radius, angle)
                if innerRound == 0, outerRound == 0 {
                    v.append(Vertex(point: offset(p), inTangent: .zero, outTangent: .zero))
                } else {
                    var cp1 = control(previous, long ? s.innerRadius : s.outerRadius, long ? innerRound : outerRound, 0.47829)
                    var cp2 = control(p, long ? s.outerRadius : s.innerRadius, long ? outerRound : innerRound, 0.47829)
                    if partial != 0 {
                        if i == 0 { cp1 = CGPoint(x: cp1.x * partial, y: cp1.y * partial) }
                        else if i == count - 1 { cp2 = CGPoint(x: cp2.x * partial, y: cp2.y * partial) }
                    }
                    v[v.count - 1].outTangent = CGPoint(x: -cp1.x, y: -cp1.y)
                    v.append(Vertex(point: offset(p), inTangent: cp2, outTangent: .zero))
                }
                angle += dTheta
                long.toggle()
            }
        }
        let shape = BezierShape(vertices: v, closed: true, joinsEnds: false)
        return reversed ? shape.reversedDirection : shape
    }

    struct StarValues {
        var center: CGPoint, outerRadius: Double, innerRadius: Double
        var outerRoundness: Double, innerRoundness: Double, points: Double, rotation: Double
    }

    /// Rounds sharp corners (vertices without tangents) with a radius, as AE's Round Corners does.
    func roundingCorners(radius: Double) -> BezierShape {
        guard radius > 0, vertices.count > 1 else { return self }
        var out: [Vertex] = []
        let n = vertices.count
        for i in 0..<n {
            let v = vertices[i]
            let hasPrevious = closed || i > 0, hasNext = closed || i < n - 1
            guard v.inTangent == .zero, v.outTangent == .zero, hasPrevious, hasNext else { out.append(v); continue }
            let prev = vertices[(i - 1 + n) % n].point, next = vertices[(i + 1) % n].point
            // A duplicated closing vertex (AE writes the start point twice) has no corner of its own.
            if prev == v.point || next == v.point { out.append(v); continue }
            let toPrev = CGPoint(x: prev.x - v.point.x, y: prev.y - v.point.y)
            let toNext = CGPoint(x: next.x - v.point.x, y: next.y - v.point.y)
            let lp = hypot(toPrev.x, toPrev.y), ln = hypot(toNext.x, toNext.y)
            let dp = min(radius, lp / 2), dn = min(radius, ln / 2)
            let a = CGPoint(x: v.point.x + toPrev.x / lp * dp, y: v.point.y + toPrev.y / lp * dp)
            let b = CGPoint(x: v.point.x + toNext.x / ln * dn, y: v.point.y + toNext.y / ln * dn)
            let k = 1 - Self.ellipseControl
            out.append(Vertex(point: a, inTangent: .zero, outTangent: CGPoint(x: (v.point.x - a.x) * (1 - k), y: (v.point.y - a.y) * (1 - k))))
            out.append(Vertex(point: b, inTangent: CGPoint(x: (v.point.x - b.x) * (1 - k), y: (v.point.y - b.y) * (1 - k)), outTangent: .zero))
        }
        return BezierShape(vertices: out, closed: closed, joinsEnds: joinsEnds)
    }
}
