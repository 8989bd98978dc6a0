import Foundation
import Geometry
import Layers

/// Gradient fills and strokes as lottie-ios draws them: a `CAGradientLayer` for the colour stops,
/// masked by a second one for the opacity stops when any is below 1, both padded far past the
/// shape's bounds so the gradient extends beyond its end points.
///
/// Unlike lottie-ios's, the padded layer is square. `CAGradientLayer` measures its gradient in
/// unit space (§ gradient: stretched on a non-square layer), so lottie-ios's gradient would tilt
/// with the padded layer's aspect ratio, which its arbitrary 2,000-point padding sets; Apple's
/// reference frames (drawn by `render(in:)`) show the gradient running between its points in the
/// shape's own points, as After Effects draws it, which a square layer gives (issue_1717).
enum GradientBuilder {
    static let padding = 2_000.0

    static func layers(_ gradient: LottieGradient, bounds: CGRect, animations: AnimationBuilder, time: TimeContext) -> CALayer {
        let colorLayer = renderLayer(bounds: bounds, translated: true)
        configure(colorLayer, gradient, alpha: false, animations: animations, time: time)
        if hasAlpha(gradient) {
            // The mask's geometry is relative to the colour layer, which is already padded.
            let alphaLayer = renderLayer(bounds: bounds, translated: false)
            configure(alphaLayer, gradient, alpha: true, animations: animations, time: time)
            colorLayer.mask = alphaLayer
        }
        return colorLayer
    }

    private static func renderLayer(bounds: CGRect, translated: Bool) -> CAGradientLayer {
        let layer = CAGradientLayer()
        layer.anchorPoint = .zero
        let side = max(bounds.width, bounds.height) + 2 * padding
        layer.bounds = CGRect(x: bounds.minX, y: bounds.minY, width: side, height: side)
        layer.position = .zero
        if translated { layer.transform = CATransform3DMakeTranslation(-padding, -padding, 0) }
        return layer
    }

    /// A point in the shape's coordinates as a fraction of the padded layer's bounds.
    private static func unit(_ p: CGPoint, _ layer: CALayer) -> CGPoint {
        let b = layer.bounds
        guard b.width > 0, b.height > 0 else { return .zero }
        return CGPoint(x: (p.x + padding) / b.width, y: (p.y + padding) / b.height)
    }

    static func hasAlpha(_ g: LottieGradient) -> Bool {
        g.colors.keyframes.contains { k in stops(k.value, count: g.colorCount, alpha: true).contains { $0.color.alpha < 0.999 } }
    }

    /// `[offset, r, g, b]` per colour stop, then `[offset, alpha]` per opacity stop.
    static func stops(_ v: [Double], count: Int, alpha: Bool) -> [(color: CGColor, location: Double)] {
        if !alpha {
            return (0..<count).map { i in
                let o = i * 4
                return (CGColor(red: v[o + 1], green: v[o + 2], blue: v[o + 3], alpha: 1), v[o])
            }
        }
        var result: [(CGColor, Double)] = []
        var i = count * 4
        while i + 1 < v.count {
            result.append((CGColor(red: 0, green: 0, blue: 0, alpha: min(max(v[i + 1], 0), 1)), v[i]))
            i += 2
        }
        return result
    }

    private static func configure(_ layer: CAGradientLayer, _ g: LottieGradient, alpha: Bool, animations: AnimationBuilder, time: TimeContext) {
        let count = g.colorCount
        layer.colors = Array(repeating: CGColor.black, count: max(1, alpha ? stops(g.colors.first, count: count, alpha: true).count : count))
        animations.animate(layer, "colors", g.colors, time) { v in stops(v, count: count, alpha: alpha).map(\.color) }
        animations.animate(layer, "locations", g.colors, time) { v in stops(v, count: count, alpha: alpha).map { NSNumber(value: $0.location) } }
        animations.animate(layer, "opacity", g.opacity, time) { ($0.first ?? 100) / 100 }
        if g.type == 2 {
            layer.type = .radial
            let start = ShapeBuilder.point(g.start.first), end = ShapeBuilder.point(g.end.first)
            let radius = hypot(end.x - start.x, end.y - start.y)
            layer.startPoint = unit(start, layer)
            layer.endPoint = unit(CGPoint(x: start.x + radius, y: start.y + radius), layer)
        } else {
            layer.type = .axial
            animations.animate(layer, "startPoint", g.start, time) { unit(ShapeBuilder.point($0), layer) }
            animations.animate(layer, "endPoint", g.end, time) { unit(ShapeBuilder.point($0), layer) }
        }
    }
}
