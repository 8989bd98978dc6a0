import Foundation
import Geometry
import Layers

/// A root layer `width`×`height` points, its frame at the origin, as the rendering tests' trees start.
func rootLayer(width: CGFloat, height: CGFloat, name: String? = nil) -> CALayer {
    let root = CALayer()
    root.name = name
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    root.position = CGPoint(x: width / 2, y: height / 2)
    return root
}

/// The translucent-blue to red diagonal gradient the CPU loop tests draw under their shapes.
func diagonalGradient(frame: CGRect) -> CAGradientLayer {
    let gradient = CAGradientLayer()
    gradient.frame = frame
    gradient.colors = [CGColor(red: 0.1, green: 0.6, blue: 0.9, alpha: 0.8), CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1)]
    gradient.startPoint = CGPoint(x: 0, y: 0.2)
    gradient.endPoint = CGPoint(x: 1, y: 0.8)
    return gradient
}

/// A ten-point star about `center`: points `outer` from it, notches `inner`, the first point up.
func starPath(center: CGPoint, outer: CGFloat = 40, inner: CGFloat = 16) -> CGPath {
    let star = CGMutablePath()
    for k in 0..<10 {
        let r = k % 2 == 0 ? outer : inner, a = CGFloat(k) * .pi / 5 - .pi / 2
        let p = CGPoint(x: center.x + r * cos(a), y: center.y + r * sin(a))
        if k == 0 { star.move(to: p) } else { star.addLine(to: p) }
    }
    star.closeSubpath()
    return star
}
