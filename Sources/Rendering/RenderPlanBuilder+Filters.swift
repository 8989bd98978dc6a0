import Foundation
import Geometry
import Layers
import Presentation

// `compositingFilter`, `filters` and `backgroundFilters` (docs/filters.md): the layer flattened
// into a pass, its filter chain as passes, composited with its blend mode; the backdrop under a
// layer copied out of the target, filtered and drawn inside the layer's shape first.

extension RenderPlanBuilder.Walk {
    /// The pass items are being collected for.
    struct PassTarget {
        var width: Int
        var height: Int
        var purpose: String
        var clearColor: PremultipliedColor
        /// Whether a layer with `backgroundFilters` may split this pass to read its backdrop
        /// (not in masks and shadows, which use only alpha).
        var allowsBackdrop = true
        /// The pass holding what was drawn before the last split, which this one continues.
        var startsFrom: Int?
    }

    /// A blur is drawn at most this many texels wide (σ): larger ones first halve the image
    /// (2×2 box averages), so their cost stays that of a small blur; the result, upsampled by
    /// the composite, stays within a fraction of 1/255 of a full-resolution blur.
    static let maximumBlurTexels: CGFloat = 6

    /// The layer, flattened at full density over what it draws (plus 3σ for blurs), filtered,
    /// then composited with its opacity, mask, clip and blend mode. The mask applies after the
    /// filters (Core Animation's order: content, filters, shadow, opacity, mask); `masksToBounds`
    /// clips the content before them.
    mutating func isolate(_ index: Int, _ effects: LayerEffects, toTarget: CATransform3D, opacity: Float,
                          into items: inout [DrawItem]) {
        let p = tree.layers[index].properties
        let reach = 3 * LayerEffects.blurReach(effects.filters)
        let visible = visibleRegion(toTarget, margin: reach)
        // A point of margin: a filter's edge pixels sample just past the content.
        var region = p.masksToBounds ? p.bounds : contentExtent(index).map { $0.isNull ? $0 : $0.insetBy(dx: -1, dy: -1) } ?? visible ?? p.bounds
        if let visible { region = region.intersection(visible) }
        guard !region.isNull, region.width > 0, region.height > 0 else { return }
        let area = region.insetBy(dx: -reach, dy: -reach)
        let density = Self.pixelDensity(toTarget, at: CGPoint(x: area.midX, y: area.midY))
        let g = passGeometry(area, toTarget: toTarget, density: density, alignment: Self.blurAlignment(effects.filters, density: density))
        let path = label(index)
        let clip = RoundedShape(rect: p.bounds, radius: p.cornerRadius, corners: RoundedCorners(p.maskedCorners), continuous: p.cornerCurve == .continuous)
        var source: Int
        if p.masksToBounds, !effects.filters.isEmpty {
            // Clipped before filtering: the blur of a clipped card spreads past its edges. The
            // content is drawn over the bounds only, then copied into the wider pass clipped.
            let b = passGeometry(p.bounds, toTarget: toTarget, density: CGFloat(g.width) / g.area.width, alignment: 1)
            let content = pass(width: b.width, height: b.height, purpose: "masksToBounds of \(path)", owner: path) { walk, passItems in
                walk.drawContent(index, toTarget: b.toPass, opacity: 1, into: &passItems)
            }
            let inContent = CGRect(x: (p.bounds.minX - b.area.minX) / b.area.width, y: (p.bounds.minY - b.area.minY) / b.area.height,
                                   width: p.bounds.width / b.area.width, height: p.bounds.height / b.area.height)
            source = pass(width: g.width, height: g.height, purpose: "filters of \(path)", owner: path) { _, passItems in
                passItems.append(DrawItem(layer: path, role: "clip", transform: g.toPass, rect: p.bounds,
                                          paint: .pass(content, source: inContent), opacity: 1,
                                          shape: clip.isRounded ? clip : nil))
            }
        } else {
            let purpose = effects.filters.isEmpty ? "\(effects.blend?.rawValue ?? "") blend of \(path)" : "filters of \(path)"
            source = pass(width: g.width, height: g.height, purpose: purpose, owner: path) { walk, passItems in
                walk.drawContent(index, toTarget: g.toPass, opacity: 1, into: &passItems)
            }
        }
        let (filtered, matrix) = applyFilters(effects.filters, to: source, width: g.width, height: g.height,
                                              pixelsPerPoint: CGFloat(g.width) / g.area.width, label: path)
        source = filtered
        var composite = DrawItem(layer: path, role: effects.filters.isEmpty ? "group" : "filtered", transform: toTarget, rect: g.area,
                                 paint: .pass(source, source: Self.unit), opacity: opacity,
                                 shape: p.masksToBounds && effects.filters.isEmpty && clip.isRounded ? clip : nil,
                                 antialiasEdges: p.allowsEdgeAntialiasing,
                                 maskPass: maskPass(of: index, toPass: g.toPass, width: g.width, height: g.height))
        composite.colorMatrix = matrix
        composite = tagged(composite)
        composite.blendMode = effects.blend ?? blendOverride ?? .normal
        items.append(composite)
    }

