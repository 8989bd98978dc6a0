import Foundation
import Geometry
import Layers
import Timing

/// One layer of a presentation tree: its values at the evaluated time, resolved and placed.
///
/// Stored compactly (indices as 32-bit numbers with -1 for none, the wide fields first, the
/// narrow ones packed behind them): a frame writes one of these per presented layer into fresh
/// memory, and on a big tree those writes are a good part of the evaluation's cache misses.
public struct PresentedLayer: Sendable {
    /// Layer space → the parent's plane: anchor, transform, position, then the parent's
    /// sublayerTransform about its anchor and its geometry flip.
    public var transformToParent: CATransform3D
    /// Layer space → output space (root superlayer space, points), with every ordinary ancestor
    /// flattening its subtree into its plane (§11.3). Divide by w after mapping.
    public var transformToRoot: CATransform3D
    /// Every property with the active animations applied.
    public var properties: LayerProperties
    /// The layer's local time (its animations' parent time).
    public var localTime: Double
    /// Identity of the model layer, to key caches across frames.
    public var layerID: ObjectIdentifier
    /// Sublayer indices in drawing order (array order stably sorted by zPosition).
    public var sublayersInDrawingOrder: [Int]
    /// Distinguishes the presented copies of one model layer: 0 for layers outside every
    /// replicator copy k > 0, else a stable hash of the chain of copy indices. Caches keyed by
    /// model layer should key by `(layerID, replicaKey)` (and `particle` for particles).
    public var replicaKey: UInt64 = 0
    /// While a `CATransition` runs: the layer's old state, evaluated (its root is this layer's copy).
    public var transitionFrom: PresentedSubtree? = nil
    /// For a layer that draws itself (`draw(in:)`, a delegate) and must be drawn at this time:
    /// what to draw. Its image replaces `properties.contents`.
    public var drawing: LayerDrawing? = nil
    /// For a particle of a `CAEmitterLayer`: its cell and birth number. `layerID` is the emitter's.
    public var particle: PresentedParticle? = nil
    /// True for a mask layer (drawn only as its owner's mask).
    public var isMask: Bool
    /// Hidden here or through an ancestor.
    public var isEffectivelyHidden: Bool
    /// True when the layer's sublayers share its 3D rendering context instead of being
    /// flattened into its plane: a `CATransformLayer`, or a replicator or emitter with
    /// `preservesDepth`. (Children's `renderingContext` and `transformToRoot` already reflect it.)
    public var preservesDepth: Bool = false
    @usableFromInline var indexSlot: Int32
    @usableFromInline var parentSlot: Int32
    @usableFromInline var depthSlot: Int32
    @usableFromInline var siblingSlot: Int32
    @usableFromInline var contextSlot: Int32
    @usableFromInline var maskSlot: Int32
    @usableFromInline var replicaSlot: Int32 = 0
    /// Straight RGBA multiplier of every colour the layer draws (background, contents, border,
    /// shape and text colours, shadow), alpha included; nil for none. Set on the copies of a
    /// `CAReplicatorLayer` (`instanceColor` and offsets, nested replicators multiplied) and on
    /// particles (their RGB colour). Not inherited by renderers: every layer carries its own.
    public var tint: SIMD4<Float>? = nil

