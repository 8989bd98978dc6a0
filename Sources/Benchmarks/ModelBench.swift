// lamina-model-bench: how long the model takes to evaluate a big animated layer tree.
//
// Builds 10,000 layers (a root, 99 group layers, 9,900 leaves; plain, shape, text, gradient,
// replicator and transform layers) carrying 30,000 animations, then times
// `PresentationTree.evaluate(root, at: t)` frame by frame (t steps 1/60 s) after a warm-up.
// The same tree without animations is timed too, so the per-animation cost can be told apart
// from the per-layer cost.
//
// Counting: an "animation" is one property animation that samples a value: a CABasicAnimation,
// CASpringAnimation or CAKeyframeAnimation, whether added to a layer directly or as a child of a
// CAAnimationGroup. A group itself is a timing container and is not counted (the tree also holds
// 3,300 groups; they are listed separately). Every animation repeats forever and begins within
// 0.2 s of t = 0, so after the warm-up (the first second) all 30,000 are active in every frame.
//
// Usage: lamina-model-bench [--quick] [--seconds S] [--frames N] [--only animated|static] [--threads N] [--breakdown]
//   --quick      short run (0.5 s per tree unless --seconds is given, 10 warm-up frames)
//   --seconds S  measure each tree for at least S seconds (default 3)
//   --frames N   measure exactly N frames per tree (overrides --seconds; for profilers)
//   --only X     time only the animated tree or only the static one
//   --threads N  evaluate on at most N threads (default: one per core; 1 for one thread's cost)
//   --breakdown  also time one tree per animation kind (9,900 animations of that kind, one per
//                leaf) and print each kind's cost per animation above the no-animation tree
//
// Build and run: swift build -c release --product lamina-model-bench && .build/release/lamina-model-bench
import Foundation
import Geometry
import Timing
import Animation
import Layers
import Presentation
import Rendering

// MARK: - Options

fileprivate struct Options {
    var seconds = 3.0
    var warmupFrames = 60
    var frames: Int?
    var runAnimated = true
    var runStatic = true
    var breakdown = false
    var threads = ProcessInfo.processInfo.activeProcessorCount

    init(_ arguments: [String]) {
        var i = 0
        func next() -> String {
            i += 1
            guard i < arguments.count else { fail("missing value after \(arguments[i - 1])") }
            return arguments[i]
        }
        var quick = false, explicitSeconds = false
        defer { if quick { warmupFrames = 10; if !explicitSeconds { seconds = 0.5 } } }
        while i < arguments.count {
            switch arguments[i] {
            case "--quick": quick = true
            case "--seconds":
                guard let value = Double(next()), value > 0 else { fail("--seconds takes a positive number") }
                seconds = value; explicitSeconds = true
            case "--frames":
                guard let value = Int(next()), value > 0 else { fail("--frames takes a positive integer") }
                frames = value
            case "--only":
                switch next() {
                case "animated": runStatic = false
                case "static": runAnimated = false
                default: fail("--only takes animated or static")
                }
            case "--threads":
                guard let value = Int(next()), value > 0 else { fail("--threads takes a positive integer") }
                threads = value
            case "--breakdown": breakdown = true
            case "-h", "--help":
                print("usage: lamina-model-bench [--quick] [--seconds S] [--frames N] [--only animated|static] [--threads N] [--breakdown]")
                exit(0)
            default: fail("unknown option \(arguments[i])")
            }
            i += 1
        }
    }
}

fileprivate func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("lamina-model-bench: \(message)\n".utf8))
    exit(2)
}

// MARK: - Clock

/// The benchmarks' one clock (`Stopwatch.now()`), in whole nanoseconds.
@inline(__always) fileprivate func nanoseconds() -> UInt64 { UInt64(Stopwatch.now() * 1e9) }

// MARK: - The tree

fileprivate let groupCount = 99
fileprivate let childrenPerGroup = 100
fileprivate let frameStep = 1.0 / 60

