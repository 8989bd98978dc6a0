import Foundation
import Geometry

/// A convex polygon in a pass's pixel space, snapped to 1/256 pixel as GL rasterizers snap
/// vertices, whose covered pixels are found row by row with exact integer edge functions.
///
/// A pixel is covered when its centre is inside; a centre exactly on an edge belongs to the
/// polygon only on its top or left edges (GL's tie rule), so pieces sharing an edge never
/// draw a pixel twice.
struct ScreenPolygon {
    private struct Edge {
        /// E(x, y) = a·x + b·y + c ≥ 0 inside (fixed-point coordinates).
        var a: Int64, b: Int64, c: Int64
        var inclusive: Bool
    }
    private var edges: [Edge] = []
    /// Rows that may hold covered pixels.
    let rows: Range<Int>
    /// Columns that may hold covered pixels.
    let columns: Range<Int>

    private static let subpixel: Double = 256

    /// The polygon `corners` (item space) maps to under `transform` (row vectors), clipped to
    /// w > 0 (geometry behind the eye never draws) and to `bounds` (whole pixels); nil when nothing is left.
    init?(corners: [CGPoint], transform m: CATransform3D, bounds: CGRect) {
        // Homogeneous clip against w ≥ ε: the eye plane.
        let epsilon = 1e-7
        var points = corners.map { p -> SIMD3<Double> in
            SIMD3(Double(p.x * m.m11 + p.y * m.m21 + m.m41), Double(p.x * m.m12 + p.y * m.m22 + m.m42),
                  Double(p.x * m.m14 + p.y * m.m24 + m.m44))
        }
        points = Self.clip(points) { $0.z - epsilon }
        // Into pixels, then clipped to the bounds so far-away vertices cannot overflow.
        var screen = points.map { SIMD2($0.x / $0.z, $0.y / $0.z) }
        let minX = Double(bounds.minX), maxX = Double(bounds.maxX), minY = Double(bounds.minY), maxY = Double(bounds.maxY)
        screen = Self.clip(screen) { $0.x - minX }
        screen = Self.clip(screen) { maxX - $0.x }
        screen = Self.clip(screen) { $0.y - minY }
        screen = Self.clip(screen) { maxY - $0.y }
        guard screen.count >= 3, screen.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        var fixed = screen.map { SIMD2<Int64>(Int64(($0.x * Self.subpixel).rounded()), Int64(($0.y * Self.subpixel).rounded())) }
        var area: Int64 = 0
        for i in fixed.indices {
            let p = fixed[i], q = fixed[(i + 1) % fixed.count]
            area += p.x * q.y - q.x * p.y
        }
        guard area != 0 else { return nil }
        if area < 0 { fixed.reverse() }
        for i in fixed.indices {
            let p = fixed[i], q = fixed[(i + 1) % fixed.count]
            guard p != q else { continue }
            // With y down and corners turning clockwise on screen, inside is where the cross
            // product (q − p) × (x − p) is positive.
            let a = -(q.y - p.y), b = q.x - p.x
            let c = -(a * p.x + b * p.y)
            // Top-left rule: an edge whose inside is to its right (a > 0) is a left edge; a
            // horizontal edge whose inside is below it (b > 0) is a top edge.
            edges.append(Edge(a: a, b: b, c: c, inclusive: a > 0 || (a == 0 && b > 0)))
        }
        let ys = fixed.map { $0.y }, xs = fixed.map { $0.x }  // closures: a key path here cost more than the edges
        rows = max(Int(Self.floorDiv(ys.min()!, 256)), Int(bounds.minY))..<min(Int(Self.floorDiv(ys.max()!, 256)) + 1, Int(bounds.maxY))
        columns = max(Int(Self.floorDiv(xs.min()!, 256)), Int(bounds.minX))..<min(Int(Self.floorDiv(xs.max()!, 256)) + 1, Int(bounds.maxX))
        guard !rows.isEmpty, !columns.isEmpty else { return nil }
        if isAxisAlignedRectangle {
            // Its vertical edges give every row the same columns; its horizontal ones, each a
            // half-plane in y, leave one run of rows: found from both ends, then spans are looked up.
            var first = rows.lowerBound, last = rows.upperBound
            while first < last, edgeSpan(row: first).isEmpty { first += 1 }
            while last > first, edgeSpan(row: last - 1).isEmpty { last -= 1 }
            rectangle = (first..<last, first < last ? edgeSpan(row: first) : 0..<0)
        }
    }

    /// For an axis-aligned rectangle, the rows it covers and the columns each of them covers.
    private var rectangle: (rows: Range<Int>, columns: Range<Int>)?

    /// Whether the polygon is a rectangle with horizontal and vertical edges: every row between
    /// its first and last then covers the same columns.
    var isAxisAlignedRectangle: Bool { edges.count == 4 && edges.allSatisfy { $0.a == 0 || $0.b == 0 } }

    /// The covered columns of pixel row `y`, within `columns`.
    @inline(__always)
    func span(row y: Int) -> Range<Int> {
        if let rectangle { return rectangle.rows.contains(y) ? rectangle.columns : 0..<0 }
        return edgeSpan(row: y)
    }

    /// `span` from the edge functions.
    func edgeSpan(row y: Int) -> Range<Int> {
        let yc = Int64(y) * 256 + 128
        var low = Int64(columns.lowerBound), high = Int64(columns.upperBound - 1)
        for e in edges {
            let k = e.b * yc + e.c
            if e.a == 0 {
                if k > 0 || (k == 0 && e.inclusive) { continue }
                return 0..<0
            }
            // Pixel centres xc = 256·col + 128 with a·xc + k ≥ 0 (or > 0).
            if e.a > 0 {
                let xc = e.inclusive ? Self.ceilDiv(-k, e.a) : Self.floorDiv(-k, e.a) + 1
                low = max(low, Self.ceilDiv(xc - 128, 256))
            } else {
                let xc = e.inclusive ? Self.floorDiv(k, -e.a) : Self.ceilDiv(k, -e.a) - 1
                high = min(high, Self.floorDiv(xc - 128, 256))
            }
            if low > high { return 0..<0 }
        }
        return Int(low)..<Int(high + 1)
    }

    @inline(__always) static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
    @inline(__always) static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }

    /// Sutherland–Hodgman: the part of a convex polygon where `distance ≥ 0` (homogeneous points
    /// against the eye plane, or screen points against one side of the bounds).
    private static func clip<V: SIMD>(_ points: [V], _ distance: (V) -> Double) -> [V] where V.Scalar == Double {
        guard points.contains(where: { distance($0) < 0 }) else { return points }
        var out: [V] = []
        for i in points.indices {
            let p = points[i], q = points[(i + 1) % points.count]
            let dp = distance(p), dq = distance(q)
            if dp >= 0 { out.append(p) }
            if (dp >= 0) != (dq >= 0) { out.append(p + (q - p) * (dp / (dp - dq))) }
        }
        return out
    }
}
