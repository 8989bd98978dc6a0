import Foundation
import Animation
import Timing

extension CALayer {
    /// Adds a copy of `anim` under `key`, replacing any animation with that key.
    ///
    /// A duration ≤ 0 becomes the transaction's `animationDuration`; a `beginTime` of 0 becomes
    /// "now" (the media clock's time in this layer's time space); a nil timing function takes the
    /// transaction's `animationTimingFunction`.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        add(anim, forKey: key, atMediaTime: CATransaction.mediaClock.currentTime)
    }

    /// Adds a copy of `anim` as if the media clock read `now` (a `beginTime` of 0 becomes `now`
    /// converted into this layer's time space). Scene files and exports add at a known time.
    public func add(_ anim: CAAnimation, forKey key: String?, atMediaTime now: CFTimeInterval) {
        guard let copy = anim.copy() as? CAAnimation else { return }
        if copy.duration <= 0 { copy.duration = CATransaction.animationDuration() }
        if copy.timingFunction == nil, !(copy is CASpringAnimation) {
            copy.timingFunction = CATransaction.animationTimingFunction()
        }
        if copy.beginTime == 0 {
            copy.beginTime = convertTime(now, from: nil)
        }
        if let key { removeAnimation(forKey: key) }
        // A transition shows the change from the layer as it is now: keep a copy of it.
        let snapshot = copy is CATransition ? modelSnapshot() : nil
        let program = AnimationProgram.compile(copy, for: properties, snapshot: snapshot)
        let item = AttachedAnimation(key: key, animation: copy, program: program, completion: CATransaction.currentCompletionGroup)
        let layerType = Swift.type(of: self)
        item.redrawKeys = program.animatedKeys.filter { layerType.needsDisplay(forKey: $0) }
        if !item.redrawKeys.isEmpty, displayGeneration == 0 { setNeedsDisplay() }
        attached.append(item)
    }

    /// Removes the animation under `key`; its delegate hears `animationDidStop(_:finished: false)`.
    public func removeAnimation(forKey key: String) {
        guard let index = attached.firstIndex(where: { $0.key == key }) else { return }
        let removed = attached.remove(at: index)
        removed.stop(finished: false)
    }

    /// Removes every animation (safe to repeat).
    public func removeAllAnimations() {
        let removed = attached
        attached = []
        for animation in removed { animation.stop(finished: false) }
    }

    /// Keys of the attached animations in application order (nil-keyed ones are not listed).
    public func animationKeys() -> [String]? {
        let keys = attached.compactMap(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// The layer's copy of the animation under `key`; mutating it is undefined, as in Core Animation.
    public func animation(forKey key: String) -> CAAnimation? {
        attached.first(where: { $0.key == key })?.animation
    }

    /// A copy of the layer and its subtree as they are (model values, no animations).
    func modelSnapshot() -> CALayer {
        let copy = Swift.type(of: self).init(_copying: self)
        copy.properties.transition = nil
        copy.sublayerStorage = sublayerStorage.map { layer in
            let child = layer.modelSnapshot()
            child.superlayer = copy
            return child
        }
        if let mask = maskStorage {
            let maskCopy = mask.modelSnapshot()
            maskCopy.maskOwner = copy
            copy.maskStorage = maskCopy
        }
        return copy
    }

    /// The old-state copy of the transition running at local time `t`, if one is.
    public func transitionSnapshot(atLocalTime t: CFTimeInterval) -> CALayer? {
        for item in attached.reversed() {
            guard case .transition(_, let timing, let snapshot?) = item.program,
                  let time = timing.resolve(parentTime: t), !(item.isRemovedOnCompletion && time.phase == .after) else { continue }
            return snapshot
        }
        return nil
    }

    /// Number of attached animations, nil-keyed ones included.
    public var attachedAnimationCount: Int { attached.count }

    /// The layer's properties at its local time `t`, with every attached animation applied in order.
    public func presentationProperties(atLocalTime t: CFTimeInterval) -> LayerProperties {
        // Animations read the model in place (a copy would be one more reference to each block
        // and a retain and release of each, every frame; the access is a read, though spelled inout).
        // The steps are read in place too, the emptiness test included: a copy would retain and
        // release their storage, one more object (and cache line) touched per layer per frame.
        withUnsafePointer(to: &animationSteps) { steps in
            guard !steps.pointee.isEmpty else { return properties }
            var state: LayerProperties
            if steps.pointee.writesGeometry, let block = takeReusableGeometry() {
                // An earlier frame's copy, no longer in any tree: the copy-on-write copy without
                // the allocation (the animations below then write into it in place). Built
                // around it: copying the model's values first would retain and release the
                // model's geometry block for nothing.
                block.values.pointee = properties.geometry.values.pointee
                state = LayerProperties(storage: properties.storage, geometry: block)
            } else {
                state = properties
            }
            withUnsafePointer(to: &properties) { model in AnimationSteps.apply(steps, parentTime: t, model: model, to: &state) }
            if state.geometry !== properties.geometry { keepReusableGeometry(state.geometry) }
            return state
        }
    }

    /// A copy of the layer with every active animation applied at the media clock's current time;
    /// its sublayers and mask are presentation copies too. Core Animation: `presentation()`.
    ///
    /// Nil for a layer that was never shown (not in a tree driven by a `LayerTimeline`), as on
    /// Apple; `PresentationTree.evaluate(_:at:)` evaluates any tree at any time.
    public func presentation() -> Self? {
        guard isCommitted else { return nil }
        let now = CATransaction.mediaClock.currentTime
        let parentTime = (superlayer ?? maskOwner)?.localTime(fromGlobalTime: now) ?? now
        return makePresentation(parentTime: parentTime) as? Self
    }

    /// The model layer of a presentation copy (the layer itself for model layers).
    public func model() -> Self { (modelLayerReference as? Self) ?? self }

    func makePresentation(parentTime: CFTimeInterval) -> CALayer {
        let local = properties.timing.layerLocalTime(parentTime: parentTime)
        let copy = Swift.type(of: self).init(_copying: self)
        copy.properties = presentationProperties(atLocalTime: local)
        copy.modelLayerReference = self
        copy.sublayerStorage = sublayerStorage.map { layer in
            let child = layer.makePresentation(parentTime: local)
            child.superlayer = copy
            return child
        }
        if let mask = maskStorage {
            let maskCopy = mask.makePresentation(parentTime: local)
            maskCopy.maskOwner = copy
            copy.maskStorage = maskCopy
        }
        return copy
    }
}

extension CALayer {
    /// The layer's local time for a time in its superlayer's time space (read in place: going
    /// through `properties` from another module would copy every property).
    public func localTime(fromParentTime t: CFTimeInterval) -> CFTimeInterval {
        properties.timing.layerLocalTime(parentTime: t)
    }

    /// Converts a time from `layer`'s time space (nil: absolute time) into this layer's: up from
    /// `layer` to the nearest common ancestor, then down to this layer (§1.5). Going through
    /// absolute time instead would read 0 wherever an ancestor's local time falls before its
    /// beginTime on the way.
    public func convertTime(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval {
        guard let layer else { return localTime(fromGlobalTime: t) }
        let sourceChain = [layer] + layer.ancestors
        let targetChain = [self] + ancestors
        let common = sourceChain.first { source in targetChain.contains { $0 === source } }
        var time = t
        for step in sourceChain {
            if step === common { break }
            time = step.properties.timing.layerParentTime(localTime: time)
        }
        for step in targetChain.prefix(while: { $0 !== common }).reversed() {
            time = step.properties.timing.layerLocalTime(parentTime: time)
        }
        return time
    }

    /// Converts a time from this layer's time space into `layer`'s (nil: absolute time).
    public func convertTime(_ t: CFTimeInterval, to layer: CALayer?) -> CFTimeInterval {
        layer?.convertTime(t, from: self) ?? globalTime(fromLocalTime: t)
    }

    /// Absolute time → this layer's local time, through every ancestor.
    func localTime(fromGlobalTime t: CFTimeInterval) -> CFTimeInterval {
        var time = t
        for layer in ([self] + ancestors).reversed() where !layer.properties.timing.isIdentityForLayer {
            time = layer.properties.timing.layerLocalTime(parentTime: time)
        }
        return time
    }

    /// This layer's local time → absolute time, through every ancestor.
    func globalTime(fromLocalTime t: CFTimeInterval) -> CFTimeInterval {
        var time = t
        for layer in [self] + ancestors where !layer.properties.timing.isIdentityForLayer {
            time = layer.properties.timing.layerParentTime(localTime: time)
        }
        return time
    }
}
