import Animation

/// Records delegate messages (shared by the layer rule tests).
final class EventRecorder: CAAnimationDelegate {
    var events: [String] = []
    var animations: [CAAnimation] = []
    func animationDidStart(_ anim: CAAnimation) {
        events.append("start")
        animations.append(anim)
    }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        events.append(flag ? "stop(finished)" : "stop(cancelled)")
    }
}
