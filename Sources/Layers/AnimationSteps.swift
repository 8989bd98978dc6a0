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
        let timing: TimingResolver
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
        let timing: TimingResolver
        let key: LayerKey
        let field: KeyPathField?
        let slot: VectorSlot
        /// Kept alive by its program in the storage's `programs` (unowned: reading it every frame
        /// would otherwise retain and release it).
        let track: Unmanaged<VectorKeyframes>
        let curve: TimingCurve?
        let isAdditive: Bool
        let isCumulative: Bool
    }

    struct GroupStep {
        let timing: TimingResolver
        let curve: TimingCurve?
    }

    /// The flattened list, built once per change of the layer's animations; nil for none.
    private let storage: Storage?
    /// The storage's lists, held inline (in the layer): reading them costs no trip to the
    /// storage object.
    let context: Context

    /// Read through the lists (trivial values): testing `storage` would retain and release it.
    var isEmpty: Bool { context.steps.isEmpty }

    /// Whether a vector or keyframe step writes a value of the geometry block (whose copy a
    /// layer's evaluation then takes from `CALayer.reusableGeometry`).
    let writesGeometry: Bool

    init() { storage = nil; context = Context(); writesGeometry = false }

    init(_ attached: [AttachedAnimation]) {
        var builder = Builder()
        for item in attached { builder.append(item.program, removedOnCompletion: item.isRemovedOnCompletion) }
        storage = builder.steps.isEmpty ? nil : Storage(builder)
        context = storage?.lists ?? Context()
        writesGeometry = builder.vectors.contains { $0.slot.isInGeometryBlock }
            || builder.keyframes.contains { $0.slot.isInGeometryBlock }
    }

    /// Collects the steps and their data while compiling.
    private struct Builder {
        var steps: [Step] = []
        var vectors: [VectorStep] = []
        var keyframes: [KeyframeStep] = []
        var groups: [GroupStep] = []
        var programs: [AnimationProgram] = []

        mutating func append(_ program: AnimationProgram, removedOnCompletion: Bool) {
            switch program {
            case .property(let path, let prepared)
                where path.filterInput == nil && prepared.vector != nil && prepared.valueFunction == nil && prepared.rotationMode == nil:
                let endpoints = prepared.vector!
                programs.append(program)
                vectors.append(VectorStep(timing: TimingResolver(prepared.timing), key: path.key, field: path.field,
                                          slot: VectorSlot(path, kind: endpoints.kind), endpoints: endpoints,
                                          curve: prepared.timingFunction?.curve, needsUnderlying: prepared.needsUnderlying,
                                          isAdditive: prepared.isAdditive, isCumulative: prepared.isCumulative,
                                          fallback: programs.count - 1))
                steps.append(.vector(vectors.count - 1, removedOnCompletion: removedOnCompletion))
            case .property(let path, let prepared)
                where path.filterInput == nil && prepared.vectorKeyframes != nil && prepared.valueFunction == nil
                    && prepared.rotationMode == nil:
                let track = prepared.vectorKeyframes!
                programs.append(program)
                keyframes.append(KeyframeStep(timing: TimingResolver(prepared.timing), key: path.key, field: path.field,
                                              slot: VectorSlot(path, kind: track.kind), track: .passUnretained(track),
                                              curve: prepared.timingFunction?.curve, isAdditive: prepared.isAdditive,
                                              isCumulative: prepared.isCumulative))
                steps.append(.keyframes(keyframes.count - 1, removedOnCompletion: removedOnCompletion))
            case .group(let timing, let function, let children):
                let group = groups.count
                groups.append(GroupStep(timing: TimingResolver(timing), curve: function?.curve))
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
    }

    /// The lists one after the other in one allocation, read through pointers: a frame's walk
    /// over them retains no array (five arrays were five retains and releases per layer per
    /// frame) and touches one block of memory instead of five scattered ones (the evaluation of
    /// a big tree waits on memory more than it computes).
    private final class Storage: @unchecked Sendable {
        /// The lists, in `block`.
        let lists: Context
        private let block: UnsafeMutableRawPointer

        init(_ builder: Builder) {
            var size = 0, alignment = 1
            func reserve<T>(_ type: T.Type, _ count: Int) -> Int {
                let offset = (size + MemoryLayout<T>.alignment - 1) / MemoryLayout<T>.alignment * MemoryLayout<T>.alignment
                size = offset + MemoryLayout<T>.stride * count
                alignment = max(alignment, MemoryLayout<T>.alignment)
                return offset
            }
            let offsets = (reserve(Step.self, builder.steps.count), reserve(VectorStep.self, builder.vectors.count),
                           reserve(KeyframeStep.self, builder.keyframes.count), reserve(GroupStep.self, builder.groups.count),
                           reserve(AnimationProgram.self, builder.programs.count))
            let block = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: alignment)
            self.block = block
            func place<T>(_ array: [T], at offset: Int) -> UnsafeBufferPointer<T> {
                let buffer = UnsafeMutableBufferPointer(start: (block + offset).bindMemory(to: T.self, capacity: array.count),
                                                        count: array.count)
                _ = buffer.initialize(from: array)
                return UnsafeBufferPointer(buffer)
            }
            lists = Context(steps: place(builder.steps, at: offsets.0), vectors: place(builder.vectors, at: offsets.1),
                            keyframes: place(builder.keyframes, at: offsets.2), groups: place(builder.groups, at: offsets.3),
                            programs: place(builder.programs, at: offsets.4))
        }

        deinit {
            UnsafeMutableBufferPointer(mutating: lists.steps).deinitialize()
            UnsafeMutableBufferPointer(mutating: lists.vectors).deinitialize()
            UnsafeMutableBufferPointer(mutating: lists.keyframes).deinitialize()
            UnsafeMutableBufferPointer(mutating: lists.groups).deinitialize()
            UnsafeMutableBufferPointer(mutating: lists.programs).deinitialize()
            block.deallocate()
        }
    }

    /// Applies the steps at `steps` (kept alive by their layer) at the layer's local time `t` to
    /// `state`; `model` holds the model values. Static, on a pointer: a method called on
    /// `pointer.pointee` gets a copy of the value, a retain and release of its storage per call.
    @inline(__always)
    static func apply(_ steps: UnsafePointer<AnimationSteps>, parentTime t: Double, model: UnsafePointer<LayerProperties>,
                      to state: inout LayerProperties) {
        let context = steps.pointee.context
        context.apply(from: 0, to: context.steps.count, parentTime: t, model: model, to: &state)
    }

    /// The lists read while applying; `Context()` has no steps.
    struct Context {
        var steps = UnsafeBufferPointer<Step>(start: nil, count: 0)
        var vectors = UnsafeBufferPointer<VectorStep>(start: nil, count: 0)
        var keyframes = UnsafeBufferPointer<KeyframeStep>(start: nil, count: 0)
        var groups = UnsafeBufferPointer<GroupStep>(start: nil, count: 0)
        var programs = UnsafeBufferPointer<AnimationProgram>(start: nil, count: 0)

        func apply(from start: Int, to end: Int, parentTime t: Double, model: UnsafePointer<LayerProperties>,
                   to state: inout LayerProperties) {
            var i = start
            while i < end {
                let step = steps[i]
                i += 1
                switch step {
                case .vector(let index, let removed):
                    AnimationSteps.VectorStep.apply(vectors.baseAddress! + index, parentTime: t, removedOnCompletion: removed,
                                                    model: model, to: &state, programs: programs)
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
                    AnimationSteps.KeyframeStep.apply(keyframes.baseAddress! + index, parentTime: t,
                                                      removedOnCompletion: removed, to: &state)
                case .program(let index, let removed):
                    programs[index].apply(parentTime: t, model: model, to: &state, removedOnCompletion: removed)
                }
            }
        }
    }
}

