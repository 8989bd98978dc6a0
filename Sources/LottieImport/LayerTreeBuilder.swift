import Foundation
import Geometry
import Animation
import Layers
import SceneFormat

/// Builds the `CALayer` tree lottie-ios's Core Animation engine builds for a document: one layer
/// per Lottie layer, parents as transform-only layers around their children, track mattes as
/// masks of a container, masks as shape-layer masks, precomps as nested trees; every layer fills
/// its superlayer's bounds and animates its transform through `position`, `anchorPoint` and the
/// `transform.scale` / `transform.rotation` key paths.
final class LayerTreeBuilder {
    let document: LottieDocument
    let animations: AnimationBuilder
    let file: String
    private(set) var problems: [SceneProblem] = []
    private(set) var warnings: [String]
    private var builtLayers = 0
    private var precompStack: [String] = []

    /// Negative x scales: lottie-ios draws `abs(scale.x)` and flips the layer with a half turn
    /// about y (Core Animation mis-draws negative `transform.scale.x` animations).
    let flipsNegativeScale: Bool

    init(document: LottieDocument, file: String, warnings: [String], flipsNegativeScale: Bool) {
        self.document = document
        self.file = file
        self.warnings = warnings
        self.flipsNegativeScale = flipsNegativeScale
        animations = AnimationBuilder(frameRate: document.frameRate, startFrame: document.inFrame, endFrame: document.outFrame + 1)
    }

    func warn(_ feature: String) {
        if !warnings.contains(feature) { warnings.append(feature) }
    }

    func fail(_ path: String, _ reason: String) {
        if problems.count < LottieDecoder.problemLimit { problems.append(SceneProblem(file: file, location: nil, path: path, reason: reason)) }
    }

    /// The root: the composition's bounds, clipped to them.
    func buildRoot() -> CALayer {
        let root = CALayer()
        root.name = document.name ?? "Lottie"
        root.bounds = CGRect(x: 0, y: 0, width: document.width, height: document.height)
        root.position = CGPoint(x: document.width / 2, y: document.height / 2)
        root.masksToBounds = true
        setUpHierarchy(document.layers, in: root, time: TimeContext())
        return root
    }

    // MARK: - Hierarchy

    /// Adds the layers of one composition to `container`, back to front.
    func setUpHierarchy(_ layers: [LottieLayerModel], in container: CALayer, time: TimeContext) {
        let byIndex = Dictionary(layers.compactMap { l in l.index.map { ($0, l) } }, uniquingKeysWith: { first, _ in first })
        // Lottie lists layers front to back; a matted layer takes the layer just in front of it
        // (or the one its `tp` names) as its matte.
        var pairs: [(layer: LottieLayerModel, matte: LottieLayerModel?)] = []
        var remaining = Array(layers)
        var usedAsMatte = Set<Int>()
        while let layer = remaining.popLast() {
            if layer.matte != .none {
                if let tp = layer.matteParent, let matte = byIndex[tp] {
                    pairs.append((layer, matte))
                    if let i = matte.index { usedAsMatte.insert(i) }
                } else if let matte = remaining.popLast() {
                    pairs.append((layer, matte))
                } else {
                    pairs.append((layer, nil))
                }
            } else {
                pairs.append((layer, nil))
            }
        }
        for (model, matte) in pairs {
            if model.matteParent == nil, let i = model.index, usedAsMatte.contains(i), model.isMatteSource { continue }
            guard let layer = makeLayer(model, bounds: container.bounds, time: time) else { continue }
            let wrapped = wrapInParents(model, layer, byIndex: byIndex, bounds: container.bounds, time: time)
            if let matte, let maskLayer = matteLayer(matte, mode: model.matte, bounds: container.bounds, time: time) {
                let maskWrapped = wrapInParents(matte, maskLayer, byIndex: byIndex, bounds: container.bounds, time: time)
                let maskContainer = filling(CALayer(), container.bounds)
                maskContainer.name = "\(model.name) (parent, masked)"
                maskContainer.addSublayer(wrapped)
                // A mask that has its own mask is ignored by Core Animation: wrap it once more.
                let maskParent = filling(CALayer(), container.bounds)
                maskParent.addSublayer(maskWrapped)
                maskContainer.mask = maskParent
                container.addSublayer(maskContainer)
            } else {
                container.addSublayer(wrapped)
            }
        }
    }

