import CPrefetch

// Presenting a big tree waits on memory more than it computes: each layer's object, property
// blocks, compiled animations and keyframe tracks lie in their own heap blocks, and the first
// read of each is a cache miss. The evaluation knows the siblings it presents next, so it asks
// for their memory before it needs it, one level of pointers per sibling (each level's addresses
// are read from memory the level before brought in; see `Builder.appendSublayers`). Hints only:
// no value changes. Package API: for Presentation, not for users of `CALayer`.

extension CALayer {
    /// Starts loading the first cache lines of the layer object `layers[index]`, where what
    /// presenting it reads first is declared (values, sublayers, mask, display generation,
    /// compiled animations). Takes no reference: retaining an object not yet in cache would
    /// wait for it, the very wait this avoids.
    @inline(__always)
    package static func prefetchObject(of layers: UnsafeBufferPointer<CALayer>, at index: Int) {
        lamina_prefetch(UnsafeRawPointer(layers.baseAddress! + index).load(as: UnsafeRawPointer.self), 192)
    }

    /// Starts loading what presenting `layers[index]` reads past its object: its two property
    /// blocks and its compiled animations. Best called once the object is in cache
    /// (`prefetchObject(of:at:)` a sibling earlier), since the addresses are read from it.
    @inline(__always)
    package static func prefetchPresentationData(of layers: UnsafeBufferPointer<CALayer>, at index: Int) {
        let object = UnsafeRawPointer(layers.baseAddress! + index).load(as: UnsafeRawPointer.self)
        Unmanaged<CALayer>.fromOpaque(object)._withUnsafeGuaranteedRef { $0.prefetchPresentationData() }
    }

    /// Starts loading the keyframe tracks the compiled animations of `layers[index]` sample: their
    /// objects (`objects`), once its compiled animations are in cache (`prefetchPresentationData`),
    /// or the arrays they sample, once the objects are.
    @inline(__always)
    package static func prefetchKeyframeTracks(of layers: UnsafeBufferPointer<CALayer>, at index: Int, objects: Bool) {
        let object = UnsafeRawPointer(layers.baseAddress! + index).load(as: UnsafeRawPointer.self)
        Unmanaged<CALayer>.fromOpaque(object)._withUnsafeGuaranteedRef { layer in
            withUnsafePointer(to: &layer.animationSteps) { AnimationSteps.prefetchTracks($0, objects: objects) }
        }
    }

    func prefetchPresentationData() {
        withUnsafePointer(to: &properties) { p in
            lamina_prefetch(UnsafeRawPointer(Unmanaged.passUnretained(p.pointee.geometry).toOpaque()),
                            16 + MemoryLayout<LayerGeometryValues>.size)
            // Its header (retained by every presentation) and first values; the rest is read
            // seldom, or only by parents.
            lamina_prefetch(UnsafeRawPointer(Unmanaged.passUnretained(p.pointee.storage).toOpaque()), 128)
        }
        withUnsafePointer(to: &animationSteps) { AnimationSteps.prefetch($0) }
    }
}

extension AnimationSteps {
    /// Starts loading the lists a frame walks (steps, vector, keyframe and group steps: one block).
    @inline(__always)
    static func prefetch(_ steps: UnsafePointer<AnimationSteps>) {
        let context = steps.pointee.context
        guard let start = context.steps.baseAddress else { return }
        var end = UnsafeRawPointer(start + context.steps.count)
        if let v = context.vectors.baseAddress { end = max(end, UnsafeRawPointer(v + context.vectors.count)) }
        if let k = context.keyframes.baseAddress { end = max(end, UnsafeRawPointer(k + context.keyframes.count)) }
        if let g = context.groups.baseAddress { end = max(end, UnsafeRawPointer(g + context.groups.count)) }
        // The first lines: the processor's streamer follows a walk through the rest.
        lamina_prefetch(UnsafeRawPointer(start), min(end - UnsafeRawPointer(start), 384))
    }

    /// Starts loading the keyframe tracks' objects (`objects`) or, once those are in cache,
    /// the arrays they sample.
    @inline(__always)
    static func prefetchTracks(_ steps: UnsafePointer<AnimationSteps>, objects: Bool) {
        let keyframes = steps.pointee.context.keyframes
        guard let first = keyframes.baseAddress else { return }
        for k in 0..<keyframes.count {
            let track = (first + k).pointee.track
            if objects {
                lamina_prefetch(UnsafeRawPointer(track.toOpaque()), 192)
            } else {
                track._withUnsafeGuaranteedRef { $0.prefetchSamplingData() }
            }
        }
    }
}