// The steps are read through pointers, field by field: calling a method on a step loaded from
// its buffer would copy it whole (retaining the keyframe track and releasing it again).

extension AnimationSteps.VectorStep {
    /// As `AnimationProgram.apply`'s `.property` case for an animation without a value function
    /// or rotation mode.
    @inline(__always)
    static func apply(_ step: UnsafePointer<Self>, parentTime: Double, removedOnCompletion: Bool,
                      model: UnsafePointer<LayerProperties>, to state: inout LayerProperties,
                      programs: UnsafeBufferPointer<AnimationProgram>) {
        guard let time = step.pointee.timing.resolve(parentTime: parentTime),
              !(removedOnCompletion && time.phase == .after) else { return }
        let slot = step.pointee.slot
        guard case .general = slot else {
            // Read and written in place; a nil colour underneath falls back to the program.
            let underlying = step.pointee.needsUnderlying ? slot.read(model.pointee) : nil
            guard var v = step.pointee.endpoints.vector(at: time, underlying: underlying, curve: step.pointee.curve,
                                                        cumulative: step.pointee.isCumulative) else {
                return applyGeneral(step, time: time, model: model, to: &state, programs: programs)
            }
            if step.pointee.isAdditive, let current = slot.read(state) { v = current + v }
            guard step.pointee.endpoints.kind.isFinite(v) else { return }
            slot.write(v, into: &state)
            return
        }
        applyGeneral(step, time: time, model: model, to: &state, programs: programs)
    }

