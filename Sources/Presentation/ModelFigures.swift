import Foundation
import Geometry
import Animation
import Layers

/// What a model tree costs once presented, worked out from the model alone, without expanding
/// anything: the budget figures that do not depend on time (`SceneLimits.Budget`).
///
/// Every figure is an upper bound over all times. A replicator's copies multiply its subtree by
/// the largest `instanceCount` it can have (its model value or any animated one, capped at
/// `SceneLimits.maximumPresentedInstances`), nested replicators multiply; an emitter adds at
/// most `rate × longest lifetime + 1` particles per cell (capped at
/// `SceneLimits.maximumLiveParticles`), times its copies; a layer running a transition presents
/// its subtree twice (the old state too).
public struct ModelFigures: Sendable, Equatable {
    /// Layers presented at once, at most.
    public var presentedLayers = 0
    /// Keyframe values of every animation (each counted once, however many copies show it).
    public var keyframeValues = 0
    /// Elements of every path: shape paths, shadow paths, keyframe paths, animated path values.
    public var pathElements = 0
    /// Pixels of every distinct image the tree shows (contents, emitter cells, animated contents).
    public var imagePixels = 0
    /// The layer that presents the most (its copies or particles), for error messages.
    public var largest: Contributor?
    /// The layer holding the most keyframe values or path elements.
    public var largestKeyframes: Contributor?
    public var largestPath: Contributor?

    /// One layer's share of a figure, and how it comes about.
    public struct Contributor: Sendable, Equatable {
        /// Where the layer is: `root.sublayers[2].mask`, as a scene file's JSON path names it, with
        /// the layer's name if it has one.
        public var layer: String
        public var count: Int
        /// How the count comes about (`1,000 × 1,000 replicator copies`, `100,000 particles`).
        public var reason: String

        public init(layer: String, count: Int, reason: String) {
            self.layer = layer; self.count = count; self.reason = reason
        }
    }

    /// The figures of the tree under `root`.
    public static func measure(_ root: CALayer) -> ModelFigures {
        var figures = ModelFigures()
        var images = Set<ObjectIdentifier>()
        // (layer, JSON path, copies of it presented, the replicator counts that multiply it)
        var stack: [(CALayer, String, Int, [Int])] = [(root, "root", 1, [])]
        while let (layer, path, copies, chain) = stack.popLast() {
            let p = layer.properties
            var own = copies
            var ownReason = chain.isEmpty ? "" : chain.map(grouped).joined(separator: " × ") + " replicator copies"
            var childCopies = copies
            var childChain = chain
            var keyframes = 0, pathElements = 0
            var transitions = false
            for (_, animation) in layer.attachedAnimations {
                visit(animation) { a in
                    if a is CATransition { transitions = true }
                    if let k = a as? CAKeyframeAnimation {
                        keyframes += k.values?.count ?? 0
                        pathElements += k.path?.elements.count ?? 0
                        for value in k.values ?? [] { count(value, &pathElements, &figures.imagePixels, &images) }
                    }
                    if let b = a as? CABasicAnimation {
                        for value in [b.fromValue, b.toValue, b.byValue] { count(value, &pathElements, &figures.imagePixels, &images) }
                    }
                }
            }
            if transitions { childCopies = multiply(childCopies, 2) }
            if case .shape(let shape) = p.content { pathElements += shape.path?.elements.count ?? 0 }
            pathElements += p.shadowPath?.elements.count ?? 0
            for image in [p.contents.image, p.contents.fadingTo].compactMap({ $0 }) { count(image, &figures.imagePixels, &images) }
            switch p.content {
            case .replicator(let r):
                let instances = largest(r.instanceCount, animatedIn: layer, keyPath: "instanceCount",
                                        cap: SceneLimits.maximumPresentedInstances)
                childCopies = multiply(childCopies, instances)
                childChain.append(instances)
            case .emitter(let e):
                for cell in e.emitterCells ?? [] {
                    if let image = cell.contents { count(image, &figures.imagePixels, &images) }
                }
                let particles = particleBound(e, layer: layer)
                let presented = multiply(copies, particles)
                own = ModelFigures.add(own, presented)
                ownReason = "up to \(grouped(particles)) particles" + (copies > 1 ? " × \(grouped(copies)) copies" : "")
                if figures.largest.map({ presented > $0.count }) ?? (presented > 0) {
                    figures.largest = Contributor(layer: label(layer, path), count: presented, reason: ownReason)
                }
            default:
                break
            }
            figures.presentedLayers = ModelFigures.add(figures.presentedLayers, own)
            if !chain.isEmpty, figures.largest.map({ copies > $0.count }) ?? true {
                figures.largest = Contributor(layer: label(layer, path), count: copies, reason: ownReason)
            }
            figures.keyframeValues = ModelFigures.add(figures.keyframeValues, keyframes)
            figures.pathElements = ModelFigures.add(figures.pathElements, pathElements)
            if keyframes > 0, figures.largestKeyframes.map({ keyframes > $0.count }) ?? true {
                figures.largestKeyframes = Contributor(layer: label(layer, path), count: keyframes, reason: "keyframe values")
            }
            if pathElements > 0, figures.largestPath.map({ pathElements > $0.count }) ?? true {
                figures.largestPath = Contributor(layer: label(layer, path), count: pathElements, reason: "path elements")
            }
            if let sublayers = layer.sublayers {
                for (i, sublayer) in sublayers.enumerated().reversed() {
                    stack.append((sublayer, "\(path).sublayers[\(i)]", childCopies, childChain))
                }
            }
            if let mask = layer.mask { stack.append((mask, path + ".mask", copies, chain)) }
        }
        return figures
    }

