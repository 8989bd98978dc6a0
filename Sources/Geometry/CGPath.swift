import Foundation
import Synchronization

/// The kind of a path element; the Core Graphics `CGPathElementType` counterpart.
public enum CGPathElementType: Int32, Sendable {
    /// Starts a new subpath (one point).
    case moveToPoint
    /// A straight line (one point).
    case addLineToPoint
    /// A quadratic Bézier (control point, end point).
    case addQuadCurveToPoint
    /// A cubic Bézier (two control points, end point).
    case addCurveToPoint
    /// A line back to the subpath's start (no points).
    case closeSubpath
}

/// One drawing command of a path, with its points in path coordinates (points).
///
/// The Swift-native form of Core Graphics' `CGPathElement`.
public enum PathElement: Equatable, Hashable, Sendable {
    /// Starts a new subpath at a point.
    case move(to: CGPoint)
    /// A straight line from the current point.
    case line(to: CGPoint)
    /// A quadratic Bézier from the current point.
    case quadCurve(to: CGPoint, control: CGPoint)
    /// A cubic Bézier from the current point.
    case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
    /// A straight line back to the subpath's starting point, closing it.
    case closeSubpath

    /// The Core Graphics element type of this element.
    public var type: CGPathElementType {
        switch self {
        case .move: .moveToPoint
        case .line: .addLineToPoint
        case .quadCurve: .addQuadCurveToPoint
        case .curve: .addCurveToPoint
        case .closeSubpath: .closeSubpath
        }
    }

    /// The element's points in `CGPathElement.points` order: control points first, end point last.
    public var points: [CGPoint] {
        switch self {
        case .move(let p), .line(let p): [p]
        case .quadCurve(let p, let c): [c, p]
        case .curve(let p, let c1, let c2): [c1, c2, p]
        case .closeSubpath: []
        }
    }

    /// Calls `body` with each of the element's points in `points` order, without an array.
    @inlinable
    public func forEachPoint(_ body: (CGPoint) -> Void) {
        switch self {
        case .move(let p), .line(let p): body(p)
        case .quadCurve(let p, let c): body(c); body(p)
        case .curve(let p, let c1, let c2): body(c1); body(c2); body(p)
        case .closeSubpath: break
        }
    }

    /// Whether every coordinate of the element's points is finite.
    public var isFinite: Bool {
        var finite = true
        forEachPoint { finite = finite && $0.x.isFinite && $0.y.isFinite }
        return finite
    }

    /// A line or cubic curve from `current` as a cubic (a line's control points on its ends);
    /// nil for other elements.
    func cubic(after current: CGPoint) -> (end: CGPoint, control1: CGPoint, control2: CGPoint)? {
        switch self {
        case .line(let p): (p, current, p)
        case .curve(let p, let c1, let c2): (p, c1, c2)
        default: nil
        }
    }

    /// The point the element ends at, or `nil` for `closeSubpath`.
    public var endPoint: CGPoint? {
        switch self {
        case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _): p
        case .closeSubpath: nil
        }
    }

    /// Returns the element with every point mapped by `t`.
    public func applying(_ t: CGAffineTransform) -> PathElement {
        map { $0.applying(t) }
    }

    /// Returns the element with every point replaced by `transform(point)`.
    func map(_ transform: (CGPoint) -> CGPoint) -> PathElement {
        switch self {
        case .move(let p): .move(to: transform(p))
        case .line(let p): .line(to: transform(p))
        case .quadCurve(let p, let c): .quadCurve(to: transform(p), control: transform(c))
        case .curve(let p, let c1, let c2):
            .curve(to: transform(p), control1: transform(c1), control2: transform(c2))
        case .closeSubpath: .closeSubpath
        }
    }

    /// SVG path-data form, e.g. `C 1 2 3 4 5 6` (control points before the end point).
    var svgString: String {
        let command: String
        switch self {
        case .move: command = "M"
        case .line: command = "L"
        case .quadCurve: command = "Q"
        case .curve: command = "C"
        case .closeSubpath: return "Z"
        }
        let numbers = points.flatMap { [formatNumber($0.x), formatNumber($0.y)] }
        return ([command] + numbers).joined(separator: " ")
    }
}

/// Formats a coordinate without a trailing `.0` for whole numbers ("10", "-2.5").
private func formatNumber(_ value: CGFloat) -> String {
    if value == 0 { return "0" }  // also folds -0
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(Double(value))"
}

