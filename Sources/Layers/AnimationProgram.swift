import Foundation
import Geometry
import Animation
import Timing

/// An animation compiled for one layer: key paths resolved and values converted once, at
/// `add(_:forKey:)`, so each frame only samples.
indirect enum AnimationProgram {
    case property(LayerKeyPath, PreparedPropertyAnimation)
    /// A custom (key-value coded) property of the layer.
    case custom(String, PreparedPropertyAnimation)
    /// Children run in the group's basic local time (after its timing function).
    case group(TimingParameters, CAMediaTimingFunction?, [AnimationProgram])
    /// With a copy of the layer's subtree as it was when the transition was added (the old state).
    case transition(CATransition, TimingParameters, snapshot: CALayer?)
    /// An animation that changes nothing (unknown key path, unusable values); kept for timing.
    case inert(TimingParameters)

    var timing: TimingParameters {
        switch self {
        case .property(_, let p), .custom(_, let p): p.timing
        case .group(let t, _, _), .transition(_, let t, _), .inert(let t): t
        }
    }

    /// Compiles `animation` for a layer whose properties look like `properties`.
    static func compile(_ animation: CAAnimation, timing: TimingParameters? = nil, for properties: LayerProperties,
                        snapshot: CALayer? = nil) -> AnimationProgram {
        let timing = timing ?? animation.timing
        guard animation.hasValidTiming else { return .inert(timing) }
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
            guard let keyPath = property.keyPath else { return .inert(timing) }
            if let path = LayerKeyPath(keyPath), properties.value(at: path) != nil {
                guard let prepared = PreparedPropertyAnimation(property, propertyKind: path.kind, timing: timing)
                else { return .inert(timing) }
                return .property(path, prepared)
            }
            // A custom property (a plain key): its kind is its current value's, or the animation's values'.
            guard !keyPath.contains("."), let kind = properties.customValues[keyPath]?.kind ?? property.inferredValueKind,
                  let prepared = PreparedPropertyAnimation(property, propertyKind: kind, timing: timing)
            else { return .inert(timing) }
            return .custom(keyPath, prepared)
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
            var value = prepared.value(at: time, underlying: underlying)
            if prepared.isAdditive, let current = state.value(at: path) { value = current.adding(value) }
            // A value that is not finite (NaN timing, overflow, an invalid path) changes nothing.
            guard value.isFinite else { return }
            let angle = prepared.rotation(at: time)
            if let angle, !angle.isFinite { return }
            state.setValue(value, at: path)
            if let angle {
                // rotationMode turns the layer in its local space, before the model transform.
                state.transform = CATransform3DMakeRotation(CGFloat(angle), 0, 0, 1).concatenating(state.transform)
            }
        case .custom(let key, let prepared):
            guard let time = prepared.timing.resolve(parentTime: parentTime),
                  !(removedOnCompletion && time.phase == .after) else { return }
            var value = prepared.value(at: time, underlying: model.pointee.customValues[key])
            if prepared.isAdditive, let current = state.customValues[key] { value = current.adding(value) }
            guard value.isFinite else { return }
            state.customValues[key] = value
        case .group(let timing, let function, let children):
            guard let time = timing.resolve(parentTime: parentTime),
                  !(removedOnCompletion && time.phase == .after) else { return }
            let childTime = function.map { $0.solve(time.fraction) * timing.duration } ?? time.basicTime
            guard childTime.isFinite else { return }
            for child in children {
                child.apply(parentTime: childTime, model: model, to: &state, removedOnCompletion: false)
            }
        case .transition(let transition, let timing, _):
            guard let time = timing.resolve(parentTime: parentTime),
                  !(removedOnCompletion && time.phase == .after) else { return }
            let progress = transition.progress(at: time)
            guard progress.isFinite else { return }
            state.transition = TransitionState(type: transition.type, subtype: transition.subtype, progress: progress)
        case .inert:
            return
        }
    }
}

extension AnimationProgram {
    /// Whether the program changes anything at `parentTime` (its window or fill covers it).
    func hasEffect(parentTime: Double, removedOnCompletion: Bool) -> Bool {
        if case .inert = self { return false }
        guard let time = timing.resolve(parentTime: parentTime) else { return false }
        return !(removedOnCompletion && time.phase == .after)
    }

    /// The keys the program animates (Core Animation's key names; custom keys as given).
    var animatedKeys: [String] {
        switch self {
        case .property(let path, _): [path.key.rawValue]
        case .custom(let key, _): [key]
        case .group(_, _, let children): children.flatMap(\.animatedKeys)
        case .transition, .inert: []
        }
    }
}

extension CAPropertyAnimation {
    /// The kind of the values the animation names, for a property whose own kind is unknown
    /// (a custom key with no value yet).
    var inferredValueKind: AnimatableValueKind? {
        let candidates: [Any?] = switch self {
        case let basic as CABasicAnimation: [basic.fromValue, basic.toValue, basic.byValue]
        case let keyframe as CAKeyframeAnimation: keyframe.values ?? []
        default: []
        }
        return candidates.lazy.compactMap { $0.flatMap { AnimatableValue(inferring: $0)?.kind } }.first
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
    /// The animated keys for which the layer's class answers `needsDisplay(forKey:)` true: while
    /// the animation has an effect, the layer is redrawn with its presentation values.
    var redrawKeys: [String] = []
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
