import Foundation
import Geometry
import Animation
import Timing

/// An animation compiled for one layer: key paths resolved and values converted once, at
/// `add(_:forKey:)`, so each frame only samples.
indirect enum AnimationProgram {
    case property(LayerKeyPath, PreparedPropertyAnimation)
    /// Children run in the group's basic local time (after its timing function).
    case group(TimingParameters, CAMediaTimingFunction?, [AnimationProgram])
    /// With a copy of the layer's subtree as it was when the transition was added (the old state).
    case transition(CATransition, TimingParameters, snapshot: CALayer?)
    /// An animation that changes nothing (unknown key path, unusable values); kept for timing.
    case inert(TimingParameters)

    var timing: TimingParameters {
        switch self {
        case .property(_, let p): p.timing
        case .group(let t, _, _), .transition(_, let t, _), .inert(let t): t
        }
    }

    /// Compiles `animation` for a layer whose properties look like `properties`.
    static func compile(_ animation: CAAnimation, timing: TimingParameters? = nil, for properties: LayerProperties,
                        snapshot: CALayer? = nil) -> AnimationProgram {
        let timing = timing ?? animation.timing
        switch animation {
        case let group as CAAnimationGroup:
            let children = (group.animations ?? []).map { child -> AnimationProgram in
                var childTiming = child.timing
                if childTiming.duration <= 0 { childTiming.duration = timing.duration }  // §6 [inf]
                return compile(child, timing: childTiming, for: properties)
            }
            return .group(timing, group.timingFunction, children)
        case let transition as CATransition:
            return .transition(transition, timing, snapshot: snapshot)
        case let property as CAPropertyAnimation:
            guard let keyPath = property.keyPath, let path = LayerKeyPath(keyPath),
                  properties.value(at: path) != nil,
                  let prepared = PreparedPropertyAnimation(property, propertyKind: path.kind, timing: timing)
            else { return .inert(timing) }
            return .property(path, prepared)
        default:
            return .inert(timing)
        }
    }

    /// Applies the program at `parentTime` (the layer's local time, or a group's) to `state`.
    ///
    /// - Parameters:
    ///   - model: the model values, which from/to/by resolve against (§3.1).
    ///   - removedOnCompletion: whether the animation stops having an effect after its window.
    func apply(parentTime: Double, model: UnsafePointer<LayerProperties>, to state: inout LayerProperties,
               removedOnCompletion: Bool) {
        switch self {
        case .property(let path, let prepared):
            guard let time = prepared.timing.resolve(parentTime: parentTime),
                  !(removedOnCompletion && time.phase == .after) else { return }
            let underlying = prepared.needsUnderlying ? model.pointee.value(at: path) : nil
            let value = prepared.value(at: time, underlying: underlying)
            if prepared.isAdditive, let current = state.value(at: path) {
                state.setValue(current.adding(value), at: path)
            } else {
                state.setValue(value, at: path)
            }
            if let angle = prepared.rotation(at: time) {
                // rotationMode turns the layer in its local space, before the model transform.
                state.transform = CATransform3DMakeRotation(CGFloat(angle), 0, 0, 1).concatenating(state.transform)
            }
        case .group(let timing, let function, let children):
            guard let time = timing.resolve(parentTime: parentTime),
                  !(removedOnCompletion && time.phase == .after) else { return }
            let childTime = function.map { $0.solve(time.fraction) * timing.duration } ?? time.basicTime
            for child in children {
                child.apply(parentTime: childTime, model: model, to: &state, removedOnCompletion: false)
            }
        case .transition(let transition, let timing, _):
            guard let time = timing.resolve(parentTime: parentTime),
                  !(removedOnCompletion && time.phase == .after) else { return }
            state.transition = TransitionState(type: transition.type, subtype: transition.subtype,
                                               progress: transition.progress(at: time))
        case .inert:
            return
        }
    }
}

/// An animation attached to a layer, with its bookkeeping.
final class AttachedAnimation {
    let key: String?
    /// The layer's own copy.
    let animation: CAAnimation
    let program: AnimationProgram
    let completion: CompletionGroup?
    /// The copy's `isRemovedOnCompletion`, read once (the copy is the layer's own).
    let isRemovedOnCompletion: Bool
    var didStart = false
    var didStop = false

    init(key: String?, animation: CAAnimation, program: AnimationProgram, completion: CompletionGroup?) {
        self.key = key; self.animation = animation; self.program = program; self.completion = completion
        isRemovedOnCompletion = animation.isRemovedOnCompletion
        completion?.animationAdded()
    }

    /// Sends the stop message once and releases the completion group.
    func stop(finished: Bool) {
        guard !didStop else { return }
        didStop = true
        animation.delegate?.animationDidStop(animation, finished: finished)
        completion?.animationEnded()
    }
}
