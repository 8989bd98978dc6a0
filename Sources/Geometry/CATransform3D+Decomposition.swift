import Foundation

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
        var q = Quaternion(x: wa * x + wb * b.x, y: wa * y + wb * b.y, z: wa * z + wb * b.z, w: wa * w + wb * b.w)
        let n = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).squareRoot()
        if n > 0 { q = Quaternion(x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n) }
        return q
    }
}

/// A transform split into parts that interpolate well: `M = S · K · R · T · P` in row-vector order
/// (scale, then skew, then rotation, then translation, then the perspective part).
///
/// The perspective part `P = [[I, p], [0, w]]` carries `m14 m24 m34 m44`; keeping it last means a
/// transform built as `t.m34 = -1/d; CATransform3DRotate(t, …)` round-trips exactly.
public struct TransformComponents: Hashable, Sendable {
    public var scale: (x: Double, y: Double, z: Double)
    /// Shear factors xy, xz, yz (rows of the unit lower-triangular K).
    public var skew: (xy: Double, xz: Double, yz: Double)
    public var rotation: Quaternion
    public var translation: (x: Double, y: Double, z: Double)
    public var perspective: (x: Double, y: Double, z: Double, w: Double)

    public init() {
        scale = (1, 1, 1); skew = (0, 0, 0); rotation = .identity
        translation = (0, 0, 0); perspective = (0, 0, 0, 1)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.scale == b.scale && a.skew == b.skew && a.rotation == b.rotation
            && a.translation == b.translation && a.perspective == b.perspective
    }
    public func hash(into h: inout Hasher) {
        for v in [scale.x, scale.y, scale.z, skew.xy, skew.xz, skew.yz, translation.x, translation.y, translation.z] {
            h.combine(v)
        }
        h.combine(rotation)
    }

    /// Euler angles (radians) with `R = Rx(x) · Ry(y) · Rz(z)` in row-vector order.
    public var eulerAngles: (x: Double, y: Double, z: Double) {
        get {
            let r = rotation.rowMatrix
            let sy = max(-1, min(1, -r[0][2]))
            let y = asin(sy)
            guard abs(sy) < 0.999999 else {
                return (atan2(-r[2][1], r[1][1]), y, 0)  // gimbal lock: fold z into x
            }
            let primary = (x: atan2(r[1][2], r[2][2]), y: y, z: atan2(r[0][1], r[0][0]))
            // (x, y, z) and (x + π, π − y, z + π) are the same rotation; prefer the one that keeps
            // x and z small, so a lone y rotation past 90° reads back as itself.
            func wrap(_ a: Double) -> Double { atan2(sin(a), cos(a)) }
            let alternate = (x: wrap(primary.x + .pi), y: wrap(.pi - primary.y), z: wrap(primary.z + .pi))
            return abs(alternate.x) + abs(alternate.z) < abs(primary.x) + abs(primary.z) - 1e-12 ? alternate : primary
        }
        set {
            let rx = CATransform3DMakeRotation(newValue.x, 1, 0, 0)
            let ry = CATransform3DMakeRotation(newValue.y, 0, 1, 0)
            let rz = CATransform3DMakeRotation(newValue.z, 0, 0, 1)
            let m = rx.concatenating(ry).concatenating(rz)
            rotation = Quaternion(rowMatrix: [[m.m11, m.m12, m.m13], [m.m21, m.m22, m.m23], [m.m31, m.m32, m.m33]])
        }
    }

    /// Linear interpolation of every part except rotation, which is slerped along the shorter arc.
    public func interpolated(to b: TransformComponents, fraction t: Double) -> TransformComponents {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        var r = TransformComponents()
        r.scale = (mix(scale.x, b.scale.x), mix(scale.y, b.scale.y), mix(scale.z, b.scale.z))
        r.skew = (mix(skew.xy, b.skew.xy), mix(skew.xz, b.skew.xz), mix(skew.yz, b.skew.yz))
        r.rotation = rotation.slerp(to: b.rotation, fraction: t)
        r.translation = (mix(translation.x, b.translation.x), mix(translation.y, b.translation.y),
                         mix(translation.z, b.translation.z))
        r.perspective = (mix(perspective.x, b.perspective.x), mix(perspective.y, b.perspective.y),
                         mix(perspective.z, b.perspective.z), mix(perspective.w, b.perspective.w))
        return r
    }

    /// Rebuilds the matrix `S · K · R · T · P`.
    public var transform: CATransform3D {
        let r = rotation.rowMatrix
        let k = [[1, 0, 0], [skew.xy, 1, 0], [skew.xz, skew.yz, 1]]
        let s = [scale.x, scale.y, scale.z]
        var a = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0..<3 {
                var sum = 0.0
                for n in 0..<3 { sum += k[i][n] * r[n][j] }
                a[i][j] = s[i] * sum
            }
        }
        let p = [perspective.x, perspective.y, perspective.z]
        let t = [translation.x, translation.y, translation.z]
        var m = CATransform3D()
        for i in 0..<3 {
            for j in 0..<3 { m[i, j] = CGFloat(a[i][j]) }
            m[i, 3] = CGFloat(a[i][0] * p[0] + a[i][1] * p[1] + a[i][2] * p[2])
        }
        for j in 0..<3 { m[3, j] = CGFloat(t[j]) }
        m[3, 3] = CGFloat(t[0] * p[0] + t[1] * p[1] + t[2] * p[2] + perspective.w)
        return m
    }
}

