import Foundation

/// Where a `PresentationTree.Builder` appends the layers it presents: the tree's own array when
/// one thread evaluates the tree, or a `PresentedLayerRegion` of the tree's final buffer when
/// several threads each evaluate a part of it.
protocol PresentedLayerList {
    var count: Int { get }
    subscript(position: Int) -> PresentedLayer { get set }
    /// Takes the layer (consumed: a borrowed one would be copied in, a retain of each of its
    /// references here and a release at the caller, per layer per frame).
    mutating func append(_ layer: consuming PresentedLayer)
    mutating func reserveCapacity(_ minimumCapacity: Int)
}

extension Array: PresentedLayerList where Element == PresentedLayer {}

/// A run of slots in the final layer buffer, written in place by one thread. A part of the tree
/// that presents more layers than its slots (its estimate was short: particles, an animated
/// `instanceCount`) moves its layers into a buffer of its own and carries on there; the tree is
/// then assembled from the pieces (`isInPlace` is false).
struct PresentedLayerRegion: PresentedLayerList {
    private let slots: UnsafeMutablePointer<PresentedLayer>
    let slotCount: Int
    /// Where the layers are when they outgrew `slots`.
    private var spill: UnsafeMutablePointer<PresentedLayer>?
    private var spillCapacity = 0
    private(set) var count = 0

    init(slots: UnsafeMutablePointer<PresentedLayer>, count: Int) {
        self.slots = slots
        slotCount = count
    }

    /// True when the layers fill the region's slots exactly, so nothing needs to move.
    var isInPlace: Bool { spill == nil && count == slotCount }

    private var storage: UnsafeMutablePointer<PresentedLayer> { spill ?? slots }

    subscript(position: Int) -> PresentedLayer {
        get { storage[position] }
        _modify { yield &storage[position] }
    }

    // Inlined so the caller builds the layer in its slot: called, it built the 400-byte value on
    // its stack and the call copied it in (a memcpy per layer per frame).
    @inline(__always)
    mutating func append(_ layer: consuming PresentedLayer) {
        if count == (spill == nil ? slotCount : spillCapacity) { grow() }
        (storage + count).initialize(to: consume layer)
        count += 1
    }

    mutating func reserveCapacity(_ minimumCapacity: Int) {}

    private mutating func grow() {
        let capacity = max(16, 2 * max(count, slotCount))
        let larger = UnsafeMutablePointer<PresentedLayer>.allocate(capacity: capacity)
        larger.moveInitialize(from: storage, count: count)
        spill?.deallocate()
        spill = larger
        spillCapacity = capacity
    }

    /// Moves the layers out, in order, to `body` (each exactly once), leaving the region empty.
    mutating func moveLayers(_ body: (PresentedLayer) -> Void) {
        for i in 0..<count { body((storage + i).move()) }
        count = 0
        spill?.deallocate()
        spill = nil
    }
}