    /// What lies behind layer `index` in the target, filtered, drawn inside its shape (bounds,
    /// corners, mask) before the layer itself. The target is split here: what was drawn so far
    /// becomes a pass of its own, resampled into the layer's plane (over its bounds plus 3σ,
    /// edge pixels repeated past the target), filtered, and the target carries on from it.
    mutating func appendBackdrop(_ index: Int, _ steps: [FilterStep], toTarget: CATransform3D, opacity: Float,
                                 into items: inout [DrawItem]) {
        let p = tree.layers[index].properties
        guard target.allowsBackdrop, toContext == nil, p.bounds.width > 0, p.bounds.height > 0,
              let fromTarget = Self.planeInverse(toTarget) else { return }
        let reach = 3 * LayerEffects.blurReach(steps)
        let area = p.bounds.insetBy(dx: -reach, dy: -reach)
        // Where the area lies in the target: all of it in front of the eye, or no backdrop.
        var covered = CGRect(x: 0, y: 0, width: target.width, height: target.height)
        for corner in [CGPoint(x: area.minX, y: area.minY), CGPoint(x: area.maxX, y: area.minY),
                       CGPoint(x: area.minX, y: area.maxY), CGPoint(x: area.maxX, y: area.maxY)] {
            let h = toTarget.transform(x: corner.x, y: corner.y)
            guard h.w > 1e-6 else { return }
            covered = covered.union(CGRect(x: h.x / h.w, y: h.y / h.w, width: 0, height: 0))
        }
        covered = covered.insetBy(dx: -1, dy: -1)
        let path = label(index)
        let before = passes.count
        passes.append(RenderPass(id: before, width: target.width, height: target.height,
                                 purpose: "\(target.purpose) under the backdrop of \(path)", clearColor: target.clearColor,
                                 items: items, startsFrom: target.startsFrom))
        offscreen.append(OffscreenArea(layer: path, purpose: "backdrop split", width: target.width, height: target.height))
        items.removeAll()
        target.startsFrom = before

        let density = Self.pixelDensity(toTarget, at: CGPoint(x: area.midX, y: area.midY))
        let g = passGeometry(area, toTarget: toTarget, density: density, alignment: Self.blurAlignment(steps, density: density))
        let (w, h) = (CGFloat(target.width), CGFloat(target.height))
        let copy = pass(width: g.width, height: g.height, purpose: "backdrop of \(path)", owner: path, allowsBackdrop: false) { _, passItems in
            // Past the target's edges the sampling repeats its edge pixels.
            passItems.append(DrawItem(layer: path, role: "backdrop copy", transform: fromTarget.concatenating(g.toPass), rect: covered,
                                      paint: .pass(before, source: CGRect(x: covered.minX / w, y: covered.minY / h,
                                                                          width: covered.width / w, height: covered.height / h)),
                                      opacity: 1))
        }
        let (filtered, matrix) = applyFilters(steps, to: copy, width: g.width, height: g.height,
                                              pixelsPerPoint: CGFloat(g.width) / g.area.width, label: path)
        let b = p.bounds
        let shape = RoundedShape(rect: b, radius: p.cornerRadius, corners: RoundedCorners(p.maskedCorners), continuous: p.cornerCurve == .continuous)
        var item = DrawItem(layer: path, role: "backdrop", transform: toTarget, rect: b,
                            paint: .pass(filtered, source: CGRect(x: (b.minX - g.area.minX) / g.area.width, y: (b.minY - g.area.minY) / g.area.height,
                                                                  width: b.width / g.area.width, height: b.height / g.area.height)),
                            opacity: opacity, shape: shape.isRounded ? shape : nil, antialiasEdges: p.allowsEdgeAntialiasing,
                            maskPass: maskPass(of: index, toPass: g.toPass, width: g.width, height: g.height))
        item.colorMatrix = matrix
        items.append(tagged(item))
    }

