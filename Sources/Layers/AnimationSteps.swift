import Foundation
import Geometry
import Animation
import Timing

/// A layer's attached animations flattened into one contiguous list, rebuilt whenever the list
/// of animations changes, so evaluating a frame walks one array instead of chasing an object,
/// a program box and a prepared animation per animation (on a large tree those pointer hops,
/// each a cache miss, cost more than the sampling).
///
/// Basic, spring and keyframe animations of numbers, points, sizes, rectangles and colours —
/// nearly all animations — keep everything a frame reads inline and, for the properties
/// animations usually change, read and write them in place (`VectorSlot`); groups become a header
/// step followed by their children; anything else runs its `AnimationProgram`. Results are those of the
/// programs, bit for bit: the same functions compute them.
struct AnimationSteps {
    /// One entry of the flattened list; its data lives in the typed arrays below, so entries and
    /// vector steps are plain values (stepping through them copies nothing reference-counted).
    enum Step {
        /// `vectors[index]`.
        case vector(Int, removedOnCompletion: Bool)
        /// `groups[index]`; the next `childCount` steps (its descendants) run in its children's time.
        case group(Int, childCount: Int, removedOnCompletion: Bool)
        /// `keyframes[index]`.
        case keyframes(Int, removedOnCompletion: Bool)
        /// `programs[index]`.
        case program(Int, removedOnCompletion: Bool)
    }

    /// A vector property animation's per-frame data (see `AnimationProgram.apply`'s `.property`).
    struct VectorStep {
        let timing: TimingParameters
        let key: LayerKey
        let field: KeyPathField?
        let slot: VectorSlot
        let endpoints: VectorEndpoints
        let curve: TimingCurve?
        let needsUnderlying: Bool
        let isAdditive: Bool
        let isCumulative: Bool
        /// `programs[fallback]` samples the animation when the underlying value is not a vector
        /// (a nil colour).
        let fallback: Int
    }

    /// A keyframe animation of vectors (numbers, points, sizes, rects, colours) or along a path.
    struct KeyframeStep {
        let timing: TimingParameters
        let key: LayerKey
        let field: KeyPathField?
        let slot: VectorSlot
        let track: VectorKeyframes
        let curve: TimingCurve?
        let isAdditive: Bool
        let isCumulative: Bool
    }

    struct GroupStep {
        let timing: TimingParameters
        let curve: TimingCurve?
    }

    private(set) var steps: [Step] = []
    private var vectors: [VectorStep] = []
    private var keyframes: [KeyframeStep] = []
    private var groups: [GroupStep] = []
    private var programs: [AnimationProgram] = []

    var isEmpty: Bool { steps.isEmpty }

    init() {}

    init(_ attached: [AttachedAnimation]) {
        steps.reserveCapacity(attached.count)
        for item in attached { append(item.program, removedOnCompletion: item.isRemovedOnCompletion) }
    }

    private mutating func append(_ program: AnimationProgram, removedOnCompletion: Bool) {
        switch program {
        case .property(let path, let prepared)
            where path.filterInput == nil && prepared.vector != nil && prepared.valueFunction == nil && prepared.rotationMode == nil:
            let endpoints = prepared.vector!
            programs.append(program)
            vectors.append(VectorStep(timing: prepared.timing, key: path.key, field: path.field,
                                      slot: VectorSlot(path, kind: endpoints.kind), endpoints: endpoints,
                                      curve: prepared.timingFunction?.curve, needsUnderlying: prepared.needsUnderlying,
                                      isAdditive: prepared.isAdditive, isCumulative: prepared.isCumulative,
                                      fallback: programs.count - 1))
            steps.append(.vector(vectors.count - 1, removedOnCompletion: removedOnCompletion))
        case .property(let path, let prepared)
            where path.filterInput == nil && prepared.vectorKeyframes != nil && prepared.valueFunction == nil
                && prepared.rotationMode == nil:
            let track = prepared.vectorKeyframes!
            keyframes.append(KeyframeStep(timing: prepared.timing, key: path.key, field: path.field,
                                          slot: VectorSlot(path, kind: track.kind), track: track,
                                          curve: prepared.timingFunction?.curve, isAdditive: prepared.isAdditive,
                                          isCumulative: prepared.isCumulative))
            steps.append(.keyframes(keyframes.count - 1, removedOnCompletion: removedOnCompletion))
        case .group(let timing, let function, let children):
            let group = groups.count
            groups.append(GroupStep(timing: timing, curve: function?.curve))
            let header = steps.count
            steps.append(.group(group, childCount: 0, removedOnCompletion: removedOnCompletion))
            for child in children { append(child, removedOnCompletion: false) }
            steps[header] = .group(group, childCount: steps.count - header - 1, removedOnCompletion: removedOnCompletion)
        case .inert:
            // Changes nothing (an inert group child too: its siblings do not depend on it).
            break
        default:
            programs.append(program)
            steps.append(.program(programs.count - 1, removedOnCompletion: removedOnCompletion))
        }
    }

