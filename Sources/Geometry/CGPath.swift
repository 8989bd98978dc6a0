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

    /// Returns the point-wise linear blend `self + (other − self)·fraction`, control points
    /// included, or `nil` when the two paths do not have the same element kinds in the same
    /// order. Used for Core Animation `path` animations (`CAShapeLayer.path`).
    public func interpolated(to other: CGPath, fraction: CGFloat) -> CGPath? {
        combined(with: other) { p, q in CGPoint(x: p.x + (q.x - p.x) * fraction, y: p.y + (q.y - p.y) * fraction) }
    }

    /// The path whose points are `mix` of this path's and `other`'s corresponding points,
    /// control points included; `nil` when the element kinds differ (the paths are not compatible).
    public func combined(with other: CGPath, _ mix: (CGPoint, CGPoint) -> CGPoint) -> CGPath? {
        guard elements.count == other.elements.count else { return nil }
        var result: [PathElement] = []
        result.reserveCapacity(elements.count)
        // Where one path has a line and the other a curve, the line is taken as the curve with
        // its control points on its ends (its current point and its end).
        var current = (CGPoint.zero, CGPoint.zero), start = (CGPoint.zero, CGPoint.zero)
        for (from, to) in zip(elements, other.elements) {
            switch (from, to) {
            case (.move(let p), .move(let q)): result.append(.move(to: mix(p, q))); start = (p, q)
            case (.line(let p), .line(let q)): result.append(.line(to: mix(p, q)))
            case (.quadCurve(let p, let c), .quadCurve(let q, let d)):
                result.append(.quadCurve(to: mix(p, q), control: mix(c, d)))
            case (.curve(let p, let c1, let c2), .curve(let q, let d1, let d2)):
                result.append(.curve(to: mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2)))
            case (.line(let p), .curve(let q, let d1, let d2)):
                result.append(.curve(to: mix(p, q), control1: mix(current.0, d1), control2: mix(p, d2)))
            case (.curve(let p, let c1, let c2), .line(let q)):
                result.append(.curve(to: mix(p, q), control1: mix(c1, current.1), control2: mix(c2, q)))
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
