import Foundation
import Geometry
import Layers

/// A shape layer's items as lottie-ios builds them: a layer per group (its transform on it), and
/// per run of paths that share fills and strokes a `CAShapeLayer` (or a gradient masked by one).
struct ShapeBuilder {
    let tree: LayerTreeBuilder
    let time: TimeContext
    var animations: AnimationBuilder { tree.animations }

    func build(_ items: [LottieShapeItem], in layer: CALayer, bounds: CGRect) {
        for sublayer in groupLayers(items, isTop: true, bounds: bounds) { layer.addSublayer(sublayer) }
    }

    /// The layers of one list of items, back to front. Each repeater repeats the items before it
    /// (back to the previous repeater); the items after the last one are laid out as usual.
    private func groupLayers(_ items: [LottieShapeItem], isTop: Bool, bounds: CGRect) -> [CALayer] {
        guard items.contains(where: \.isRepeater) else { return plainGroupLayers(items, isTop: isTop, bounds: bounds) }
        var runs: [(items: [LottieShapeItem], repeater: LottieRepeater?)] = [([], nil)]
        for item in items {
            if case .repeater(let repeater) = item.kind {
                runs[runs.count - 1].repeater = repeater
                runs.append(([], nil))
            } else {
                runs[runs.count - 1].items.append(item)
            }
        }
        if runs.last?.items.isEmpty == true, runs.last?.repeater == nil { runs.removeLast() }
        return runs.reversed().flatMap { run -> [CALayer] in
            guard let repeater = run.repeater else { return groupLayers(run.items, isTop: isTop, bounds: bounds) }
            return repeaterLayers(repeater, items: run.items, bounds: bounds)
        }
    }

    /// One layer per copy and group, each copy's transform multiplied by its index (the scale
    /// and anchor are not, as in lottie-ios's `RepeaterLayer`).
    private func repeaterLayers(_ repeater: LottieRepeater, items: [LottieShapeItem], bounds: CGRect) -> [CALayer] {
        if repeater.copies.isAnimated { tree.warn("animated repeater copies (the first value is drawn, as lottie-ios does)") }
        let copies = max(0, min(1000, Int(repeater.copies.first.first ?? 1)))
        var result: [CALayer] = []
        for index in 0..<copies {
            for group in plainGroupLayers(items, isTop: true, bounds: bounds) {
                let copy = tree.filling(CALayer(), bounds)
                copy.name = "repeater \(index)"
                copy.addSublayer(group)
                var t = repeater.transform
                let n = Double(index)
                t.rotationX = t.rotationX.map { $0.map { $0 * n } }
                t.rotationY = t.rotationY.map { $0.map { $0 * n } }
                t.rotationZ = t.rotationZ.map { $0.map { $0 * n } }
                t.position = t.position.map { p in p.map { $0.map { $0 * n } } }
                tree.addTransform(t, to: copy, size: bounds.size, time: time)
                result.append(copy)
            }
        }
        return result
    }

    /// The copies a repeater draws: its first value, at most 1000.
    static func copies(_ repeater: LottieRepeater) -> Int {
        let first = repeater.copies.first.first ?? 1
        return first.isFinite ? Int(min(1000, max(0, first))) : 0   // clamped before converting: Int(1e300) traps
    }

    /// At most the layers `build(_:in:bounds:)` makes of `items` (a group layer per group, at
    /// most two per other item, and for each copy of a repeater a wrapper per layer of the items
    /// it repeats), for the limit checked before building. Saturates instead of overflowing.
    static func layerBound(_ items: [LottieShapeItem]) -> Int {
        func add(_ a: Int, _ b: Int) -> Int { let (r, o) = a.addingReportingOverflow(b); return o ? Int.max : r }
        func times(_ a: Int, _ b: Int) -> Int { let (r, o) = a.multipliedReportingOverflow(by: b); return o ? Int.max : r }
        var total = 0, run = 0
        for item in items {
            switch item.kind {
            case .repeater(let repeater):
                total = add(total, times(copies(repeater), times(2, run)))
                run = 0
            case .group(let children): run = add(run, add(1, layerBound(children)))
            default: run = add(run, 2)
            }
        }
        return add(total, run)
    }

