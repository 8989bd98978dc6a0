import Foundation

// Core Animation's C-style transform functions, with its names, so ported code compiles unchanged.

/// The identity transform.
public let CATransform3DIdentity = CATransform3D.identity

/// True when `t` is the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t.isIdentity }

/// True when `a` and `b` are exactly equal.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool { a == b }

/// A translation by `(tx, ty, tz)`.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3D()
    (t.m41, t.m42, t.m43) = (tx, ty, tz)
    return t
}

/// A scale by `(sx, sy, sz)`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3D()
    (t.m11, t.m22, t.m33) = (sx, sy, sz)
    return t
}

/// A rotation by `angle` radians about the axis `(x, y, z)`; a zero axis gives the identity.
///
/// A positive angle about +z turns +x toward +y (clockwise on a y-down screen).
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return .identity }
    let (x, y, z) = (x / length, y / length, z / length)
    let c = cos(angle), s = sin(angle), k = 1 - c
    var t = CATransform3D()
    t.m11 = x * x * k + c; t.m12 = x * y * k + z * s; t.m13 = x * z * k - y * s
    t.m21 = x * y * k - z * s; t.m22 = y * y * k + c; t.m23 = y * z * k + x * s
    t.m31 = x * z * k + y * s; t.m32 = y * z * k - x * s; t.m33 = z * z * k + c
    return t
}

/// `translation · t`: the translation applied first, in `t`'s local space.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3DMakeTranslation(tx, ty, tz).concatenating(t)
}

/// `scale · t`: the scale applied first, in `t`'s local space.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3DMakeScale(sx, sy, sz).concatenating(t)
}

/// `rotation · t`: the rotation applied first, in `t`'s local space.
public func CATransform3DRotate(
    _ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
    CATransform3DMakeRotation(angle, x, y, z).concatenating(t)
}

/// `a · b`: apply `a`, then `b`.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { a.concatenating(b) }

/// The inverse of `t`, or `t` itself when it is singular (as Core Animation does).
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D { t.inverse ?? t }

/// The 3D transform equivalent to a 2D affine transform.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    var t = CATransform3D()
    (t.m11, t.m12, t.m21, t.m22, t.m41, t.m42) = (m.a, m.b, m.c, m.d, m.tx, m.ty)
    return t
}

/// True when `t` can be represented exactly as a 2D affine transform.
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool { t.isAffine }

/// The affine part of `t` (its x/y rows and translation); meaningful when `t` is affine.
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

/// A perspective transform with the eye at distance `d` (`m34 = -1/d`).
public func CATransform3DMakePerspective(_ distance: CGFloat) -> CATransform3D {
    var t = CATransform3D()
    t.m34 = distance == 0 ? 0 : -1 / distance
    return t
}
