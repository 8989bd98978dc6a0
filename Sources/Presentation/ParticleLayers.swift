import Foundation
import Geometry
import Layers
import Animation

extension PresentationTree.Builder {
    /// Presents an emitter's live particles as plain layers after its sublayers (§15.5): each
    /// shows its cell's `contents` (the `contentsRect` part, logical size × particle scale),
    /// centred on the particle, rotated by its spin, with its alpha as `opacity` and its RGB as
    /// `tint`. Without `preservesDepth` particles lie in the emitter's plane (zPosition 0).
    ///
    /// The spec draws particles above the emitter's border; as sublayers they come before it.
    mutating func appendParticles(of layer: CALayer, emitter: EmitterProperties, at time: Double, index: Int, depth: Int,
                                  frame: PresentationTree.ParentFrame, into children: inout [Int]) {
        guard let cells = emitter.emitterCells else { return }
        // Animated layer values are read at birth times; constant ones allow the exact schedule.
        let sample: ((Double) -> EmitterProperties)? = layer.attachedAnimationCount == 0 ? nil : { t in
            if case .emitter(let e) = layer.presentationProperties(atLocalTime: t).content { return e }
            return emitter
        }
        let particles = ParticleSystem.drawingOrder(ParticleSystem.particles(of: emitter, at: time, sample: sample),
                                                    mode: emitter.renderMode)
        guard !particles.isEmpty else { return }
        // One template per cell; each particle changes only its geometry and colour.
        let templates: [LayerProperties] = cells.map { cell in
            var p = LayerProperties()
            p.name = cell.name
            p.contents = ContentsValue(image: cell.contents)
            p.contentsRect = cell.contentsRect
            p.contentsScale = cell.contentsScale
            p.minificationFilter = CALayerContentsFilter(rawValue: cell.minificationFilter)
            p.magnificationFilter = CALayerContentsFilter(rawValue: cell.magnificationFilter)
            p.minificationFilterBias = cell.minificationFilterBias
            return p
        }
        let sizes: [CGSize] = cells.map { cell in
            guard let image = cell.contents else { return .zero }
            let logical = ContentsPlacement.logicalSize(pixels: CGSize(width: image.width, height: image.height),
                                                        contentsScale: cell.contentsScale)
            return CGSize(width: logical.width * abs(cell.contentsRect.width), height: logical.height * abs(cell.contentsRect.height))
        }
        let id = ObjectIdentifier(layer)
        let firstSibling = layer.sublayers?.count ?? 0
        layers.reserveCapacity(layers.count + particles.count)
        children.reserveCapacity(children.count + particles.count)
        for (n, particle) in particles.enumerated() {
            var p = templates[particle.cell]
            let size = sizes[particle.cell]
            let s = CGFloat(particle.scale)
            p.bounds = CGRect(x: 0, y: 0, width: size.width * s, height: size.height * s)
            p.position = CGPoint(x: particle.position.x, y: particle.position.y)
            p.zPosition = emitter.preservesDepth ? particle.position.z : 0
            if particle.rotation != 0 {
                let c = cos(particle.rotation), sn = sin(particle.rotation)
                p.transform = CATransform3D(m11: c, m12: sn, m13: 0, m14: 0, m21: -sn, m22: c, m23: 0, m24: 0,
                                            m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
            }
            p.opacity = particle.color.w
            let rgb = SIMD4(particle.color.x, particle.color.y, particle.color.z, 1)
            // Particles are in the emitter's bounds space: its sublayerTransform does not move them.
            let placement = p.transformToSuperlayer
            let i = nextIndex
            children.append(i)
            layers.append(PresentedLayer(
                transformToParent: placement, transformToRoot: placement.concatenating(frame.planeToRoot),
                properties: p, localTime: time, layerID: id, sublayersInDrawingOrder: [], replicaKey: frame.replicaKey,
                particle: PresentedParticle(cell: particle.cell, index: particle.index), isMask: false,
                isEffectivelyHidden: false, indexSlot: Int32(i), parentSlot: Int32(index), depthSlot: Int32(depth + 1),
                siblingSlot: Int32(firstSibling + n), contextSlot: PresentedLayer.slot(frame.childContext), maskSlot: -1,
                replicaSlot: Int32(frame.replicaInstance),
                tint: ReplicatorExpansion.combine(frame.tint, rgb == SIMD4(repeating: 1) ? nil : rgb)))
        }
    }
}