    /// A layer per group, back to front. At the top, paths beside the groups are wrapped in a
    /// group of their own with everything else; items that no run of paths at this level uses
    /// (a fill or stroke for all the groups) are handed to each group, strokes scaled back by
    /// the group's own scale so that their width stays.
    private func plainGroupLayers(_ items: [LottieShapeItem], isTop: Bool, bounds: CGRect) -> [CALayer] {
        var groups = items.filter { $0.isGroup && !$0.hidden }
        var others = items.filter { !$0.isGroup && !$0.hidden }
        if isTop, others.contains(where: \.drawsPath) {
            groups = [LottieShapeItem(kind: .group(items), name: "", hidden: false, reversed: false)]
            others = []
        }
        let unused = Self.renderGroups(others, childGroupsInherit: !groups.isEmpty).unused
        let inherited = unused.map { others[$0] }
        return groups.reversed().compactMap { group in
            guard case .group(let children) = group.kind else { return nil }
            let own = children.filter { !$0.hidden }
            let scale = own.lazy.compactMap { item -> KeyframeGroup<[Double]>? in
                if case .transform(let t) = item.kind { return t.scale }
                return nil
            }.first
            let handed = inherited.map { item in scale.map { item.strokeScaledBack(by: $0) } ?? item }
            return groupLayer(items: own + handed, name: group.name, bounds: bounds)
        }
    }

    private func groupLayer(items: [LottieShapeItem], name: String, bounds: CGRect) -> CALayer {
        let layer = tree.filling(CALayer(), bounds)
        layer.name = name
        for sub in groupLayers(items, isTop: false, bounds: bounds) { layer.addSublayer(sub) }
        let runs = Self.renderGroups(items, childGroupsInherit: items.contains(where: \.isGroup))
        for renderGroup in runs.valid.reversed() {
            let paths = renderGroup.paths.map { items[$0] }
            let others = renderGroup.others.map { items[$0] }
            let combinable = paths.count > 1
                && paths.allSatisfy { if case .path = $0.kind { true } else { false } }
                && !others.contains(where: \.isTrim)
            if combinable {
                let shapes = paths.compactMap { item -> KeyframeGroup<BezierShape>? in
                    guard case .path(let g) = item.kind else { return nil }
                    return item.reversed ? g.map(\.reversedDirection) : g
                }
                layer.addSublayer(itemLayer(.combined(shapes), others: others, bounds: bounds))
            } else {
                for path in paths { layer.addSublayer(itemLayer(.single(path), others: others, bounds: bounds)) }
            }
        }
        let nonGroup = items.filter { !$0.isGroup }
        if let transformItem = nonGroup.first(where: { if case .transform = $0.kind { true } else { false } }),
           case .transform(let t) = transformItem.kind {
            tree.addTransform(t, to: layer, size: bounds.size, time: time)
            animations.animate(layer, "opacity", t.opacity, time) { ($0.first ?? 100) / 100 }
        }
        return layer
    }

    /// Indices of the paths of one run and of the items that paint them.
    struct RenderGroup {
        var paths: [Int] = []
        var others: [Int] = []
    }

    /// lottie-ios's render groups. A fill paints only the paths before it and closes their run
    /// (a fill with no paths of its own paints the previous run's, unless child groups will
    /// take it); a path after a trim starts a new run; other items apply to every run so far.
    /// A run is one shape layer only with at most one fill and one stroke, the stroke above the
    /// fill, and equal opacities; otherwise each fill and stroke gets a layer, in list order.
    /// Runs without paths are dropped; `unused` are the items no remaining run holds.
    static func renderGroups(_ items: [LottieShapeItem], childGroupsInherit: Bool) -> (valid: [RenderGroup], unused: [Int]) {
        var groups = [RenderGroup()]
        for (index, item) in items.enumerated() {
            let last = groups.count - 1
            if item.drawsPath {
                if groups[last].others.contains(where: { items[$0].isTrim }) { groups.append(RenderGroup()) }
                groups[groups.count - 1].paths.append(index)
            } else if item.isFill {
                groups[last].others.append(index)
                if groups[last].paths.isEmpty, !childGroupsInherit, last > 0 { groups[last].paths = groups[last - 1].paths }
                groups.append(RenderGroup())
            } else {
                for g in groups.indices { groups[g].others.append(index) }
            }
        }
        let valid = groups.flatMap { group -> [RenderGroup] in
            let paints = group.others.filter { items[$0].isFill || items[$0].isStroke }
            let rest = group.others.filter { !(items[$0].isFill || items[$0].isStroke) }
            let fills = paints.filter { items[$0].isFill }.count, strokes = paints.filter { items[$0].isStroke }.count
            let strokeOnTop: Bool = if let s = paints.firstIndex(where: { items[$0].isStroke }),
                                       let f = paints.firstIndex(where: { items[$0].isFill }) { s < f } else { false }
            let opacities = paints.map { items[$0].paintOpacity }
            let identical = opacities.allSatisfy { a in
                switch (a, opacities[0]) {
                case (nil, nil): true
                case (let a?, let b?): same(a, b)
                default: false
                }
            }
            if fills <= 1, strokes <= 1, strokeOnTop, identical { return [group] }
            return paints.map { RenderGroup(paths: group.paths, others: [$0] + rest) }
        }.filter { !$0.paths.isEmpty }
        let used = Set(valid.flatMap { $0.paths + $0.others })
        return (valid, items.indices.filter { !used.contains($0) })
    }

