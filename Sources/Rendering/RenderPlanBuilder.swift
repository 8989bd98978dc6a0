import Foundation
import Geometry
import Layers
import Animation
import Presentation

/// Builds the render plan of a presentation tree (§11.3–§11.5): layers in drawing order, each
/// drawn as background → contents → sublayers → border, with offscreen passes where Core
/// Animation composites a subtree as one image (group opacity, `masksToBounds`, `mask`).
public struct RenderPlanBuilder {
    /// Output size in pixels.
    public var width: Int
    public var height: Int
    /// Pixels per point.
    public var scale: CGFloat
    /// Cleared before the root draws.
    public var background: CGColor?
    /// Largest side of an offscreen pass, in pixels.
    public var maximumPassSide = SceneLimits.maximumPassSide
    /// Rasterizes shape paths, text and shadow paths; without one those draw nothing.
    public var contentRasterizer: ContentRasterizer?
    /// Images that enter this frame from outside the model (the current frame of an input
    /// video), keyed by `PresentedLayer.layerID`: each replaces that layer's presented
    /// `contents` and is drawn as contents are (gravity, `resize` by default; replicated copies
    /// of the layer show it too). The model is never written.
    public var frameInputs: [ObjectIdentifier: CGImage] = [:]
    /// Whether the root is placed by its own geometry (position, anchor, transform) in the
    /// output, as the root of a scene is (default); false draws the root's bounds space at the
    /// output's origin, as `CALayer.render(in:)` draws a layer into a context.
    public var placesRoot = true
    /// Which way y grows in the output (default `topLeft`); `bottomLeft` draws the tree in Core
    /// Animation's unflipped space, as AVFoundation's export tool does, with contents and text
    /// still upright.
    public var origin = OutputOrigin.topLeft
    /// Where set, shapes placed on the target's pixels go to the backend unrasterized
    /// (`Paint.shape`), to be drawn by this (usually `contentRasterizer` itself, shared with the
    /// backend's threads), for a backend that draws them itself (`RenderBackend.drawsDeferredShapes`).
    /// Default nil: every shape comes as its raster.
    public var shapeDrawer: (any ContentRasterizer & Sendable)?

    public init(width: Int, height: Int, scale: CGFloat = 1, background: CGColor? = nil,
                contentRasterizer: ContentRasterizer? = nil) {
        self.width = width; self.height = height; self.scale = scale; self.background = background
        self.contentRasterizer = contentRasterizer
    }

