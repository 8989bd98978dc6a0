import Animation
import Layers

/// A basic animation that repeats forever, autoreversing: the moving values the presentation
/// tests evaluate at several times.
func repeatingBasic(_ keyPath: String, from: Any?, to: Any?, duration: Double = 1) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: keyPath)
    a.fromValue = from; a.toValue = to
    a.duration = duration
    a.repeatCount = .infinity
    a.autoreverses = true
    return a
}
