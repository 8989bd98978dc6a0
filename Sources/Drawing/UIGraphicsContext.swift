import Foundation
import Geometry

// UIKit's current graphics context — a stack per thread, as UIKit keeps it — and the UIKit
// drawing calls that paint into it.

/// This thread's object under `key`, made by `make` on first use (UIKit's per-thread state).
package func threadLocal<Value: AnyObject>(_ key: String, _ make: () -> Value) -> Value {
    let dictionary = Thread.current.threadDictionary
    if let value = dictionary[key] as? Value { return value }
    let value = make()
    dictionary[key] = value
    return value
}

/// The contexts pushed on this thread, innermost last.
private final class ContextStack {
    var contexts: [CGContext] = []
}

private var currentStack: ContextStack { threadLocal("Lamina.UIGraphicsContextStack", ContextStack.init) }

/// The context UIKit drawing goes to on this thread: the one pushed last, nil when none is.
/// Inside a layer's `draw(in:)` it is that layer's context.
public func UIGraphicsGetCurrentContext() -> CGContext? { currentStack.contexts.last }

/// Makes `context` the current one until it is popped.
public func UIGraphicsPushContext(_ context: CGContext) { currentStack.contexts.append(context) }

/// Restores the context that was current before the last push.
public func UIGraphicsPopContext() { _ = currentStack.contexts.popLast() }

extension UIColor {
    /// Makes this the fill and stroke colour of the current context.
    public func set() { setFill(); setStroke() }
    /// Makes this the fill colour of the current context.
    public func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(cgColor) }
    /// Makes this the stroke colour of the current context.
    public func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor) }
}

extension UIBezierPath {
    /// Fills the path with the current context's fill colour (even-odd when
    /// `usesEvenOddFillRule`), leaving the context's path and state as they were.
    public func fill() { fill(with: .normal, alpha: 1) }

    public func fill(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        draw(in: context, blendMode: blendMode, alpha: alpha) { $0.fillPath(using: usesEvenOddFillRule ? .evenOdd : .winding) }
    }

    /// Strokes the path with the current context's stroke colour and this path's line style.
    public func stroke() { stroke(with: .normal, alpha: 1) }

    public func stroke(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        draw(in: context, blendMode: blendMode, alpha: alpha) { context in
            context.setLineWidth(lineWidth)
            context.setLineCap(lineCapStyle)
            context.setLineJoin(lineJoinStyle)
            context.setMiterLimit(miterLimit)
            context.strokePath()
        }
    }

    /// Intersects the current context's clip with the path's inside.
    public func addClip() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.beginPath()
        context.addPath(cgPath)
        context.clip(using: usesEvenOddFillRule ? .evenOdd : .winding)
    }

    private func draw(in context: CGContext, blendMode: CGBlendMode, alpha: CGFloat, _ paint: (CGContext) -> Void) {
        context.saveGState()
        context.setBlendMode(blendMode)
        context.setAlpha(alpha)
        context.beginPath()
        context.addPath(cgPath)
        paint(context)
        context.restoreGState()
    }
}

/// Fills `rect` with the current context's fill colour. UIKit: `UIRectFill`.
public func UIRectFill(_ rect: CGRect) { UIGraphicsGetCurrentContext()?.fill(rect) }

/// Strokes a one-point frame inside `rect` with the current fill colour. UIKit: `UIRectFrame`.
public func UIRectFrame(_ rect: CGRect) {
    guard let context = UIGraphicsGetCurrentContext() else { return }
    let inner = rect.insetBy(dx: 1, dy: 1)
    context.beginPath()
    context.addRect(rect)
    if inner.width > 0, inner.height > 0 { context.addRect(inner) }
    context.fillPath(using: .evenOdd)
}