    /// The filter chain on `source` (`width`×`height`): colour runs as matrices, each blur as
    /// halvings down to at most `maximumBlurTexels` then a horizontal and a vertical pass. A
    /// trailing colour matrix is returned for the composite to apply instead of a pass.
    mutating func applyFilters(_ steps: [FilterStep], to source: Int, width: Int, height: Int, pixelsPerPoint: CGFloat,
                               label path: LayerLabel) -> (pass: Int, matrix: ColorMatrix?) {
        var current = source, w = width, h = height
        var pending: ColorMatrix?
        for step in steps {
            switch step {
            case .color(let m):
                pending = pending.map { $0.followed(by: m) } ?? m
            case .blur(let radius):
                if let m = pending {
                    let input = current, size = CGRect(x: 0, y: 0, width: w, height: h)
                    current = pass(width: w, height: h, purpose: "color filter of \(path)", owner: path, allowsBackdrop: false) { _, passItems in
                        var item = DrawItem(layer: path, role: "color filter", transform: .identity, rect: size,
                                            paint: .pass(input, source: Self.unit), opacity: 1)
                        item.colorMatrix = m
                        passItems.append(item)
                    }
                    pending = nil
                }
                // σ in this level's texels, and the variance the halvings' box averages add.
                let texel = CGFloat(width) / CGFloat(w)
                let sigma = radius * pixelsPerPoint
                var boxVariance: CGFloat = 0
                var level = texel
                while sigma / level > Self.maximumBlurTexels, w % 2 == 0, h % 2 == 0, w >= 2, h >= 2 {
                    let input = current, size = CGRect(x: 0, y: 0, width: w, height: h)
                    w /= 2; h /= 2
                    current = pass(width: w, height: h, purpose: "downsample of \(path)", owner: path, allowsBackdrop: false) { _, passItems in
                        // Each texel lands on the corner of four: the bilinear sample is their mean.
                        passItems.append(DrawItem(layer: path, role: "downsample", transform: CATransform3DMakeScale(0.5, 0.5, 1),
                                                  rect: size, paint: .pass(input, source: Self.unit), opacity: 1))
                    }
                    boxVariance += 0.25 * level * level
                    level *= 2
                }
                let remaining = (max(0, sigma * sigma - boxVariance)).squareRoot() / level
                if remaining > 0.01 { current = blurPasses(current, width: w, height: h, sigma: remaining, label: path, purpose: "blur of \(path)") }
            }
        }
        return (current, pending)
    }

    /// A Gaussian blur of pass `source` (both axes), returning the blurred pass.
    mutating func blurPasses(_ source: Int, width: Int, height: Int, sigma: CGFloat, label path: LayerLabel, purpose: String) -> Int {
        var blurred = source
        for horizontal in [true, false] {
            let id = passes.count
            let blur = DrawItem(layer: path, role: "blur", transform: .identity, rect: CGRect(x: 0, y: 0, width: width, height: height),
                                paint: .blur(blurred, sigma: sigma, horizontal: horizontal), opacity: 1)
            passes.append(RenderPass(id: id, width: width, height: height, purpose: purpose, clearColor: .clear, items: [blur]))
            offscreen.append(OffscreenArea(layer: path, purpose: "blur", width: width, height: height))
            blurred = id
        }
        return blurred
    }

    static let unit = CGRect(x: 0, y: 0, width: 1, height: 1)

    /// 2 to the number of halvings the largest blur of `steps` needs at `density`: the pass
    /// alignment that keeps every halving exact.
    static func blurAlignment(_ steps: [FilterStep], density: CGFloat) -> Int {
        var alignment = 1
        for case .blur(let radius) in steps {
            var sigma = radius * density, a = 1
            while sigma > maximumBlurTexels, a < 256 { sigma /= 2; a *= 2 }
            alignment = max(alignment, a)
        }
        return alignment
    }

    /// A pass over `area` of the layer's plane at `density`: its pixel size a multiple of
    /// `alignment`, its area grown to match, and — when the layer maps onto the target by a
    /// scale and translation at that density — its origin on a target pixel, so that the
    /// composite copies pixels one to one.
    struct PassGeometry {
        var area: CGRect
        var width: Int
        var height: Int
        var toPass: CATransform3D
    }

