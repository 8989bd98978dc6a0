import Foundation

/// A 3×3 matrix as three row vectors (row-vector convention, like `CATransform3D`).
public struct Matrix3: Hashable, Sendable {
    public var r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>
    public init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) { (self.r0, self.r1, self.r2) = (r0, r1, r2) }
}

/// A unit quaternion `(x, y, z, w)` for 3D rotations.
public struct Quaternion: Hashable, Sendable {
    public var x: Double, y: Double, z: Double, w: Double
    public init(x: Double, y: Double, z: Double, w: Double) { (self.x, self.y, self.z, self.w) = (x, y, z, w) }
    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// Spherical interpolation along the shorter arc.
    public func slerp(to other: Quaternion, fraction t: Double) -> Quaternion {
        var b = other
        var dot = x * b.x + y * b.y + z * b.z + w * b.w
        if dot < 0 { b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w); dot = -dot }
        let wa: Double, wb: Double
        if dot > 0.9999995 {
            (wa, wb) = (1 - t, t)  // nearly parallel: lerp is exact enough and avoids 0/0
        } else {
            let theta = acos(min(1, dot)), s = sin(theta)
            (wa, wb) = (sin((1 - t) * theta) / s, sin(t * theta) / s)
        }
        return Quaternion(x: wa * x + wb * b.x, y: wa * y + wb * b.y, z: wa * z + wb * b.z, w: wa * w + wb * b.w).normalized
    }

    var normalized: Quaternion {
        let n = (x * x + y * y + z * z + w * w).squareRoot()
        return n > 0 && n.isFinite ? Quaternion(x: x / n, y: y / n, z: z / n, w: w / n) : .identity
    }

    /// The row-vector rotation matrix (the transpose of the usual column-vector one).
    public var rowMatrix: Matrix3 {
        Matrix3(SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
                SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
                SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))
    }

    /// The quaternion of an orthonormal row-vector rotation matrix (Shepperd's method).
    public init(rowMatrix r: Matrix3) {
        // Work on the column-vector matrix c = rᵀ: c[i][j] = r[j][i].
        let c00 = r.r0.x, c11 = r.r1.y, c22 = r.r2.z
        let c21 = r.r1.z, c12 = r.r2.y, c02 = r.r2.x, c20 = r.r0.z, c10 = r.r0.y, c01 = r.r1.x
        let trace = c00 + c11 + c22
        let q: Quaternion
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = Quaternion(x: (c21 - c12) / s, y: (c02 - c20) / s, z: (c10 - c01) / s, w: s / 4)
        } else if c00 > c11 && c00 > c22 {
            let s = (max(0, 1 + c00 - c11 - c22)).squareRoot() * 2
            q = Quaternion(x: s / 4, y: (c01 + c10) / s, z: (c02 + c20) / s, w: (c21 - c12) / s)
        } else if c11 > c22 {
            let s = (max(0, 1 + c11 - c00 - c22)).squareRoot() * 2
            q = Quaternion(x: (c01 + c10) / s, y: s / 4, z: (c12 + c21) / s, w: (c02 - c20) / s)
        } else {
            let s = (max(0, 1 + c22 - c00 - c11)).squareRoot() * 2
            q = Quaternion(x: (c02 + c20) / s, y: (c12 + c21) / s, z: s / 4, w: (c10 - c01) / s)
        }
        self = q.normalized
    }
}

/// A transform split into parts that interpolate well: `M = S · K · R · T · P` in row-vector order
/// (scale, then skew, then rotation, then translation, then the perspective part).
///
/// The perspective part `P = [[I, p], [0, w]]` carries `m14 m24 m34 m44`; keeping it last means a
/// transform built as `t.m34 = -1/d; CATransform3DRotate(t, …)` round-trips exactly.
public struct TransformComponents: Hashable, Sendable {
    public var scale = SIMD3<Double>(1, 1, 1)
    /// Shear factors (xy, xz, yz): the lower triangle of the unit matrix K.
    public var skew = SIMD3<Double>(0, 0, 0)
    public var rotation = Quaternion.identity
    public var translation = SIMD3<Double>(0, 0, 0)
    /// (px, py, pz, w) of the perspective part.
    public var perspective = SIMD4<Double>(0, 0, 0, 1)

    public init() {}

