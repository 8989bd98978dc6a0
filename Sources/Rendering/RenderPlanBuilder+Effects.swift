import Foundation
import Geometry
import Layers
import Presentation

// The parts of a layer that need their own passes or pieces: contents placement, shadows and
// transitions (§11.4, §11.5, §7).

extension RenderPlanBuilder.Walk {
    /// The contents image placed by gravity; a `contentsCenter` other than the unit rect draws nine slices.
    func appendContents(_ image: CGImage, of p: LayerProperties, path: LayerLabel, toTarget: CATransform3D,
                        opacity: Float, into items: inout [DrawItem]) {
        let pixels = CGSize(width: image.width, height: image.height)
        let source = p.contentsRect
        let logical = ContentsPlacement.logicalSize(
            pixels: CGSize(width: pixels.width * source.width, height: pixels.height * source.height),
            contentsScale: p.contentsScale)
        // A top-left output is y-down (iOS): unflipped contents put `top` at max-y, the screen's
        // bottom, as on iOS; under an odd number of geometry flips gravity swaps (§11.4). The
        // image is drawn mirrored in its layer wherever the layer's y axis points up on screen
        // (an odd number of flips, counting a y-up output's), so that it stays upright.
        let flipped = tree.contentsAreFlipped(path.index)
        let destination = ContentsPlacement.rect(gravity: p.contentsGravity, contentSize: logical, in: p.bounds, flipped: flipped)
        guard destination.width > 0, destination.height > 0 else { return }
        let mirror = flipped != flipsOutput ? Self.mirror(about: destination.midY) : nil
        let contentsTarget = mirror.map { $0.concatenating(toTarget) } ?? toTarget
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        func item(_ rect: CGRect, _ uv: CGRect) -> DrawItem {
            tagged(DrawItem(layer: path, role: "contents", transform: contentsTarget, rect: rect,
                            paint: .image(image, source: uv, minification: TextureFilter(p.minificationFilter), magnification: TextureFilter(p.magnificationFilter)),
                            opacity: opacity, antialiasEdges: p.allowsEdgeAntialiasing), offset: mirror)
        }
        guard p.contentsCenter != unit else { return items.append(item(destination, source)) }
        func unfringed(_ rect: CGRect, _ uv: CGRect) -> DrawItem {
            var slice = item(rect, uv)
            slice.antialiasEdges = false
            return slice
        }
        // Nine-slice: columns and rows split at the centre rectangle, caps kept at their size.
        let c = p.contentsCenter
        let slice = ContentsPlacement.nineSlice(imagePixels: logical, contentsCenter: c, bounds: destination.size,
                                                contentsScale: 1)
        let xs = [destination.minX, destination.minX + slice.leftCap, destination.maxX - slice.rightCap, destination.maxX]
        let ys = [destination.minY, destination.minY + slice.topCap, destination.maxY - slice.bottomCap, destination.maxY]
        let us = [0, c.minX, c.maxX, 1].map { source.minX + $0 * source.width }
        let vs = [0, c.minY, c.maxY, 1].map { source.minY + $0 * source.height }
        for row in 0..<3 {
            // Slices meet edge to edge: anti-aliased fringes would show the seams.
            for column in 0..<3 where xs[column + 1] > xs[column] && ys[row + 1] > ys[row] {
                items.append(unfringed(CGRect(x: xs[column], y: ys[row], width: xs[column + 1] - xs[column], height: ys[row + 1] - ys[row]),
                                  CGRect(x: us[column], y: vs[row], width: us[column + 1] - us[column], height: vs[row + 1] - vs[row])))
            }
        }
    }

    /// y ↦ 2·`y` − y: a mirror about the horizontal line at `y`, in a layer's space.
    static func mirror(about y: CGFloat) -> CATransform3D {
        CATransform3DMakeScale(1, -1, 1).concatenating(CATransform3DMakeTranslation(0, 2 * y, 0))
    }