    private static func applyGeneral(_ step: UnsafePointer<Self>, time: ResolvedTime, model: UnsafePointer<LayerProperties>,
                                     to state: inout LayerProperties, programs: UnsafeBufferPointer<AnimationProgram>) {
        let s = step.pointee
        let path = LayerKeyPath(key: s.key, field: s.field)
        let underlying = s.needsUnderlying ? model.pointee.value(at: path) : nil
        var value: AnimatableValue
        if let sampled = s.endpoints.value(at: time, underlying: underlying, curve: s.curve, cumulative: s.isCumulative) {
            value = sampled
        } else if case .property(_, let prepared) = programs[s.fallback] {
            value = prepared.value(at: time, underlying: underlying)
        } else {
            return
        }
        if s.isAdditive, let current = state.value(at: path) { value = current.adding(value) }
        guard value.isFinite else { return }
        state.setValue(value, at: path)
    }
}

extension AnimationSteps.KeyframeStep {
    /// As `AnimationProgram.apply`'s `.property` case for a keyframe animation of vectors.
    @inline(__always)
    static func apply(_ step: UnsafePointer<Self>, parentTime: Double, removedOnCompletion: Bool,
                      to state: inout LayerProperties) {
        guard let time = step.pointee.timing.resolve(parentTime: parentTime),
              !(removedOnCompletion && time.phase == .after) else { return }
        let u = step.pointee.curve?.solve(time.fraction) ?? time.fraction
        let (sample, end, kind) = step.pointee.track._withUnsafeGuaranteedRef { ($0.value(at: u), $0.end, $0.kind) }
        var v = sample
        if step.pointee.isCumulative, time.iteration > 0 { v = end * Double(time.iteration) + v }
        let slot = step.pointee.slot
        guard case .general = slot else {
            if step.pointee.isAdditive, let current = slot.read(state) { v = current + v }
            guard kind.isFinite(v) else { return }
            slot.write(v, into: &state)
            return
        }
        let path = LayerKeyPath(key: step.pointee.key, field: step.pointee.field)
        var value = VectorEndpoints.value(v, kind: kind)
        if step.pointee.isAdditive, let current = state.value(at: path) { value = current.adding(value) }
        guard value.isFinite else { return }
        state.setValue(value, at: path)
    }
}