fileprivate struct AnimationCensus {
    var leaves = 0          // counted animations (see the header)
    var groups = 0
    var byKind: [String: Int] = [:]

    mutating func count(_ animation: CAAnimation) {
        if let group = animation as? CAAnimationGroup {
            groups += 1
            for child in group.animations ?? [] { count(child) }
            return
        }
        leaves += 1
        let kind: String = switch animation {
        case let k as CAKeyframeAnimation: k.path != nil ? "keyframe (path, paced)" : "keyframe (\(k.calculationMode.rawValue))"
        case is CASpringAnimation: "spring"
        case is CABasicAnimation: "basic"
        default: "other"
        }
        byKind[kind, default: 0] += 1
    }
}

/// Reusable animation makers; every leaf layer gets three counted animations from one recipe.
fileprivate struct Recipes {
    let path: CGPath
    let easeInOut = CAMediaTimingFunction(name: .easeInEaseOut)
    let custom = CAMediaTimingFunction(controlPoints: 0.3, 0.1, 0.2, 1.4)

    init() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addCurve(to: CGPoint(x: 120, y: 40), control1: CGPoint(x: 40, y: -60), control2: CGPoint(x: 80, y: 100))
        path.addLine(to: CGPoint(x: 160, y: 0))
        path.addQuadCurve(to: CGPoint(x: 0, y: 0), control: CGPoint(x: 80, y: -80))
        self.path = path
    }

    /// Common timing: endless repeats, some autoreversing, staggered begin times, varied fill modes.
    func time(_ a: CAAnimation, _ seed: Int, duration: Double) -> CAAnimation {
        a.duration = duration
        a.repeatCount = .infinity
        a.autoreverses = seed % 2 == 0
        // Offsets in the past and the near future (the measured frames start at t = 0), so some
        // animations sit in their backwards fill while others run.
        a.beginTime = Double(seed % 7) * 0.05 - 0.1
        a.fillMode = [.removed, .backwards, .forwards, .both][seed % 4]
        if seed % 3 == 0 { a.timingFunction = seed % 2 == 0 ? easeInOut : custom }
        return a
    }

    func basic(_ keyPath: String, from: Any?, to: Any?, by: Any? = nil, _ seed: Int, duration: Double = 1.5) -> CAAnimation {
        let a = CABasicAnimation(keyPath: keyPath)
        a.fromValue = from; a.toValue = to; a.byValue = by
        return time(a, seed, duration: duration)
    }

    func spring(_ keyPath: String, from: Any?, to: Any?, _ seed: Int) -> CAAnimation {
        let a = CASpringAnimation(keyPath: keyPath)
        a.fromValue = from; a.toValue = to
        a.stiffness = 120 + CGFloat(seed % 5) * 20; a.damping = 9; a.mass = 1
        return time(a, seed, duration: a.settlingDuration)
    }

    func keyframes(_ keyPath: String, _ values: [Any], mode: CAAnimationCalculationMode, _ seed: Int) -> CAAnimation {
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.values = values
        a.calculationMode = mode
        if mode == .linear, values.count == 4 { a.keyTimes = [0, 0.2, 0.7, 1] }
        return time(a, seed, duration: 2)
    }

    func pathAnimation(_ seed: Int) -> CAAnimation {
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = path
        a.calculationMode = .paced
        a.isAdditive = true
        return time(a, seed, duration: 3)
    }

    func group(_ children: [CAAnimation], _ seed: Int) -> CAAnimation {
        let g = CAAnimationGroup()
        g.animations = children
        let grouped = time(g, seed, duration: 2.5)
        grouped.timingFunction = nil
        return grouped
    }

    func color(_ i: Int) -> CGColor {
        CGColor(red: CGFloat(i % 5) / 4, green: CGFloat(i % 7) / 6, blue: CGFloat(i % 3) / 2, alpha: 1)
    }

    /// Three counted animations for leaf `i` (recipes rotate so every kind is well represented).
    func animations(for i: Int) -> [CAAnimation] {
        let s = i / 6
        switch i % 6 {
        case 0:
            return [basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 200, y: 100), s),
                    basic("opacity", from: 1.0, to: 0.2, s + 1),
                    keyframes("bounds.size.width", [10.0, 40.0, 25.0, 60.0], mode: .linear, s + 2)]
        case 1:
            return [basic("transform.rotation.z", from: nil, to: nil, by: Double.pi, s, duration: 2),
                    spring("transform.scale", from: 0.5, to: 1.0, s + 1),
                    basic("backgroundColor", from: color(i), to: color(i + 3), s + 2)]
        case 2:
            return [pathAnimation(s),
                    group([basic("opacity", from: 0.0, to: 1.0, s + 1),
                           basic("backgroundColor", from: nil, to: color(i + 1), s + 2)], s)]
        case 3:
            return [keyframes("position", [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 80), CGPoint(x: 120, y: 20), CGPoint(x: 200, y: 90)],
                              mode: .cubic, s),
                    basic("bounds.size.width", from: nil, to: 80.0, s + 1),
                    spring("position", from: CGPoint(x: 10, y: 10), to: CGPoint(x: 90, y: 40), s + 2)]
        case 4:
            return [group([basic("transform.rotation.z", from: 0.0, to: 1.0, s),
                           basic("transform.scale", from: 1.0, to: 1.5, s + 1),
                           keyframes("opacity", [1.0, 0.3, 0.8], mode: .linear, s + 2)], s)]
        default:
            return [basic("transform.scale", from: 0.8, to: 1.2, s),
                    keyframes("zPosition", [0.0, 5.0, -3.0, 2.0], mode: .cubic, s + 1),
                    basic("backgroundColor", from: color(i), to: nil, s + 2)]
        }
    }
}