extension Quaternion {
    /// The row-vector rotation matrix (the transpose of the usual column-vector one).
    public var rowMatrix: [[Double]] {
        [[1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
         [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
         [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]]
    }

    /// The quaternion of an orthonormal row-vector rotation matrix (Shepperd's method).
    public init(rowMatrix r: [[Double]]) {
        // Work on the column-vector matrix c = rᵀ.
        let c00 = r[0][0], c11 = r[1][1], c22 = r[2][2]
        let c21 = r[1][2], c12 = r[2][1], c02 = r[2][0], c20 = r[0][2], c10 = r[0][1], c01 = r[1][0]
        let trace = c00 + c11 + c22
        var q: Quaternion
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
        let n = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).squareRoot()
        self = n > 0 && n.isFinite ? Quaternion(x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n) : .identity
    }
}

extension CATransform3D {
    /// Splits the matrix into scale, skew, rotation, translation and perspective,
    /// or `nil` when it cannot be decomposed (`m44 == 0` or a singular 3×3 part).
    public var components: TransformComponents? {
        guard m44 != 0, m44.isFinite else { return nil }
        var m = self
        for i in 0..<16 { m[i / 4, i % 4] /= m44 }
        var rows: [[Double]] = (0..<3).map { i in (0..<3).map { j in Double(m[i, j]) } }
        let t = (Double(m.m41), Double(m.m42), Double(m.m43))
        let c = [Double(m.m14), Double(m.m24), Double(m.m34)]

        // Perspective: column 4 = A·p on top and t·p + w at the bottom.
        var result = TransformComponents()
        result.translation = t
        if c != [0, 0, 0] {
            var a = CATransform3D()
            for i in 0..<3 { for j in 0..<3 { a[i, j] = CGFloat(rows[i][j]) } }
            guard let inverse = a.inverse else { return nil }
            var p = [0.0, 0.0, 0.0]
            for i in 0..<3 { for j in 0..<3 { p[i] += Double(inverse[i, j]) * c[j] } }
            result.perspective = (p[0], p[1], p[2], 1 - (t.0 * p[0] + t.1 * p[1] + t.2 * p[2]))
        }

        func length(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
        func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        func combine(_ a: [Double], _ b: [Double], _ k: Double) -> [Double] { [a[0] - k * b[0], a[1] - k * b[1], a[2] - k * b[2]] }
        func scaled(_ a: [Double], _ k: Double) -> [Double] { [a[0] * k, a[1] * k, a[2] * k] }

        let lengths = rows.map(length)
        if lengths.contains(where: { $0 < 1e-12 }) {
            // A collapsed axis has no rotation to recover: keep the scales and translation.
            result.scale = (lengths[0], lengths[1], lengths[2])
            return result
        }
        var sx = length(rows[0])
        rows[0] = scaled(rows[0], 1 / sx)
        var xy = dot(rows[0], rows[1]); rows[1] = combine(rows[1], rows[0], xy)
        var sy = length(rows[1]); guard sy > 1e-12 else { return nil }
        rows[1] = scaled(rows[1], 1 / sy); xy /= sy
        var xz = dot(rows[0], rows[2]); rows[2] = combine(rows[2], rows[0], xz)
        var yz = dot(rows[1], rows[2]); rows[2] = combine(rows[2], rows[1], yz)
        var sz = length(rows[2]); guard sz > 1e-12 else { return nil }
        rows[2] = scaled(rows[2], 1 / sz); xz /= sz; yz /= sz
        // A left-handed basis: flip everything so the rotation is proper.
        let cross = [rows[1][1] * rows[2][2] - rows[1][2] * rows[2][1],
                     rows[1][2] * rows[2][0] - rows[1][0] * rows[2][2],
                     rows[1][0] * rows[2][1] - rows[1][1] * rows[2][0]]
        if dot(rows[0], cross) < 0 {
            // Negating both S and R leaves S·K·R unchanged, K included.
            sx = -sx; sy = -sy; sz = -sz
            rows = rows.map { scaled($0, -1) }
        }
        result.scale = (sx, sy, sz)
        result.skew = (xy, xz, yz)
        result.rotation = Quaternion(rowMatrix: rows)
        return result
    }

    /// Interpolates by decomposition (rotation along the shorter arc); falls back to
    /// switching at the half-way point when either end cannot be decomposed.
    public func interpolated(to other: CATransform3D, fraction: Double) -> CATransform3D {
        if fraction == 0 { return self }
        if fraction == 1 { return other }
        guard let a = components, let b = other.components else { return fraction < 0.5 ? self : other }
        return a.interpolated(to: b, fraction: fraction).transform
    }
}