    /// Euler angles (radians) with `R = Rx(x) · Ry(y) · Rz(z)` in row-vector order.
    public var eulerAngles: SIMD3<Double> {
        get {
            let r = rotation.rowMatrix
            let sy = max(-1, min(1, -r.r0.z))
            let y = asin(sy)
            guard abs(sy) < 0.999999 else {
                return SIMD3(atan2(-r.r2.y, r.r1.y), y, 0)  // gimbal lock: fold z into x
            }
            let primary = SIMD3(atan2(r.r1.z, r.r2.z), y, atan2(r.r0.y, r.r0.x))
            // (x, y, z) and (x + π, π − y, z + π) are the same rotation; prefer the one that keeps
            // x and z small, so a lone y rotation past 90° reads back as itself.
            func wrap(_ a: Double) -> Double { atan2(sin(a), cos(a)) }
            let alternate = SIMD3(wrap(primary.x + .pi), wrap(.pi - primary.y), wrap(primary.z + .pi))
            return abs(alternate.x) + abs(alternate.z) < abs(primary.x) + abs(primary.z) - 1e-12 ? alternate : primary
        }
        set {
            // q = qx · qy · qz in row-vector order (x applied first).
            func axis(_ angle: Double, _ i: Int) -> Quaternion {
                let s = sin(angle / 2), c = cos(angle / 2)
                return Quaternion(x: i == 0 ? s : 0, y: i == 1 ? s : 0, z: i == 2 ? s : 0, w: c)
            }
            rotation = axis(newValue.z, 2).multiplied(by: axis(newValue.y, 1)).multiplied(by: axis(newValue.x, 0)).normalized
        }
    }

    /// Linear interpolation of every part except rotation, which is slerped along the shorter arc.
    public func interpolated(to b: TransformComponents, fraction t: Double) -> TransformComponents {
        var r = TransformComponents()
        r.scale = scale + (b.scale - scale) * t
        r.skew = skew + (b.skew - skew) * t
        r.rotation = rotation.slerp(to: b.rotation, fraction: t)
        r.translation = translation + (b.translation - translation) * t
        r.perspective = perspective + (b.perspective - perspective) * t
        return r
    }

    /// Rebuilds the matrix `S · K · R · T · P`.
    public var transform: CATransform3D {
        let r = rotation.rowMatrix
        let a0 = scale.x * r.r0
        let a1 = scale.y * (skew.x * r.r0 + r.r1)
        let a2 = scale.z * (skew.y * r.r0 + skew.z * r.r1 + r.r2)
        let p = SIMD3(perspective.x, perspective.y, perspective.z)
        let m44 = (translation * p).sum() + perspective.w
        return CATransform3D(
            m11: CGFloat(a0.x), m12: CGFloat(a0.y), m13: CGFloat(a0.z), m14: CGFloat((a0 * p).sum()),
            m21: CGFloat(a1.x), m22: CGFloat(a1.y), m23: CGFloat(a1.z), m24: CGFloat((a1 * p).sum()),
            m31: CGFloat(a2.x), m32: CGFloat(a2.y), m33: CGFloat(a2.z), m34: CGFloat((a2 * p).sum()),
            m41: CGFloat(translation.x), m42: CGFloat(translation.y), m43: CGFloat(translation.z), m44: CGFloat(m44))
    }
}

extension Quaternion {
    /// The Hamilton product `self · other` (as rotations: `other` first, then `self`, for column
    /// vectors; in row-vector order `other · self`… used only to compose axis rotations above).
    func multiplied(by o: Quaternion) -> Quaternion {
        Quaternion(x: w * o.x + x * o.w + y * o.z - z * o.y,
                   y: w * o.y - x * o.z + y * o.w + z * o.x,
                   z: w * o.z + x * o.y - y * o.x + z * o.w,
                   w: w * o.w - x * o.x - y * o.y - z * o.z)
    }
}

