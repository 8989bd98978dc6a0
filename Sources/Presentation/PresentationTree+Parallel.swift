import Foundation
import Geometry
import Layers

extension PresentationTree {
    /// Trees with fewer presented layers (by `estimatedPresentedLayerCount`) are evaluated on one thread.
    public static var parallelMinimumLayerCount: Int { ParallelSplit.minimumLayerCount }

    /// How a big tree is evaluated on several threads: the root and its mask on the calling
    /// thread, then the root's sublayers in contiguous runs ("parts"), each part on whichever
    /// thread is free, written straight into its slots of the tree's buffer. Slots are reserved
    /// from `estimatedPresentedLayerCount`; when a part presents another number of layers
    /// (particles, an animated `instanceCount`), the pieces are moved together afterwards.
    /// Either way the tree is the one a single thread builds, value for value.
    struct ParallelSplit {
        /// Smaller trees are evaluated on one thread: waking others costs more than it saves.
        static let minimumLayerCount = 2048

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
            guard threads > 1, !(root is CAReplicatorLayer), !(root is CAEmitterLayer),
                  let sublayers = root.sublayers, sublayers.count >= 2 else { return (nil, root.estimatedPresentedLayerCount) }
            let counts = sublayers.map(\.estimatedPresentedLayerCount)
            let rootSlots = 1 + (root.mask?.estimatedPresentedLayerCount ?? 0)
            let estimate = rootSlots + counts.reduce(0, +)
            guard estimate >= minimumLayerCount else { return (nil, estimate) }
            return (ParallelSplit(counts: counts, rootSlots: rootSlots, threads: threads), estimate)
        }

        private init(counts: [Int], rootSlots: Int, threads: Int) {
            let sublayerTotal = counts.reduce(0, +)
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
                    let partTotal = counts[start...i].reduce(0, +)
                    slots.append(partTotal)
                    next += partTotal
                    start = i + 1
                }
            }
            self.parts = parts
            partStarts = starts
            partSlots = slots
        }

        func evaluate(_ root: CALayer, at time: Double) -> [PresentedLayer] {
            var assembled: [PresentedLayer] = []
            let inPlace = [PresentedLayer](unsafeUninitializedCapacity: slotCount) { buffer, initialized in
                let slots = buffer.baseAddress!
                var rootBuilder = Builder(layers: PresentedLayerRegion(slots: slots, count: rootSlots))
                let (index, frame, _) = rootBuilder.appendLayer(root, parent: nil, siblingIndex: 0, depth: 0, isMask: false,
                                                                parentFrame: ParentFrame(time: time))
                let sublayers = root.sublayers ?? []
                var builders = partStarts.indices.map { k in
                    Builder(layers: PresentedLayerRegion(slots: slots + partStarts[k], count: partSlots[k]), base: partStarts[k])
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
                                builders[k].visit(sublayers[i], parent: index, siblingIndex: i, depth: 1, isMask: false,
                                                  parentFrame: frame)
                            }
                        }
                    }
                }
                if rootBuilder.layers.isInPlace, builders.allSatisfy(\.layers.isInPlace) {
                    Self.finishRoot(index, children: children.flatMap { $0 }, in: slots)
                    initialized = slotCount
                    return
                }
                assembled.reserveCapacity(slotCount)
                rootBuilder.layers.moveLayers { assembled.append($0) }
                var rootChildren: [Int] = []
                for k in builders.indices {
                    let shift = assembled.count - partStarts[k]
                    let start = partStarts[k]
                    builders[k].layers.moveLayers { layer in
                        var layer = layer
                        if shift != 0 { layer.shiftIndices(from: start, by: shift) }
                        assembled.append(layer)
                    }
                    rootChildren += children[k].map { $0 + shift }
                }
                assembled.withUnsafeMutableBufferPointer { Self.finishRoot(index, children: rootChildren, in: $0.baseAddress!) }
                initialized = 0
            }
            return inPlace.isEmpty ? assembled : inPlace
        }

        /// Gives the root its sublayers in drawing order, as `Builder.appendSublayers` does.
        private static func finishRoot(_ index: Int, children: [Int], in layers: UnsafeMutablePointer<PresentedLayer>) {
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
    /// before it point at the root, which does not move.
    mutating func shiftIndices(from start: Int, by shift: Int) {
        func moved(_ i: Int) -> Int { i >= start ? i + shift : i }
        index = moved(index)
        parent = parent.map(moved)
        mask = mask.map(moved)
        renderingContext = renderingContext.map(moved)
        for k in sublayersInDrawingOrder.indices { sublayersInDrawingOrder[k] = moved(sublayersInDrawingOrder[k]) }
    }
}