    /// Position in the tree's pre-order array.
    @inlinable public var index: Int {
        get { Int(indexSlot) }
        set { indexSlot = Int32(newValue) }
    }
    /// Index of the superlayer (or of the masked layer, for a mask); nil for the root.
    @inlinable public var parent: Int? {
        get { Self.index(parentSlot) }
        set { parentSlot = Self.slot(newValue) }
    }
    @inlinable public var depth: Int {
        get { Int(depthSlot) }
        set { depthSlot = Int32(newValue) }
    }
    /// The path component: the layer's name, or `#i` (its sublayer index) when unnamed, `#mask`
    /// for an unnamed mask. Built lazily by `PresentationTree.path(of:)`.
    @inlinable public var siblingIndex: Int {
        get { Int(siblingSlot) }
        set { siblingSlot = Int32(newValue) }
    }
    /// Index of the nearest ancestor that flattens (the plane this layer is drawn into), nil at the root.
    @inlinable public var renderingContext: Int? {
        get { Self.index(contextSlot) }
        set { contextSlot = Self.slot(newValue) }
    }
    /// The mask layer's index, if the layer has a mask.
    @inlinable public var mask: Int? {
        get { Self.index(maskSlot) }
        set { maskSlot = Self.slot(newValue) }
    }
    /// Which copy of its innermost enclosing `CAReplicatorLayer` this layer belongs to: 0 for
    /// originals (copy 0), k for layers presented in copy k.
    @inlinable public var replicaInstance: Int {
        get { Int(replicaSlot) }
        set { replicaSlot = Int32(newValue) }
    }
    /// The scene-format type name: `layer`, `text`, `shape`, `gradient`, `replicator`,
    /// `transform`, `emitter`; `particle` for a particle.
    public var typeName: String { particle == nil ? properties.content.typeName : "particle" }

    @inlinable static func slot(_ index: Int?) -> Int32 { index.map { Int32($0) } ?? -1 }
    @inlinable static func index(_ slot: Int32) -> Int? { slot < 0 ? nil : Int(slot) }
}

/// Identity of a presented particle.
public struct PresentedParticle: Sendable, Equatable, Hashable {
    /// Index of the cell in the emitter's `emitterCells`.
    public var cell: Int
    /// Birth number within the cell.
    public var index: Int
    public init(cell: Int, index: Int) { self.cell = cell; self.index = index }
}

/// A presentation tree held by reference, so a layer can carry one (a transition's old state).
public final class PresentedSubtree: Sendable {
    public let tree: PresentationTree
    public init(_ tree: PresentationTree) { self.tree = tree }
}

/// The flat presentation tree at one time: a pre-order array with parent indices, every value
/// resolved and every matrix computed. The single entry point renderers use.
public struct PresentationTree: Sendable {
    public var time: Double
    public var layers: [PresentedLayer]

    /// Names from the root joined by `/`; an unnamed layer appears as `#i` (its index among its
    /// siblings), an unnamed mask as `#mask`. Copy k > 0 of a replicator's sublayer gets `~k`
    /// (`spinner/dot~3`); a particle appears as its cell's name (or `#cell<c>`) and `@` its birth
    /// number (`confetti/red@12`).
    public func path(of index: Int) -> String {
        var components: [String] = []
        var current: Int? = index
        while let i = current {
            let layer = layers[i]
            var name: String
            if let particle = layer.particle {
                name = (layer.properties.name ?? "#cell\(particle.cell)") + "@\(particle.index)"
            } else {
                name = layer.properties.name ?? (layer.isMask ? "#mask" : "#\(layer.siblingIndex)")
                if layer.replicaInstance > 0, !layer.isMask, let parent = layer.parent,
                   case .replicator = layers[parent].properties.content {
                    name += "~\(layer.replicaInstance)"
                }
            }
            components.append(name)
            current = layer.parent
        }
        return components.reversed().joined(separator: "/")
    }

    /// Whether the contents of layer `index` are drawn mirrored to stay upright: an odd number
    /// of its ancestors flip their geometry (its own flag flips only its sublayers' geometry).
    public func contentsAreFlipped(_ index: Int) -> Bool {
        var flips = 0
        var current = layers[index].parent
        while let i = current {
            if layers[i].properties.isGeometryFlipped { flips += 1 }
            current = layers[i].parent
        }
        return flips % 2 == 1
    }

    /// The first layer whose path is `path`.
    public func layer(atPath path: String) -> PresentedLayer? {
        layers.indices.first { self.path(of: $0) == path }.map { layers[$0] }
    }

    /// Evaluates `root` at absolute time `time`. Pure: reads the model tree, changes nothing.
    public static func evaluate(_ root: CALayer, at time: Double) -> PresentationTree {
        evaluate(root, at: time, maximumThreads: processorCount)
    }

