import Foundation
import Geometry
import Layers

/// Where particles start and which way they go (§15.5): emission shapes and modes, and the
/// emission cone. Pure functions of uniform random inputs in [0, 1).
public enum EmitterGeometry {
    /// A start point on the emitter's shape for its mode. `cuboid` and `sphere` are taken in the
    /// plane z = `emitterZPosition` (as `rectangle` and `circle`); a circle's radius is
    /// `emitterSize.width` (not half of it, per the documentation).
    public static func startPoint(shape: CAEmitterLayerEmitterShape, mode: CAEmitterLayerEmitterMode,
                                  center: SIMD3<Double>, size: CGSize,
                                  _ r1: Double, _ r2: Double, _ r3: Double) -> SIMD3<Double> {
        let w = Double(size.width), h = Double(size.height)
        switch shape {
        case .line:
            if mode == .points { return center + SIMD3(r3 < 0.5 ? -w / 2 : w / 2, 0, 0) }
            return center + SIMD3((r1 - 0.5) * w, 0, 0)
        case .rectangle, .cuboid:
            switch mode {
            case .points:
                // The four corners.
                let corner = min(3, Int(r3 * 4))
                return center + SIMD3(corner & 1 == 0 ? -w / 2 : w / 2, corner < 2 ? -h / 2 : h / 2, 0)
            case .outline:
                return center + perimeterPoint(w: w, h: h, r1)
            default:
                return center + SIMD3((r1 - 0.5) * w, (r2 - 0.5) * h, 0)
            }
        case .circle, .sphere:
            let angle = 2 * Double.pi * r1
            switch mode {
            case .points: return center
            case .outline: return center + SIMD3(w * cos(angle), w * sin(angle), 0)
            default:
                // sqrt keeps the density uniform over the disc.
                let radius = w * r2.squareRoot()
                return center + SIMD3(radius * cos(angle), radius * sin(angle), 0)
            }
        default:
            return center
        }
    }

    /// A point uniform along the outline of a w×h rectangle centred on the origin.
    static func perimeterPoint(w: Double, h: Double, _ r: Double) -> SIMD3<Double> {
        let total = 2 * (w + h)
        guard total > 0 else { return .zero }
        var d = r * total
        if d < w { return SIMD3(d - w / 2, -h / 2, 0) }
        d -= w
        if d < h { return SIMD3(w / 2, d - h / 2, 0) }
        d -= h
        if d < w { return SIMD3(w / 2 - d, h / 2, 0) }
        d -= w
        return SIMD3(-w / 2, h / 2 - d, 0)
    }

    /// A unit direction uniform over the cone of half-angle `range/2` around
    /// `(cos φ·cos λ, cos φ·sin λ, sin φ)` (λ longitude from +x toward +y, φ latitude toward +z).
    public static func direction(longitude: Double, latitude: Double, range: Double,
                                 _ r1: Double, _ r2: Double) -> SIMD3<Double> {
        let axis = SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
        let half = min(Double.pi, max(0, abs(range) / 2))
        guard half > 0 else { return axis }
        // Uniform over the spherical cap: cos θ uniform in [cos half, 1].
        let cosTheta = 1 - r1 * (1 - cos(half))
        let sinTheta = max(0, 1 - cosTheta * cosTheta).squareRoot()
        let psi = 2 * Double.pi * r2
        let helper: SIMD3<Double> = abs(axis.z) < 0.9 ? SIMD3(0, 0, 1) : SIMD3(1, 0, 0)
        let e1 = normalize(cross(axis, helper))
        let e2 = cross(axis, e1)
        return axis * cosTheta + (e1 * cos(psi) + e2 * sin(psi)) * sinTheta
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    private static func normalize(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let length = (v * v).sum().squareRoot()
        return length > 0 ? v / length : v
    }
}