    func passGeometry(_ area: CGRect, toTarget m: CATransform3D, density requested: CGFloat, alignment: Int) -> PassGeometry {
        var origin = area.origin
        var density = requested
        let axisAligned = m.isAffine && m.m12 == 0 && m.m21 == 0 && m.m11 > 0 && m.m22 > 0
            && abs(m.m11 - density) < 1e-9 && abs(m.m22 - density) < 1e-9
        if axisAligned {
            origin = CGPoint(x: ((origin.x * density + m.m41).rounded(.down) - m.m41) / density,
                             y: ((origin.y * density + m.m42).rounded(.down) - m.m42) / density)
        }
        let side = CGFloat(maximumPassSide)
        let extent = CGSize(width: area.maxX - origin.x, height: area.maxY - origin.y)
        if max(extent.width, extent.height) * density > side - CGFloat(alignment) {
            density = (side - CGFloat(alignment)) / max(extent.width, extent.height)
        }
        func pixels(_ length: CGFloat) -> Int {
            let n = Int(max(1, (length * density - 1e-6).rounded(.up)))
            return (n + alignment - 1) / alignment * alignment
        }
        let width = pixels(extent.width), height = pixels(extent.height)
        let fitted = CGRect(x: origin.x, y: origin.y, width: CGFloat(width) / density, height: CGFloat(height) / density)
        let toPass = CATransform3DMakeTranslation(-fitted.minX, -fitted.minY, 0).concatenating(CATransform3DMakeScale(density, density, 1))
        return PassGeometry(area: fitted, width: width, height: height, toPass: toPass)
    }

    /// The part of the layer's plane that can show in the target (its rectangle mapped back,
    /// grown by `margin` points), when the layer maps onto it affinely; nil otherwise.
    func visibleRegion(_ m: CATransform3D, margin: CGFloat) -> CGRect? {
        guard target.width > 0, m.isAffine,
              let box = VisibleRegion.preimage(of: CGRect(x: 0, y: 0, width: target.width, height: target.height), under: m) else { return nil }
        return box.insetBy(dx: -margin - 2, dy: -margin - 2)
    }