    /// Wraps `layer` in a transform-only layer per ancestor in the `parent` chain.
    private func wrapInParents(_ model: LottieLayerModel, _ layer: CALayer, byIndex: [Int: LottieLayerModel],
                               bounds: CGRect, time: TimeContext) -> CALayer {
        var current = layer
        var child = model
        var depth = 0
        while let parentIndex = child.parent, let parent = byIndex[parentIndex], depth < byIndex.count {
            let transformLayer = filling(CALayer(), bounds)
            transformLayer.name = "\(model.name) (parent, \(parent.name))"
            addTransform(parent.transform, to: transformLayer, size: bounds.size, time: time)
            transformLayer.addSublayer(current)
            current = transformLayer
            child = parent
            depth += 1
        }
        return current
    }

    private func matteLayer(_ matte: LottieLayerModel, mode: LottieMatteMode, bounds: CGRect, time: TimeContext) -> CALayer? {
        switch mode {
        case .alpha, .luma:
            return makeLayer(matte, bounds: bounds, time: time)
        case .alphaInverted, .lumaInverted:
            // lottie-ios inverts the matte with an `xor` compositing filter over an endless black
            // layer; Lamina's compositing filters are blend modes, so the matte is left out.
            warn("inverted track mattes (lottie-ios draws them with an xor compositing filter; drawn unmatted)")
            return nil
        case .none:
            return nil
        }
    }

    // MARK: - Layers

    func filling(_ layer: CALayer, _ bounds: CGRect) -> CALayer {
        layer.anchorPoint = .zero
        layer.bounds = bounds
        layer.position = .zero
        return layer
    }

