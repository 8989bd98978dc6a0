import Foundation

/// A 2-D affine transformation matrix; the Core Graphics `CGAffineTransform` counterpart.
///
/// Uses Apple's row-vector convention: a point `(x, y)` maps to
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`. Angles are in radians and
/// rotate from +x toward +y.
public struct CGAffineTransform: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The entry in the first row, first column (x scale / rotation).
    public var a: CGFloat
    /// The entry in the first row, second column (y shear / rotation).
    public var b: CGFloat
    /// The entry in the second row, first column (x shear / rotation).
    public var c: CGFloat
    /// The entry in the second row, second column (y scale / rotation).
    public var d: CGFloat
    /// The x translation, in points.
    public var tx: CGFloat
    /// The y translation, in points.
    public var ty: CGFloat

    /// Creates a transform from its six matrix entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// Creates the identity transform, like `CGAffineTransform()` on Apple platforms.
    public init() {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    }

    /// Creates a transform that translates by `(x, y)` points; `CGAffineTransformMakeTranslation`.
    public init(translationX x: CGFloat, y: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// Creates a transform that scales by `(x, y)`; `CGAffineTransformMakeScale`.
    public init(scaleX x: CGFloat, y: CGFloat) {
        self.init(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Creates a rotation by `angle` radians (from +x toward +y); `CGAffineTransformMakeRotation`.
    public init(rotationAngle angle: CGFloat) {
        let cosine = cos(angle)
        let sine = sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// The identity transform; `CGAffineTransformIdentity`.
    public static let identity = CGAffineTransform()

    /// Whether this is exactly the identity transform; `CGAffineTransformIsIdentity`.
    public var isIdentity: Bool { self == .identity }

    /// Returns `self` preceded by a translation of `(x, y)` points; `CGAffineTransformTranslate`.
    ///
    /// The translation happens in the transform's own (pre-transform) space.
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// Returns `self` preceded by a scale of `(x, y)`; `CGAffineTransformScale`.
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// Returns `self` preceded by a rotation of `angle` radians; `CGAffineTransformRotate`.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// Returns the inverse transform, or `self` unchanged when the matrix is singular,
    /// exactly like `CGAffineTransformInvert`.
    public func inverted() -> CGAffineTransform {
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return self }
        let ia = d / determinant
        let ib = -b / determinant
        let ic = -c / determinant
        let id = a / determinant
        return CGAffineTransform(
            a: ia, b: ib, c: ic, d: id,
            tx: -(tx * ia + ty * ic),
            ty: -(tx * ib + ty * id))
    }

    /// Returns the transform that applies `self` first and then `other`; `CGAffineTransformConcat`.
    public func concatenating(_ other: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// Formats like Apple: `CGAffineTransform(a: 1.0, b: 0.0, c: 0.0, d: 1.0, tx: 0.0, ty: 0.0)`.
    public var description: String {
        "CGAffineTransform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))"
    }
}

extension CGPoint {
    /// Returns the point mapped by `t`; `CGPointApplyAffineTransform`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// Returns the size mapped by `t`, ignoring translation; `CGSizeApplyAffineTransform`.
    ///
    /// Like Apple, the result may have negative components (no absolute value is taken).
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// Returns the axis-aligned bounding box of the rectangle's four mapped corners;
    /// `CGRectApplyAffineTransform`. Null and infinite rectangles are returned unchanged.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull || isInfinite { return self }
        if t.isIdentity { return standardized }
        let corners = [
            CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
            CGPoint(x: maxX, y: maxY), CGPoint(x: minX, y: maxY),
        ].map { $0.applying(t) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let lowX = xs.min() ?? 0, highX = xs.max() ?? 0
        let lowY = ys.min() ?? 0, highY = ys.max() ?? 0
        return CGRect(x: lowX, y: lowY, width: highX - lowX, height: highY - lowY)
    }
}