    private static func same(_ a: KeyframeGroup<[Double]>, _ b: KeyframeGroup<[Double]>) -> Bool {
        a.hasSameTiming(as: b) && zip(a.keyframes, b.keyframes).allSatisfy { $0.value == $1.value }
    }

    enum PathSource {
        case single(LottieShapeItem)
        case combined([KeyframeGroup<BezierShape>])
    }

    // MARK: - Shape item layers

    private func itemLayer(_ source: PathSource, others: [LottieShapeItem], bounds: CGRect) -> CALayer {
        let layer = tree.filling(CALayer(), bounds)
        let rounded = others.lazy.compactMap { item -> KeyframeGroup<[Double]>? in
            if case .roundedCorners(let r) = item.kind { return r }
            return nil
        }.first
        let trim = others.first { item in
            guard case .trim(let s, let e, _) = item.kind else { return false }
            return !(s.allValues { ($0.first ?? 0) == 0 } && e.allValues { ($0.first ?? 100) == 100 })
        }
        let gradientFill = others.lazy.compactMap { item -> (LottieGradient, Bool)? in
            if case .gradientFill(let g, let evenOdd) = item.kind { return (g, evenOdd) }
            return nil
        }.first
        let gradientStroke = others.lazy.compactMap { item -> (LottieGradient, LottieStrokeStyle)? in
            if case .gradientStroke(let g, let s) = item.kind { return (g, s) }
            return nil
        }.first
        let fill = others.lazy.compactMap { item -> (KeyframeGroup<[Double]>, KeyframeGroup<[Double]>, Bool)? in
            if case .fill(let c, let o, let evenOdd) = item.kind { return (c, o, evenOdd) }
            return nil
        }.first
        let stroke = others.lazy.compactMap { item -> (KeyframeGroup<[Double]>, LottieStrokeStyle)? in
            if case .stroke(let c, let s) = item.kind { return (c, s) }
            return nil
        }.first

        if let (gradient, evenOdd) = gradientFill {
            let container = tree.filling(CALayer(), bounds)
            let pathContainer = tree.filling(CALayer(), bounds)
            let pathMask = tree.filling(CAShapeLayer(), bounds) as! CAShapeLayer
            pathMask.fillColor = .black
            pathMask.fillRule = evenOdd ? .evenOdd : .nonZero
            pathContainer.mask = pathMask
            pathContainer.addSublayer(GradientBuilder.layers(gradient, bounds: bounds, animations: animations, time: time))
            container.addSublayer(pathContainer)
            let overlay = tree.filling(CAShapeLayer(), bounds) as! CAShapeLayer
            overlay.fillColor = nil
            container.addSublayer(overlay)
            layer.addSublayer(container)
            addPath(source, to: pathMask, multiplier: 1, rounded: rounded)
            addPath(source, to: overlay, multiplier: 1, rounded: rounded)
            if let (color, style) = stroke { addStroke(style, color: color, to: overlay) } else { overlay.strokeColor = nil }
        } else {
            let shape = tree.filling(CAShapeLayer(), bounds) as! CAShapeLayer
            layer.addSublayer(shape)
            var multiplier = 1
            if let trim, case .trim(let s, let e, let o) = trim.kind {
                multiplier = addTrim(start: s, end: e, offset: o, to: shape)
                if fill != nil { tree.warn("trim paths on filled shapes (only the stroke is trimmed, as lottie-ios does)") }
            }
            addPath(source, to: shape, multiplier: multiplier, rounded: rounded)
            if let (color, opacity, evenOdd) = fill {
                shape.fillRule = evenOdd ? .evenOdd : .nonZero
                animations.animate(shape, "fillColor", color, time) { LayerTreeBuilder.color($0) }
                animations.animate(shape, "opacity", opacity, time) { ($0.first ?? 100) / 100 }
            } else {
                shape.fillColor = nil
            }
            if let (color, style) = stroke { addStroke(style, color: color, to: shape) } else { shape.strokeColor = nil }
        }

        if let (gradient, style) = gradientStroke {
            let container = tree.filling(CALayer(), bounds)
            let pathMask = tree.filling(CAShapeLayer(), bounds) as! CAShapeLayer
            pathMask.fillColor = nil
            pathMask.strokeColor = .black
            container.mask = pathMask
            container.addSublayer(GradientBuilder.layers(gradient, bounds: bounds, animations: animations, time: time))
            layer.addSublayer(container)
            var multiplier = 1
            if let trim, case .trim(let s, let e, let o) = trim.kind { multiplier = addTrim(start: s, end: e, offset: o, to: pathMask) }
            addPath(source, to: pathMask, multiplier: multiplier, rounded: rounded)
            addStroke(style, color: nil, to: pathMask)
        }
        return layer
    }

