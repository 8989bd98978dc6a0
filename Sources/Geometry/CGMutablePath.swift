import Foundation

/// A path that can be built up command by command; the Core Graphics `CGMutablePath` counterpart.
///
/// Every method takes an optional `transform` applied to the points it adds (like Apple's).
/// Angles are in radians, measured from +x toward +y. Drawing commands that need a current
/// point (lines, curves) are ignored on an empty path, as Core Graphics does.
public final class CGMutablePath: CGPath, @unchecked Sendable {
    /// Magic constant for approximating a quarter circle with one cubic Bézier.
    static let kappa: CGFloat = 0.5522847498

    /// Creates an empty path; `CGMutablePath()`.
    public init() {
        super.init(elements: [])
    }

    override init(elements: [PathElement]) {
        super.init(elements: elements)
    }

    // MARK: - Basic commands

    /// Starts a new subpath at `point`; `CGMutablePath.move(to:transform:)`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.move(to: point.applying(transform)))
    }

    /// Appends a straight line to `point`; `CGMutablePath.addLine(to:transform:)`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        guard beginSegment() else { return }
        elements.append(.line(to: point.applying(transform)))
    }

    /// Moves to the first point and draws lines through the rest;
    /// `CGMutablePath.addLines(between:transform:)`.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for point in points.dropFirst() {
            elements.append(.line(to: point.applying(transform)))
        }
    }

    /// Appends a quadratic Bézier; `CGMutablePath.addQuadCurve(to:control:transform:)`.
    public func addQuadCurve(
        to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity
    ) {
        guard beginSegment() else { return }
        elements.append(.quadCurve(to: end.applying(transform), control: control.applying(transform)))
    }

    /// Appends a cubic Bézier; `CGMutablePath.addCurve(to:control1:control2:transform:)`.
    public func addCurve(
        to end: CGPoint, control1: CGPoint, control2: CGPoint,
        transform: CGAffineTransform = .identity
    ) {
        guard beginSegment() else { return }
        elements.append(
            .curve(
                to: end.applying(transform), control1: control1.applying(transform),
                control2: control2.applying(transform)))
    }

    /// Closes the open subpath with a line back to its start; `CGMutablePath.closeSubpath()`.
    ///
    /// Does nothing on an empty path or when the subpath is already closed.
    public func closeSubpath() {
        guard isSubpathOpen else { return }
        elements.append(.closeSubpath)
    }

    /// Appends all elements of `path`, mapped by `transform`; `CGMutablePath.addPath(_:transform:)`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        if transform.isIdentity {
            elements += path.elements
        } else {
            elements += path.elements.map { $0.applying(transform) }
        }
    }

    // MARK: - Shapes

    /// Appends a closed rectangle subpath; `CGMutablePath.addRect(_:transform:)`.
    ///
    /// Winds (minX,minY) → (maxX,minY) → (maxX,maxY) → (minX,maxY), then closes.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let corners = [
            CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
            CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY),
        ]
        addLines(between: corners, transform: transform)
        elements.append(.closeSubpath)
    }

    /// Appends one closed rectangle subpath per rect; `CGMutablePath.addRects(_:transform:)`.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// Appends a closed ellipse inscribed in `rect`; `CGMutablePath.addEllipse(in:transform:)`.
    ///
    /// Four cubic Béziers (kappa 0.5522847498) from (maxX, midY) through (midX, maxY),
    /// (minX, midY) and (midX, minY), i.e. in increasing-angle order.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        let kx = Self.kappa * rx, ky = Self.kappa * ry
        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y).applying(transform) }
        elements.append(.move(to: p(cx + rx, cy)))
        elements.append(.curve(to: p(cx, cy + ry), control1: p(cx + rx, cy + ky), control2: p(cx + kx, cy + ry)))
        elements.append(.curve(to: p(cx - rx, cy), control1: p(cx - kx, cy + ry), control2: p(cx - rx, cy + ky)))
        elements.append(.curve(to: p(cx, cy - ry), control1: p(cx - rx, cy - ky), control2: p(cx - kx, cy - ry)))
        elements.append(.curve(to: p(cx + rx, cy), control1: p(cx + kx, cy - ry), control2: p(cx + rx, cy - ky)))
        elements.append(.closeSubpath)
    }

    /// Appends a closed rounded rectangle;
    /// `CGMutablePath.addRoundedRect(in:cornerWidth:cornerHeight:transform:)`.
    ///
    /// Corner sizes (points) are clamped to half the width/height; a zero corner size gives a
    /// plain rectangle. Otherwise the element list always has the same shape (move, then
    /// line + corner curve four times, close; lines may be zero-length) so that rounded
    /// rectangles with different radii interpolate. Starts at (minX + cornerWidth, minY).
    public func addRoundedRect(
        in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let w = min(max(cornerWidth, 0), r.width / 2)
        let h = min(max(cornerHeight, 0), r.height / 2)
        guard w > 0, h > 0 else { return addRect(r, transform: transform) }
        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }
        let t = transform
        move(to: p(r.minX + w, r.minY), transform: t)
        addCorner(lineTo: p(r.maxX - w, r.minY), vertex: p(r.maxX, r.minY), end: p(r.maxX, r.minY + h), transform: t)
        addCorner(lineTo: p(r.maxX, r.maxY - h), vertex: p(r.maxX, r.maxY), end: p(r.maxX - w, r.maxY), transform: t)
        addCorner(lineTo: p(r.minX + w, r.maxY), vertex: p(r.minX, r.maxY), end: p(r.minX, r.maxY - h), transform: t)
        addCorner(lineTo: p(r.minX, r.minY + h), vertex: p(r.minX, r.minY), end: p(r.minX + w, r.minY), transform: t)
        elements.append(.closeSubpath)
    }

    /// Adds a line to `start`, then a quarter-ellipse cubic to `end` whose tangents point at
    /// `vertex` (the sharp corner being rounded); no curve when `start == end`.
    func addCorner(lineTo start: CGPoint, vertex: CGPoint, end: CGPoint, transform: CGAffineTransform = .identity) {
        addLine(to: start, transform: transform)
        guard start != end else { return }
        let k = Self.kappa
        addCurve(
            to: end,
            control1: CGPoint(x: start.x + (vertex.x - start.x) * k, y: start.y + (vertex.y - start.y) * k),
            control2: CGPoint(x: end.x + (vertex.x - end.x) * k, y: end.y + (vertex.y - end.y) * k),
            transform: transform)
    }

    // MARK: - Arcs

    /// Appends a circular arc; `CGMutablePath.addArc(center:radius:startAngle:endAngle:clockwise:transform:)`.
    ///
    /// Angles are radians from +x toward +y. `clockwise: true` sweeps toward *decreasing*
    /// angles (clockwise in a y-up frame, counter-clockwise on a y-down screen). A sweep of
    /// 2π or more in the requested direction draws a full circle; otherwise the sweep is taken
    /// modulo 2π. The arc is joined with a line from the current point when a subpath is open,
    /// otherwise it starts a new subpath with a move. Emitted as cubic Béziers of ≤ 90° each.
    public func addArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
        clockwise: Bool, transform: CGAffineTransform = .identity
    ) {
        let twoPi = 2 * CGFloat.pi
        let delta: CGFloat
        if clockwise {
            let sweep = startAngle - endAngle
            delta = sweep >= twoPi ? -twoPi : -positiveRemainder(sweep, twoPi)
        } else {
            let sweep = endAngle - startAngle
            delta = sweep >= twoPi ? twoPi : positiveRemainder(sweep, twoPi)
        }
        appendArc(center: center, radius: radius, startAngle: startAngle, delta: delta,
                  connect: true, transform: transform)
    }

    /// Appends an arc that sweeps `delta` radians from `startAngle`;
    /// `CGMutablePath.addRelativeArc(center:radius:startAngle:delta:transform:)`.
    ///
    /// Positive `delta` sweeps toward increasing angles. `delta` is clamped to ±2π.
    public func addRelativeArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        let twoPi = 2 * CGFloat.pi
        appendArc(center: center, radius: radius, startAngle: startAngle,
                  delta: min(max(delta, -twoPi), twoPi), connect: true, transform: transform)
    }

    /// Appends a line toward `tangent1End` and an arc tangent to the lines current point →
    /// `tangent1End` and `tangent1End` → `tangent2End`;
    /// `CGMutablePath.addArc(tangent1End:tangent2End:radius:transform:)`.
    ///
    /// Degenerate input (coincident points, collinear lines, zero radius) adds a line to
    /// `tangent1End`. On an empty path it moves to `tangent1End` first (as HTML canvas does).
    public func addArc(
        tangent1End p1: CGPoint, tangent2End p2: CGPoint, radius: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        guard !elements.isEmpty else { return move(to: p1, transform: transform) }
        guard beginSegment() else { return }
        // The current point is already transformed; work in user space.
        let p0 = currentPoint.applying(transform.inverted())
        let v1 = CGPoint(x: p0.x - p1.x, y: p0.y - p1.y)
        let v2 = CGPoint(x: p2.x - p1.x, y: p2.y - p1.y)
        let len1 = hypot(v1.x, v1.y), len2 = hypot(v2.x, v2.y)
        let cross = v1.x * v2.y - v1.y * v2.x
        guard radius > 0, radius.isFinite, len1 > 0, len2 > 0,
              abs(cross) > 1e-12 * len1 * len2 else {
            elements.append(.line(to: p1.applying(transform)))
            return
        }
        let u1 = CGPoint(x: v1.x / len1, y: v1.y / len1)
        let u2 = CGPoint(x: v2.x / len2, y: v2.y / len2)
        let phi = acos(min(max(u1.x * u2.x + u1.y * u2.y, -1), 1))  // angle at p1
        let tangentDistance = radius / tan(phi / 2)
        let bisector = CGPoint(x: u1.x + u2.x, y: u1.y + u2.y)
        let bisectorLength = hypot(bisector.x, bisector.y)
        let centerDistance = radius / sin(phi / 2)
        let center = CGPoint(x: p1.x + bisector.x / bisectorLength * centerDistance,
                             y: p1.y + bisector.y / bisectorLength * centerDistance)
        let t1 = CGPoint(x: p1.x + u1.x * tangentDistance, y: p1.y + u1.y * tangentDistance)
        let startAngle = atan2(t1.y - center.y, t1.x - center.x)
        // Travelling p0 → p1 → p2 turns left (cross of directions > 0) ⇒ increasing angle;
        // the direction cross equals −cross(v1, v2).
        let sweep = (CGFloat.pi - phi) * (cross < 0 ? 1 : -1)
        elements.append(.line(to: t1.applying(transform)))
        appendArc(center: center, radius: radius, startAngle: startAngle, delta: sweep,
                  connect: false, transform: transform)
    }

    /// Emits an arc as ≤ 90° cubic segments; `connect` adds the joining line/move first.
    private func appendArc(
        center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
        connect: Bool, transform: CGAffineTransform
    ) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite,
              startAngle.isFinite, delta.isFinite else { return }
        func point(_ angle: CGFloat) -> CGPoint {
            CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
        if connect {
            let start = point(startAngle).applying(transform)
            elements.append(isSubpathOpen ? .line(to: start) : .move(to: start))
        }
        guard delta != 0 else { return }
        let count = max(1, Int((abs(delta) / (CGFloat.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / CGFloat(count)
        let k = 4 / 3 * tan(step / 4) * radius  // control-arm length
        for index in 0..<count {
            let a0 = startAngle + step * CGFloat(index)
            let a1 = index == count - 1 ? startAngle + delta : a0 + step
            let p0 = point(a0), p3 = point(a1)
            let c1 = CGPoint(x: p0.x - k * sin(a0), y: p0.y + k * cos(a0))
            let c2 = CGPoint(x: p3.x + k * sin(a1), y: p3.y - k * cos(a1))
            elements.append(
                .curve(to: p3.applying(transform), control1: c1.applying(transform),
                       control2: c2.applying(transform)))
        }
    }

    // MARK: - State helpers

    /// Whether the last subpath is open (there is a current point and it was not closed).
    private var isSubpathOpen: Bool {
        guard let last = elements.last else { return false }
        return last != .closeSubpath
    }

    /// Prepares for a segment: `false` without a current point; after `closeSubpath`
    /// inserts an explicit move to the subpath start so every subpath begins with a move.
    private func beginSegment() -> Bool {
        guard let last = elements.last else { return false }
        if last == .closeSubpath {
            elements.append(.move(to: subpathStart(before: elements.count) ?? .zero))
        }
        return true
    }
}

/// `x mod m` in `[0, m)` for positive `m`.
private func positiveRemainder(_ x: CGFloat, _ m: CGFloat) -> CGFloat {
    let r = x.truncatingRemainder(dividingBy: m)
    return r < 0 ? r + m : r
}