    /// Asked once: `activeProcessorCount` reads system files on each call (4.6 % of a small
    /// Lottie file's frame when it was asked every evaluation).
    private static let processorCount = ProcessInfo.processInfo.activeProcessorCount

    /// Evaluates `root` at `time` on at most `maximumThreads` threads (1: on the calling thread
    /// only). A tree of `parallelMinimumLayerCount` layers or more is split among threads by the
    /// sublayers of its first layer with several (`ParallelSplit`); the result is the same tree,
    /// value for value, whatever the number of threads.
    public static func evaluate(_ root: CALayer, at time: Double, maximumThreads: Int) -> PresentationTree {
        evaluate(root, at: time, maximumThreads: maximumThreads, drawableOnly: false)
    }

    /// What of `root` can be drawn at `time`: the tree `evaluate` gives, less the sublayers of
    /// every layer that is hidden or fully transparent then (the layer itself stays, with its
    /// mask, and none of its sublayers) — nothing of those draws a pixel. The render plan's
    /// input; `inspect` and budgets use the whole tree. Lottie files hide most of their layers
    /// at any one time (their in and out points): two thirds of `Boat_Loader`'s.
    public static func evaluateDrawable(_ root: CALayer, at time: Double) -> PresentationTree {
        evaluate(root, at: time, maximumThreads: processorCount, drawableOnly: true)
    }

    private static func evaluate(_ root: CALayer, at time: Double, maximumThreads: Int, drawableOnly: Bool) -> PresentationTree {
        let (split, estimate) = ParallelSplit.choose(for: root, threads: maximumThreads)
        if let split { return PresentationTree(time: time, layers: split.evaluate(at: time, drawableOnly: drawableOnly)) }
        var builder = Builder(layers: [PresentedLayer]())
        builder.drawableOnly = drawableOnly
        builder.layers.reserveCapacity(estimate)
        builder.visit(root, parent: nil, siblingIndex: 0, depth: 0, isMask: false,
                      parentFrame: ParentFrame(time: time))
        return PresentationTree(time: time, layers: builder.layers)
    }

    /// What a child needs from its parent, computed once per parent (copying a whole
    /// `PresentedLayer` per child would cost more than the child itself).
    struct ParentFrame {
        var index: Int?
        var localTime: Double
        var hidden = false
        /// `T(−anchor) · sublayerTransform · T(anchor)` followed by the geometry flip; nil if identity.
        var sublayerMatrix: CATransform3D?
        /// The parent's plane → root: its transformToRoot, flattened (z dropped) unless it is a
        /// transform layer.
        var planeToRoot = CATransform3D.identity
        /// The parent's own transformToRoot flattened, for masks (always in their owner's plane).
        var flattenedToRoot = CATransform3D.identity
        /// The rendering context children are drawn into.
        var childContext: Int?
        /// Colour multiplier, replica key and copy index the children inherit (replicator copies).
        var tint: SIMD4<Float>?
        var replicaKey: UInt64 = 0
        var replicaInstance = 0
        /// Inside a replicator copy that runs behind its replicator's time.
        var isDelayedCopy = false
        /// An odd number of the ancestors so far flip their geometry.
        var flipsContents = false

        init(time: Double) { localTime = time }

        init(index: Int?, localTime: Double, hidden: Bool, sublayerMatrix: CATransform3D?, planeToRoot: CATransform3D,
             flattenedToRoot: CATransform3D, childContext: Int?, tint: SIMD4<Float>?, replicaKey: UInt64,
             replicaInstance: Int, isDelayedCopy: Bool, flipsContents: Bool) {
            self.index = index; self.localTime = localTime; self.hidden = hidden; self.sublayerMatrix = sublayerMatrix
            self.planeToRoot = planeToRoot; self.flattenedToRoot = flattenedToRoot; self.childContext = childContext
            self.tint = tint; self.replicaKey = replicaKey; self.replicaInstance = replicaInstance
            self.isDelayedCopy = isDelayedCopy; self.flipsContents = flipsContents
        }
    }

    struct Builder<List: PresentedLayerList> {
        var layers: List
        /// The tree index of `layers[0]` (a builder of one part of a tree starts past the parts before it).
        var base = 0