    private func addStroke(_ style: LottieStrokeStyle, color: KeyframeGroup<[Double]>?, to shape: CAShapeLayer) {
        shape.lineJoin = switch style.lineJoin { case .miter: .miter; case .round: .round; case .bevel: .bevel }
        shape.lineCap = switch style.lineCap { case .butt: .butt; case .round: .round; case .square: .square }
        shape.miterLimit = style.miterLimit
        if let color { animations.animate(shape, "strokeColor", color, time) { LayerTreeBuilder.color($0) } }
        animations.animate(shape, "lineWidth", style.width, time) { $0.first ?? 0 }
        animations.animate(shape, "opacity", style.opacity, time) { ($0.first ?? 100) / 100 }
        guard !style.dashes.isEmpty || style.dashOffset != nil else { return }
        // Zero-length dashes become 0.01 so round caps draw dots (as lottie-ios works around CA).
        let pattern = style.dashes.map { d -> Double in let v = d.first.first ?? 0; return v == 0 ? 0.01 : v }
        if !pattern.isEmpty, !pattern.allSatisfy({ $0 == 0.01 }) {
            shape.lineDashPattern = pattern.map { NSNumber(value: $0) }
        }
        if let offset = style.dashOffset { animations.animate(shape, "lineDashPhase", offset, time) { $0.first ?? 0 } }
    }

    // MARK: - Paths

    private func addPath(_ source: PathSource, to shape: CAShapeLayer, multiplier: Int, rounded: KeyframeGroup<[Double]>?) {
        func finish(_ b: BezierShape) -> CGPath { Self.duplicated(b, multiplier) }
        let roundedActive = rounded.map { r in r.keyframes.contains { ($0.value.first ?? 0) > 0 } } ?? false
        switch source {
        case .combined(let shapes):
            let combined = KeyframeCombining.combined(shapes)
            animations.animate(shape, "path", combined, time) { list -> CGPath in
                let path = CGMutablePath()
                for _ in 0..<max(1, multiplier) { for s in list { s.append(to: path) } }
                return path
            }
        case .single(let item):
            switch item.kind {
            case .path(let group):
                let g = item.reversed ? group.map(\.reversedDirection) : group
                if roundedActive, let rounded {
                    let combined = KeyframeCombining.combined([g.map { PathOrRadius.path($0) }, rounded.map { PathOrRadius.radius($0.first ?? 0) }])
                    animations.animate(shape, "path", combined, time) { v in
                        guard case .path(let p) = v[0], case .radius(let r) = v[1] else { return CGMutablePath() as CGPath }
                        return finish(p.roundingCorners(radius: r))
                    }
                } else {
                    animations.animate(shape, "path", g, time) { finish($0) }
                }
            case .rectangle(let position, let size, let roundness):
                let radius = roundedActive ? rounded! : roundness
                let combined = KeyframeCombining.combined([size, position, radius])
                animations.animate(shape, "path", combined, time) { v in
                    finish(.rectangle(center: Self.point(v[1]), size: Self.size(v[0]), radius: v[2].first ?? 0, reversed: item.reversed))
                }
            case .ellipse(let position, let size):
                let combined = KeyframeCombining.combined([size, position])
                animations.animate(shape, "path", combined, time) { v in
                    finish(.ellipse(center: Self.point(v[1]), size: Self.size(v[0]), reversed: item.reversed))
                }
            case .star(let s):
                if roundedActive { tree.warn("rounded corners on stars and polygons (not supported by lottie-ios's Core Animation engine)") }
                let combined = KeyframeCombining.combined([s.position, s.outerRadius, s.innerRadius, s.outerRoundness,
                                                           s.innerRoundness, s.points, s.rotation])
                animations.animate(shape, "path", combined, time) { v in
                    let values = BezierShape.StarValues(center: Self.point(v[0]), outerRadius: v[1].first ?? 0, innerRadius: v[2].first ?? 0,
                                                        outerRoundness: v[3].first ?? 0, innerRoundness: v[4].first ?? 0,
                                                        points: v[5].first ?? 0, rotation: v[6].first ?? 0)
                    return finish(.star(values, polygon: s.type == 2, reversed: item.reversed))
                }
            default:
                break
            }
        }
    }

