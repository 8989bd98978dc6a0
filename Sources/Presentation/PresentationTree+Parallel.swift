import Foundation
import Geometry
import Layers

extension PresentationTree {
    /// Trees with fewer presented layers (by `estimatedPresentedLayerCount`) are evaluated on one thread.
    public static var parallelMinimumLayerCount: Int { ParallelSplit.minimumLayerCount }

    /// How a big tree is evaluated on several threads: on the calling thread the root, its
    /// mask and the chain of only children below it down to the first layer with several
    /// sublayers (the split layer: a scene's root usually holds one container), then the split
    /// layer's sublayers in contiguous runs ("parts"), each part on whichever thread is free,
    /// written straight into its slots of the tree's buffer. Slots are reserved
    /// from `estimatedPresentedLayerCount`; when a part presents another number of layers
    /// (particles, an animated `instanceCount`), the pieces are moved together afterwards.
    /// Either way the tree is the one a single thread builds, value for value.
    struct ParallelSplit {
        /// Smaller trees are evaluated on one thread: waking others costs more than it saves.
        static let minimumLayerCount = 2048

        /// The root and its only children down to the split layer (the last).
        private let chain: [CALayer]
        private let rootSlots: Int
        private let parts: [Range<Int>]
        /// Slots of each part: where it starts in the tree and how many layers it is expected to present.
        private let partStarts: [Int]
        private let partSlots: [Int]
        private let slotCount: Int

        /// How `root` is best evaluated on up to `threads` threads: split, or (nil) on one
        /// thread, which is when the tree is small, its root has fewer than two sublayers, or
        /// its root presents its sublayers other than once each (a replicator copies them, an
        /// emitter adds particles among them). Also the tree's presented-layer estimate, counted
        /// once for both uses.
        static func choose(for root: CALayer, threads: Int) -> (split: ParallelSplit?, estimate: Int) {
            guard threads > 1, let chain = chain(below: root), let sublayers = chain.last?.sublayers else {
                return (nil, root.estimatedPresentedLayerCount)
            }
            let counts = sublayers.map(\.estimatedPresentedLayerCount)
            let rootSlots = chain.reduce(0) { $0 + 1 + ($1.mask?.estimatedPresentedLayerCount ?? 0) }
            let estimate = rootSlots + counts.reduce(0, +)
            guard estimate >= minimumLayerCount else { return (nil, estimate) }
            return (ParallelSplit(chain: chain, counts: counts, rootSlots: rootSlots, threads: threads), estimate)
        }

        /// The root and its only children down to the split layer (the last), or nil where a
        /// layer on the way copies its sublayers (a replicator) or adds particles (an emitter),
        /// or the chain ends without a layer of several sublayers.
        static func chain(below root: CALayer) -> [CALayer]? {
            var chain: [CALayer] = []
            var layer = root
            while true {
                guard !(layer is CAReplicatorLayer), !(layer is CAEmitterLayer), let sublayers = layer.sublayers else { return nil }
                chain.append(layer)
                if sublayers.count >= 2 { return chain }
                guard sublayers.count == 1, chain.count < 64 else { return nil }
                layer = sublayers[0]
            }
        }

        private init(chain: [CALayer], counts: [Int], rootSlots: Int, threads: Int) {
            let sublayerTotal = counts.reduce(0, +)
            self.chain = chain
            self.rootSlots = rootSlots
            slotCount = rootSlots + sublayerTotal
            // More parts than threads, so a thread that finishes early takes another.
            let partCount = min(counts.count, 4 * threads)
            var parts: [Range<Int>] = [], starts: [Int] = [], slots: [Int] = []
            var start = 0, filled = 0, next = rootSlots
            for (i, count) in counts.enumerated() {
                filled += count
                let isLast = i == counts.count - 1
                // Cut where the running total passes the next equal share.
                if isLast || filled * partCount >= (parts.count + 1) * sublayerTotal {
                    parts.append(start..<(i + 1))
                    starts.append(next)
                    slots.append(rootSlots + filled - next)
                    next = rootSlots + filled
                    start = i + 1
                }
            }
            self.parts = parts
            partStarts = starts
            partSlots = slots
        }