        /// Leaves out the sublayers of layers hidden or fully transparent (`evaluateDrawable`).
        var drawableOnly = false

        /// The tree index the next appended layer gets.
        var nextIndex: Int { base + layers.count }
        /// While presenting copy k > 0 of a replicator with no `instanceDelay`: how far back copy 0's
        /// layer of the same position lies. It ran at the same times, so its values are this
        /// layer's (presentation is a function of the model and the time); only placement, tint
        /// and replica keys differ, and those are computed anyway.
        var mirrorOffset: Int?

        mutating func visit(_ layer: CALayer, parent: Int?, siblingIndex: Int, depth: Int, isMask: Bool,
                            parentFrame: ParentFrame) {
            let sublayers = layer.sublayers
            let (index, isParent) = appendLayer(layer, parent: parent, siblingIndex: siblingIndex, depth: depth,
                                                isMask: isMask, hasSublayers: sublayers != nil, parentFrame: parentFrame)
            // A leaf (no sublayers, no particles) has nothing below it to place.
            guard isParent else { return }
            if drawableOnly, layers[index - base].isEffectivelyHidden || layers[index - base].properties.opacity <= 0 { return }
            let frame = childFrame(of: index, parentFrame: parentFrame)
            // Read back from the array (the values moved there; copying them out first costs
            // more than this second look, which only parents take).
            let content = layers[index - base].properties.content
            var children: [Int] = []
            if let sublayers {
                if case .replicator(let r) = content {
                    let bounds = layers[index - base].properties.bounds
                    appendReplicas(sublayers, of: index, depth: depth, replicator: ReplicatorExpansion(r, bounds: bounds),
                                   frame: frame, into: &children)
                } else {
                    appendSublayers(sublayers, of: index, depth: depth, frame: frame, into: &children)
                }
            }
            if case .emitter(let e) = content, !frame.hidden, e.emitterCells != nil {
                appendParticles(of: layer, emitter: e, at: frame.localTime, index: index, depth: depth, frame: frame, into: &children)
            }
            layers[index - base].sublayersInDrawingOrder = children
        }

        /// Presents `layer` itself and its mask (not its sublayers): returns its tree index and
        /// whether it has children to present (sublayers or particles).
        @inline(__always)
        mutating func appendLayer(_ layer: CALayer, parent: Int?, siblingIndex: Int, depth: Int, isMask: Bool,
                                  hasSublayers: Bool, parentFrame: ParentFrame) -> (index: Int, isParent: Bool) {
            var localTime = layer.localTime(fromParentTime: parentFrame.localTime)
            if parentFrame.isDelayedCopy, parentFrame.localTime < layer.beginTime {
                // A delayed replicator copy runs before its start: its animations must see the
                // negative time (so a fill-removed animation shows the model value, §15.4 C08),
                // not the 0 a layer's time reads before its beginTime.
                localTime = (parentFrame.localTime - layer.beginTime) * Double(layer.speed) + layer.timeOffset
            }
            let index = nextIndex
            let values: LayerProperties
            if let offset = mirrorOffset, case let source = index - base - offset, source >= 0,
               layers[source].layerID == ObjectIdentifier(layer), layers[source].localTime == localTime {
                values = layers[source].properties
            } else {
                values = layer.presentationProperties(atLocalTime: localTime)
            }
            var placement = values.transformToSuperlayer
            let toRoot: CATransform3D
            if parent == nil {
                toRoot = placement
            } else if isMask {
                toRoot = placement.concatenating(parentFrame.flattenedToRoot)
            } else {
                if let matrix = parentFrame.sublayerMatrix { placement = placement.concatenating(matrix) }
                toRoot = placement.concatenating(parentFrame.planeToRoot)
            }
            let hidden = parentFrame.hidden || values.isHidden
            // A mask contributes only alpha to its owner, which is tinted already.
            let tint = isMask ? nil : parentFrame.tint

            let preservesDepth: Bool
            let isEmitter: Bool
            switch values.content {
            case .plain: (preservesDepth, isEmitter) = (false, false)
            case .transformLayer: (preservesDepth, isEmitter) = (true, false)
            case .replicator(let r): (preservesDepth, isEmitter) = (r.preservesDepth, false)
            case .emitter(let e): (preservesDepth, isEmitter) = (e.preservesDepth, true)
            default: (preservesDepth, isEmitter) = (false, false)
            }
            let drawing = layer.drawing(atLocalTime: localTime, presented: values, flippedByAncestors: parentFrame.flipsContents)
            let transitionFrom = values.transition == nil ? nil
                : layer.transitionSnapshot(atLocalTime: localTime).map { PresentedSubtree(PresentationTree.evaluate($0, at: 0)) }

            // The memberwise initializer (an explicit one built the value in a temporary and copied it).
            layers.append(PresentedLayer(
                transformToParent: placement, transformToRoot: toRoot, properties: consume values, localTime: localTime,
                layerID: ObjectIdentifier(layer), sublayersInDrawingOrder: [], replicaKey: parentFrame.replicaKey,
                transitionFrom: transitionFrom, drawing: drawing, isMask: isMask, isEffectivelyHidden: hidden,
                preservesDepth: preservesDepth, indexSlot: Int32(index), parentSlot: PresentedLayer.slot(parent),
                depthSlot: Int32(depth), siblingSlot: Int32(siblingIndex),
                contextSlot: PresentedLayer.slot(isMask ? parent : parentFrame.childContext), maskSlot: -1,
                replicaSlot: Int32(parentFrame.replicaInstance), tint: tint))
            if let mask = layer.mask {
                layers[index - base].mask = nextIndex
                visit(mask, parent: index, siblingIndex: 0, depth: depth + 1, isMask: true,
                      parentFrame: childFrame(of: index, parentFrame: parentFrame))
            }
            return (index, hasSublayers || isEmitter)
        }