    static func duplicated(_ b: BezierShape, _ times: Int) -> CGPath {
        let path = CGMutablePath()
        for _ in 0..<max(1, times) { b.append(to: path) }
        return path
    }

    static func point(_ v: [Double]) -> CGPoint { CGPoint(x: v.first ?? 0, y: v.count > 1 ? v[1] : 0) }
    static func size(_ v: [Double]) -> CGSize { CGSize(width: v.first ?? 0, height: v.count > 1 ? v[1] : 0) }

    // MARK: - Trim

    /// `strokeStart`/`strokeEnd` from a trim; returns how many times the path must be repeated
    /// for offsets that carry the trim past its end (lottie-ios's path multiplier).
    private func addTrim(start: KeyframeGroup<[Double]>, end: KeyframeGroup<[Double]>, offset: KeyframeGroup<[Double]>,
                         to shape: CAShapeLayer) -> Int {
        var s = start.scalar, e = end.scalar
        let times = Set(s.keyframes.map(\.time) + e.keyframes.map(\.time))
        let lessOrEqual = times.allSatisfy { s.value(at: $0) <= e.value(at: $0) }
        let greaterOrEqual = times.allSatisfy { s.value(at: $0) >= e.value(at: $0) }
        if !lessOrEqual {
            if greaterOrEqual {
                swap(&s, &e)
            } else {
                let pair = KeyframeCombining.combined([s, e]).map { v in [min(v[0], v[1]), max(v[0], v[1])] }
                s = pair.map { $0[0] }; e = pair.map { $0[1] }
            }
        }
        var multiplier = 1
        let o = offset.scalar
        if o.keyframes.contains(where: { $0.value != 0 }) {
            let shifted = KeyframeCombining.combined([s, e, o]).map { v in [v[0] + v[2] / 360 * 100, v[1] + v[2] / 360 * 100] }
            var ns = shifted.map { $0[0] }, ne = shifted.map { $0[1] }
            let minimum = (ns.keyframes.map(\.value).min() ?? 0) / 100
            let maximum = (ne.keyframes.map(\.value).max() ?? 100) / 100
            let low = minimum.rounded(.down), high = maximum.rounded(.up)
            if low < 0 {
                ns = ns.map { $0 + abs(low) * 100 }
                ne = ne.map { $0 + abs(low) * 100 }
            }
            multiplier = max(1, Int(min(100, abs(high) + abs(low))))   // clamped before converting: Int(1e300) traps
            s = ns; e = ne
        }
        let m = Double(multiplier)
        animations.animate(shape, "strokeStart", s, time) { $0 / m / 100 }
        animations.animate(shape, "strokeEnd", e, time) { $0 / m / 100 }
        return multiplier
    }
}

/// A path or a corner radius, combined into one keyframe list.
enum PathOrRadius: LottieInterpolatable {
    case path(BezierShape)
    case radius(Double)

    func interpolated(to other: PathOrRadius, fraction t: Double) -> PathOrRadius {
        switch (self, other) {
        case (.path(let a), .path(let b)): .path(a.interpolated(to: b, fraction: t))
        case (.radius(let a), .radius(let b)): .radius(a + (b - a) * t)
        default: self
        }
    }
}
