import Synchronization

// One geometry block kept between evaluations of a layer (`CALayer.reusableGeometry`), so an
// animated layer's presentation writes the block its previous frame used instead of allocating
// one every frame.
//
// Every evaluation of a layer with animations copies the model's geometry block (copy-on-write)
// and writes the animated values into the copy. On a big tree those copies were one allocation
// per animated layer per frame, on malloc's slow path: the previous tree is released in bulk, so
// the allocator's per-size caches are empty. The slot holds the block of the last frame; once
// nothing else references it (that frame's tree was released), the next evaluation takes it,
// assigns the model's values and lets the animations write into it as into a fresh copy.
//
// The slot is taken and filled with atomic exchanges, so evaluations of one tree on several
// threads at once (or one evaluation while another frame's tree is still alive) stay correct: a
// block is reused only by the thread that took it, and only when no tree holds it. The slot sits
// in the layer object itself: a separate object would be one more cache miss per layer.

extension CALayer {
    /// The kept block, if nothing else references it any more; nil otherwise (the caller copies
    /// on write as usual).
    @inline(__always)
    func takeReusableGeometry() -> PropertyBlock<LayerGeometryValues>? {
        guard let kept = reusableGeometry.exchange(nil, ordering: .acquiring) else { return nil }
        var block = kept.takeRetainedValue()
        guard isKnownUniquelyReferenced(&block) else { return nil }
        // The tree that held it may have been released on another thread: order its last reads
        // of the values before the writes over them.
        atomicMemoryFence(ordering: .acquiring)
        return block
    }

    /// Keeps `block` (the one this evaluation's animations wrote) for the next evaluation.
    @inline(__always)
    func keepReusableGeometry(_ block: PropertyBlock<LayerGeometryValues>) {
        reusableGeometry.exchange(.passRetained(block), ordering: .releasing)?.release()
    }

    /// Releases the kept block (from `deinit`).
    func releaseReusableGeometry() {
        reusableGeometry.exchange(nil, ordering: .relaxed)?.release()
    }
}
