import Foundation

/// Names of Core Animation's predefined timing curves. Core Animation: `CAMediaTimingFunctionName`.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// The curve of implicit animations, (0.25, 0.1) (0.25, 1) — CSS's `ease`.
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// A cubic Bézier pacing curve from (0,0) to (1,1). Core Animation: `CAMediaTimingFunction`.
///
/// Input is clamped to 0…1 (as Core Animation does); output is not, so control points with y
/// outside 0…1 overshoot. Control-point x values are clamped into 0…1 to keep x(s) monotonic.
public final class CAMediaTimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The two inner control points, stored as 32-bit floats like Core Animation's.
    public let c1: (x: Float, y: Float)
    public let c2: (x: Float, y: Float)
    /// The name it was made from, if any.
    public let name: CAMediaTimingFunctionName?

    /// The curve's math, a value (animations keep a copy inline to sample it every frame).
    public let curve: TimingCurve

    /// A curve with control points (c1x, c1y) and (c2x, c2y).
    public convenience init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.init(c1x, c1y, c2x, c2y, name: nil)
    }

    /// One of the predefined curves. An unknown name (Apple raises an exception) gives an invalid
    /// curve, whose control points are NaN: an animation timed by it changes nothing.
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .linear: self.init(0, 0, 1, 1, name: name)
        case .easeIn: self.init(0.42, 0, 1, 1, name: name)
        case .easeOut: self.init(0, 0, 0.58, 1, name: name)
        case .easeInEaseOut: self.init(0.42, 0, 0.58, 1, name: name)
        case .default: self.init(0.25, 0.1, 0.25, 1, name: name)
        default: self.init(.nan, .nan, .nan, .nan, name: name)
        }
    }

    /// Whether every control point is finite; animations timed by an invalid curve are inert.
    public var isValid: Bool { c1.x.isFinite && c1.y.isFinite && c2.x.isFinite && c2.y.isFinite }

    private init(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, name: CAMediaTimingFunctionName?) {
        c1 = (c1x, c1y); c2 = (c2x, c2y); self.name = name
        curve = TimingCurve(c1x, c1y, c2x, c2y)
    }

    /// Control point `index` (0…3): (0,0), c1, c2, (1,1). Core Animation: `getControlPoint(at:values:)`.
    public func controlPoint(at index: Int) -> (x: Float, y: Float) {
        switch index {
        case 0: (0, 0)
        case 1: c1
        case 2: c2
        default: (1, 1)
        }
    }

    /// Core Animation's `getControlPoint(at:values:)`.
    public func getControlPoint(at index: Int, values: UnsafeMutablePointer<Float>) {
        let p = controlPoint(at: index)
        values[0] = p.x; values[1] = p.y
    }

    /// The curve's output for input fraction `u` (clamped to 0…1).
    public func solve(_ u: Double) -> Double { curve.solve(u) }

    /// Core Animation's private `_solveForInput:`, kept for ported tests.
    public func _solve(forInput u: Float) -> Float { Float(solve(Double(u))) }

    public static func == (a: CAMediaTimingFunction, b: CAMediaTimingFunction) -> Bool {
        a.c1 == b.c1 && a.c2 == b.c2
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(c1.x); hasher.combine(c1.y); hasher.combine(c2.x); hasher.combine(c2.y)
    }
    public var description: String {
        name.map { "CAMediaTimingFunction(\($0.rawValue))" } ?? "CAMediaTimingFunction(\(c1.x), \(c1.y), \(c2.x), \(c2.y))"
    }
}