        func evaluate(at time: Double, drawableOnly: Bool) -> [PresentedLayer] {
            let (chain, parts) = (chain, parts)
            var assembled: [PresentedLayer] = []
            let inPlace = [PresentedLayer](unsafeUninitializedCapacity: slotCount) { buffer, initialized in
                let slots = buffer.baseAddress!
                var rootBuilder = Builder(layers: PresentedLayerRegion(slots: slots, count: rootSlots))
                rootBuilder.drawableOnly = drawableOnly
                // The root and its chain of only children, each its parent's one sublayer.
                var frame = ParentFrame(time: time)
                var index = rootBuilder.appendLayer(chain[0], parent: nil, siblingIndex: 0, depth: 0, isMask: false,
                                                    hasSublayers: true, parentFrame: frame).index
                frame = rootBuilder.childFrame(of: index, parentFrame: frame)
                for (depth, layer) in chain.enumerated().dropFirst() {
                    let parent = index
                    index = rootBuilder.appendLayer(layer, parent: parent, siblingIndex: 0, depth: depth, isMask: false,
                                                    hasSublayers: true, parentFrame: frame).index
                    frame = rootBuilder.childFrame(of: index, parentFrame: frame)
                    rootBuilder.layers[parent].sublayersInDrawingOrder = [index]
                }
                let (splitIndex, splitFrame, depth) = (index, frame, chain.count)
                let sublayers = chain.last?.sublayers ?? []
                var builders = partStarts.indices.map { k in
                    var builder = Builder(layers: PresentedLayerRegion(slots: slots + partStarts[k], count: partSlots[k]),
                                          base: partStarts[k])
                    builder.drawableOnly = drawableOnly
                    return builder
                }
                var children = [[Int]](repeating: [], count: parts.count)
                builders.withUnsafeMutableBufferPointer { builders in
                    children.withUnsafeMutableBufferPointer { children in
                        // Each part touches only its own builder, child list and slots.
                        let shared = UncheckedSendable(value: (builders, children, sublayers))
                        DispatchQueue.concurrentPerform(iterations: parts.count) { k in
                            let (builders, children, sublayers) = shared.value
                            for i in parts[k] {
                                children[k].append(builders[k].nextIndex)
                                builders[k].visit(sublayers[i], parent: splitIndex, siblingIndex: i, depth: depth, isMask: false,
                                                  parentFrame: splitFrame)
                            }
                        }
                    }
                }
                if rootBuilder.layers.isInPlace, builders.allSatisfy(\.layers.isInPlace) {
                    Self.finishSplitLayer(splitIndex, children: children.flatMap { $0 }, in: slots)
                    initialized = slotCount
                    return
                }
                assembled.reserveCapacity(slotCount)
                rootBuilder.layers.moveLayers { assembled.append($0) }
                var splitChildren: [Int] = []
                for k in builders.indices {
                    let shift = assembled.count - partStarts[k]
                    let start = partStarts[k]
                    builders[k].layers.moveLayers { layer in
                        var layer = layer
                        if shift != 0 { layer.shiftIndices(from: start, by: shift) }
                        assembled.append(layer)
                    }
                    splitChildren += children[k].map { $0 + shift }
                }
                assembled.withUnsafeMutableBufferPointer { Self.finishSplitLayer(splitIndex, children: splitChildren, in: $0.baseAddress!) }
                initialized = 0
            }
            return inPlace.isEmpty ? assembled : inPlace
        }

        /// Gives the split layer its sublayers in drawing order, as `Builder.appendSublayers` does.
        private static func finishSplitLayer(_ index: Int, children: [Int], in layers: UnsafeMutablePointer<PresentedLayer>) {
            var children = children
            if children.contains(where: { layers[$0].properties.zPosition != 0 }) {
                PresentationTree.sortByZPosition(&children, from: 0) { layers[$0].properties.zPosition }
            }
            layers[index].sublayersInDrawingOrder = children
        }
    }
}

private struct UncheckedSendable<Value>: @unchecked Sendable { let value: Value }

private extension PresentedLayer {
    /// Moves every tree index at or past `start` (this part's own layers) by `shift`; indices
    /// before it point at the split layer or above it, which do not move.
    mutating func shiftIndices(from start: Int, by shift: Int) {
        func moved(_ i: Int) -> Int { i >= start ? i + shift : i }
        index = moved(index)
        parent = parent.map(moved)
        mask = mask.map(moved)
        renderingContext = renderingContext.map(moved)
        for k in sublayersInDrawingOrder.indices { sublayersInDrawingOrder[k] = moved(sublayersInDrawingOrder[k]) }
    }
}