extension CATransform3D {
    /// Splits the matrix into scale, skew, rotation, translation and perspective,
    /// or `nil` when it cannot be decomposed (`m44 == 0` or a singular 3×3 part with perspective).
    public var components: TransformComponents? {
        guard m44 != 0, m44.isFinite else { return nil }
        var result = TransformComponents()
        if isAffine {
            // The common case (2D transforms): no perspective or z terms to untangle.
            guard let planar = planarComponents else { return nil }
            return planar
        }
        let k = 1 / Double(m44)
        var row0 = SIMD3<Double>(Double(m11), Double(m12), Double(m13)) * k
        var row1 = SIMD3<Double>(Double(m21), Double(m22), Double(m23)) * k
        var row2 = SIMD3<Double>(Double(m31), Double(m32), Double(m33)) * k
        let t = SIMD3<Double>(Double(m41), Double(m42), Double(m43)) * k
        let c = SIMD3<Double>(Double(m14), Double(m24), Double(m34)) * k
        result.translation = t

        // Perspective: column 4 is A·p on top and t·p + w at the bottom.
        if c != .zero {
            // p = A⁻¹·c by Cramer's rule (A's rows are row0…row2).
            func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
                SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
            }
            let c12 = cross(row1, row2)
            let det = (row0 * c12).sum()
            guard abs(det) > 1e-300 else { return nil }
            // Columns of A⁻¹ are (row1×row2, row2×row0, row0×row1)/det.
            let p = (c12 * c.x + cross(row2, row0) * c.y + cross(row0, row1) * c.z) / det
            result.perspective = SIMD4(p.x, p.y, p.z, 1 - (t * p).sum())
        }

        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        let lengths = SIMD3(length(row0), length(row1), length(row2))
        if lengths.min() < 1e-12 {
            // A collapsed axis has no rotation to recover: keep the scales and translation.
            result.scale = lengths
            return result
        }
        var sx = lengths.x
        row0 /= sx
        var xy = (row0 * row1).sum(); row1 -= xy * row0
        var sy = length(row1); guard sy > 1e-12 else { return nil }
        row1 /= sy; xy /= sy
        var xz = (row0 * row2).sum(); row2 -= xz * row0
        var yz = (row1 * row2).sum(); row2 -= yz * row1
        var sz = length(row2); guard sz > 1e-12 else { return nil }
        row2 /= sz; xz /= sz; yz /= sz
        // A left-handed basis: negating both S and R leaves S·K·R unchanged, K included.
        let cross = SIMD3(row1.y * row2.z - row1.z * row2.y, row1.z * row2.x - row1.x * row2.z, row1.x * row2.y - row1.y * row2.x)
        if (row0 * cross).sum() < 0 {
            sx = -sx; sy = -sy; sz = -sz
            row0 = -row0; row1 = -row1; row2 = -row2
        }
        result.scale = SIMD3(sx, sy, sz)
        result.skew = SIMD3(xy, xz, yz)
        result.rotation = Quaternion(rowMatrix: Matrix3(row0, row1, row2))
        return result
    }

    /// Decomposition of an affine (2D) matrix: z rotation, x/y scale and skew.
    private var planarComponents: TransformComponents? {
        var result = TransformComponents()
        result.translation = SIMD3(Double(m41), Double(m42), 0)
        let a0 = SIMD2<Double>(Double(m11), Double(m12)), a1 = SIMD2<Double>(Double(m21), Double(m22))
        var sx = (a0 * a0).sum().squareRoot()
        let length1 = (a1 * a1).sum().squareRoot()
        if sx < 1e-12 || length1 < 1e-12 {
            result.scale = SIMD3(sx, length1, 1)
            return result
        }
        var r0 = a0 / sx
        var xy = (r0 * a1).sum()
        var r1 = a1 - xy * r0
        let sy = (r1 * r1).sum().squareRoot()
        guard sy > 1e-12 else { return nil }
        r1 /= sy; xy /= sy
        if r0.x * r1.y - r0.y * r1.x < 0 {
            // A reflection: negate the x axis (scale, row and shear) so the rotation is proper.
            sx = -sx; r0 = -r0; xy = -xy
        }
        let angle = atan2(r0.y, r0.x)
        result.scale = SIMD3(sx, sy, 1)
        result.skew = SIMD3(xy, 0, 0)
        result.rotation = Quaternion(x: 0, y: 0, z: sin(angle / 2), w: cos(angle / 2))
        return result
    }

    /// Interpolates by decomposition (rotation along the shorter arc); falls back to
    /// switching at the half-way point when either end cannot be decomposed.
    public func interpolated(to other: CATransform3D, fraction: Double) -> CATransform3D {
        if fraction == 0 { return self }
        if fraction == 1 { return other }
        return TransformInterpolation(from: self, to: other).value(at: fraction)
    }
}

/// Interpolation between two fixed transforms with both ends decomposed once, for animations
/// whose endpoints do not change between frames (`CATransform3D.interpolated` decomposes both
/// ends at every call).
public struct TransformInterpolation: Sendable {
    public let start: CATransform3D, end: CATransform3D
    private let components: (TransformComponents, TransformComponents)?

    public init(from start: CATransform3D, to end: CATransform3D) {
        self.start = start; self.end = end
        if let a = start.components, let b = end.components { components = (a, b) } else { components = nil }
    }

    /// The transform a fraction of the way (the result of `start.interpolated(to: end, fraction:)`).
    public func value(at fraction: Double) -> CATransform3D {
        if fraction == 0 { return start }
        if fraction == 1 { return end }
        guard let (a, b) = components else { return fraction < 0.5 ? start : end }
        return a.interpolated(to: b, fraction: fraction).transform
    }
}
