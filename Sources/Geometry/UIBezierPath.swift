import Foundation

/// How open stroke ends are drawn; the Core Graphics `CGLineCap` counterpart.
public enum CGLineCap: Int32, Sendable {
    /// The stroke ends exactly at the end point.
    case butt
    /// A half circle of the line width's diameter caps the end.
    case round
    /// A half square extends the stroke past the end point.
    case square
}

/// How stroke corners are drawn; the Core Graphics `CGLineJoin` counterpart.
public enum CGLineJoin: Int32, Sendable {
    /// Outer edges extend to a point (up to the miter limit).
    case miter
    /// Corners are rounded with a circle of the line width's diameter.
    case round
    /// Corners are cut off square.
    case bevel
}

/// The corners of a rectangle in UIKit's y-down space; the UIKit `UIRectCorner` counterpart.
public struct UIRectCorner: OptionSet, Hashable, Sendable {
    /// The corner bits (UIKit's values).
    public let rawValue: UInt

    /// Creates a corner set from its bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The corner at (minX, minY).
    public static let topLeft = UIRectCorner(rawValue: 1)
    /// The corner at (maxX, minY).
    public static let topRight = UIRectCorner(rawValue: 2)
    /// The corner at (minX, maxY).
    public static let bottomLeft = UIRectCorner(rawValue: 4)
    /// The corner at (maxX, maxY).
    public static let bottomRight = UIRectCorner(rawValue: 8)
    /// Every corner (all bits set, as in UIKit).
    public static let allCorners = UIRectCorner(rawValue: .max)
}

/// A mutable path plus stroke attributes; the UIKit `UIBezierPath` counterpart, so that
/// iOS drawing code ports unchanged. Coordinates are points in UIKit's y-down space.
///
/// Arc direction differs from `CGMutablePath`: here `clockwise: true` means *increasing*
/// angle (clockwise on a y-down screen), which is `clockwise: false` for Core Graphics.
open class UIBezierPath: CustomStringConvertible {
    private var path = CGMutablePath()

    /// Stroke width in points (default 1).
    open var lineWidth: CGFloat = 1
    /// Stroke end style (default `.butt`).
    open var lineCapStyle: CGLineCap = .butt
    /// Stroke corner style (default `.miter`).
    open var lineJoinStyle: CGLineJoin = .miter
    /// Miter length limit as a multiple of the line width (default 10).
    open var miterLimit: CGFloat = 10
    /// Maximum curve-flattening error in device pixels (default 0.6); advisory only.
    open var flatness: CGFloat = 0.6
    /// Whether filling uses the even-odd rule instead of non-zero winding (default `false`).
    open var usesEvenOddFillRule = false

    /// Creates an empty path.
    public init() {}

    /// Creates a closed rectangle path (same winding as `CGPath(rect:transform:)`).
    public convenience init(rect: CGRect) {
        self.init()
        path.addRect(rect)
    }

