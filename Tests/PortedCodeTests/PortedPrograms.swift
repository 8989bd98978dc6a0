import Lamina

// iOS Core Animation and Core Graphics code as iOS developers write it, ported by changing its
// imports (`import UIKit` → `import Lamina`). One more line changed, in PieChartLayer: Swift on
// Linux has no Objective-C runtime, so `@NSManaged var progress: CGFloat` becomes a property
// stored by key-value coding, which is how `@NSManaged` stores it on Apple.

/// A card: a rounded rectangle filled, and a circle stroked on it.
final class CardLayer: CALayer {
    var fillColor = UIColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)

    override init() {
        super.init()
        setNeedsDisplay()
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let card = layer as? CardLayer { fillColor = card.fillColor }
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func draw(in ctx: CGContext) {
        let card = bounds.insetBy(dx: 4, dy: 4)
        ctx.addPath(UIBezierPath(roundedRect: card, cornerRadius: 12).cgPath)
        ctx.setFillColor(fillColor.cgColor)
        ctx.fillPath()
        ctx.setStrokeColor(UIColor.white.cgColor)
        ctx.setLineWidth(4)
        ctx.strokeEllipse(in: CGRect(x: bounds.midX - 20, y: bounds.midY - 20, width: 40, height: 40))
    }
}

/// Draws the layers it is the delegate of: an orange disc, with UIKit drawing calls.
final class BadgeDrawer: NSObject, CALayerDelegate {
    func draw(_ layer: CALayer, in ctx: CGContext) {
        UIGraphicsPushContext(ctx)
        UIColor.orange.setFill()
        UIBezierPath(ovalIn: layer.bounds.insetBy(dx: 2, dy: 2)).fill()
        UIGraphicsPopContext()
    }
}

/// A pie chart whose slice grows clockwise from twelve o'clock with `progress`, redrawn on
/// every frame of a `progress` animation.
final class PieChartLayer: CALayer {
    // On iOS: @NSManaged var progress: CGFloat
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }
    var sliceColor = UIColor.red

    override init() {
        super.init()
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let pie = layer as? PieChartLayer { sliceColor = pie.sliceColor }
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        if key == "progress" { return true }
        return super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        let radius = min(bounds.width, bounds.height) / 2
        let start = -CGFloat.pi / 2
        ctx.move(to: center)
        ctx.addArc(center: center, radius: radius, startAngle: start, endAngle: start + progress * 2 * .pi, clockwise: false)
        ctx.closePath()
        ctx.setFillColor(sliceColor.cgColor)
        ctx.fillPath()
    }

    func animate(to value: CGFloat, duration: CFTimeInterval) {
        let animation = CABasicAnimation(keyPath: "progress")
        animation.fromValue = progress
        animation.toValue = value
        animation.duration = duration
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        progress = value
        add(animation, forKey: "progress")
    }
}

/// A badge image made with UIGraphicsImageRenderer: a blue top half, a yellow disc below.
func makeBadgeImage() -> UIImage {
    let renderer = UIGraphicsImageRenderer(size: CGSize(width: 40, height: 40))
    return renderer.image { context in
        UIColor.blue.setFill()
        context.fill(CGRect(x: 0, y: 0, width: 40, height: 20))
        UIColor.yellow.setFill()
        UIBezierPath(ovalIn: CGRect(x: 10, y: 20, width: 20, height: 20)).fill()
    }
}

/// A red-to-blue horizontal gradient drawn with Core Graphics.
final class GradientBackgroundLayer: CALayer {
    override func draw(in ctx: CGContext) {
        let colors = [UIColor.red.cgColor, UIColor.blue.cgColor]
        let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors as CFArray, locations: [0, 1])!
        ctx.drawLinearGradient(gradient, start: CGPoint(x: 0, y: 0), end: CGPoint(x: bounds.width, y: 0), options: [])
    }
}

/// A spotlight: white at the centre fading to black at the edge, black outside.
final class SpotlightLayer: CALayer {
    override func draw(in ctx: CGContext) {
        let colors = [UIColor.white.cgColor, UIColor.black.cgColor] as CFArray
        guard let gradient = CGGradient(colorsSpace: nil, colors: colors, locations: nil) else { return }
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        ctx.drawRadialGradient(gradient, startCenter: center, startRadius: 0, endCenter: center,
                               endRadius: bounds.width / 2, options: [.drawsAfterEndLocation])
    }
}

/// A caption: white bold text centred in the layer.
final class CaptionLayer: CALayer {
    var text = "Lamina"

    override func draw(in ctx: CGContext) {
        UIGraphicsPushContext(ctx)
        let style = NSMutableParagraphStyle()
        style.alignment = .center
        let attributes: [NSAttributedString.Key: Any] = [
            .font: UIFont.boldSystemFont(ofSize: 24),
            .foregroundColor: UIColor.white,
            .paragraphStyle: style,
        ]
        NSAttributedString(string: text, attributes: attributes).draw(in: bounds)
        UIGraphicsPopContext()
    }
}

/// Core Graphics' flipped-image trap in a UIKit context: the image drawn with `CGContext.draw`
/// comes out upside down, `UIImage.draw(in:)` upright. The image: red top half, green bottom.
func makeTrapImages() -> (viaCoreGraphics: UIImage, viaUIKit: UIImage) {
    let source = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10)).image { context in
        UIColor.red.setFill()
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 5))
        UIColor.green.setFill()
        context.fill(CGRect(x: 0, y: 5, width: 10, height: 5))
    }
    let renderer = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10))
    let viaCoreGraphics = renderer.image { context in
        context.cgContext.draw(source.cgImage!, in: CGRect(x: 0, y: 0, width: 10, height: 10))
    }
    let viaUIKit = renderer.image { _ in
        source.draw(in: CGRect(x: 0, y: 0, width: 10, height: 10))
    }
    return (viaCoreGraphics, viaUIKit)
}