    /// A shape layer's path or a text layer's text, rasterized, between contents and sublayers.
    mutating func appendRasterizedContent(of p: LayerProperties, path: LayerLabel, toTarget: CATransform3D, opacity: Float,
                                          into items: inout [DrawItem]) {
        guard rasterizer != nil else { return }
        // Only shape and text layers get here past the switch: the density (three projections)
        // is not worked out for every layer of every frame.
        func scale() -> CGFloat {
            let density = Self.pixelDensity(toTarget, at: CGPoint(x: p.bounds.midX, y: p.bounds.midY))
            return ContentRequest.rasterScale(contentsScale: p.contentsScale, density: density)
        }
        var request: ContentRequest
        // Target pixels the item is moved by (an aligned shape's rounded phase).
        var shift = CGPoint.zero
        // What the content can cover at most, in layer points: the raster is clipped to the part
        // of it that can show (and left whole when all of it can, so unchanged frames hit the cache).
        let reach: CGRect
        switch p.content {
        case .shape(let shape) where shape.path != nil && shape.paints:
            let strokes = shape.strokeColor != nil && shape.lineWidth > 0
            let outset = strokes ? shape.lineWidth / 2 * max(shape.miterLimit.isFinite ? shape.miterLimit : 1, 2.0.squareRoot()) + 1 : 1
            reach = shape.path!.boundingBox.insetBy(dx: -outset, dy: -outset)
            let grid = Self.targetGrid(toTarget)
            if grid == nil, appendPlacedShape(shape, of: p, path: path, reach: reach, toTarget: toTarget, opacity: opacity, into: &items) {
                return
            }
            if let grid {
                // Under a plain scale and move, rasterize on the target's own pixels: no resampling.
                let phase = Self.rasterPhase(grid.phase)
                request = .alignedShape(shape, scale: grid.scale, stretch: grid.stretch, phase: phase.phase)
                shift = phase.shift
            } else {
                // Drawn much smaller than its contentsScale (a large composition fitted to a small
                // frame), a shape rasterizes at twice the density it is drawn at, not at full
                // size; no less, since a raster near the drawn size blurs edges when resampled
                // (measured on the Lottie development set: two cases fell under the threshold).
                let density = Self.pixelDensity(toTarget, at: CGPoint(x: p.bounds.midX, y: p.bounds.midY))
                request = .shape(shape, scale: min(scale(), ContentRequest.vectorRasterScale(density: 2 * density)))
            }
        case .text(let text) where p.bounds.width > 0 && p.bounds.height > 0:
            request = .text(text, size: p.bounds.size, scale: scale())
            reach = p.bounds
        default:
            return
        }
        let toTarget = shift == .zero ? toTarget : Self.moved(toTarget, by: shift)
        guard !reach.isNull, let visible = VisibleRegion.clip(reach, toTarget: toTarget, target: samplingTarget) else { return }
        if visible != reach {
            switch request {
            case .shape, .alignedShape:
                request = .clipped(request, region: Self.rasterTile(visible, scale: request.requestedScale, pixels: Self.shapeTilePixels))
            case .text(_, _, let s):
                request = .clipped(request, region: Self.rasterTile(visible.offsetBy(dx: -p.bounds.minX, dy: -p.bounds.minY), scale: s))
            default:
                break
            }
        }
        guard let placed = contentPaint(request, layer: path.index, antialiasEdges: p.allowsEdgeAntialiasing) else { return }
        // Text is laid out from the bounds' origin; shapes are placed where their paths are.
        var rect = placed.rect
        var mirror: CATransform3D?
        if case .text = request.unclipped {
            rect = rect.offsetBy(dx: p.bounds.minX, dy: p.bounds.minY)
            // Text stays upright as contents do: mirrored in its bounds where y points up on screen.
            if tree.contentsAreFlipped(path.index) != flipsOutput { mirror = Self.mirror(about: p.bounds.midY) }
        }
        let role = if case .text = request.unclipped { "text" } else { "path" }
        offscreen.append(OffscreenArea(layer: path, purpose: role, width: placed.width, height: placed.height))
        items.append(tagged(DrawItem(layer: path, role: role, transform: mirror.map { $0.concatenating(toTarget) } ?? toTarget, rect: rect,
                                     paint: placed.paint, opacity: opacity, antialiasEdges: p.allowsEdgeAntialiasing), offset: mirror))
    }