    /// Creates a closed ellipse inscribed in `rect` (same elements as `CGPath(ellipseIn:transform:)`).
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        path.addEllipse(in: rect)
    }

    /// Creates a rounded rectangle with circular corners of `cornerRadius` points, clamped to
    /// half the shorter side (so large radii give a capsule, as in UIKit).
    ///
    /// UIKit draws "continuous" corners; these are plain quarter circles.
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        let r = rect.standardized
        let radius = min(max(cornerRadius, 0), min(r.width, r.height) / 2)
        path.addRoundedRect(in: r, cornerWidth: radius, cornerHeight: radius)
    }

    /// Creates a rectangle whose selected corners are rounded with elliptical radii
    /// `cornerRadii` (points, each clamped to half the width/height); other corners are sharp.
    public convenience init(
        roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize
    ) {
        self.init()
        let r = rect.standardized
        let rx = min(max(cornerRadii.width, 0), r.width / 2)
        let ry = min(max(cornerRadii.height, 0), r.height / 2)
        func radius(_ corner: UIRectCorner) -> CGSize {
            corners.contains(corner) && rx > 0 && ry > 0 ? CGSize(width: rx, height: ry) : .zero
        }
        let topLeft = radius(.topLeft), topRight = radius(.topRight)
        let bottomRight = radius(.bottomRight), bottomLeft = radius(.bottomLeft)
        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }
        // Same winding and start as CGPath(roundedRect:…); sharp corners get only the line.
        path.move(to: p(r.minX + topLeft.width, r.minY))
        path.addCorner(lineTo: p(r.maxX - topRight.width, r.minY), vertex: p(r.maxX, r.minY),
                       end: p(r.maxX, r.minY + topRight.height))
        path.addCorner(lineTo: p(r.maxX, r.maxY - bottomRight.height), vertex: p(r.maxX, r.maxY),
                       end: p(r.maxX - bottomRight.width, r.maxY))
        path.addCorner(lineTo: p(r.minX + bottomLeft.width, r.maxY), vertex: p(r.minX, r.maxY),
                       end: p(r.minX, r.maxY - bottomLeft.height))
        path.addCorner(lineTo: p(r.minX, r.minY + topLeft.height), vertex: p(r.minX, r.minY),
                       end: p(r.minX + topLeft.width, r.minY))
        path.closeSubpath()
    }

    /// Creates a circular arc; `clockwise: true` sweeps toward increasing angles (UIKit sense).
    public convenience init(
        arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
               clockwise: clockwise)
    }

    /// Creates a path with a copy of `cgPath`'s elements.
    public convenience init(cgPath: CGPath) {
        self.init()
        path = cgPath.mutableCopy()
    }

    /// An immutable snapshot of the path; setting it replaces every element.
    open var cgPath: CGPath {
        get { path.copy() }
        set { path = newValue.mutableCopy() }
    }

    /// Bounds of every point, control points included (`CGPath.boundingBox`); `.null` when empty.
    open var bounds: CGRect { path.boundingBox }

    /// The point drawing continues from; `.zero` when empty.
    open var currentPoint: CGPoint { path.currentPoint }

    /// Whether the path has no elements.
    open var isEmpty: Bool { path.isEmpty }

    /// Starts a new subpath at `point`.
    open func move(to point: CGPoint) { path.move(to: point) }

    /// Appends a straight line to `point`.
    open func addLine(to point: CGPoint) { path.addLine(to: point) }

    /// Appends a cubic Bézier.
    open func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }

    /// Appends a quadratic Bézier.
    open func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        path.addQuadCurve(to: endPoint, control: controlPoint)
    }

    /// Appends a circular arc (joined by a line when a subpath is open). Angles are radians;
    /// `clockwise: true` sweeps toward increasing angles, i.e. clockwise on a y-down screen.
    open func addArc(
        withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        // UIKit's y-down "clockwise" is Core Graphics' y-up counter-clockwise.
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                    clockwise: !clockwise)
    }

    /// Closes the current subpath.
    open func close() { path.closeSubpath() }

    /// Removes every element (stroke attributes are kept).
    open func removeAllPoints() { path = CGMutablePath() }

    /// Appends all of `bezierPath`'s elements.
    open func append(_ bezierPath: UIBezierPath) { path.addPath(bezierPath.path) }

    /// Maps every point by `transform`.
    open func apply(_ transform: CGAffineTransform) {
        path.elements = path.elements.map { $0.applying(transform) }
    }

    /// Returns a new path tracing every subpath backwards (same stroke attributes).
    ///
    /// Open subpaths start at their old end point. Closed subpaths keep their start point
    /// and stay closed, traversed in the opposite direction.
    open func reversing() -> UIBezierPath {
        let result = UIBezierPath()
        result.lineWidth = lineWidth
        result.lineCapStyle = lineCapStyle
        result.lineJoinStyle = lineJoinStyle
        result.miterLimit = miterLimit
        result.flatness = flatness
        result.usesEvenOddFillRule = usesEvenOddFillRule
        result.path.elements = Self.reversedElements(path.elements)
        return result
    }

    /// The path data, e.g. `UIBezierPath(M 0 0 L 1 0)`.
    public var description: String { "UIBezierPath(\(path.description))" }

    private static func reversedElements(_ elements: [PathElement]) -> [PathElement] {
        var output: [PathElement] = []
        var start: CGPoint?
        var segments: [PathSegment] = []
        var pending = false  // a move or segment not yet emitted
        func flush(closed: Bool) {
            guard pending, let origin = start else { return }
            pending = false
            defer { segments = [] }
            guard let last = segments.last else {
                output.append(.move(to: origin))
                if closed { output.append(.closeSubpath) }
                return
            }
            guard closed else {
                output.append(.move(to: last.end))
                output += segments.reversed().map { $0.reversed().element }
                return
            }
            output.append(.move(to: origin))
            if last.end != origin { output.append(.line(to: last.end)) }  // the old closing line
            for (index, segment) in segments.enumerated().reversed() {
                if index == 0, segment.kind == .line { continue }  // closeSubpath draws it
                output.append(segment.reversed().element)
            }
            output.append(.closeSubpath)
        }
        for element in elements {
            switch element {
            case .move(let p):
                flush(closed: false)
                start = p
                pending = true
            case .closeSubpath:
                flush(closed: true)
            case .line(let p), .quadCurve(let p, _), .curve(let p, _, _):
                let from = segments.last?.end ?? start ?? p
                if start == nil { start = p }
                pending = true
                switch element {
                case .quadCurve(_, let c): segments.append(PathSegment(from: from, control: c, to: p))
                case .curve(_, let c1, let c2):
                    segments.append(PathSegment(from: from, control1: c1, control2: c2, to: p))
                default: segments.append(PathSegment(from: from, to: p))
                }
            }
        }
        flush(closed: false)
        return output
    }
}