fileprivate func makeLeaf(_ i: Int) -> CALayer {
    let layer: CALayer
    switch i % 10 {
    case 0: let s = CAShapeLayer(); s.path = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20), transform: nil); layer = s
    case 1: let t = CATextLayer(); t.string = "label \(i)"; t.fontSize = 12; layer = t
    case 2: let g = CAGradientLayer(); g.colors = [CGColor.black, CGColor.white]; layer = g
    default: layer = CALayer()
    }
    layer.bounds = CGRect(x: 0, y: 0, width: 20 + Double(i % 13), height: 20 + Double(i % 11))
    layer.position = CGPoint(x: Double(i % 100) * 12, y: Double(i / 100) * 12)
    layer.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
    if i % 17 == 0 { layer.zPosition = Double(i % 5) }
    if i % 29 == 0 { layer.cornerRadius = 4 }
    return layer
}

fileprivate func makeGroup(_ g: Int) -> CALayer {
    let layer: CALayer
    switch g % 5 {
    case 0: layer = CATransformLayer()
    case 1: let r = CAReplicatorLayer(); r.instanceCount = 2; layer = r
    default: layer = CALayer()
    }
    layer.bounds = CGRect(x: 0, y: 0, width: 1200, height: 1200)
    layer.position = CGPoint(x: 600, y: 600)
    if g % 3 == 0 { layer.sublayerTransform = CATransform3DMakeScale(0.99, 0.99, 1) }
    if g % 4 == 0 { layer.isGeometryFlipped = true }
    return layer
}