    /// The target's pixel grid as seen from a layer drawn with `t`, when `t` only scales (by at
    /// most 64, x and y within 2 % of each other) and moves: the mean scale, the x and y scales
    /// over it, and the fraction of a target pixel the layer's origin sits at.
    static func targetGrid(_ t: CATransform3D) -> (scale: CGFloat, stretch: CGSize, phase: CGPoint)? {
        // Tolerances absorb the rounding of transforms rebuilt from components (a zero rotation).
        guard t.m11 > 0, t.m22 > 0, t.m11 <= 64, t.m22 <= 64,
              abs(t.m12) <= 1e-9 * t.m11, abs(t.m21) <= 1e-9 * t.m22, abs(t.m14) <= 1e-12, abs(t.m24) <= 1e-12,
              abs(t.m44 - 1) <= 1e-12, abs(t.m22 - t.m11) <= 0.02 * t.m11 else { return nil }
        let phase = CGPoint(x: t.m41 - t.m41.rounded(.down), y: t.m42 - t.m42.rounded(.down))
        guard abs(t.m22 - t.m11) > 1e-7 * t.m11 else { return (t.m11, CGSize(width: 1, height: 1), phase) }
        let s = (t.m11 * t.m22).squareRoot()
        return (s, CGSize(width: t.m11 / s, height: t.m22 / s), phase)
    }

    /// A Gaussian shadow of the layer's composited alpha: the subtree drawn into a pass with a
    /// 3σ margin, blurred horizontally then vertically, composited tinted and offset.
    mutating func appendShadow(_ index: Int, color: CGColor, toTarget: CATransform3D, opacity: Float,
                               into items: inout [DrawItem]) {
        let p = tree.layers[index].properties
        // A shadowPath replaces the layer's alpha as the shadow's shape (and needs nothing drawn).
        let shadowShape = p.shadowPath.map { $0.boundingBox } ?? p.bounds
        guard shadowShape.width > 0, shadowShape.height > 0, !shadowShape.isNull,
              p.shadowPath != nil || drawnItemCount(index, limit: 1) > 0 else { return }
        // The shadow is cast by the filtered layer (Core Animation's order: filters, then
        // shadow): the layer's blurs widen it as one Gaussian, their variances added.
        let filterBlur = p.shadowPath == nil
            ? LayerEffects.steps(p.filters).reduce(0) { sum, step in if case .blur(let r) = step { sum + r * r } else { sum } } : 0
        let radius = (max(0, p.shadowRadius) * max(0, p.shadowRadius) + filterBlur).squareRoot()
        // Blur at most ~16 texels: large radii render the shadow at a lower density.
        var density = Self.pixelDensity(toTarget, at: CGPoint(x: shadowShape.midX, y: shadowShape.midY))
        if radius > 0 { density = min(density, 16 / radius) }
        let margin = 3 * radius
        let whole = shadowShape.insetBy(dx: -margin, dy: -margin)
        // shadowOffset is in the layer's own space: the shadow quad moves with the layer.
        let offset = CATransform3DMakeTranslation(p.shadowOffset.width, p.shadowOffset.height, 0)
        // Only what can show, and the blur's reach around it, is drawn.
        guard let visible = VisibleRegion.clip(whole, toTarget: offset.concatenating(toTarget), target: samplingTarget,
                                               margin: margin + 2 / density) else { return }
        let (area, width, height) = clippedPassGeometry(whole, visible: visible, density: density)
        let sx = CGFloat(width) / area.width, sy = CGFloat(height) / area.height
        let toPass = CATransform3DMakeTranslation(-area.minX, -area.minY, 0).concatenating(CATransform3DMakeScale(sx, sy, 1))
        let path = label(index)
        // The shadow needs only alpha: backdrop filters inside it are not drawn.
        let source = pass(width: width, height: height, purpose: "shadow of \(path)", owner: path, allowsBackdrop: false) { walk, sourceItems in
            if let shadowPath = p.shadowPath {
                let scale = ContentRequest.rasterScale(contentsScale: 1, density: density)
                var request = ContentRequest.filledPath(shadowPath, scale: scale)
                let reach = shadowPath.boundingBox.insetBy(dx: -1, dy: -1)
                if let seen = VisibleRegion.clip(reach, toTarget: toPass, target: walk.samplingTarget), seen != reach {
                    request = .clipped(request, region: Self.rasterTile(seen, scale: scale))
                }
                if let filled = walk.rasterizer?.rasterize(request, stopwatch: walk.stopwatch) {
                    walk.offscreen.append(OffscreenArea(layer: path, purpose: "shadow path", width: filled.image.width, height: filled.image.height))
                    sourceItems.append(DrawItem(layer: path, role: "shadow path", transform: toPass, rect: filled.rect,
                                                paint: .image(filled.image, source: CGRect(x: 0, y: 0, width: 1, height: 1),
                                                              minification: .linear, magnification: .linear), opacity: 1))
                }
            } else {
                walk.drawContent(index, toTarget: toPass, opacity: 1, into: &sourceItems)
            }
        }
        var blurred = source
        let sigma = radius * density
        if sigma > 0.01 {
            for horizontal in [true, false] {
                let id = passes.count
                let blur = DrawItem(layer: path, role: "blur", transform: .identity,
                                    rect: CGRect(x: 0, y: 0, width: width, height: height),
                                    paint: .blur(blurred, sigma: sigma, horizontal: horizontal), opacity: 1)
                passes.append(RenderPass(id: id, width: width, height: height, purpose: "shadow blur of \(path)",
                                         clearColor: .clear, items: [blur]))
                offscreen.append(OffscreenArea(layer: path, purpose: "shadow blur", width: width, height: height))
                blurred = id
            }
        }
        let tint = PremultipliedColor(color)
        let shadowOpacity = Float(min(max(p.shadowOpacity, 0), 1))
        items.append(tagged(DrawItem(layer: path, role: "shadow", transform: offset.concatenating(toTarget), rect: area,
                                     paint: .tintedPass(blurred, color: tint, source: CGRect(x: 0, y: 0, width: 1, height: 1)),
                                     opacity: opacity * shadowOpacity), offset: offset))
    }

