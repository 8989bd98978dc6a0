import Foundation
import Geometry
import Drawing
import Animation
import Layers

/// A gauge drawn with Core Graphics: a track ring, an arc for `level` and a centre dot. `level`
/// is a custom property, redrawn with its presentation value while it animates.
final class BenchGaugeLayer: CALayer {
    var level: CGFloat {
        get { value(forKey: "level") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "level") }
    }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "level" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        let center = CGPoint(x: bounds.midX, y: bounds.midY)
        let radius = min(bounds.width, bounds.height) / 2 - 6
        ctx.setLineWidth(8)
        ctx.setStrokeColor(CGColor(gray: 1, alpha: 0.25))
        ctx.strokeEllipse(in: CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
        ctx.setLineCap(.round)
        ctx.setStrokeColor(CGColor(red: 0.3, green: 0.8, blue: 0.5, alpha: 1))
        ctx.addArc(center: center, radius: radius, startAngle: -.pi / 2, endAngle: -.pi / 2 + level * 2 * .pi, clockwise: false)
        ctx.strokePath()
        ctx.setFillColor(CGColor(red: 1, green: 0.8, blue: 0.2, alpha: 1))
        ctx.fillEllipse(in: CGRect(x: center.x - 10, y: center.y - 10, width: 20, height: 20))
    }
}

extension BenchScenes {
    /// 100 gauges drawn with `draw(in:)` on a 10×10 grid; with `animated`, 10 of them animate
    /// their custom `level` (redrawn every frame), the other 90 are drawn once.
    static func drawn(animated: Bool, _ width: Int, _ height: Int) -> Scene {
        let root = stage(width, height)
        root.sublayerTransform = CATransform3DIdentity
        let side = min(Double(width), Double(height)) / 10
        for i in 0..<100 {
            let gauge = BenchGaugeLayer()
            gauge.bounds = CGRect(x: 0, y: 0, width: side, height: side)
            gauge.position = CGPoint(x: (Double(i % 10) + 0.5) * Double(width) / 10, y: (Double(i / 10) + 0.5) * Double(height) / 10)
            gauge.level = 0.1 + 0.008 * Double(i)
            gauge.setNeedsDisplay()
            if animated, i % 10 == 0 {
                let fill = CABasicAnimation(keyPath: "level")
                fill.fromValue = 0
                fill.toValue = 1
                fill.duration = 2 + Double(i / 10) * 0.1
                fill.repeatCount = .infinity
                gauge.add(fill, forKey: "level", atMediaTime: 0)
            }
            root.addSublayer(gauge)
        }
        return Scene(name: animated ? "100 drawn, 10 animated" : "100 drawn, static", root: root, floorLayers: nil)
    }
}