    /// The plan of `tree`. Time spent rasterizing contents is added to `stopwatch`'s `raster`.
    public func plan(for tree: PresentationTree, stopwatch: Stopwatch? = nil) -> RenderPlan {
        var tree = tree
        if !frameInputs.isEmpty {
            for i in tree.layers.indices {
                if let image = frameInputs[tree.layers[i].layerID] { tree.layers[i].properties.contents = ContentsValue(image: image) }
            }
        }
        var walk = Walk(tree: tree, maximumPassSide: maximumPassSide, rasterizer: contentRasterizer, stopwatch: stopwatch,
                        flipsOutput: origin == .bottomLeft)
        walk.shapeDrawer = shapeDrawer
        let clear = background.map(PremultipliedColor.init) ?? .clear
        walk.target = Walk.PassTarget(width: width, height: height, purpose: "frame", clearColor: clear)
        var items: [DrawItem] = []
        if !tree.layers.isEmpty {
            var toOutput = CATransform3DMakeScale(scale, scale, 1)
            if origin == .bottomLeft {
                // y ↦ height − y in output pixels: the tree's y = 0 is the bottom row.
                toOutput = toOutput.concatenating(CATransform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: -1, m23: 0, m24: 0,
                                                                m31: 0, m32: 0, m33: 1, m34: 0,
                                                                m41: 0, m42: CGFloat(height), m43: 0, m44: 1))
            }
            walk.draw(0, toTarget: placesRoot ? tree.layers[0].transformToParent.concatenating(toOutput) : toOutput,
                      opacity: 1, into: &items)
        }
        let frame = RenderPass(id: walk.passes.count, width: width, height: height, purpose: "frame",
                               clearColor: clear, items: items, startsFrom: walk.target.startsFrom)
        var passes = walk.passes + [frame]
        for p in passes.indices {
            passes[p].items = cornerPieces(passes[p].items, stopwatch)
        }
        return RenderPlan(width: width, height: height, passes: passes, offscreen: walk.offscreen)
    }

    /// A circular corner square of a split rounded background or border, drawn as its colour
    /// times a coverage mask rasterized once per size — a texture lookup per pixel instead of
    /// the distance math (on llvmpipe several times the cost of a textured pixel).
    ///
    /// With `pairedBorder` (the border's corner on the same square, of a fill merged with its
    /// border): both from one mask pair, as one item (`DrawItem.borderTint`); nil when the
    /// corner is not drawn from a mask.
    func maskingCorner(_ item: DrawItem, _ stopwatch: Stopwatch?) -> DrawItem {
        maskingCorner(item, pairedBorder: nil, stopwatch) ?? item
    }

    func maskingCorner(_ item: DrawItem, pairedBorder border: DrawItem?, _ stopwatch: Stopwatch?) -> DrawItem? {
        var memo: CornerPairMemo?
        return maskingCorner(item, pairedBorder: border, stopwatch, memo: &memo)
    }

    /// The last corner-mask pair a walk over a pass's items asked for (the cards of a scene
    /// mostly share one): looked up once, not once per card.
    struct CornerPairMemo {
        var radius: Int
        var ringWidth: CGFloat
        var mask: RasterizedContent
    }

    func maskingCorner(_ item: DrawItem, pairedBorder border: DrawItem?, _ stopwatch: Stopwatch?,
                       memo: inout CornerPairMemo?) -> DrawItem? {
        guard let rasterizer = contentRasterizer, case .solid(let color) = item.paint, let shape = item.shape,
              shape.isRounded, !shape.continuous, item.maskPass == nil, item.polygon == nil,
              item.rect.width == shape.radius, item.rect.height == shape.radius else { return nil }
        let atMinX = item.rect.minX == shape.rect.minX, atMaxX = item.rect.maxX == shape.rect.maxX
        let atMinY = item.rect.minY == shape.rect.minY, atMaxY = item.rect.maxY == shape.rect.maxY
        guard atMinX || atMaxX, atMinY || atMaxY else { return nil }
        let corner: RoundedCorners = atMinX ? (atMinY ? .minXMinY : .minXMaxY) : (atMinY ? .maxXMinY : .maxXMaxY)
        // A corner left square (maskedCorners) keeps the exact shape math.
        guard shape.corners.contains(corner) else { return nil }
        let density = Walk.pixelDensity(item.transform, at: CGPoint(x: item.rect.midX, y: item.rect.midY))
        let size = Int((shape.radius * density).rounded(.up))
        guard (1...256).contains(size) else { return nil }
        // The ring width in mask texels, in eighths so that equal borders share a mask.
        func texels(_ width: CGFloat) -> CGFloat { (width * CGFloat(size) / shape.radius * 8).rounded() / 8 }
        let mask: RasterizedContent
        var borderColor: PremultipliedColor?
        if let border {
            guard let width = border.borderWidth, case .solid(let c) = border.paint else { return nil }
            borderColor = c
            let ring = texels(width)
            if let memo, memo.radius == size, memo.ringWidth == ring {
                mask = memo.mask
            } else {
                guard let made = rasterizer.rasterize(.cornerMaskPair(radius: size, ringWidth: ring), stopwatch: stopwatch) else { return nil }
                mask = made
                memo = CornerPairMemo(radius: size, ringWidth: ring, mask: made)
            }
        } else {
            guard let made = rasterizer.rasterize(.cornerMask(radius: size, ringWidth: item.borderWidth.map(texels)), stopwatch: stopwatch)
            else { return nil }
            mask = made
        }
        // One mask for all four corners (so corners batch into one draw): each takes its quadrant.
        var masked = item
        masked.paint = .image(mask.image, source: DrawItem.quadrant(of: corner), minification: .linear, magnification: .linear)
        masked.tint = color
        masked.borderTint = borderColor
        masked.shape = nil
        masked.borderWidth = nil
        return masked
    }

    struct Walk {
        let tree: PresentationTree
        /// The tree by reference, for the labels of draw items.
        let labels: PresentedSubtree
        let maximumPassSide: Int
        let rasterizer: ContentRasterizer?
        /// Draws the shapes the plan defers (`RenderPlanBuilder.shapeDrawer`); nil defers none.
        var shapeDrawer: (any ContentRasterizer & Sendable)?
        var passes: [RenderPass] = []
        /// The current layer's space → its 3D context, while drawing inside a `CATransformLayer`.
        var toContext: CATransform3D?
        let stopwatch: Stopwatch?
        /// The pass the items being collected go to.
        var target = PassTarget(width: 0, height: 0, purpose: "", clearColor: .clear, allowsBackdrop: false)
        /// Given to every item drawn (a blend-mode layer drawn without a pass of its own,
        /// additive particles).
        var blendOverride: BlendMode?
        /// Every offscreen pass and content raster made so far, with its layer (the budget's figure).
        var offscreen: [OffscreenArea] = []
        /// Whether the output is drawn y-up (`OutputOrigin.bottomLeft`), or the tree is a subtree
        /// under an odd number of geometry flips: contents and text are then mirrored in their
        /// layers (once more) to stay upright.
        let flipsOutput: Bool
        /// Whether the current target's space includes the output's y-up flip (the frame pass
        /// does, offscreen passes do not): a mirrored target turns every layer's winding round,
        /// which must not make single-sided layers face away.
        var targetIsFlipped: Bool

        init(tree: PresentationTree, maximumPassSide: Int, rasterizer: ContentRasterizer?, stopwatch: Stopwatch?,
             flipsOutput: Bool = false) {
            self.flipsOutput = flipsOutput
            targetIsFlipped = flipsOutput
            self.tree = tree
            labels = PresentedSubtree(tree)
            self.maximumPassSide = maximumPassSide
            self.rasterizer = rasterizer
            self.stopwatch = stopwatch
        }

        /// Draws layer `index` (and its subtree) with `toTarget` mapping its space to the target's pixels.
        mutating func draw(_ index: Int, toTarget: CATransform3D, opacity inherited: Float, into items: inout [DrawItem]) {
            let p = tree.layers[index].properties
            guard !p.isHidden, !tree.layers[index].isMask else { return }
            let opacity = inherited * max(0, min(1, p.opacity))
            guard opacity > 0 else { return }
            // Scaled to nothing (as Lottie files hide layers): its plane, and every plane it
            // flattens, meets the target in a line or a point, which draws no pixel.
            if !tree.layers[index].preservesDepth, Self.collapsesPlane(toTarget) { return }
            if !p.isDoubleSided, Self.facesAway(p.bounds, toTarget) != targetIsFlipped { return }
            let isTransformLayer = p.content == .transformLayer

            // Shadow first (§11.3); a layer that masks to its bounds clips its own shadow away.
            if !isTransformLayer, !p.masksToBounds, p.shadowOpacity > 0, let color = p.shadowColor, color.alpha > 0 {
                appendShadow(index, color: color, toTarget: toTarget, opacity: opacity, into: &items)
            }
            if !isTransformLayer, let old = tree.layers[index].transitionFrom, let transition = p.transition {
                appendTransition(index, from: old.tree, transition, toTarget: toTarget, opacity: opacity, into: &items)
                return
            }
            // Core Animation ignores filters on transform layers (§11.3).
            let effects = isTransformLayer ? nil : LayerEffects(p)
            if let effects, !effects.backdrop.isEmpty {
                appendBackdrop(index, effects.backdrop, toTarget: toTarget, opacity: opacity, into: &items)
            }
            let groupOpacity = p.opacity < 1 && p.allowsGroupOpacity && drawnItemCount(index, limit: 2) > 1
            if let effects, !effects.filters.isEmpty || effects.blend.map({ _ in !drawsAsOneItem(index) }) == true {
                isolate(index, effects, toTarget: toTarget, opacity: opacity, into: &items)
                return
            }
            if !isTransformLayer, p.masksToBounds && !clipsNothing(index, toTarget: toTarget) || tree.layers[index].mask != nil || groupOpacity {
                isolate(index, toTarget: toTarget, opacity: opacity, purpose: p.masksToBounds ? "masksToBounds"
                            : tree.layers[index].mask != nil ? "mask" : "group opacity", into: &items)
                return
            }
            // A blend-mode layer that draws one item blends that item: the same pixels as
            // flattening it first, without a pass.
            let outerBlend = blendOverride
            if let blend = effects?.blend { blendOverride = blend }
            drawContent(index, toTarget: toTarget, opacity: opacity, into: &items)
            blendOverride = outerBlend
        }

        func label(_ index: Int) -> LayerLabel { LayerLabel(tree: labels, index: index) }

        /// An item of the current layer, tagged with its 3D-context matrix when it has one, and
        /// with the layer's tint (a replicator instance's or particle's colour) applied.
        func tagged(_ item: DrawItem, offset: CATransform3D? = nil) -> DrawItem {
            var item = item
            item.depthTransform = toContext.map { context in offset.map { $0.concatenating(context) } ?? context }
            if let blendOverride { item.blendMode = blendOverride }
            if let tint = tree.layers[item.layer.index].tint, item.layer.tree === labels {
                switch item.paint {
                case .solid(let c): item.paint = .solid(c.tinted(by: tint))
                case .gradient(let g, let source): item.paint = .gradient(g.tinted(by: tint), source: source)
                case .image, .shape: item.tint = PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1).tinted(by: tint)
                case .pass, .tintedPass, .blur: break  // composites of content tinted already
                }
            }
            return item
        }

        /// Background, contents, sublayers and border of one layer, without its own isolation.
        mutating func drawContent(_ index: Int, toTarget: CATransform3D, opacity: Float, into items: inout [DrawItem]) {
            let p = tree.layers[index].properties
            let path = label(index)
            let isTransformLayer = p.content == .transformLayer
            let shape = RoundedShape(rect: p.bounds, radius: p.cornerRadius, corners: RoundedCorners(p.maskedCorners),
                                     continuous: p.cornerCurve == .continuous)
            if !isTransformLayer, let background = p.backgroundColor, background.alpha > 0 {
                items.append(tagged(DrawItem(layer: path, role: "background", transform: toTarget, rect: p.bounds,
                                             paint: .solid(PremultipliedColor(background)), opacity: opacity,
                                             shape: shape.isRounded ? shape : nil, antialiasEdges: p.allowsEdgeAntialiasing)))
            }
            if case .gradient(let g) = p.content, let gradient = GradientPaint(g) {
                // The gradient fills the layer's shape, rounded corners included (§15.2).
                items.append(tagged(DrawItem(layer: path, role: "gradient", transform: toTarget, rect: p.bounds,
                                             paint: .gradient(gradient, source: CGRect(x: 0, y: 0, width: 1, height: 1)),
                                             opacity: opacity, shape: shape.isRounded ? shape : nil,
                                             antialiasEdges: p.allowsEdgeAntialiasing)))
            }
            // A layer that draws itself shows its drawing as its contents.
            let drawn = tree.layers[index].drawing.flatMap { rasterizer?.rasterize(.drawing($0), stopwatch: stopwatch)?.image }
            if let drawn { offscreen.append(OffscreenArea(layer: path, purpose: "drawing", width: drawn.width, height: drawn.height)) }
            if !isTransformLayer, let image = drawn ?? p.contents.image {
                appendContents(image, of: p, path: path, toTarget: toTarget, opacity: opacity, into: &items)
            }
            // An animated `contents` change cross-fades: the new image over the old one at the
            // animation's fraction, as the fade transition mixes its two states.
            if !isTransformLayer, drawn == nil, let next = p.contents.fadingTo, p.contents.fraction > 0 {
                appendContents(next, of: p, path: path, toTarget: toTarget,
                               opacity: opacity * Float(min(1, p.contents.fraction)), into: &items)
            }
            appendRasterizedContent(of: p, path: path, toTarget: toTarget, opacity: opacity, into: &items)
            // Particles draw above the emitter's border (§15.5); every other sublayer below it.
            let isEmitter = if case .emitter = p.content { true } else { false }
            let children = isEmitter ? tree.layers[index].sublayersInDrawingOrder.filter { tree.layers[$0].particle == nil }
                : tree.layers[index].sublayersInDrawingOrder
            drawSublayers(children, of: index, toTarget: toTarget, opacity: opacity, into: &items)
            if !isTransformLayer, p.borderWidth > 0, let border = p.borderColor, border.alpha > 0 {
                items.append(tagged(DrawItem(layer: path, role: "border", transform: toTarget, rect: p.bounds,
                                             paint: .solid(PremultipliedColor(border)), opacity: opacity, shape: shape,
                                             borderWidth: p.borderWidth, antialiasEdges: p.allowsEdgeAntialiasing)))
            }
            if case .emitter(let emitter) = p.content {
                let particles = tree.layers[index].sublayersInDrawingOrder.filter { tree.layers[$0].particle != nil }
                // Additive particles add to what is below and to each other, in any order (§15.5).
                let outerBlend = blendOverride
                if emitter.renderMode == .additive { blendOverride = .addition }
                drawSublayers(particles, of: index, toTarget: toTarget, opacity: opacity, into: &items)
                blendOverride = outerBlend
            }
        }

        /// Sublayers in order, each flattened into this layer's plane, or — for a transform layer
        /// or a replicator or emitter that preserves depth — sharing one 3D space, ordered (and
        /// split where they cross) by a BSP tree.
        mutating func drawSublayers(_ children: [Int], of index: Int, toTarget: CATransform3D, opacity: Float,
                                    into items: inout [DrawItem]) {
            let ownContext = toContext
            if tree.layers[index].preservesDepth {
                // Sublayers share one 3D space: their quads are ordered (and split where they
                // cross) by a BSP tree rather than drawn in array order. The context starts at
                // the transform layer's placement (which carries its parent's perspective).
                let context = ownContext ?? tree.layers[index].transformToParent
                var contextItems: [DrawItem] = []
                for child in depthSorted(children, in: index) {
                    let placement = tree.layers[child].transformToParent
                    toContext = placement.concatenating(context)
                    draw(child, toTarget: placement.concatenating(toTarget), opacity: opacity, into: &contextItems)
                }
                toContext = ownContext
                for piece in PlaneSorter.sort(contextItems) {
                    var item = contextItems[piece.item]
                    item.polygon = piece.polygon
                    items.append(item)
                }
            } else {
                for child in children {
                    let placement = tree.layers[child].transformToParent
                    // Inside a context an ordinary layer's subtree lies in its plane.
                    toContext = ownContext.map { placement.concatenating($0.flattened) }
                    draw(child, toTarget: placement.concatenating(toTarget.flattened), opacity: opacity, into: &items)
                }
                toContext = ownContext
            }
        }

        /// Renders the layer's subtree into its own pass (in its bounds space) and composites that.
        /// The pass covers what the subtree draws (the bounds when it clips to them; sublayers and
        /// paths may reach past them otherwise), of that only what the mask's content covers and
        /// what can show in the target.
        mutating func isolate(_ index: Int, toTarget: CATransform3D, opacity: Float, purpose: String,
                              into items: inout [DrawItem]) {
            let p = tree.layers[index].properties
            var region = p.masksToBounds ? p.bounds : contentExtent(index) ?? visibleRegion(toTarget, margin: 0) ?? p.bounds
            if let mask = tree.layers[index].mask, let covered = placedExtent(of: mask) { region = region.intersection(Self.maskTile(covered, of: region)) }
            guard !region.isNull, region.width > 0, region.height > 0,
                  let visible = VisibleRegion.clip(region, toTarget: toTarget, target: samplingTarget) else { return }
            // The pass and where its item lies: on the target's own pixels under a turn (copied one
            // to one, unturned), else in the layer's space.
            let toPass: CATransform3D, passWidth: Int, passHeight: Int, rect: CGRect, placement: CATransform3D
            var antialiasEdges = p.allowsEdgeAntialiasing
            if !p.masksToBounds, toContext == nil, let pixels = rotatedTargetPass(visible, toTarget: toTarget) {
                toPass = toTarget.concatenating(CATransform3DMakeTranslation(-pixels.minX, -pixels.minY, 0))
                (passWidth, passHeight, rect, placement) = (Int(pixels.width), Int(pixels.height), pixels, CATransform3DIdentity)
                antialiasEdges = false
            } else {
                let area: CGRect
                if let aligned = targetAlignedPass(visible, toTarget: toTarget) {
                    (area, passWidth, passHeight) = aligned
                } else {
                    let density = Self.pixelDensity(toTarget, at: CGPoint(x: visible.midX, y: visible.midY))
                    (area, passWidth, passHeight) = clippedPassGeometry(region, visible: visible, density: density)
                }
                toPass = CATransform3DMakeTranslation(-area.minX, -area.minY, 0)
                    .concatenating(CATransform3DMakeScale(CGFloat(passWidth) / area.width, CGFloat(passHeight) / area.height, 1))
                (rect, placement) = (area, toTarget)
            }
            let passID = pass(width: passWidth, height: passHeight, purpose: purpose, owner: label(index)) { walk, passItems in
                walk.drawContent(index, toTarget: toPass, opacity: 1, into: &passItems)
            }
            let maskID = maskPass(of: index, toPass: toPass, width: passWidth, height: passHeight)
            let clip = p.masksToBounds
                ? RoundedShape(rect: p.bounds, radius: p.cornerRadius, corners: RoundedCorners(p.maskedCorners), continuous: p.cornerCurve == .continuous)
                : nil
            items.append(tagged(DrawItem(layer: label(index), role: "group", transform: placement, rect: rect,
                                         paint: .pass(passID, source: CGRect(x: 0, y: 0, width: 1, height: 1)), opacity: opacity,
                                         shape: clip.flatMap { $0.isRounded ? $0 : nil },
                                         antialiasEdges: antialiasEdges, maskPass: maskID)))
        }

        /// The pass of layer `index`'s mask, drawn with `toPass` (the masked layer's space → the
        /// pass); nil when the layer has no mask. Its own opacity counts toward its alpha.
        mutating func maskPass(of index: Int, toPass: CATransform3D, width: Int, height: Int) -> Int? {
            guard let mask = tree.layers[index].mask else { return nil }
            let m = tree.layers[mask]
            // Masks ignore compositing and background filters (§11.5): nothing may split this pass.
            return pass(width: width, height: height, purpose: "mask of \(tree.path(of: index))", owner: label(index),
                        allowsBackdrop: false) { walk, maskItems in
                guard !m.properties.isHidden else { return }
                let maskToPass = m.transformToParent.concatenating(toPass.flattened)
                walk.drawContent(mask, toTarget: maskToPass, opacity: max(0, min(1, m.properties.opacity)), into: &maskItems)
            }
        }

        /// The target grown by what bilinear sampling reads beyond its edge, in its pixels.
        var samplingTarget: CGRect {
            CGRect(x: 0, y: 0, width: target.width, height: target.height)
                .insetBy(dx: -VisibleRegion.samplingMargin, dy: -VisibleRegion.samplingMargin)
        }

        /// The pass that draws the part `visible` of `rect` at `density` target pixels per point:
        /// the texels of a pass of all of `rect` that cover `visible`, so that a clipped pass
        /// samples exactly as the whole one would. At most `maximumPassSide` a side (coarser beyond).
        func clippedPassGeometry(_ rect: CGRect, visible: CGRect, density: CGFloat) -> (rect: CGRect, width: Int, height: Int) {
            let side = CGFloat(maximumPassSide)
            let columns = max(1, (rect.width * density).rounded(.up)), rows = max(1, (rect.height * density).rounded(.up))
            guard visible != rect else { return (rect, Int(min(side, columns)), Int(min(side, rows))) }
            let texel = CGSize(width: rect.width / columns, height: rect.height / rows)
            let part = VisibleRegion.snapped(visible, origin: rect.origin, step: texel).intersection(rect)
            guard !part.isNull, part.width > 0, part.height > 0 else { return (rect, Int(min(side, columns)), Int(min(side, rows))) }
            return (part, Int(min(side, max(1, (part.width / texel.width).rounded()))),
                    Int(min(side, max(1, (part.height / texel.height).rounded()))))
        }

        /// Under a plain scale and move (`toTarget`), the pass over `visible` made of the target's
        /// own pixels, so that compositing it copies pixels one to one; nil under other maps or
        /// past `maximumPassSide`.
        func targetAlignedPass(_ visible: CGRect, toTarget m: CATransform3D) -> (rect: CGRect, width: Int, height: Int)? {
            let sx = m.m11, sy = m.m22, tx = m.m41, ty = m.m42
            // The plane z = 0 maps through m11…m42 alone when there is no perspective (z terms may be anything).
            guard sx > 0, sy > 0, sx <= 64, sy <= 64, abs(m.m12) <= 1e-9 * sx, abs(m.m21) <= 1e-9 * sy,
                  abs(m.m14) <= 1e-12, abs(m.m24) <= 1e-12, abs(m.m44 - 1) <= 1e-12 else { return nil }
            let x0 = (visible.minX * sx + tx).rounded(.down), y0 = (visible.minY * sy + ty).rounded(.down)
            let x1 = (visible.maxX * sx + tx).rounded(.up), y1 = (visible.maxY * sy + ty).rounded(.up)
            let side = CGFloat(maximumPassSide)
            guard x1 > x0, y1 > y0, x1 - x0 <= side, y1 - y0 <= side else { return nil }
            return (CGRect(x: (x0 - tx) / sx, y: (y0 - ty) / sy, width: (x1 - x0) / sx, height: (y1 - y0) / sy), Int(x1 - x0), Int(y1 - y0))
        }

        /// Under a 2D map that turns or skews (`toTarget`, no perspective), the target's pixels
        /// covering `visible`: a pass there draws the layer as the target would, and is copied
        /// one to one, where a pass in the layer's own space would be resampled turned. Nil
        /// under other maps, or past `maximumPassSide`.
        func rotatedTargetPass(_ visible: CGRect, toTarget m: CATransform3D) -> CGRect? {
            guard m.m12 != 0 || m.m21 != 0, abs(m.m14) <= 1e-12, abs(m.m24) <= 1e-12, abs(m.m44 - 1) <= 1e-12 else { return nil }
            let pixels = visible.applying(CATransform3DGetAffineTransform(m)).integral
                .intersection(CGRect(x: 0, y: 0, width: target.width, height: target.height))
            let side = CGFloat(maximumPassSide)
            guard !pixels.isNull, pixels.width >= 1, pixels.height >= 1, pixels.width <= side, pixels.height <= side else { return nil }
            return pixels
        }

        /// What a mask (or any sublayer) draws, in its parent's space; nil where that is unbounded.
        func placedExtent(of child: Int) -> CGRect? {
            guard let own = contentExtent(child) else { return nil }
            guard !own.isNull else { return .null }
            let m = tree.layers[child].transformToParent.flattened
            var box = CGRect.null
            for corner in [CGPoint(x: own.minX, y: own.minY), CGPoint(x: own.maxX, y: own.minY),
                           CGPoint(x: own.minX, y: own.maxY), CGPoint(x: own.maxX, y: own.maxY)] {
                let h = m.transform(x: corner.x, y: corner.y)
                guard h.w > 1e-6 else { return nil }
                box = box.union(CGRect(x: h.x / h.w, y: h.y / h.w, width: 0, height: 0))
            }
            return box
        }

        /// The pass being built while `body` collects its items: backdrop filters inside may
        /// split it (`RenderPass.startsFrom`); the 3D context and blend override stop at it.
        /// Counted as `owner`'s offscreen image.
        mutating func pass(width: Int, height: Int, purpose: String, owner: LayerLabel, clearColor: PremultipliedColor = .clear,
                           allowsBackdrop: Bool = true, _ body: (inout Walk, inout [DrawItem]) -> Void) -> Int {
            let outer = (target, toContext, blendOverride, targetIsFlipped)
            target = PassTarget(width: width, height: height, purpose: purpose, clearColor: clearColor, allowsBackdrop: allowsBackdrop)
            toContext = nil
            blendOverride = nil
            targetIsFlipped = false  // a pass is drawn in its layer's own (unmirrored) space
            var items: [DrawItem] = []
            body(&self, &items)
            let id = passes.count
            passes.append(RenderPass(id: id, width: width, height: height, purpose: purpose, clearColor: clearColor,
                                     items: items, startsFrom: target.startsFrom))
            offscreen.append(OffscreenArea(layer: owner, purpose: purpose, width: width, height: height))
            (target, toContext, blendOverride, targetIsFlipped) = outer
            return id
        }

        /// Sublayers of a transform layer share its 3D space: farthest (smallest z) first, z measured
        /// in the rendering context's space (before any flattening).
        func depthSorted(_ children: [Int], in transformLayer: Int) -> [Int] {
            let space = contextMatrix(transformLayer)
            return children.enumerated().map { offset, child -> (Int, CGFloat, Int) in
                let b = tree.layers[child].properties.bounds
                let m = tree.layers[child].transformToParent.concatenating(space)
                return (child, m.transform(x: b.midX, y: b.midY).z, offset)
            }
            .sorted { ($0.1, $0.2) < ($1.1, $1.2) }
            .map(\.0)
        }

        /// Layer space → its rendering context's 3D space: placements up through transform layers.
        func contextMatrix(_ index: Int) -> CATransform3D {
            guard let parent = tree.layers[index].parent, !tree.layers[index].isMask, tree.layers[parent].preservesDepth else {
                return tree.layers[index].transformToParent
            }
            return tree.layers[index].transformToParent.concatenating(contextMatrix(parent))
        }

        /// Whether anything of the subtree draws at least `limit` items (stops counting there).
        func drawnItemCount(_ index: Int, limit: Int) -> Int {
            var count = 0
            var stack = [index]
            while let i = stack.popLast(), count < limit {
                let p = tree.layers[i].properties
                if p.isHidden || tree.layers[i].isMask { continue }
                if i != index, p.opacity <= 0 { continue }
                if p.backgroundColor.map({ $0.alpha > 0 }) == true { count += 1 }
                if p.contents.image != nil || tree.layers[i].drawing != nil { count += 1 }
                if p.contents.fadingTo != nil { count += 1 }
                switch p.content {
                case .shape, .text, .gradient: count += 1
                default: break
                }
                if p.borderWidth > 0 { count += 1 }
                stack.append(contentsOf: tree.layers[i].sublayersInDrawingOrder)
            }
            return count
        }

        /// True when the layer's front face points away: its projected corners wind the other way
        /// (clockwise on screen, y down, is the front).
        /// Whether `m` maps the plane z = 0 onto a line or a point: the determinant of the map of
        /// (x, y, 1) it applies there is 0.
        static func collapsesPlane(_ m: CATransform3D) -> Bool {
            m.m11 * (m.m22 * m.m44 - m.m24 * m.m42) - m.m12 * (m.m21 * m.m44 - m.m24 * m.m41)
                + m.m14 * (m.m21 * m.m42 - m.m22 * m.m41) == 0
        }

        static func facesAway(_ bounds: CGRect, _ m: CATransform3D) -> Bool {
            let corners = [CGPoint(x: bounds.minX, y: bounds.minY), CGPoint(x: bounds.maxX, y: bounds.minY),
                           CGPoint(x: bounds.maxX, y: bounds.maxY), CGPoint(x: bounds.minX, y: bounds.maxY)]
            var area: CGFloat = 0
            var projected: [CGPoint] = []
            for c in corners {
                let h = m.transform(x: c.x, y: c.y)
                guard h.w > 0 else { return false }  // partly behind the eye: let clipping decide
                projected.append(CGPoint(x: h.x / h.w, y: h.y / h.w))
            }
            for i in 0..<4 {
                let a = projected[i], b = projected[(i + 1) % 4]
                area += a.x * b.y - b.x * a.y
            }
            return area < 0
        }

        /// Target pixels per local point around `point` (the larger of the two axes).
        static func pixelDensity(_ m: CATransform3D, at point: CGPoint) -> CGFloat {
            let c = m.projecting(point)
            let dx = m.projecting(CGPoint(x: point.x + 1, y: point.y))
            let dy = m.projecting(CGPoint(x: point.x, y: point.y + 1))
            let d = max(hypot(dx.x - c.x, dx.y - c.y), hypot(dy.x - c.x, dy.y - c.y))
            return d.isFinite ? min(max(d, 0.01), 64) : 1
        }
    }
}