    /// A running `CATransition`: the old state (the snapshot taken when it was added) and the
    /// new state rendered into passes of the layer's bounds, composited moved and faded as its
    /// type says (§7), each clipped to the bounds.
    mutating func appendTransition(_ index: Int, from old: PresentationTree, _ transition: TransitionState,
                                   toTarget: CATransform3D, opacity: Float, into items: inout [DrawItem]) {
        let p = tree.layers[index].properties
        let bounds = p.bounds
        guard bounds.width > 0, bounds.height > 0, !old.layers.isEmpty else { return }
        let density = Self.pixelDensity(toTarget, at: CGPoint(x: bounds.midX, y: bounds.midY))
        let side = CGFloat(maximumPassSide)
        let width = Int(min(side, max(1, (bounds.width * density).rounded(.up))))
        let height = Int(min(side, max(1, (bounds.height * density).rounded(.up))))
        func toPass(_ b: CGRect) -> CATransform3D {
            CATransform3DMakeTranslation(-b.minX, -b.minY, 0)
                .concatenating(CATransform3DMakeScale(CGFloat(width) / b.width, CGFloat(height) / b.height, 1))
        }
        let path = label(index)
        // The old state: its own tree, drawn by a walk that shares this plan's passes (the flips
        // above the layer, which that tree lacks, count toward keeping its contents upright).
        var oldItems: [DrawItem] = []
        let oldBounds = old.layers[0].properties.bounds
        if oldBounds.width > 0, oldBounds.height > 0 {
            var oldWalk = RenderPlanBuilder.Walk(tree: old, maximumPassSide: maximumPassSide, rasterizer: rasterizer, stopwatch: stopwatch,
                                                 flipsOutput: flipsOutput != tree.contentsAreFlipped(index))
            oldWalk.targetIsFlipped = false
            oldWalk.passes = passes
            oldWalk.target = PassTarget(width: width, height: height, purpose: "transition old state", clearColor: .clear, allowsBackdrop: false)
            oldWalk.drawContent(0, toTarget: toPass(oldBounds), opacity: 1, into: &oldItems)
            passes = oldWalk.passes
            offscreen += oldWalk.offscreen
        }
        // Transition passes are not clipped to what shows (the states move across the bounds).
        let oldID = passes.count
        passes.append(RenderPass(id: oldID, width: width, height: height, purpose: "transition old state of \(path)",
                                 clearColor: .clear, items: oldItems))
        offscreen.append(OffscreenArea(layer: path, purpose: "transition old state", width: width, height: height))
        let newID = pass(width: width, height: height, purpose: "transition new state of \(path)", owner: path) { walk, newItems in
            walk.drawContent(index, toTarget: toPass(bounds), opacity: 1, into: &newItems)
        }

        let vertical = transition.subtype == .fromTop || transition.subtype == .fromBottom
        let offsets = TransitionGeometry.offsets(type: transition.type, subtype: transition.subtype, progress: transition.progress,
                                                 extent: vertical ? bounds.height : bounds.width)
        let alphas = TransitionGeometry.alphas(type: transition.type, progress: transition.progress)
        func composite(_ id: Int, _ offset: CGPoint, _ alpha: Double, _ role: String) {
            guard alpha > 0 else { return }
            let move = CATransform3DMakeTranslation(offset.x, offset.y, 0)
            // The quad moves; its coverage stays within the layer's bounds.
            let clip = RoundedShape(rect: bounds.offsetBy(dx: -offset.x, dy: -offset.y), radius: 0)
            items.append(tagged(DrawItem(layer: path, role: role, transform: move.concatenating(toTarget), rect: bounds,
                                         paint: .pass(id, source: CGRect(x: 0, y: 0, width: 1, height: 1)),
                                         opacity: opacity * Float(alpha), shape: clip), offset: move))
        }
        // reveal slides the old content off the new one; the others bring the new one over.
        if transition.type == .fade {
            // A cross-dissolve, old·(1 − p) + new·p: the new state drawn at p over the full old
            // state in one pass, so opaque content never lets what is below show through.
            let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
            let mixID = passes.count
            let mix = [(oldID, Float(1), "transition from"), (newID, Float(alphas.new), "transition to")].map { id, alpha, role in
                DrawItem(layer: path, role: role, transform: toPass(bounds), rect: bounds, paint: .pass(id, source: unit), opacity: alpha)
            }
            passes.append(RenderPass(id: mixID, width: width, height: height, purpose: "cross-fade of \(path)",
                                     clearColor: .clear, items: mix))
            offscreen.append(OffscreenArea(layer: path, purpose: "cross-fade", width: width, height: height))
            composite(mixID, .zero, 1, "transition")
        } else if transition.type == .reveal {
            composite(newID, offsets.new, alphas.new, "transition to")
            composite(oldID, offsets.old, alphas.old, "transition from")
        } else {
            composite(oldID, offsets.old, alphas.old, "transition from")
            composite(newID, offsets.new, alphas.new, "transition to")
        }
    }
}

extension RenderPlanBuilder.Walk {
    /// The tile side (raster pixels) a partly visible shape is clipped to: finer than text's, as
    /// shapes that move by fractions of a pixel are rasterized anew anyway (Boat's water, half
    /// off the frame, drew a third of its raster outside it with 256).
    static let shapeTilePixels: CGFloat = 64

    /// `region` grown to whole tiles of `pixels` raster pixels at `scale`: a clipped raster keeps
    /// the unclipped one's pixel grid, and content moving a little reuses the same raster.
    static func rasterTile(_ region: CGRect, scale: CGFloat, pixels: CGFloat = 256) -> CGRect {
        let step = pixels / max(scale, 1e-6)
        return VisibleRegion.snapped(region, origin: .zero, step: CGSize(width: step, height: step))
    }
}