    /// Every animation of `animation`'s tree (a group's children too).
    private static func visit(_ animation: CAAnimation, _ body: (CAAnimation) -> Void) {
        body(animation)
        if let group = animation as? CAAnimationGroup {
            for child in group.animations ?? [] { visit(child, body) }
        }
    }

    /// The largest value `keyPath` can take on `layer`: the model's and every animated one; `cap`
    /// when an animation can grow it without bound (by-values, additive, cumulative repeats).
    static func largest(_ model: some BinaryInteger, animatedIn layer: CALayer, keyPath: String, cap: Int) -> Int {
        largest(Double(model), animatedIn: layer, keyPath: keyPath).map { Int(min(max($0, 0), Double(cap)).rounded(.up)) } ?? cap
    }

    /// The largest value of a numeric `keyPath` (nil: unbounded).
    static func largest(_ model: Double, animatedIn layer: CALayer, keyPath: String) -> Double? {
        var best = model
        var bounded = true
        for (_, animation) in layer.attachedAnimations {
            visit(animation) { a in
                guard let property = a as? CAPropertyAnimation, property.keyPath == keyPath else { return }
                if property.isAdditive || property.isCumulative { bounded = false }
                var values: [Any?] = []
                if let basic = a as? CABasicAnimation {
                    if basic.byValue != nil { bounded = false }
                    values = [basic.fromValue, basic.toValue]
                }
                if let keyframe = a as? CAKeyframeAnimation { values = keyframe.values ?? [] }
                for value in values.compactMap({ $0 }) {
                    guard let n = number(value) else { bounded = false; continue }
                    best = max(best, n)
                }
            }
        }
        return bounded && best.isFinite ? best : nil
    }

    /// Live particles of an emitter, at most: per emitting cell, rate × longest lifetime + 1.
    static func particleBound(_ e: EmitterProperties, layer: CALayer) -> Int {
        let cap = SceneLimits.maximumLiveParticles
        guard let rateScale = largest(Double(e.birthRate), animatedIn: layer, keyPath: "birthRate"),
              let lifeScale = largest(Double(e.lifetime), animatedIn: layer, keyPath: "lifetime") else { return cap }
        var total = 0.0
        for cell in e.emitterCells ?? [] {
            let p = cell
            guard p.isEnabled, p.contents != nil, p.birthRate > 0 else { continue }
            let life = (Double(p.lifetime) + abs(Double(p.lifetimeRange)) / 2) * max(0, lifeScale)
            let rate = Double(p.birthRate) * max(0, rateScale)
            guard life > 0, rate > 0 else { continue }
            total += (rate * life).rounded(.up) + 1
            if !(total < Double(cap)) { return cap }
        }
        return Int(total)
    }

    private static func number(_ value: Any) -> Double? {
        switch value {
        case let v as CGFloat: Double(v)
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    private static func count(_ value: Any?, _ pathElements: inout Int, _ pixels: inout Int, _ seen: inout Set<ObjectIdentifier>) {
        switch value {
        case let path as CGPath: pathElements = add(pathElements, path.elements.count)
        case let image as CGImage: count(image, &pixels, &seen)
        default: break
        }
    }

    private static func count(_ image: CGImage, _ pixels: inout Int, _ seen: inout Set<ObjectIdentifier>) {
        guard seen.insert(ObjectIdentifier(image)).inserted else { return }
        pixels = add(pixels, image.width.multipliedReportingOverflow(by: image.height).overflow ? Int.max : image.width * image.height)
    }

    private static func label(_ layer: CALayer, _ path: String) -> String {
        layer.name.map { "\(path) (\"\($0)\")" } ?? path
    }

    /// Sums and products that stop at `Int.max` instead of trapping (10¹⁰ copies are a figure too).
    static func add(_ a: Int, _ b: Int) -> Int { a.addingReportingOverflow(b).overflow ? Int.max : a + b }
    static func multiply(_ a: Int, _ b: Int) -> Int { a.multipliedReportingOverflow(by: b).overflow ? Int.max : a * b }

    /// `1,000,000`: thousands grouped, as the messages print counts.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0, c != "-" { out.append(",") }
            out.append(c)
        }
        return out
    }
}
