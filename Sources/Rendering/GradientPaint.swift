import Foundation
import Geometry
import Layers

/// A `CAGradientLayer`'s colours resolved for drawing (§15.2): stops with non-decreasing
/// locations, straight-alpha colours, and the start and end points in the unit space of the
/// layer's bounds. Both backends compute the same colour per pixel from it.
public struct GradientPaint: Sendable, Equatable {
    /// The most stops a gradient draws with (the shader's uniform arrays); later ones are dropped.
    public static let maximumStops = 16

    public var type: CAGradientLayerType
    /// Straight-alpha sRGB colours, components 0…1.
    public var colors: [SIMD4<Float>]
    /// One per colour, non-decreasing.
    public var locations: [Float]
    public var startPoint: CGPoint
    public var endPoint: CGPoint

    /// The paint of a gradient layer; nil when it has no colours (it draws nothing).
    public init?(_ g: GradientProperties) {
        guard let colors = g.colors?.prefix(Self.maximumStops), !colors.isEmpty else { return nil }
        self.colors = colors.map { c in
            SIMD4(Float(c.red), Float(c.green), Float(c.blue), Float(c.alpha)).clamped(lowerBound: .zero, upperBound: .one)
        }
        let n = self.colors.count
        // A locations array of another length is ignored (even spacing), as keyTimes are (E68).
        if let given = g.locations, given.count == g.colors?.count {
            var previous = -Float.infinity
            // Decreasing locations are raised to their predecessor: a hard edge.
            locations = given.prefix(n).map { v in previous = max(previous, Float(v)); return previous }
        } else {
            locations = (0..<n).map { n == 1 ? 0 : Float($0) / Float(n - 1) }
        }
        type = g.type
        startPoint = g.startPoint
        endPoint = g.endPoint
    }

    /// The gradient with every stop colour multiplied by a straight-alpha tint.
    public func tinted(by tint: SIMD4<Float>?) -> GradientPaint {
        guard let tint else { return self }
        var g = self
        g.colors = colors.map { $0 * tint }
        return g
    }

    /// How t follows from a point: `type` as an enumeration (the type is a string, too slow to
    /// compare for every pixel).
    public enum Kind: Sendable {
        case axial, radial, conic
    }

    /// The kind of `type` (unknown types draw as axial).
    public var kind: Kind { type == .radial ? .radial : type == .conic ? .conic : .axial }

    /// The gradient parameter t at unit-space point `p` (§15.2).
    public func parameter(_ p: SIMD2<Float>) -> Float { parameter(p, kind: kind) }

    /// `parameter(_:)` with the kind found once. Inlinable: the CPU backend calls it for
    /// every pixel of a gradient.
    @inlinable @inline(__always)
    public func parameter(_ p: SIMD2<Float>, kind: Kind) -> Float {
        let s = SIMD2(Float(startPoint.x), Float(startPoint.y)), e = SIMD2(Float(endPoint.x), Float(endPoint.y))
        let d = e - s, q = p - s
        switch kind {
        case .radial:
            // A degenerate ellipse paints the last colour everywhere.
            guard d.x != 0, d.y != 0 else { return .infinity }
            let r = q / d
            return (r.x * r.x + r.y * r.y).squareRoot()
        case .conic:
            guard d.x != 0 || d.y != 0 else { return 0 }
            let turn = (Foundation.atan2(q.y, q.x) - Foundation.atan2(d.y, d.x)) / (2 * Float.pi)
            return turn - turn.rounded(.down)
        case .axial:
            let length = d.x * d.x + d.y * d.y
            guard length > 0 else { return 0 }
            return (q.x * d.x + q.y * d.y) / length
        }
    }

    /// The premultiplied colour at parameter t: linear between stops in straight alpha, padded
    /// with the end colours.
    @inlinable @inline(__always)
    public func color(at t: Float) -> SIMD4<Float> {
        var c = colors[colors.count - 1]
        if t <= locations[0] {
            c = colors[0]
        } else {
            for i in 1..<colors.count where t <= locations[i] {
                let span = locations[i] - locations[i - 1]
                let f = span > 0 ? (t - locations[i - 1]) / span : 1
                c = colors[i - 1] + (colors[i] - colors[i - 1]) * f
                break
            }
        }
        return SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w)
    }
}