        /// What the children (and mask) of the layer just presented at `index` need from it,
        /// read back from its presented values: most layers are leaves and never build one.
        func childFrame(of index: Int, parentFrame: ParentFrame) -> ParentFrame {
            let i = index - base
            let toRoot = layers[i].transformToRoot
            let flattened = toRoot.flattened
            let preservesDepth = layers[i].preservesDepth
            return ParentFrame(
                index: index, localTime: layers[i].localTime, hidden: layers[i].isEffectivelyHidden,
                sublayerMatrix: layers[i].properties.transformForSublayers,
                planeToRoot: preservesDepth ? toRoot : flattened, flattenedToRoot: flattened,
                childContext: preservesDepth ? layers[i].renderingContext : index,
                tint: layers[i].tint, replicaKey: layers[i].replicaKey, replicaInstance: layers[i].replicaInstance,
                isDelayedCopy: parentFrame.isDelayedCopy,
                flipsContents: parentFrame.flipsContents != layers[i].properties.isGeometryFlipped)
        }

        /// Visits `sublayers` under `frame` and appends them to `children` in drawing order
        /// (stably sorted by zPosition among themselves).
        mutating func appendSublayers(_ sublayers: [CALayer], of index: Int, depth: Int, frame: ParentFrame,
                                      into children: inout [Int]) {
            let first = children.count
            children.reserveCapacity(first + sublayers.count)
            var needsSort = false
            sublayers.withUnsafeBufferPointer { list in
                for i in list.indices {
                    // Memory ahead of need (a big tree waits on memory more than it computes).
                    CALayer.prefetchSiblings(after: i, in: list)
                    children.append(nextIndex)
                    // Borrowed from `sublayers`, which holds it throughout: a retain and release
                    // per layer per frame saved.
                    Unmanaged.passUnretained(list[i])._withUnsafeGuaranteedRef { sublayer in
                        visit(sublayer, parent: index, siblingIndex: i, depth: depth + 1, isMask: false, parentFrame: frame)
                    }
                    needsSort = needsSort || layers[children[first + i] - base].properties.zPosition != 0
                }
            }
            if needsSort { sortByZPosition(&children, from: first) }
        }
    }
}
