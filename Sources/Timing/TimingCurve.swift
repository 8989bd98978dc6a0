import Foundation

/// The math of a `CAMediaTimingFunction` as a value: the cubic Bézier's polynomial coefficients
/// and its solver. The class holds one; compiled animations keep a copy inline, so sampling a
/// curve every frame reads no other object.
public struct TimingCurve: Sendable, Equatable {
    // Polynomial coefficients of x(s) and y(s).
    private let ax: Double, bx: Double, cx: Double, ay: Double, by: Double, cy: Double
    /// Control points on the diagonal (`linear`): y(s) = x(s), so the output is the input
    /// exactly — solving would land a rounding error off, and key times must hit their values.
    private let isIdentity: Bool

    /// The curve through (0,0), (c1x, c1y), (c2x, c2y), (1,1); x values are clamped into 0…1.
    public init(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        let x1 = Double(min(max(c1x, 0), 1)), x2 = Double(min(max(c2x, 0), 1))
        let y1 = Double(c1y), y2 = Double(c2y)
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
        isIdentity = x1 == y1 && x2 == y2
    }

    /// The curve's output for input fraction `u` (clamped to 0…1).
    public func solve(_ u: Double) -> Double {
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        if isIdentity { return u }
        let s = parameter(forX: u)
        return ((ay * s + by) * s + cy) * s
    }

    private func x(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    private func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    // Newton from s = u (fast, quadratic), then bisection where the slope vanishes.
    private func parameter(forX u: Double) -> Double {
        let epsilon = 1e-9
        var s = u
        for _ in 0..<8 {
            let error = x(s) - u
            if abs(error) < epsilon { return s }
            let slope = dx(s)
            if abs(slope) < 1e-6 { break }
            s -= error / slope
        }
        var low = 0.0, high = 1.0
        s = u
        for _ in 0..<64 {
            let value = x(s)
            if abs(value - u) < epsilon { break }
            if value < u { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }
}