    /// The layer for one Lottie layer, or nil for types that draw nothing the engine knows.
    func makeLayer(_ model: LottieLayerModel, bounds: CGRect, time: TimeContext) -> CALayer? {
        builtLayers += 1
        guard builtLayers <= SceneLimits.Lottie.maximumBuiltLayers else {
            if builtLayers == SceneLimits.Lottie.maximumBuiltLayers + 1 {
                fail(model.path, "more than \(SceneLimits.Lottie.maximumBuiltLayers) layers once precomps are expanded")
            }
            return nil
        }
        guard let kind = model.kind else { return nil }
        if model.hidden || kind == .null {
            let layer = filling(CALayer(), bounds)
            layer.name = model.name
            addTransform(model.transform, to: layer, size: bounds.size, time: time)
            return layer
        }
        let layer = filling(CALayer(), bounds)
        layer.name = model.name
        var size = bounds.size
        switch kind {
        case .precomp:
            let w = model.width ?? document.width, h = model.height ?? document.height
            layer.bounds = CGRect(x: bounds.minX, y: bounds.minY, width: w, height: h)
            layer.masksToBounds = true
            size = layer.bounds.size
            guard let id = model.refId else { return nil }
            guard let assetLayers = document.precomps[id] else {
                fail("\(model.path).refId", "no precomp asset with id \"\(id)\"")
                return nil
            }
            guard !precompStack.contains(id) else {
                fail("\(model.path).refId", "precomp \"\(id)\" contains itself")
                return nil
            }
            guard precompStack.count < SceneLimits.Lottie.maximumNesting else {
                fail("\(model.path).refId", "precomps nested deeper than \(SceneLimits.Lottie.maximumNesting)")
                return nil
            }
            precompStack.append(id)
            let inner = time.entering(startTime: model.startTime, timeStretch: model.timeStretch,
                                      timeRemap: model.timeRemap, frameRate: document.frameRate)
            setUpHierarchy(assetLayers, in: layer, time: inner)
            precompStack.removeLast()
        case .solid:
            let shape = filling(CAShapeLayer(), bounds) as! CAShapeLayer
            shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: model.width ?? 0, height: model.height ?? 0))
            let c = model.solidColor ?? [0, 0, 0, 1]
            shape.fillColor = CGColor(red: c[0], green: c[1], blue: c[2], alpha: c.count > 3 ? c[3] : 1)
            layer.addSublayer(shape)
        case .image:
            guard let id = model.refId else { return nil }
            guard let asset = document.images[id] else {
                fail("\(model.path).refId", "no image asset with id \"\(id)\"")
                return nil
            }
            layer.bounds = CGRect(x: bounds.minX, y: bounds.minY, width: asset.width, height: asset.height)
            size = layer.bounds.size
            layer.contents = asset.image
        case .shape:
            // Counted before building: a repeater's copies multiply every item after it.
            builtLayers += ShapeBuilder.layerBound(model.shapes)
            guard builtLayers <= SceneLimits.Lottie.maximumBuiltLayers else {
                fail("\(model.path).shapes", "more than \(SceneLimits.Lottie.maximumBuiltLayers) layers once precomps and repeaters are expanded")
                builtLayers = SceneLimits.Lottie.maximumBuiltLayers + 2   // one problem, and no more building
                return nil
            }
            ShapeBuilder(tree: self, time: time).build(model.shapes, in: layer, bounds: bounds)
        case .text:
            if let text = model.text { TextBuilder.build(text, in: layer, bounds: bounds) }
        case .null:
            break
        }
        addTransform(model.transform, to: layer, size: size, time: time)
        animations.animate(layer, "opacity", model.transform.opacity, time) { ($0.first ?? 100) / 100 }
        addVisibility(model, to: layer, time: time)
        // As lottie-ios's BaseCompositionLayer: the layer's blend mode is its compositing filter.
        if let filter = LottieBlendModes.filterName(model.blendMode) { layer.compositingFilter = filter }
        if let shadow = model.dropShadow { addDropShadow(shadow, to: layer, time: time) }
        let masks = model.masks.filter { $0.mode != .none }
        if !masks.isEmpty { layer.mask = MaskBuilder.build(masks, bounds: layer.bounds, animations: animations, time: time) }
        return layer
    }

    // MARK: - Transforms

    /// Position, anchor point, scale and rotation, as separate animations (a skewed shape
    /// transform animates the whole `transform` instead).
    func addTransform(_ t: LottieTransform, to layer: CALayer, size: CGSize, time: TimeContext) {
        if t.hasSkew {
            addCombinedTransform(t, to: layer, time: time)
            return
        }
        if let position = t.position {
            animations.animatePosition(layer, position, time)
        } else if let x = t.positionX, let y = t.positionY {
            animations.animate(layer, "position.x", x, time) { $0.first ?? 0 }
            animations.animate(layer, "position.y", y, time) { $0.first ?? 0 }
        }
        let w = size.width, h = size.height
        animations.animate(layer, "anchorPoint", t.anchor, time) { a in
            guard w > 0, h > 0 else { return CGPoint.zero }
            return CGPoint(x: (a.first ?? 0) / w, y: (a.count > 1 ? a[1] : 0) / h)
        }
        let flips = flipsNegativeScale && t.scale.keyframes.contains { ($0.value.first ?? 100) < 0 }
        animations.animate(layer, "transform.scale.x", t.scale, time) { s in
            let x = (s.first ?? 100) / 100
            return flips || !self.flipsNegativeScale ? abs(x) : x
        }
        if flips {
            animations.animate(layer, "transform.rotation.y", t.scale, time) { s in (s.first ?? 100) < 0 ? Double.pi : 0 }
        }
        animations.animate(layer, "transform.scale.y", t.scale, time) { s in (s.count > 1 ? s[1] : 100) / 100 }
        let hasX = t.rotationX.keyframes.contains { ($0.value.first ?? 0) != 0 }
        let hasY = t.rotationY.keyframes.contains { ($0.value.first ?? 0) != 0 }
        if hasX { animations.animate(layer, "transform.rotation.x", t.rotationX, time) { ($0.first ?? 0) * .pi / 180 } }
        if hasY { animations.animate(layer, "transform.rotation.y", t.rotationY, time) { ($0.first ?? 0) * .pi / 180 } }
        if t.rotationZ.isAnimated || (t.rotationZ.first.first ?? 0) != 0 {
            animations.animate(layer, "transform.rotation.z", t.rotationZ, time) { ($0.first ?? 0) * .pi / 180 }
        }
    }

    private func addCombinedTransform(_ t: LottieTransform, to layer: CALayer, time: TimeContext) {
        let position = t.position ?? KeyframeCombining.combined(t.positionX ?? .constant([0]), t.positionY ?? .constant([0])) { x, y in
            [x.first ?? 0, y.first ?? 0]
        }
        // Matrices do not interpolate a changing skew (a turning axis can give the same matrix
        // at both ends): lottie-ios computes one per frame then.
        let skewAnimates = t.skew.isAnimated || t.skewAxis.isAnimated
        let combined = KeyframeCombining.combined([t.anchor, position, t.scale, t.rotationX, t.rotationY, t.rotationZ, t.skew, t.skewAxis],
                                                  sampled: skewAnimates)
        animations.animate(layer, "transform", combined, time) { v in
            Self.matrix(anchor: v[0], position: v[1], scale: v[2], rotationX: v[3].first ?? 0, rotationY: v[4].first ?? 0,
                        rotationZ: v[5].first ?? 0, skew: v[6].first ?? 0, skewAxis: v[7].first ?? 0)
        }
    }

    /// `translate(−anchor) · scale · skew · rotate · translate(position)`, in Core Animation's
    /// row-vector order (After Effects' transform order).
    static func matrix(anchor: [Double], position: [Double], scale: [Double], rotationX: Double, rotationY: Double,
                       rotationZ: Double, skew: Double, skewAxis: Double) -> CATransform3D {
        func v(_ a: [Double], _ i: Int, _ d: Double) -> Double { i < a.count ? a[i] : d }
        var m = CATransform3DMakeTranslation(-v(anchor, 0, 0), -v(anchor, 1, 0), 0)
        m = CATransform3DConcat(m, CATransform3DMakeScale(v(scale, 0, 100) / 100, v(scale, 1, 100) / 100, 1))
        if skew != 0 {
            let axis = skewAxis * .pi / 180, c = cos(axis), s = sin(axis), k = tan(-skew * .pi / 180)
            // rotate(axis) · shear · rotate(−axis), each as 2×2 row-vector matrices.
            let a = [[c, s], [-s, c]], b = [[1, 0], [k, 1]], d = [[c, -s], [s, c]]
            func mul(_ x: [[Double]], _ y: [[Double]]) -> [[Double]] {
                [[x[0][0] * y[0][0] + x[0][1] * y[1][0], x[0][0] * y[0][1] + x[0][1] * y[1][1]],
                 [x[1][0] * y[0][0] + x[1][1] * y[1][0], x[1][0] * y[0][1] + x[1][1] * y[1][1]]]
            }
            let r = mul(mul(a, b), d)
            var skewMatrix = CATransform3DIdentity
            skewMatrix.m11 = r[0][0]; skewMatrix.m12 = r[0][1]; skewMatrix.m21 = r[1][0]; skewMatrix.m22 = r[1][1]
            m = CATransform3DConcat(m, skewMatrix)
        }
        if rotationX != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(rotationX * .pi / 180, 1, 0, 0)) }
        if rotationY != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(rotationY * .pi / 180, 0, 1, 0)) }
        if rotationZ != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(rotationZ * .pi / 180, 0, 0, 1)) }
        return CATransform3DConcat(m, CATransform3DMakeTranslation(v(position, 0, 0), v(position, 1, 0), 0))
    }

    // MARK: - Visibility, shadows

    /// Hidden before the in point and from the out point on; content that lasts to the end of the
    /// composition stays visible after it (lottie-ios plays a paused animation to `op + 1`).
    private func addVisibility(_ model: LottieLayerModel, to layer: CALayer, time: TimeContext) {
        if time.remap != nil {
            let samples = animations.sampled(time) { local in !(local >= model.inFrame && local < model.outFrame) }
            let animation = CAKeyframeAnimation(keyPath: "hidden")
            animation.calculationMode = .discrete
            animation.values = samples.map(\.value)
            let first = samples.first?.frame ?? 0, span = max(1, (samples.last?.frame ?? 0) - first)
            animation.keyTimes = samples.map { NSNumber(value: ($0.frame - first) / span) }
            finish(animation, layer, begin: first, span: span)
            return
        }
        var inFrame = time.rootFrame(model.inFrame), outFrame = time.rootFrame(model.outFrame)
        if inFrame > outFrame { swap(&inFrame, &outFrame) }
        let lastsToEnd = outFrame >= document.outFrame
        if inFrame <= animations.startFrame, lastsToEnd { return }
        let begin = min(inFrame, animations.startFrame) - 1
        let end = max(outFrame, animations.endFrame) + 1
        let span = end - begin
        let animation = CAKeyframeAnimation(keyPath: "hidden")
        animation.calculationMode = .discrete
        if lastsToEnd {
            animation.values = [true, false]
            animation.keyTimes = [0, NSNumber(value: (inFrame - begin) / span), 1]
        } else {
            animation.values = [true, false, true]
            animation.keyTimes = [0, NSNumber(value: (inFrame - begin) / span), NSNumber(value: (outFrame - begin) / span), 1]
        }
        finish(animation, layer, begin: begin, span: span)
    }

    private func finish(_ animation: CAKeyframeAnimation, _ layer: CALayer, begin: Double, span: Double) {
        animation.beginTime = begin / document.frameRate
        if animation.beginTime == 0 { animation.beginTime = 1e-300 }
        animation.duration = span / document.frameRate
        animation.fillMode = .both
        animation.isRemovedOnCompletion = false
        animation.timingFunction = AnimationBuilder.linear
        layer.add(animation, forKey: "hidden", atMediaTime: 0)
    }

    private func addDropShadow(_ shadow: LottieDropShadow, to layer: CALayer, time: TimeContext) {
        if let opacity = shadow.opacity { animations.animate(layer, "shadowOpacity", opacity, time) { ($0.first ?? 0) / 100 } }
        if let color = shadow.color { animations.animate(layer, "shadowColor", color, time) { Self.color($0) } }
        if let radius = shadow.radius { animations.animate(layer, "shadowRadius", radius, time) { $0.first ?? 0 } }
        if let angle = shadow.angle, let distance = shadow.distance {
            let offset = KeyframeCombining.combined(angle, distance) { a, d -> [Double] in
                let r = (a.first ?? 0) * .pi / 180, dist = d.first ?? 0
                return [dist * cos(r), dist * sin(r)]
            }
            animations.animate(layer, "shadowOffset", offset, time) { CGSize(width: $0[0], height: $0.count > 1 ? $0[1] : 0) }
        }
    }

    /// A Lottie colour `[r, g, b(, a)]`, components 0…1.
    static func color(_ c: [Double]) -> CGColor {
        func v(_ i: Int, _ d: Double) -> Double { i < c.count ? min(max(c[i], 0), 1) : d }
        return CGColor(red: v(0, 0), green: v(1, 0), blue: v(2, 0), alpha: v(3, 1))
    }
}