    /// The inverse of a layer-plane → target map, restricted to the plane: a matrix taking
    /// target pixels (z = 0) to the layer's plane (divide by w). nil when the plane is seen
    /// edge-on.
    static func planeInverse(_ m: CATransform3D) -> CATransform3D? {
        // [x y 1]·H = [X Y W], H from the rows and columns of x, y and w.
        let a = m.m11, b = m.m12, c = m.m14, d = m.m21, e = m.m22, f = m.m24, g = m.m41, h = m.m42, k = m.m44
        let det = a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g)
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let inv = 1 / det
        var r = CATransform3D.identity
        r.m11 = (e * k - f * h) * inv; r.m12 = (c * h - b * k) * inv; r.m14 = (b * f - c * e) * inv
        r.m21 = (f * g - d * k) * inv; r.m22 = (a * k - c * g) * inv; r.m24 = (c * d - a * f) * inv
        r.m41 = (d * h - e * g) * inv; r.m42 = (b * g - a * h) * inv; r.m44 = (a * e - b * d) * inv
        return r
    }

    /// Whether the layer draws exactly one item and has no sublayers (a blend mode then blends
    /// that item instead of a pass of it).
    /// Whether layer `index`'s `masksToBounds` (square-cornered) can cut nothing away, so its
    /// subtree is drawn directly instead of through a pass: the same pixels without the
    /// resampling and the pass's memory. So when its bounds (grown to whole pixels, as its pass
    /// would be) cover all of the target, or when everything its subtree draws lies inside them
    /// and nothing in it has filters (whose reach the extent leaves out). Lottie precomps clip to
    /// their composition, which usually holds all of their content.
    func clipsNothing(_ index: Int, toTarget m: CATransform3D) -> Bool {
        let p = tree.layers[index].properties
        guard p.cornerRadius <= 0 else { return false }
        // Bounds → target under a plain scale and move (no perspective, no rotation).
        if m.m11 > 0, m.m22 > 0, abs(m.m12) <= 1e-9 * m.m11, abs(m.m21) <= 1e-9 * m.m22,
           abs(m.m14) <= 1e-12, abs(m.m24) <= 1e-12, abs(m.m44 - 1) <= 1e-12 {
            let placed = CGRect(x: p.bounds.minX * m.m11 + m.m41, y: p.bounds.minY * m.m22 + m.m42,
                                width: p.bounds.width * m.m11, height: p.bounds.height * m.m22)
            if placed.contains(samplingTarget) { return true }
            // Its pass would be the bounds grown to whole target pixels (`targetAlignedPass`):
            // where that is all of the target, the pass is a copy of what drawing directly gives
            // (a precomp inside the pass of an enclosing precomp of the same size).
            let x0 = placed.minX.rounded(.down), y0 = placed.minY.rounded(.down)
            let x1 = placed.maxX.rounded(.up), y1 = placed.maxY.rounded(.up)
            if m.m11 <= 64, m.m22 <= 64, x0 <= 0, y0 <= 0, x1 >= CGFloat(target.width), y1 >= CGFloat(target.height) { return true }
        }
        guard let extent = contentExtent(index), p.bounds.contains(extent) || extent.isNull else { return false }
        var stack = [index]
        while let i = stack.popLast() {
            let properties = tree.layers[i].properties
            if !properties.filters.isEmpty || !properties.backgroundFilters.isEmpty || properties.compositingFilter != nil {
                return false
            }
            stack.append(contentsOf: tree.layers[i].sublayersInDrawingOrder)
        }
        return true
    }

    func drawsAsOneItem(_ index: Int) -> Bool {
        return tree.layers[index].sublayersInDrawingOrder.isEmpty && tree.layers[index].mask == nil && !tree.layers[index].properties.masksToBounds
            && drawnItemCount(index, limit: 2) == 1
    }

    /// A rectangle of the layer's space holding everything its subtree draws (bounds of what
    /// paints, contents placed by gravity, stroked paths, shadows); `.null` when it draws
    /// nothing, nil when some of it is unbounded (behind the eye).
    func contentExtent(_ index: Int) -> CGRect? {
        var extent = CGRect.null
        var stack: [(Int, CATransform3D?)] = [(index, nil)]
        while let (i, toRoot) = stack.popLast() {
            let p = tree.layers[i].properties
            guard !p.isHidden, i == index || !tree.layers[i].isMask && p.opacity > 0 else { continue }
            var local = CGRect.null
            let paints = p.backgroundColor.map { $0.alpha > 0 } == true || p.borderWidth > 0 || p.contents.image != nil
                || tree.layers[i].drawing != nil
            switch p.content {
            case .shape(let shape):
                if let box = shape.path?.boundingBox, !box.isNull {
                    let stroke = shape.strokeColor == nil ? 0 : shape.lineWidth * max(1, shape.miterLimit) / 2
                    local = box.insetBy(dx: -stroke - 1, dy: -stroke - 1)
                }
            case .text, .gradient, .video: local = p.bounds
            default: break
            }
            if paints { local = local.union(p.bounds) }
            if let image = p.contents.image {
                let logical = ContentsPlacement.logicalSize(pixels: CGSize(width: CGFloat(image.width) * p.contentsRect.width,
                                                                           height: CGFloat(image.height) * p.contentsRect.height),
                                                            contentsScale: p.contentsScale)
                local = local.union(ContentsPlacement.rect(gravity: p.contentsGravity, contentSize: logical, in: p.bounds,
                                                           flipped: tree.contentsAreFlipped(i)))
            }
            if p.shadowOpacity > 0, !local.isNull {
                let shape = p.shadowPath?.boundingBox ?? local
                let reach = 3 * max(0, p.shadowRadius) + 1
                local = local.union(shape.offsetBy(dx: p.shadowOffset.width, dy: p.shadowOffset.height).insetBy(dx: -reach, dy: -reach))
            }
            if !local.isNull, local.width > 0 || local.height > 0 {
                for corner in [CGPoint(x: local.minX, y: local.minY), CGPoint(x: local.maxX, y: local.minY),
                               CGPoint(x: local.minX, y: local.maxY), CGPoint(x: local.maxX, y: local.maxY)] {
                    guard let m = toRoot else {
                        extent = extent.union(CGRect(origin: corner, size: .zero))
                        continue
                    }
                    let h = m.transform(x: corner.x, y: corner.y)
                    guard h.w > 1e-6 else { return nil }
                    extent = extent.union(CGRect(x: h.x / h.w, y: h.y / h.w, width: 0, height: 0))
                }
            }
            // Sublayers are placed as the walk places them: each flattened into its parent's plane
            // unless the parent keeps a 3D context.
            for child in tree.layers[i].sublayersInDrawingOrder {
                let placement = tree.layers[child].transformToParent
                let parent = toRoot ?? .identity
                stack.append((child, placement.concatenating(tree.layers[i].preservesDepth ? parent : parent.flattened)))
            }
        }
        return extent
    }
}
