import Foundation
import Geometry
import Layers
import Animation

/// Where a layer's contents image lands in its bounds (§11.4): gravity, logical size,
/// `contentsRect` and nine-slice geometry, shared by every renderer.
public enum ContentsPlacement {
    /// The image's size in points: pixels divided by `contentsScale`.
    public static func logicalSize(pixels: CGSize, contentsScale: CGFloat) -> CGSize {
        let scale = contentsScale > 0 ? contentsScale : 1
        return CGSize(width: pixels.width / scale, height: pixels.height / scale)
    }

    /// The rectangle (in bounds coordinates) the contents fill for a gravity.
    ///
    /// Vertical names follow the y axis: `top` is the max-y edge in unflipped coordinates and the
    /// min-y edge when `flipped` (the layer's `contentsAreFlipped()`).
    public static func rect(gravity: CALayerContentsGravity, contentSize size: CGSize, in bounds: CGRect,
                            flipped: Bool) -> CGRect {
        switch gravity {
        case .resize:
            return bounds
        case .resizeAspect, .resizeAspectFill:
            guard size.width > 0, size.height > 0 else { return bounds }
            let sx = bounds.width / size.width, sy = bounds.height / size.height
            let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
            let w = size.width * s, h = size.height * s
            return CGRect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
        default:
            let name = gravity.rawValue.lowercased()
            let x: CGFloat = name.hasSuffix("left") ? bounds.minX
                : name.hasSuffix("right") ? bounds.maxX - size.width : bounds.midX - size.width / 2
            let top = name.hasPrefix("top"), bottom = name.hasPrefix("bottom")
            let atMaxY = flipped ? bottom : top
            let atMinY = flipped ? top : bottom
            let y: CGFloat = atMaxY ? bounds.maxY - size.height : atMinY ? bounds.minY : bounds.midY - size.height / 2
            return CGRect(x: x, y: y, width: size.width, height: size.height)
        }
    }

    /// The part of the image `contentsRect` selects, in pixels.
    public static func sourceRect(contentsRect r: CGRect, imagePixels size: CGSize) -> CGRect {
        CGRect(x: r.minX * size.width, y: r.minY * size.height, width: r.width * size.width, height: r.height * size.height)
    }

    /// Nine-slice geometry in points: the fixed caps and the stretched centre.
    public struct NineSlice: Sendable, Equatable {
        public var leftCap: CGFloat, rightCap: CGFloat, topCap: CGFloat, bottomCap: CGFloat
        public var centerWidth: CGFloat, centerHeight: CGFloat
    }

    /// Splits `bounds` for `contentsCenter`: caps keep their logical size; when the bounds are
    /// smaller than both caps together, the caps shrink proportionally and the centre vanishes.
    public static func nineSlice(imagePixels size: CGSize, contentsCenter c: CGRect, bounds: CGSize,
                                 contentsScale: CGFloat = 1) -> NineSlice {
        let logical = logicalSize(pixels: size, contentsScale: contentsScale)
        func split(_ total: CGFloat, _ image: CGFloat, _ start: CGFloat, _ length: CGFloat) -> (CGFloat, CGFloat, CGFloat) {
            var low = max(0, start) * image, high = max(0, 1 - start - length) * image
            let caps = low + high
            if caps > total, caps > 0 {
                low *= total / caps
                high *= total / caps
            }
            return (low, high, max(0, total - low - high))
        }
        let (left, right, width) = split(bounds.width, logical.width, c.minX, c.width)
        let (top, bottom, height) = split(bounds.height, logical.height, c.minY, c.height)
        return NineSlice(leftCap: left, rightCap: right, topCap: top, bottomCap: bottom, centerWidth: width, centerHeight: height)
    }
}

/// Geometry of `CATransition` types at a progress (§7): how far the old and new states move
/// and how opaque they are.
public enum TransitionGeometry {
    /// Offsets of the new and old content for push, moveIn and reveal; `extent` is the layer's
    /// width (horizontal subtypes) or height (vertical ones). Vertical subtypes are in the layer's
    /// own y-up sense: `fromTop` enters from +y.
    public static func offsets(type: CATransitionType, subtype: CATransitionSubtype?, progress p: Double,
                               extent: CGFloat) -> (new: CGPoint, old: CGPoint) {
        let direction: CGPoint = switch subtype ?? .fromLeft {
        case .fromRight: CGPoint(x: 1, y: 0)
        case .fromTop: CGPoint(x: 0, y: 1)
        case .fromBottom: CGPoint(x: 0, y: -1)
        default: CGPoint(x: -1, y: 0)
        }
        let incoming = extent * (1 - p), outgoing = -extent * p
        let new = type == .moveIn || type == .push ? CGPoint(x: direction.x * incoming, y: direction.y * incoming) : .zero
        let old = type == .push || type == .reveal ? CGPoint(x: direction.x * outgoing, y: direction.y * outgoing) : .zero
        return (new, old)
    }

    /// Opacity of the old and new content: a cross-fade for `fade`, both opaque otherwise.
    public static func alphas(type: CATransitionType, progress p: Double) -> (old: Double, new: Double) {
        type == .fade ? (1 - p, p) : (1, 1)
    }
}
