import Foundation
import Geometry

extension CALayer {
    /// The layer's rectangle in its superlayer: the box around the bounds mapped by
    /// anchor, transform and position. Setting it sets `position` and `bounds.size` so the frame
    /// reads back unchanged (under a scale or rotation the bounds shrink or grow accordingly).
    public var frame: CGRect {
        get { properties.frame }
        set {
            let t = transform
            var size = newValue.size
            if !t.isIdentity {
                // The box of an affine map: W = |a|w + |c|h, H = |b|w + |d|h; solve for (w, h).
                let a = abs(t.m11), b = abs(t.m12), c = abs(t.m21), d = abs(t.m22)
                let det = a * d - b * c
                if abs(det) > 1e-12 {
                    size = CGSize(width: (d * newValue.width - c * newValue.height) / det,
                                  height: (a * newValue.height - b * newValue.width) / det)
                }
            }
            var newBounds = bounds
            newBounds.size = size
            bounds = newBounds
            // The bounds centre maps to the frame centre; the anchor lands on `position`.
            let offset = CGPoint(x: (0.5 - anchorPoint.x) * size.width, y: (0.5 - anchorPoint.y) * size.height)
            let mapped = CGPoint(x: offset.x * t.m11 + offset.y * t.m21, y: offset.x * t.m12 + offset.y * t.m22)
            position = CGPoint(x: newValue.midX - mapped.x, y: newValue.midY - mapped.y)
        }
    }

    /// The 2D part of `transform` when it is affine, else the identity.
    public func affineTransform() -> CGAffineTransform {
        transform.isAffine ? CATransform3DGetAffineTransform(transform) : .identity
    }

    /// Replaces the whole transform with a 2D one.
    public func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    /// Whether the contents end up implicitly flipped: an odd number of `isGeometryFlipped`
    /// layers from this layer (included, as on Apple) up to the root.
    public func contentsAreFlipped() -> Bool {
        var flips = 0
        var layer: CALayer? = self
        while let l = layer {
            if l.isGeometryFlipped { flips += 1 }
            layer = l.superlayer
        }
        return flips % 2 == 1
    }

    /// Layer space → superlayer bounds space, including the superlayer's sublayerTransform and
    /// geometry flip (§11.1).
    public var transformToSuperlayerSpace: CATransform3D {
        let m = properties.transformToSuperlayer
        guard let sublayers = superlayer?.properties.transformForSublayers else { return m }
        return m.concatenating(sublayers)
    }

    /// Layer space → its root layer's superlayer space (the root's own placement included).
    var transformToRootSpace: CATransform3D {
        var m = CATransform3D.identity
        var layer: CALayer? = self
        while let l = layer {
            m = m.concatenating(l.superlayer == nil ? l.properties.transformToSuperlayer : l.transformToSuperlayerSpace)
            layer = l.superlayer
        }
        return m
    }

    /// Converts a point from this layer's space to `layer`'s (nil: the root's superlayer space).
    public func convert(_ point: CGPoint, to layer: CALayer?) -> CGPoint {
        let world = transformToRootSpace.projecting(point)
        guard let layer else { return world }
        return layer.transformToRootSpace.unprojecting(world) ?? world
    }

    /// Converts a point from `layer`'s space (nil: the root's superlayer space) into this layer's.
    public func convert(_ point: CGPoint, from layer: CALayer?) -> CGPoint {
        let world = layer.map { $0.transformToRootSpace.projecting(point) } ?? point
        return transformToRootSpace.unprojecting(world) ?? world
    }

    /// Converts a rectangle to `layer`'s space: the box around the converted corners.
    public func convert(_ rect: CGRect, to layer: CALayer?) -> CGRect {
        Self.boundingBox(Self.corners(of: rect).map { convert($0, to: layer) })
    }

    /// Converts a rectangle from `layer`'s space: the box around the converted corners.
    public func convert(_ rect: CGRect, from layer: CALayer?) -> CGRect {
        Self.boundingBox(Self.corners(of: rect).map { convert($0, from: layer) })
    }

    /// Whether `point` (in the layer's own space) lies inside the bounds.
    public func contains(_ point: CGPoint) -> Bool { bounds.contains(point) }

    /// The farthest visible descendant (or the layer itself) containing `point`, given in the
    /// superlayer's space; nil when the point is outside the layer's bounds.
    ///
    /// A `CATransformLayer` (and anything hit through it) answers nil: its sublayers live in 3D,
    /// where two-dimensional hit testing does not apply (Apple's behaviour).
    public func hitTest(_ point: CGPoint) -> CALayer? {
        guard !isHidden, properties.content != .transformLayer else { return nil }
        let local = superlayer.map { convert(point, from: $0) } ?? properties.transformToSuperlayer.unprojecting(point) ?? point
        guard contains(local) else { return nil }
        for layer in sublayersInDrawingOrder.reversed() {
            if let hit = layer.hitTest(local) { return hit }
        }
        return self
    }

    static func corners(of r: CGRect) -> [CGPoint] {
        [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)]
    }

    static func boundingBox(_ points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .zero }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for p in points.dropFirst() {
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

extension CATransform3D {
    /// The point of the z = 0 plane that this matrix projects onto `point`, or nil when the
    /// plane is seen edge-on there.
    public func unprojecting(_ point: CGPoint) -> CGPoint? {
        // Solve u·(m11 − x·m14) + v·(m21 − x·m24) = x·m44 − m41, and likewise for y.
        let x = point.x, y = point.y
        let a = m11 - x * m14, b = m21 - x * m24, c = m12 - y * m14, d = m22 - y * m24
        let e = x * m44 - m41, f = y * m44 - m42
        let det = a * d - b * c
        guard abs(det) > 1e-15 else { return nil }
        return CGPoint(x: (e * d - b * f) / det, y: (a * f - e * c) / det)
    }
}