/// An immutable graphics path; the Core Graphics `CGPath` counterpart.
///
/// A path is a list of ``PathElement``s in points. Every subpath starts with a
/// `.move` element (``CGMutablePath`` inserts one when drawing continues after
/// `closeSubpath`). Two paths are equal when their element lists are equal.
open class CGPath: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: `elements` is only mutated through CGMutablePath, which — like
    // Apple's — must not be shared across threads while being mutated.

    /// The path's drawing commands, in order.
    public internal(set) var elements: [PathElement] {
        didSet { elementsHash.store(0, ordering: .relaxed) }
    }

    /// `elements.hashValue` (never 0) once worked out, 0 before: content caches key rasters by
    /// paths, and hashed every point of a path for every lookup of every frame.
    private let elementsHash = Atomic<Int>(0)

    init(elements: [PathElement]) {
        self.elements = elements
    }

    /// Creates a closed rectangle path; `CGPath(rect:transform:)`.
    ///
    /// Winds (minX,minY) → (maxX,minY) → (maxX,maxY) → (minX,maxY), then closes.
    public convenience init(rect: CGRect, transform: CGAffineTransform? = nil) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform ?? .identity)
        self.init(elements: path.elements)
    }

    /// Creates a closed ellipse inscribed in `rect`; `CGPath(ellipseIn:transform:)`.
    ///
    /// Four cubic Béziers starting at (maxX, midY), in increasing-angle order.
    public convenience init(ellipseIn rect: CGRect, transform: CGAffineTransform? = nil) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform ?? .identity)
        self.init(elements: path.elements)
    }

    /// Creates a closed rounded rectangle; `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`.
    ///
    /// Corner sizes (points) are clamped to half the rectangle's width and height.
    public convenience init(
        roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        transform: CGAffineTransform? = nil
    ) {
        let path = CGMutablePath()
        path.addRoundedRect(
            in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
            transform: transform ?? .identity)
        self.init(elements: path.elements)
    }

    /// Whether the path has no elements; `CGPath.isEmpty`.
    public var isEmpty: Bool { elements.isEmpty }

    /// The point drawing would continue from, or `.zero` for an empty path; `CGPath.currentPoint`.
    ///
    /// After `closeSubpath` this is the start of the closed subpath.
    public var currentPoint: CGPoint {
        guard let last = elements.last else { return .zero }
        if let point = last.endPoint { return point }
        return subpathStart(before: elements.count) ?? .zero
    }

    /// The start (last `.move`) of the subpath that contains the element before `index`.
    func subpathStart(before index: Int) -> CGPoint? {
        var i = index - 1
        while i >= 0 {
            if case .move(let p) = elements[i] { return p }
            i -= 1
        }
        return nil
    }

    /// The smallest rectangle containing every point, control points included;
    /// `CGPath.boundingBox`. `CGRect.null` for an empty path.
    public var boundingBox: CGRect {
        var box = PathBoundsAccumulator()
        for element in elements { element.forEachPoint { box.add($0) } }
        return box.rect
    }

    /// The smallest rectangle containing the drawn curves (not their control points) and
    /// every move point; `CGPath.boundingBoxOfPath`. `CGRect.null` for an empty path.
    public var boundingBoxOfPath: CGRect {
        var box = PathBoundsAccumulator()
        for element in elements {
            if case .move(let p) = element { box.add(p) }
        }
        for segment in segments {
            let bounds = segment.bounds
            box.add(CGPoint(x: bounds.minX, y: bounds.minY))
            box.add(CGPoint(x: bounds.maxX, y: bounds.maxY))
        }
        return box.rect
    }

    /// Returns an immutable copy; `CGPath.copy()` (non-optional here).
    public func copy() -> CGPath {
        CGPath(elements: elements)
    }

    /// Returns an immutable copy with every point mapped by `transform`;
    /// `CGPath.copy(using:)` (non-optional here; `nil` means identity).
    public func copy(using transform: CGAffineTransform?) -> CGPath {
        guard let transform, !transform.isIdentity else { return copy() }
        return CGPath(elements: elements.map { $0.applying(transform) })
    }

    /// Returns a mutable copy; `CGPath.mutableCopy()` (non-optional here).
    public func mutableCopy() -> CGMutablePath {
        CGMutablePath(elements: elements)
    }

    /// Calls `body` with every element in order; like `CGPath.applyWithBlock`.
    public func forEach(body: (PathElement) throws -> Void) rethrows {
        for element in elements { try body(element) }
    }

    /// The path a fraction of the way from this one to `other`, as a Core Animation `path`
    /// animation blends them (`CAShapeLayer.path`), or `nil` when the two do not have the same
    /// element kinds in the same order (a line against a cubic curve counts as that curve with
    /// its control points on the line's ends). On-curve points blend linearly; a cubic's
    /// control points blend as offsets from the on-curve point each belongs to (the segment's
    /// start, its end), turning by the shorter way between the two offsets' directions while
    /// their lengths blend linearly, so a tangent that swings keeps its length through the
    /// swing (semantics addenda A17). Offsets of zero length and quadratic controls blend
    /// linearly.
    public func interpolated(to other: CGPath, fraction f: CGFloat) -> CGPath? {
        func lerp(_ p: CGPoint, _ q: CGPoint) -> CGPoint { CGPoint(x: p.x + (q.x - p.x) * f, y: p.y + (q.y - p.y) * f) }
        return blended(with: other, lerp) { c, a, d, b in
            // The ends themselves at fractions 0 and 1.
            if f == 0 { return c }
            if f == 1 { return d }
            let anchor = lerp(a, b)
            let u = CGPoint(x: c.x - a.x, y: c.y - a.y), v = CGPoint(x: d.x - b.x, y: d.y - b.y)
            let lu = (u.x * u.x + u.y * u.y).squareRoot(), lv = (v.x * v.x + v.y * v.y).squareRoot()
            guard lu > 0, lv > 0 else { return CGPoint(x: anchor.x + u.x + (v.x - u.x) * f, y: anchor.y + u.y + (v.y - u.y) * f) }
            let from = atan2(u.y, u.x)
            var turn = atan2(v.y, v.x) - from
            if turn > .pi { turn -= 2 * .pi } else if turn < -.pi { turn += 2 * .pi }
            let angle = from + turn * f, length = lu + (lv - lu) * f
            return CGPoint(x: anchor.x + length * cos(angle), y: anchor.y + length * sin(angle))
        }
    }

    /// The path whose points are `mix` of this path's and `other`'s corresponding points,
    /// control points included; `nil` when the element kinds differ (the paths are not
    /// compatible), a line against a cubic curve counting as that curve with its control
    /// points on the line's ends.
    public func combined(with other: CGPath, _ mix: (CGPoint, CGPoint) -> CGPoint) -> CGPath? {
        blended(with: other, mix) { c, _, d, _ in mix(c, d) }
    }

    /// The element-by-element blend both `interpolated` and `combined` are: on-curve points and
    /// quadratic controls by `point`, a cubic's control points by `control(c, a, d, b)` (`c` and
    /// `d` the two paths' control points, `a` and `b` the on-curve points they belong to), a line
    /// against a cubic taken as that cubic with its control points on the line's ends; nil when
    /// the element kinds differ otherwise.
    private final func blended(with other: CGPath, _ point: (CGPoint, CGPoint) -> CGPoint,
                         control: (CGPoint, CGPoint, CGPoint, CGPoint) -> CGPoint) -> CGPath? {
        guard elements.count == other.elements.count else { return nil }
        var result: [PathElement] = []
        result.reserveCapacity(elements.count)
        // The current points of both paths, and where their subpaths began.
        var current = (CGPoint.zero, CGPoint.zero), start = (CGPoint.zero, CGPoint.zero)
        for (from, to) in zip(elements, other.elements) {
            switch (from, to) {
            case (.move(let p), .move(let q)): result.append(.move(to: point(p, q))); start = (p, q)
            case (.line(let p), .line(let q)): result.append(.line(to: point(p, q)))
            case (.quadCurve(let p, let c), .quadCurve(let q, let d)):
                result.append(.quadCurve(to: point(p, q), control: point(c, d)))
            case (.line, .curve), (.curve, .line), (.curve, .curve):
                guard let a = from.cubic(after: current.0), let b = to.cubic(after: current.1) else { return nil }
                result.append(.curve(to: point(a.end, b.end), control1: control(a.control1, current.0, b.control1, current.1),
                                     control2: control(a.control2, a.end, b.control2, b.end)))
            case (.closeSubpath, .closeSubpath): result.append(.closeSubpath); current = start; continue
            default: return nil
            }
            if let p = from.endPoint, let q = to.endPoint { current = (p, q) }
        }
        return CGPath(elements: result)
    }

    /// SVG-like path data, e.g. `M 0 0 L 10 0 Z`; empty for an empty path.
    public var description: String {
        elements.map(\.svgString).joined(separator: " ")
    }

    /// Whether two paths have identical element lists (`CGPath.==` / `CGPathEqualToPath`).
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs === rhs || lhs.elements == rhs.elements
    }

    /// Hashes the element list, consistently with `==` (worked out once per path and mutation).
    public func hash(into hasher: inout Hasher) {
        var hash = elementsHash.load(ordering: .relaxed)
        if hash == 0 {
            hash = elements.hashValue
            if hash == 0 { hash = 1 }
            elementsHash.store(hash, ordering: .relaxed)
        }
        hasher.combine(hash)
    }
}

/// Grows a bounding rectangle point by point; `.null` until the first point.
struct PathBoundsAccumulator {
    private var minX = CGFloat.infinity, minY = CGFloat.infinity
    private var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity

    mutating func add(_ p: CGPoint) {
        minX = min(minX, p.x)
        minY = min(minY, p.y)
        maxX = max(maxX, p.x)
        maxY = max(maxY, p.y)
    }

    var rect: CGRect {
        guard minX <= maxX, minY <= maxY else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