/// Builds the tree. `leafAnimations` gives each leaf's animations; with `decorateGroups`, the root
/// and the 99 group layers get three animations each as well.
fileprivate func makeTree(leafAnimations: ((Int, Recipes) -> [CAAnimation])?, decorateGroups: Bool) -> (root: CALayer, layers: Int, census: AnimationCensus) {
    let recipes = Recipes()
    var census = AnimationCensus()
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 1920, height: 1080)
    root.position = CGPoint(x: 960, y: 540)
    var layers = 1
    var leafIndex = 0
    for g in 0..<groupCount {
        let group = makeGroup(g)
        root.addSublayer(group)
        layers += 1
        for _ in 0..<childrenPerGroup {
            let leaf = makeLeaf(leafIndex)
            group.addSublayer(leaf)
            layers += 1
            for (k, animation) in (leafAnimations?(leafIndex, recipes) ?? []).enumerated() {
                census.count(animation)
                leaf.add(animation, forKey: "a\(k)")
            }
            leafIndex += 1
        }
    }
    // Top the count up to exactly 3 per layer: the 100 non-leaf layers get 3 each as well.
    if decorateGroups {
        var extra: [(CALayer, Int)] = [(root, 0)]
        for (g, group) in (root.sublayers ?? []).enumerated() { extra.append((group, g + 1)) }
        for (layer, n) in extra {
            let s = 10_000 + n
            let animations = [recipes.basic("sublayerTransform.rotation.z", from: 0.0, to: 0.05, s, duration: 4),
                              recipes.basic("opacity", from: 1.0, to: 0.95, s + 1),
                              recipes.basic("position.x", from: nil, to: nil, by: 4.0, s + 2)]
            for (k, animation) in animations.enumerated() {
                census.count(animation)
                layer.add(animation, forKey: "g\(k)")
            }
        }
    }
    return (root, layers, census)
}

/// One animation kind per tree (one animation on each of the 9,900 leaves), for `--breakdown`.
nonisolated(unsafe) fileprivate let breakdownKinds: [(String, (Int, Recipes) -> [CAAnimation])] = [
    ("basic position (point)", { i, r in [r.basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 200, y: 100), i)] }),
    ("basic opacity (number)", { i, r in [r.basic("opacity", from: 1.0, to: 0.2, i)] }),
    ("basic bounds.size.width", { i, r in [r.basic("bounds.size.width", from: nil, to: 80.0, i)] }),
    ("basic backgroundColor", { i, r in [r.basic("backgroundColor", from: r.color(i), to: r.color(i + 3), i)] }),
    ("basic transform.rotation.z", { i, r in [r.basic("transform.rotation.z", from: 0.0, to: 1.0, i)] }),
    ("basic transform.scale", { i, r in [r.basic("transform.scale", from: 0.8, to: 1.2, i)] }),
    ("basic transform (matrix)", { i, r in [r.basic("transform", from: CATransform3DIdentity, to: CATransform3DMakeRotation(1, 0, 0, 1), i)] }),
    ("keyframe linear (4 numbers)", { i, r in [r.keyframes("bounds.size.width", [10.0, 40.0, 25.0, 60.0], mode: .linear, i)] }),
    ("keyframe cubic (4 points)", { i, r in [r.keyframes("position", [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 80), CGPoint(x: 120, y: 20), CGPoint(x: 200, y: 90)], mode: .cubic, i)] }),
    ("keyframe path, paced", { i, r in [r.pathAnimation(i)] }),
    ("spring transform.scale", { i, r in [r.spring("transform.scale", from: 0.5, to: 1.0, i)] }),
    ("spring position", { i, r in [r.spring("position", from: CGPoint(x: 10, y: 10), to: CGPoint(x: 90, y: 40), i)] }),
    ("group of 2 basics (per child)", { i, r in [r.group([r.basic("opacity", from: 0.0, to: 1.0, i), r.basic("backgroundColor", from: nil, to: r.color(i + 1), i + 1)], i)] }),
]

// MARK: - Timing

fileprivate struct Measurement {
    var frames: Int
    var samples: [UInt64]   // ns per evaluate, sorted
    var releaseNanos: UInt64
    var checksum: Double
    var wall: Double

    var median: Double { percentile(0.5) }
    var p90: Double { percentile(0.9) }
    var mean: Double { Double(samples.reduce(0, +)) / Double(samples.count) }
    var minimum: Double { Double(samples.first ?? 0) }
    func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let rank = p * Double(samples.count - 1)
        let low = Int(rank.rounded(.down)), high = min(low + 1, samples.count - 1)
        return Double(samples[low]) + (Double(samples[high]) - Double(samples[low])) * (rank - Double(low))
    }
}

