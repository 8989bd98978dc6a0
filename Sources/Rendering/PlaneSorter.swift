import Foundation
import Geometry
import Layers

/// Orders the quads of a 3D rendering context back to front with a BSP tree, splitting quads
/// that cross one another so translucent intersecting planes draw correctly (as browsers do).
///
/// Works in the context's projected space (x/w, y/w, z/w) through each item's
/// `depthTransform`: a projective map keeps planes planar and, in front of the eye, keeps their
/// order, so the viewer looks along −z from +∞ there.
/// Split pieces are returned as polygons in each item's own rectangle space (perspective-correct:
/// every new vertex is unprojected through the item's matrix).
enum PlaneSorter {
    struct Piece {
        var item: Int
        /// nil: the whole item; otherwise the visible polygon in the item's local coordinates.
        var polygon: [CGPoint]?
    }

    private struct Polygon {
        var points: [SIMD3<Double>]
        var item: Int
        var split: Bool
    }

    private final class Node {
        let normal: SIMD3<Double>
        let offset: Double
        var coplanar: [Polygon]
        var front: Node?
        var back: Node?
        init(normal: SIMD3<Double>, offset: Double, first: Polygon) {
            self.normal = normal; self.offset = offset; coplanar = [first]
        }
    }

    /// Back-to-front pieces of `items` (each item's rect through its transform).
    static func sort(_ items: [DrawItem]) -> [Piece] {
        var polygons: [Polygon] = []
        var flat: [Int] = []  // items that cannot be placed in 3D (behind the eye): drawn first
        for (index, item) in items.enumerated() {
            let r = item.rect
            // An item already cut (in a nested context) starts from its piece.
            let corners = item.polygon ?? [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                                           CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]
            var points: [SIMD3<Double>] = []
            for c in corners {
                let h = (item.depthTransform ?? item.transform).transform(x: c.x, y: c.y)
                guard h.w > 1e-9 else { break }
                points.append(SIMD3(Double(h.x / h.w), Double(h.y / h.w), Double(h.z / h.w)))
            }
            if points.count == corners.count, points.count >= 3 {
                polygons.append(Polygon(points: points, item: index, split: item.polygon != nil))
            } else {
                flat.append(index)
            }
        }
        var root: Node?
        for polygon in polygons { insert(polygon, into: &root) }
        var ordered: [Polygon] = []
        if let root { traverse(root, into: &ordered) }
        return flat.map { Piece(item: $0, polygon: items[$0].polygon) } + ordered.map { polygon in
            guard polygon.split else { return Piece(item: polygon.item, polygon: nil) }
            let item = items[polygon.item]
            let space = item.depthTransform ?? item.transform
            let local = polygon.points.map { p in space.unprojecting(CGPoint(x: p.x, y: p.y)) ?? .zero }
            return Piece(item: polygon.item, polygon: local)
        }
    }

    private static func plane(of polygon: Polygon) -> (SIMD3<Double>, Double)? {
        let p = polygon.points
        for i in 0..<p.count {
            let a = p[i], b = p[(i + 1) % p.count], c = p[(i + 2) % p.count]
            let n = cross(b - a, c - a)
            let length = (n * n).sum().squareRoot()
            if length > 1e-12 { return (n / length, ((n / length) * a).sum()) }
        }
        return nil
    }

    private static func insert(_ polygon: Polygon, into node: inout Node?) {
        guard let existing = node else {
            if let (n, d) = plane(of: polygon) { node = Node(normal: n, offset: d, first: polygon) }
            return
        }
        let distances = polygon.points.map { (existing.normal * $0).sum() - existing.offset }
        let scale = polygon.points.reduce(1.0) { max($0, abs($1.x), abs($1.y), abs($1.z)) }
        let epsilon = 1e-7 * scale
        let front = distances.contains { $0 > epsilon }, back = distances.contains { $0 < -epsilon }
        switch (front, back) {
        case (false, false): existing.coplanar.append(polygon)
        case (true, false): insert(polygon, into: &existing.front)
        case (false, true): insert(polygon, into: &existing.back)
        case (true, true):
            let (f, b) = split(polygon, distances, epsilon)
            if let f { insert(f, into: &existing.front) }
            if let b { insert(b, into: &existing.back) }
        }
    }

    /// Sutherland–Hodgman split of a convex polygon by the plane its `distances` refer to.
    private static func split(_ polygon: Polygon, _ distances: [Double], _ epsilon: Double) -> (Polygon?, Polygon?) {
        var front: [SIMD3<Double>] = [], back: [SIMD3<Double>] = []
        let p = polygon.points
        for i in 0..<p.count {
            let j = (i + 1) % p.count
            let a = p[i], b = p[j], da = distances[i], db = distances[j]
            if da >= -epsilon { front.append(a) }
            if da <= epsilon { back.append(a) }
            if (da > epsilon && db < -epsilon) || (da < -epsilon && db > epsilon) {
                let t = da / (da - db)
                let x = a + (b - a) * t
                front.append(x)
                back.append(x)
            }
        }
        let f = front.count >= 3 ? Polygon(points: front, item: polygon.item, split: true) : nil
        let b = back.count >= 3 ? Polygon(points: back, item: polygon.item, split: true) : nil
        return (f, b)
    }

    /// Back to front for a viewer at +z: the side of each splitter away from the viewer first.
    private static func traverse(_ node: Node, into ordered: inout [Polygon]) {
        let facesViewer = node.normal.z >= 0
        if let far = facesViewer ? node.back : node.front { traverse(far, into: &ordered) }
        ordered.append(contentsOf: node.coplanar)
        if let near = facesViewer ? node.front : node.back { traverse(near, into: &ordered) }
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
