import Foundation
import Animation
import Synchronization

/// Bumped by every change that can change a tree's `estimatedPresentedLayerCount` (sublayers,
/// masks, a replicator's `instanceCount`): estimates counted in an older generation are recounted.
/// Starts at 1 so that a layer's never-counted estimate (0) is never current.
private let hierarchyGenerations = Atomic<UInt64>(1)

/// Makes every cached presented-layer estimate stale.
func noteHierarchyChange() { hierarchyGenerations.add(1, ordering: .relaxed) }

extension CALayer {
    /// The sublayers, back to front. Setting it removes the old ones from this layer.
    public var sublayers: [CALayer]? {
        get { sublayerStorage.isEmpty ? nil : sublayerStorage }
        set {
            for layer in sublayerStorage { layer.superlayer = nil }
            sublayerStorage = []
            for layer in newValue ?? [] { addSublayer(layer) }
        }
    }

    /// A layer whose alpha masks this one; it must not have a superlayer.
    public var mask: CALayer? {
        get { maskStorage }
        set {
            maskStorage?.maskOwner = nil
            newValue?.removeFromSuperlayer()
            maskStorage = newValue
            newValue?.maskOwner = self
        }
    }

    /// Appends `layer` on top of the other sublayers (removing it from its old superlayer first).
    public func addSublayer(_ layer: CALayer) { insertSublayer(layer, at: UInt32(sublayerStorage.count)) }

    /// Inserts `layer` at `index` (clamped to the end).
    public func insertSublayer(_ layer: CALayer, at index: UInt32) {
        guard layer !== self else { return }
        layer.removeFromSuperlayer()
        let position = min(Int(index), sublayerStorage.count)
        sublayerStorage.insert(layer, at: position)
        layer.superlayer = self
        // The new layer has never been shown; what matters is that it joins a live tree.
        if isInLiveTree { layer.runAction(forKey: kCAOnOrderIn, evenIfUncommitted: true) }
    }

    /// Inserts `layer` just below `sibling` (at the bottom when `sibling` is not a sublayer).
    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let index = sibling.flatMap { s in sublayerStorage.firstIndex { $0 === s } } ?? 0
        insertSublayer(layer, at: UInt32(index))
        if let sibling, layer.superlayer === self, let i = sublayerStorage.firstIndex(where: { $0 === sibling }),
           let j = sublayerStorage.firstIndex(where: { $0 === layer }), j > i {
            sublayerStorage.remove(at: j)
            sublayerStorage.insert(layer, at: i)
        }
    }

    /// Inserts `layer` just above `sibling` (on top when `sibling` is not a sublayer).
    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        layer.removeFromSuperlayer()
        let index = sibling.flatMap { s in sublayerStorage.firstIndex { $0 === s } }.map { $0 + 1 } ?? sublayerStorage.count
        insertSublayer(layer, at: UInt32(index))
    }

    /// Replaces `old` (a sublayer) with `new`, running the `transition` action.
    public func replaceSublayer(_ old: CALayer, with new: CALayer) {
        guard let index = sublayerStorage.firstIndex(where: { $0 === old }) else { return }
        new.removeFromSuperlayer()
        guard let target = sublayerStorage.firstIndex(where: { $0 === old }) ?? Optional(index) else { return }
        old.superlayer = nil
        sublayerStorage[target] = new
        new.superlayer = self
        runAction(forKey: kCATransition)
    }

    /// Detaches the layer from its superlayer (or from the layer it masks).
    public func removeFromSuperlayer() {
        if let owner = maskOwner {
            owner.maskStorage = nil
            maskOwner = nil
        }
        guard let parent = superlayer else { return }
        runAction(forKey: kCAOnOrderOut)
        parent.sublayerStorage.removeAll { $0 === self }
        superlayer = nil
    }

    /// The topmost ancestor (the layer itself when it has no superlayer or mask owner).
    public var rootLayer: CALayer {
        var layer = self
        while let parent = layer.superlayer ?? layer.maskOwner { layer = parent }
        return layer
    }

    /// Sublayers in drawing order: array order, stably sorted by `zPosition` (higher is nearer).
    public var sublayersInDrawingOrder: [CALayer] {
        sublayerStorage.enumerated()
            .sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }

    /// Ancestors from the superlayer up to the root (masks count their owner as the parent).
    var ancestors: [CALayer] {
        var result: [CALayer] = []
        var layer = self
        while let parent = layer.superlayer ?? layer.maskOwner {
            result.append(parent)
            layer = parent
        }
        return result
    }

    /// How many layers a presentation of the tree holds, counting the model's replicator copies
    /// (not particles, nor copies an animated `instanceCount` adds): a capacity hint, so the
    /// presented array is allocated once. A plain recursion: counting through
    /// `forEachLayerInTree`'s closure costs as much per layer as presenting it.
    /// At most `Self.presentedLayerEstimateCap`, past which the array grows as needed.
    /// Kept from one evaluation to the next until the hierarchy changes (`noteHierarchyChange`):
    /// recounting every layer of a big tree each frame costs a cache miss per layer.
    public var estimatedPresentedLayerCount: Int {
        let generation = hierarchyGenerations.load(ordering: .relaxed)
        let cached = presentedLayerEstimate.load(ordering: .relaxed)
        if cached >> Self.estimateBits == generation { return Int(cached & (1 << Self.estimateBits - 1)) }
        var sublayers = 0
        for layer in sublayerStorage { sublayers += layer.estimatedPresentedLayerCount }
        let copies = presentedCopiesOfSublayers
        if copies != 1 { sublayers *= min(max(copies, 0), Self.presentedLayerEstimateCap) }
        let count = min(1 + sublayers + (maskStorage?.estimatedPresentedLayerCount ?? 0), Self.presentedLayerEstimateCap)
        // A count made while the hierarchy changed is stored under the older generation: stale at once.
        presentedLayerEstimate.store(generation << Self.estimateBits | UInt64(count), ordering: .relaxed)
        return count
    }

    /// Bits of `presentedLayerEstimate` that hold the count (at most the cap).
    private static let estimateBits: UInt64 = 17

    /// The largest capacity hint `estimatedPresentedLayerCount` gives.
    static let presentedLayerEstimateCap = 1 << 16

    /// Calls `body` for the layer, its mask and every descendant, pre-order.
    public func forEachLayerInTree(_ body: (CALayer) -> Void) {
        body(self)
        maskStorage?.forEachLayerInTree(body)
        for layer in sublayerStorage { layer.forEachLayerInTree(body) }
    }
}
