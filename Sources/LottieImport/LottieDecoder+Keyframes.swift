import Foundation
import Layers
import Geometry
import SceneFormat

extension LottieDecoder {
    /// An animatable property `{"k": value | [keyframes], "x": expression}` of numbers.
    func property(_ node: JSONNode?, _ path: String) -> KeyframeGroup<[Double]>? {
        guard let node, let o = object(node, path) else { return nil }
        guard let k = o["k"] else {
            fail(node, path, "missing required key \"k\"")
            return nil
        }
        var group: KeyframeGroup<[Double]>?
        if case .array(let items) = k.value, let first = items.first, case .object = first.value {
            group = keyframes(items, o.path("k")) { node, path in self.numbers(node, path) }
        } else if let v = numbers(k, o.path("k")) {
            group = .constant(v)
        }
        if o.has("x") {
            group?.hasExpression = true
            warn("expressions (After Effects expressions are not supported; the keyframed values play)")
        }
        return group
    }

    /// A property that must be present: `fallback` when it is absent.
    func property(_ node: JSONNode?, _ path: String, default fallback: [Double]) -> KeyframeGroup<[Double]> {
        guard node != nil else { return .constant(fallback) }
        return property(node, path) ?? .constant(fallback)
    }

    /// An animatable bezier path property (`ks` of a path item, `pt` of a mask).
    func shapeProperty(_ node: JSONNode?, _ path: String) -> KeyframeGroup<BezierShape>? {
        guard let node, let o = object(node, path) else { return nil }
        guard let k = o["k"] else {
            fail(node, path, "missing required key \"k\"")
            return nil
        }
        if o.has("x") { warn("expressions (After Effects expressions are not supported; the keyframed values play)") }
        if case .array(let items) = k.value, let first = items.first, case .object(let members) = first.value,
           members.contains(where: { $0.key == "t" }) {
            return keyframes(items, o.path("k")) { node, path in self.bezier(node, path) }
        }
        return bezier(k, o.path("k")).map { .constant($0) }
    }

    /// A bezier `{"c", "v", "i", "o"}`, or the one-element array legacy files wrap it in.
    func bezier(_ node: JSONNode, _ path: String) -> BezierShape? {
        var node = node, path = path
        if case .array(let items) = node.value {
            guard let first = items.first else {
                fail(node, path, "expected a bezier path, found an empty array")
                return nil
            }
            node = first; path += "[0]"
        }
        guard let o = object(node, path) else { return nil }
        let closed = o["c"].flatMap { bool($0, o.path("c")) } ?? true
        guard let vn = o["v"], let v = points(vn, o.path("v")) else {
            if !o.has("v") { fail(node, path, "missing required key \"v\"") }
            return nil
        }
        let i = o["i"].flatMap { points($0, o.path("i")) } ?? []
        let out = o["o"].flatMap { points($0, o.path("o")) } ?? []
        guard (i.isEmpty || i.count == v.count), (out.isEmpty || out.count == v.count) else {
            fail(node, path, "\"v\" has \(v.count) vertices but \"i\" has \(i.count) and \"o\" \(out.count)")
            return nil
        }
        let vertices = v.indices.map {
            BezierShape.Vertex(point: v[$0], inTangent: i.isEmpty ? .zero : i[$0], outTangent: out.isEmpty ? .zero : out[$0])
        }
        return BezierShape(vertices: vertices, closed: closed)
    }

    private func points(_ node: JSONNode, _ path: String) -> [CGPoint]? {
        guard let items = array(node, path) else { return nil }
        guard items.count <= SceneLimits.Lottie.maximumVertices else {
            fail(node, path, "\(items.count) vertices, over the \(SceneLimits.Lottie.maximumVertices)-vertex limit")
            return nil
        }
        var result: [CGPoint] = []
        result.reserveCapacity(items.count)
        for (n, item) in items.enumerated() {
            guard let xy = numbers(item, "\(path)[\(n)]") else { return nil }
            guard xy.count >= 2 else {
                fail(item, "\(path)[\(n)]", "expected a point [x, y]")
                return nil
            }
            result.append(CGPoint(x: xy[0], y: xy[1]))
        }
        return result
    }

    /// Keyframes in Bodymovin's span form: each keyframe's `s` holds from `t`, with the easing
    /// `o` leaving it and `i` arriving at the next; the legacy form gives `e` as the next value
    /// and ends with a keyframe that has only `t`.
    func keyframes<V>(_ items: [JSONNode], _ path: String, value read: (JSONNode, String) -> V?) -> KeyframeGroup<V>? {
        keyframeCount += items.count
        guard keyframeCount <= SceneLimits.Lottie.maximumKeyframes else {
            exceed(items.first, path, "more than \(SceneLimits.Lottie.maximumKeyframes) keyframes in the file")
            return nil
        }
        var result: [Keyframe<V>] = []
        result.reserveCapacity(items.count)
        var previousEnd: V?
        var previousIn: CGPoint?
        var previousSpatialIn: [Double]?
        var previousTime = -Double.infinity
        for (n, item) in items.enumerated() {
            let p = "\(path)[\(n)]"
            guard let o = object(item, p) else { return nil }
            guard let tn = o["t"], let time = number(tn, o.path("t")) else {
                if !o.has("t") { fail(item, p, "missing required key \"t\"") }
                return nil
            }
            if time < previousTime {
                fail(tn, o.path("t"), "keyframe time \(format(time)) is before the previous keyframe's \(format(previousTime))")
                return nil
            }
            previousTime = time
            var value: V?
            if let s = o["s"] { value = read(s, o.path("s")); if value == nil { return nil } }
            if value == nil { value = previousEnd }
            guard let value else {
                fail(item, p, n == 0 ? "the first keyframe has no value \"s\"" : "keyframe has no value \"s\" and the previous one no \"e\"")
                return nil
            }
            let hold = o["h"].flatMap { bool($0, o.path("h")) } ?? false
            let outTangent = o["o"].flatMap { easing($0, o.path("o")) }
            let inTangent = o["i"].flatMap { easing($0, o.path("i")) }
            let to = o["to"].flatMap { numbers($0, o.path("to")) }
            let ti = o["ti"].flatMap { numbers($0, o.path("ti")) }
            result.append(Keyframe(time: time, value: value, isHold: hold, inTangent: previousIn, outTangent: outTangent,
                                   spatialInTangent: previousSpatialIn, spatialOutTangent: to))
            previousIn = inTangent
            previousSpatialIn = ti
            previousEnd = o["e"].flatMap { read($0, o.path("e")) }
        }
        guard !result.isEmpty else {
            fail(nil, path, "empty keyframe list")
            return nil
        }
        return KeyframeGroup(keyframes: result)
    }

    /// An easing handle `{"x": n | [n…], "y": n | [n…]}`; lottie-ios uses the first dimension.
    private func easing(_ node: JSONNode, _ path: String) -> CGPoint? {
        guard let o = object(node, path) else { return nil }
        guard let x = o["x"].flatMap({ numbers($0, o.path("x")) })?.first,
              let y = o["y"].flatMap({ numbers($0, o.path("y")) })?.first else {
            if !o.has("x") || !o.has("y") { fail(node, path, "an easing handle needs \"x\" and \"y\"") }
            return nil
        }
        return CGPoint(x: x, y: y)
    }
}
