import Foundation
import Geometry
import Layers
import Timing

/// One layer of a presentation tree: its values at the evaluated time, resolved and placed.
public struct PresentedLayer: Sendable {
    /// Position in the tree's pre-order array.
    public var index: Int
    /// Index of the superlayer (or of the masked layer, for a mask); nil for the root.
    public var parent: Int?
    public var depth: Int
    /// The path component: the layer's name, or `#i` (its sublayer index) when unnamed, `#mask`
    /// for an unnamed mask. Built lazily by `PresentationTree.path(of:)`.
    public var siblingIndex: Int
    /// The scene-format type name: `layer`, `text`, `shape`, `gradient`, `replicator`, `transform`, `emitter`.
    public var typeName: String
    /// Every property with the active animations applied.
    public var properties: LayerProperties
    /// The layer's local time (its animations' parent time).
    public var localTime: Double
    /// Layer space → the parent's plane: anchor, transform, position, then the parent's
    /// sublayerTransform about its anchor and its geometry flip.
    public var transformToParent: CATransform3D
    /// Layer space → output space (root superlayer space, points), with every ordinary ancestor
    /// flattening its subtree into its plane (§11.3). Divide by w after mapping.
    public var transformToRoot: CATransform3D
    /// Index of the nearest ancestor that flattens (the plane this layer is drawn into), nil at the root.
    public var renderingContext: Int?
    /// The mask layer's index, if the layer has a mask.
    public var mask: Int?
    /// True for a mask layer (drawn only as its owner's mask).
    public var isMask: Bool
    /// Sublayer indices in drawing order (array order stably sorted by zPosition).
    public var sublayersInDrawingOrder: [Int]
    /// Hidden here or through an ancestor.
    public var isEffectivelyHidden: Bool
    /// Identity of the model layer, to key caches across frames.
    public var layerID: ObjectIdentifier
    /// While a `CATransition` runs: the layer's old state, evaluated (its root is this layer's copy).
    public var transitionFrom: PresentedSubtree?
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
    /// siblings), an unnamed mask as `#mask`.
    public func path(of index: Int) -> String {
        var components: [String] = []
        var current: Int? = index
        while let i = current {
            let layer = layers[i]
            let name = layer.properties.name ?? (layer.isMask ? "#mask" : "#\(layer.siblingIndex)")
            components.append(name)
            current = layer.parent
        }
        return components.reversed().joined(separator: "/")
    }

    /// The first layer whose path is `path`.
    public func layer(atPath path: String) -> PresentedLayer? {
        layers.indices.first { self.path(of: $0) == path }.map { layers[$0] }
    }

    /// Evaluates `root` at absolute time `time`. Pure: reads the model tree, changes nothing.
    public static func evaluate(_ root: CALayer, at time: Double) -> PresentationTree {
        var builder = Builder()
        var count = 0
        root.forEachLayerInTree { _ in count += 1 }
        builder.layers.reserveCapacity(count)
        builder.visit(root, parent: nil, siblingIndex: 0, depth: 0, isMask: false,
                      parentFrame: ParentFrame(time: time))
        return PresentationTree(time: time, layers: builder.layers)
    }

    /// What a child needs from its parent, computed once per parent (copying a whole
    /// `PresentedLayer` per child would cost more than the child itself).
    private struct ParentFrame {
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

        init(time: Double) { localTime = time }
    }

    private struct Builder {
        var layers: [PresentedLayer] = []

        mutating func visit(_ layer: CALayer, parent: Int?, siblingIndex: Int, depth: Int, isMask: Bool,
                            parentFrame: ParentFrame) {
            let localTime = layer.localTime(fromParentTime: parentFrame.localTime)
            let values = layer.presentationProperties(atLocalTime: localTime)
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
            let index = layers.count

            // What this layer's children need, before `values` moves into the array.
            var frame = ParentFrame(time: localTime)
            frame.index = index
            frame.hidden = hidden
            frame.sublayerMatrix = values.transformForSublayers
            let flattened = toRoot.flattened
            frame.flattenedToRoot = flattened
            let isTransformLayer = values.content == .transformLayer
            frame.planeToRoot = isTransformLayer ? toRoot : flattened
            frame.childContext = isTransformLayer ? (isMask ? parent : parentFrame.childContext) : index
            let typeName = values.content.typeName

            layers.append(PresentedLayer(
                index: index, parent: parent, depth: depth, siblingIndex: siblingIndex, typeName: typeName,
                properties: values, localTime: localTime, transformToParent: placement, transformToRoot: toRoot,
                renderingContext: isMask ? parent : parentFrame.childContext, mask: nil, isMask: isMask,
                sublayersInDrawingOrder: [], isEffectivelyHidden: hidden, layerID: ObjectIdentifier(layer),
                transitionFrom: values.transition == nil ? nil
                    : layer.transitionSnapshot(atLocalTime: localTime).map { PresentedSubtree(PresentationTree.evaluate($0, at: 0)) }))
            if let mask = layer.mask {
                layers[index].mask = layers.count
                visit(mask, parent: index, siblingIndex: 0, depth: depth + 1, isMask: true, parentFrame: frame)
            }
            guard let sublayers = layer.sublayers else { return }
            var children: [Int] = []
            children.reserveCapacity(sublayers.count)
            var needsSort = false
            for (i, sublayer) in sublayers.enumerated() {
                children.append(layers.count)
                visit(sublayer, parent: index, siblingIndex: i, depth: depth + 1, isMask: false, parentFrame: frame)
                needsSort = needsSort || layers[children[i]].properties.zPosition != 0
            }
            if needsSort {
                // Stable by zPosition: equal depths keep array order.
                children = children.enumerated()
                    .sorted { (layers[$0.element].properties.zPosition, $0.offset) < (layers[$1.element].properties.zPosition, $1.offset) }
                    .map(\.element)
            }
            layers[index].sublayersInDrawingOrder = children
        }
    }
}

extension LayerContentProperties {
    /// The scene-format name of the layer type.
    public var typeName: String {
        switch self {
        case .plain: "layer"
        case .transformLayer: "transform"
        case .video: "video"
        case .shape: "shape"
        case .text: "text"
        case .gradient: "gradient"
        case .replicator: "replicator"
        case .emitter: "emitter"
        }
    }
}
