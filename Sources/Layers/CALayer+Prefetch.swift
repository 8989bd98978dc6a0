import CPrefetch

// Presenting a big tree waits on memory more than it computes: each layer's object, property
// blocks, compiled animations and keyframe tracks lie in their own heap blocks, and the first
// read of each is a cache miss. The evaluation knows the siblings it presents next, so it asks
// for their memory before it needs it, one level of pointers per sibling (each level's addresses
// are read from memory the level before brought in; see `Builder.appendSublayers`). Hints only:
// no value changes. Package API: for Presentation, not for users of `CALayer`.

extension CALayer {
    /// Asks for the memory of the siblings after `layers[index]`, which is about to be
    /// presented, one level of pointers per sibling: the object of the fourth one on (where what
    /// presenting it reads first is declared); the property blocks and compiled animations of the
    /// third, read from its object that arrived meanwhile; the keyframe track objects of the
    /// second; those tracks' arrays for the next. No sibling is retained: retaining an object not
    /// yet in cache would wait for it, the very wait this avoids.
    package static func prefetchSiblings(after index: Int, in layers: UnsafeBufferPointer<CALayer>) {
        func layer(_ k: Int) -> Unmanaged<CALayer> {
            Unmanaged.fromOpaque(UnsafeRawPointer(layers.baseAddress! + k).load(as: UnsafeRawPointer.self))
        }
        let n = layers.count
        if index + 4 < n { lamina_prefetch(layer(index + 4).toOpaque(), 192) }
        if index + 3 < n { layer(index + 3)._withUnsafeGuaranteedRef { $0.prefetchPresentationData() } }
        if index + 2 < n { layer(index + 2)._withUnsafeGuaranteedRef { $0.prefetchKeyframeTracks(objects: true) } }
        if index + 1 < n { layer(index + 1)._withUnsafeGuaranteedRef { $0.prefetchKeyframeTracks(objects: false) } }
    }

    /// The keyframe tracks' objects (`objects`) or, once those are in cache, their arrays.
    private func prefetchKeyframeTracks(objects: Bool) {
        withUnsafePointer(to: &animationSteps) { AnimationSteps.prefetchTracks($0, objects: objects) }
    }

    private func prefetchPresentationData() {
        withUnsafePointer(to: &properties) { p in
            lamina_prefetch(UnsafeRawPointer(Unmanaged.passUnretained(p.pointee.geometry).toOpaque()),
                            16 + MemoryLayout<LayerGeometryValues>.size)
            // Its header (retained by every presentation) and first values (timing, class and
            // transition: read for every layer); the rest is read seldom, or only by parents.
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
        // Up to eight lines: three vector steps (288 bytes each) and their headers. The
        // processor's streamer did not follow the walk through more than the first three
        // (a third of the evaluation's samples waited on a vector step's last fields).
        lamina_prefetch(UnsafeRawPointer(start), min(end - UnsafeRawPointer(start), 1024))
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
