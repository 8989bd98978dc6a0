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
        builder.layers.reserveCapacity(64)
        builder.visit(root, parent: nil, parentTime: time, siblingIndex: 0, depth: 0,
                      isMask: false, parentHidden: false)
        return PresentationTree(time: time, layers: builder.layers)
    }

    private struct Builder {
        var layers: [PresentedLayer] = []
        static let flatten: CATransform3D = CATransform3DMakeScale(1, 1, 0)

        mutating func visit(_ layer: CALayer, parent: Int?, parentTime: Double, siblingIndex: Int, depth: Int,
                            isMask: Bool, parentHidden: Bool) {
            let localTime = layer.properties.timing.layerLocalTime(parentTime: parentTime)
            let values = layer.presentationProperties(atLocalTime: localTime)
            // Recompute the placement from presented values (animations move layers).
            var placement = values.transformToSuperlayer
            var context: Int?
            var toRoot: CATransform3D
            if let parent {
                let p = layers[parent]
                if !isMask {
                    placement = placement.concatenating(p.properties.sublayerTransformAboutAnchor)
                    if p.properties.isGeometryFlipped {
                        let b = p.properties.bounds
                        placement = placement
                            .concatenating(CATransform3DMakeTranslation(0, -b.minY, 0))
                            .concatenating(CATransform3DMakeScale(1, -1, 1))
                            .concatenating(CATransform3DMakeTranslation(0, b.maxY, 0))
                    }
                }
                let parentFlattens = p.properties.content != .transformLayer
                toRoot = placement.concatenating(parentFlattens ? Self.flatten : .identity).concatenating(p.transformToRoot)
                context = parentFlattens ? parent : p.renderingContext
            } else {
                toRoot = placement
            }
            let hidden = parentHidden || values.isHidden
            let index = layers.count
            layers.append(PresentedLayer(
                index: index, parent: parent, depth: depth, siblingIndex: siblingIndex, typeName: values.content.typeName,
                properties: values, localTime: localTime, transformToParent: placement, transformToRoot: toRoot,
                renderingContext: context, mask: nil, isMask: isMask, sublayersInDrawingOrder: [],
                isEffectivelyHidden: hidden, layerID: ObjectIdentifier(layer)))
            if let mask = layer.mask {
                layers[index].mask = layers.count
                visit(mask, parent: index, parentTime: localTime, siblingIndex: 0, depth: depth + 1,
                      isMask: true, parentHidden: hidden)
            }
            guard let sublayers = layer.sublayers else { return }
            var children: [Int] = []
            children.reserveCapacity(sublayers.count)
            var needsSort = false
            for (i, sublayer) in sublayers.enumerated() {
                children.append(layers.count)
                visit(sublayer, parent: index, parentTime: localTime, siblingIndex: i, depth: depth + 1,
                      isMask: false, parentHidden: hidden)
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