/// Folds a few presented values of every layer into a number, so no evaluation can be optimised out.
@inline(never) fileprivate func checksum(_ tree: PresentationTree) -> Double {
    var sum = 0.0
    for layer in tree.layers {
        let p = layer.properties
        sum += Double(p.position.x) + Double(p.position.y) * 0.5 + Double(p.opacity) + Double(p.bounds.width)
        sum += Double(layer.transformToRoot.m41) * 1e-3 + Double(p.transform.m11) + Double(p.zPosition)
        if let c = p.backgroundColor { sum += Double(c.red + c.green + c.blue) }
        sum += Double(layer.sublayersInDrawingOrder.count)
    }
    return sum
}

fileprivate func measure(_ root: CALayer, options: Options) -> Measurement {
    var t = 0.0
    var sum = 0.0
    for _ in 0..<options.warmupFrames {
        sum += checksum(PresentationTree.evaluate(root, at: t, maximumThreads: options.threads))
        t += frameStep
    }
    var samples: [UInt64] = []
    samples.reserveCapacity(4096)
    var releaseNanos: UInt64 = 0
    let start = nanoseconds()
    let deadline = start + UInt64(options.seconds * 1e9)
    while true {
        if let frames = options.frames { if samples.count >= frames { break } } else if nanoseconds() >= deadline, samples.count >= 10 { break }
        let before = nanoseconds()
        var tree: PresentationTree? = PresentationTree.evaluate(root, at: t, maximumThreads: options.threads)
        let after = nanoseconds()
        samples.append(after - before)
        sum += checksum(tree!)
        let releaseStart = nanoseconds()
        tree = nil
        releaseNanos += nanoseconds() - releaseStart
        t += frameStep
    }
    let wall = Double(nanoseconds() - start) / 1e9
    samples.sort()
    return Measurement(frames: samples.count, samples: samples, releaseNanos: releaseNanos, checksum: sum, wall: wall)
}

// MARK: - Report

fileprivate func fmt(_ value: Double, _ decimals: Int = 2) -> String { String(format: "%.\(decimals)f", value) }
fileprivate func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : String(repeating: " ", count: width - s.count) + s }