    /// Applies every step at the layer's local time `t` to `state`; `model` holds the model values.
    func apply(parentTime t: Double, model: UnsafePointer<LayerProperties>, to state: inout LayerProperties) {
        steps.withUnsafeBufferPointer { steps in
            vectors.withUnsafeBufferPointer { vectors in
                keyframes.withUnsafeBufferPointer { keyframes in
                    groups.withUnsafeBufferPointer { groups in
                        let context = Context(steps: steps, vectors: vectors, keyframes: keyframes, groups: groups,
                                              programs: programs)
                        context.apply(from: 0, to: steps.count, parentTime: t, model: model, to: &state)
                    }
                }
            }
        }
    }

    private struct Context {
        let steps: UnsafeBufferPointer<Step>
        let vectors: UnsafeBufferPointer<VectorStep>
        let keyframes: UnsafeBufferPointer<KeyframeStep>
        let groups: UnsafeBufferPointer<GroupStep>
        let programs: [AnimationProgram]

        func apply(from start: Int, to end: Int, parentTime t: Double, model: UnsafePointer<LayerProperties>,
                   to state: inout LayerProperties) {
            var i = start
            while i < end {
                let step = steps[i]
                i += 1
                switch step {
                case .vector(let index, let removed):
                    vectors[index].apply(parentTime: t, removedOnCompletion: removed, model: model, to: &state,
                                         programs: programs)
                case .group(let index, let childCount, let removed):
                    let children = i..<(i + childCount)
                    i += childCount
                    // As `AnimationProgram.apply`'s `.group`.
                    let timing = groups[index].timing
                    guard let time = timing.resolve(parentTime: t), !(removed && time.phase == .after) else { continue }
                    let childTime = groups[index].curve.map { $0.solve(time.fraction) * timing.duration } ?? time.basicTime
                    guard childTime.isFinite else { continue }
                    apply(from: children.lowerBound, to: children.upperBound, parentTime: childTime, model: model, to: &state)
                case .keyframes(let index, let removed):
                    keyframes[index].apply(parentTime: t, removedOnCompletion: removed, to: &state)
                case .program(let index, let removed):
                    programs[index].apply(parentTime: t, model: model, to: &state, removedOnCompletion: removed)
                }
            }
        }
    }
}

extension AnimationSteps.VectorStep {
    /// As `AnimationProgram.apply`'s `.property` case for an animation without a value function
    /// or rotation mode.
    @inline(__always)
    func apply(parentTime: Double, removedOnCompletion: Bool, model: UnsafePointer<LayerProperties>,
               to state: inout LayerProperties, programs: [AnimationProgram]) {
        guard let time = timing.resolve(parentTime: parentTime),
              !(removedOnCompletion && time.phase == .after) else { return }
        guard case .general = slot else {
            // Read and written in place; a nil colour underneath falls back to the program.
            let underlying = needsUnderlying ? slot.read(model.pointee) : nil
            guard var v = endpoints.vector(at: time, underlying: underlying, curve: curve, cumulative: isCumulative) else {
                return applyGeneral(time: time, model: model, to: &state, programs: programs)
            }
            if isAdditive, let current = slot.read(state) { v = current + v }
            guard endpoints.kind.isFinite(v) else { return }
            slot.write(v, into: &state)
            return
        }
        applyGeneral(time: time, model: model, to: &state, programs: programs)
    }

    private func applyGeneral(time: ResolvedTime, model: UnsafePointer<LayerProperties>, to state: inout LayerProperties,
                              programs: [AnimationProgram]) {
        let path = LayerKeyPath(key: key, field: field)
        let underlying = needsUnderlying ? model.pointee.value(at: path) : nil
        var value: AnimatableValue
        if let sampled = endpoints.value(at: time, underlying: underlying, curve: curve, cumulative: isCumulative) {
            value = sampled
        } else if case .property(_, let prepared) = programs[fallback] {
            value = prepared.value(at: time, underlying: underlying)
        } else {
            return
        }
        if isAdditive, let current = state.value(at: path) { value = current.adding(value) }
        guard value.isFinite else { return }
        state.setValue(value, at: path)
    }
}

extension AnimationSteps.KeyframeStep {
    /// As `AnimationProgram.apply`'s `.property` case for a keyframe animation of vectors.
    @inline(__always)
    func apply(parentTime: Double, removedOnCompletion: Bool, to state: inout LayerProperties) {
        guard let time = timing.resolve(parentTime: parentTime),
              !(removedOnCompletion && time.phase == .after) else { return }
        let u = curve?.solve(time.fraction) ?? time.fraction
        var v = track.value(at: u)
        if isCumulative, time.iteration > 0 { v = track.end * Double(time.iteration) + v }
        guard case .general = slot else {
            if isAdditive, let current = slot.read(state) { v = current + v }
            guard track.kind.isFinite(v) else { return }
            slot.write(v, into: &state)
            return
        }
        let path = LayerKeyPath(key: key, field: field)
        var value = VectorEndpoints.value(v, kind: track.kind)
        if isAdditive, let current = state.value(at: path) { value = current.adding(value) }
        guard value.isFinite else { return }
        state.setValue(value, at: path)
    }
}