/// `lamina-model-bench`: presentation evaluation of a 10,000-layer tree (see the header).
public enum ModelBench {
    /// Runs the benchmark with the command line's arguments (without the program name) and prints its figures.
    public static func run(_ arguments: [String]) {
        let options = Options(arguments)
        #if DEBUG
        print("warning: debug build; measure with -c release")
        #endif

        let buildStart = nanoseconds()
        let animated = makeTree(leafAnimations: { i, r in r.animations(for: i) }, decorateGroups: true)
        let buildSeconds = Double(nanoseconds() - buildStart) / 1e9
        let plain = makeTree(leafAnimations: nil, decorateGroups: false)
        let animationCount = animated.census.leaves

        print("Lamina model benchmark: PresentationTree.evaluate, t stepping 1/60 s")
        print("tree: \(animated.layers) layers (1 root, \(groupCount) groups, \(groupCount * childrenPerGroup) leaves; plain/shape/text/gradient/replicator/transform)")
        print("animations: \(animationCount) counted (basic, spring and keyframe animations, group children included; groups not counted)")
        for (kind, n) in animated.census.byKind.sorted(by: { $0.key < $1.key }) { print("  \(pad(String(n), 6))  \(kind)") }
        print("  plus \(animated.census.groups) CAAnimationGroup containers (not counted)")
        print("setup: built and added in \(fmt(buildSeconds, 2)) s")
        if let frames = options.frames {
            print("run: \(options.warmupFrames) warm-up frames, then \(frames) measured frames per tree")
        } else {
            print("run: \(options.warmupFrames) warm-up frames, then ≥ \(fmt(options.seconds, 1)) s measured per tree\(options.seconds < 1 ? " (--quick)" : "")")
        }
        print("threads: at most \(options.threads) (of \(ProcessInfo.processInfo.activeProcessorCount) cores; a tree of ≥ \(PresentationTree.parallelMinimumLayerCount) layers is split by the sublayers of its first layer with several)")
        print("")

        var results: [(String, Measurement, Int)] = []
        if options.runAnimated { results.append(("animated", measure(animated.root, options: options), animationCount)) }
        if options.runStatic { results.append(("no animations", measure(plain.root, options: options), 0)) }

        let layers = Double(animated.layers)
        print("\(pad("tree", 14)) \(pad("frames", 7)) \(pad("median ms", 10)) \(pad("p90 ms", 8)) \(pad("min ms", 8)) \(pad("mean ms", 8)) \(pad("frames/s", 9)) \(pad("layers/s", 12)) \(pad("ns/layer", 9)) \(pad("ns/anim", 8)) \(pad("release ms", 11))")
        for (name, m, count) in results {
            let perAnimation = count > 0 ? fmt(m.median / Double(count), 1) : "-"
            print("\(pad(name, 14)) \(pad(String(m.frames), 7)) \(pad(fmt(m.median / 1e6, 3), 10)) \(pad(fmt(m.p90 / 1e6, 3), 8)) \(pad(fmt(m.minimum / 1e6, 3), 8)) \(pad(fmt(m.mean / 1e6, 3), 8)) \(pad(fmt(1e9 / m.mean, 1), 9)) \(pad(fmt(layers * 1e9 / m.mean, 0), 12)) \(pad(fmt(m.median / layers, 1), 9)) \(pad(perAnimation, 8)) \(pad(fmt(Double(m.releaseNanos) / Double(m.frames) / 1e6, 3), 11))")
        }
        print("")
        if let anim = results.first(where: { $0.0 == "animated" })?.1 {
            let n = Double(animationCount)
            print("ns per animation per frame (median frame):")
            print("  total / animations:                   \(fmt(anim.median / n, 1)) ns   (p90 \(fmt(anim.p90 / n, 1)) ns)")
            if let base = results.first(where: { $0.0 == "no animations" })?.1 {
                print("  (total − no-animation) / animations:  \(fmt((anim.median - base.median) / n, 1)) ns   (p90 \(fmt((anim.p90 - base.p90) / n, 1)) ns)")
                print("  per-layer baseline:                   \(fmt(base.median / layers, 1)) ns per layer per frame")
            }
            let goal = 150.0
            print("  goal < \(Int(goal)) ns per animation per frame: \(anim.median / n < goal ? "met" : "NOT met") (total / animations)")
        }
        if options.breakdown {
            let base = results.first(where: { $0.0 == "no animations" })?.1 ?? measure(plain.root, options: options)
            let leaves = Double(groupCount * childrenPerGroup)
            print("")
            print("breakdown: one animation of a kind on each of the \(groupCount * childrenPerGroup) leaves; cost above the no-animation tree")
            print("\(pad("kind", 32)) \(pad("median ms", 10)) \(pad("ns/anim", 9)) \(pad("p90 ns/anim", 12))")
            for (name, make) in breakdownKinds {
                let tree = makeTree(leafAnimations: make, decorateGroups: false)
                let m = measure(tree.root, options: options)
                let perChild = Double(tree.census.leaves) / leaves   // groups: per counted child
                print("\(pad(name, 32)) \(pad(fmt(m.median / 1e6, 3), 10)) \(pad(fmt((m.median - base.median) / leaves / perChild, 1), 9)) \(pad(fmt((m.p90 - base.p90) / leaves / perChild, 1), 12))")
                results.append((name, m, tree.census.leaves))
            }
        }
        print("")
        print("checksum: \(results.map { String(format: "%.6e", $0.1.checksum) }.joined(separator: " "))")
        print("(evaluate timed alone; 'release ms' is dropping the returned tree, timed separately)")
    }
}
