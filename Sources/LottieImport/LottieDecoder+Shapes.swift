import Foundation
import Layers
import Geometry
import SceneFormat

extension LottieDecoder {
    func shapeItems(_ items: [JSONNode], _ path: String, depth: Int) -> [LottieShapeItem] {
        guard depth <= SceneLimits.Lottie.maximumNesting else {
            exceed(items.first, path, "shape groups nested deeper than \(SceneLimits.Lottie.maximumNesting)")
            return []
        }
        var result: [LottieShapeItem] = []
        for (i, item) in items.enumerated() {
            shapeItemCount += 1
            guard shapeItemCount <= SceneLimits.Lottie.maximumShapeItems else {
                exceed(item, "\(path)[\(i)]", "more than \(SceneLimits.Lottie.maximumShapeItems) shape items in the file")
                break
            }
            if let shape = shapeItem(item, "\(path)[\(i)]", depth: depth) { result.append(shape) }
        }
        return result
    }

    private func shapeItem(_ node: JSONNode, _ path: String, depth: Int) -> LottieShapeItem? {
        guard let o = object(node, path) else { return nil }
        guard let tyNode = o["ty"] else { fail(node, path, "missing required key \"ty\""); return nil }
        guard let ty = string(tyNode, o.path("ty")) else { return nil }
        let name = o["nm"].flatMap { string($0, o.path("nm")) } ?? ""
        let hidden = o["hd"].flatMap { bool($0, o.path("hd")) } ?? false
        // `d` is the path direction on paths and parametric shapes (on strokes it is the dashes).
        let reversed = ["sh", "rc", "el", "sr"].contains(ty) && (o["d"].flatMap { number($0, o.path("d")) } ?? 1) == 3
        func prop(_ key: String, _ fallback: [Double]) -> KeyframeGroup<[Double]> { property(o[key], o.path(key), default: fallback) }
        let kind: LottieShapeItem.Kind
        switch ty {
        case "gr":
            let children = o["it"].flatMap { array($0, o.path("it")) } ?? []
            kind = .group(shapeItems(children, o.path("it"), depth: depth + 1))
        case "sh":
            guard let ks = o["ks"] else { fail(node, path, "missing required key \"ks\""); return nil }
            guard let shape = shapeProperty(ks, o.path("ks")) else { return nil }
            kind = .path(shape)
        case "rc":
            kind = .rectangle(position: prop("p", [0, 0]), size: prop("s", [0, 0]), roundness: prop("r", [0]))
        case "el":
            kind = .ellipse(position: prop("p", [0, 0]), size: prop("s", [0, 0]))
        case "sr":
            let type = o["sy"].flatMap { integer($0, o.path("sy"), in: 1...2) } ?? 1
            let points = prop("pt", [5])
            // A star has two vertices a point: its count is bounded as a path's vertices are.
            let pointLimit = Double(SceneLimits.Lottie.maximumVertices / 2)
            if let over = points.keyframes.lazy.compactMap(\.value.first).first(where: { !($0 <= pointLimit) }) {
                fail(o["pt"], o.path("pt"), "\(format(over)) points, over the \(format(pointLimit))-point limit")
            }
            kind = .star(LottieStar(type: type, position: prop("p", [0, 0]), outerRadius: prop("or", [0]), innerRadius: prop("ir", [0]),
                                    outerRoundness: prop("os", [0]), innerRoundness: prop("is", [0]), points: points,
                                    rotation: prop("r", [0])))
        case "fl":
            let rule = o["r"].flatMap { integer($0, o.path("r"), in: 0...2) } ?? 1
            kind = .fill(color: prop("c", [0, 0, 0, 1]), opacity: prop("o", [100]), evenOdd: rule == 2)
        case "st":
            kind = .stroke(color: prop("c", [0, 0, 0, 1]), style: strokeStyle(o))
        case "gf", "gs":
            guard let gradient = gradient(o, node, path) else { return nil }
            if ty == "gf" {
                let rule = o["r"].flatMap { integer($0, o.path("r"), in: 0...2) } ?? 1
                kind = .gradientFill(gradient, evenOdd: rule == 2)
            } else {
                kind = .gradientStroke(gradient, style: strokeStyle(o))
            }
        case "tm":
            let mode = o["m"].flatMap { integer($0, o.path("m"), in: 1...2) } ?? 1
            if mode == 2 { warn("trim paths trimmed individually (trimmed per path, as lottie-ios does)") }
            kind = .trim(start: prop("s", [0]), end: prop("e", [100]), offset: prop("o", [0]))
        case "tr":
            kind = .transform(transform(node, path, isLayer: false) ?? LottieTransform())
        case "rp":
            let tr = o["tr"].flatMap { object($0, o.path("tr")) }
            var t = o["tr"].flatMap { transform($0, o.path("tr"), isLayer: false) } ?? LottieTransform()
            // A repeater's own transform has no opacity; its start and end opacities fade the copies.
            t.opacity = .constant([100])
            kind = .repeater(LottieRepeater(copies: prop("c", [1]), offset: prop("o", [0]), transform: t,
                                            startOpacity: property(tr?["so"], tr?.path("so") ?? path, default: [100]),
                                            endOpacity: property(tr?["eo"], tr?.path("eo") ?? path, default: [100])))
        case "rd":
            kind = .roundedCorners(prop("r", [0]))
        case "mm":
            warn("merge paths (their paths are drawn one over another, as lottie-ios does)")
            kind = .merge
        default:
            warn("shape item type \"\(ty)\" (skipped)")
            kind = .unknown(ty)
        }
        return LottieShapeItem(kind: kind, name: name, hidden: hidden, reversed: reversed)
    }

    private func strokeStyle(_ o: JSONObject) -> LottieStrokeStyle {
        let cap = o["lc"].flatMap { integer($0, o.path("lc"), in: 1...3) }.flatMap(LottieLineCap.init) ?? .round
        let join = o["lj"].flatMap { integer($0, o.path("lj"), in: 1...3) }.flatMap(LottieLineJoin.init) ?? .round
        var dashes: [KeyframeGroup<[Double]>] = []
        var offset: KeyframeGroup<[Double]>?
        if let dn = o["d"], case .array(let items) = dn.value {
            for (i, item) in items.enumerated() {
                let p = "\(o.path("d"))[\(i)]"
                guard let d = object(item, p) else { continue }
                let n = d["n"].flatMap { string($0, d.path("n")) } ?? "d"
                guard let v = d["v"].flatMap({ property($0, d.path("v")) }) else { continue }
                if v.isAnimated, n != "o" { warn("animated dash lengths (the first value is drawn, as lottie-ios does)") }
                if n == "o" { offset = v } else { dashes.append(v) }
            }
        }
        return LottieStrokeStyle(width: property(o["w"], o.path("w"), default: [1]), opacity: property(o["o"], o.path("o"), default: [100]),
                                 lineCap: cap, lineJoin: join,
                                 miterLimit: o["ml"].flatMap { number($0, o.path("ml"), in: 0...1e6) } ?? 4,
                                 dashes: dashes, dashOffset: offset)
    }

    private func gradient(_ o: JSONObject, _ node: JSONNode, _ path: String) -> LottieGradient? {
        guard let g = o["g"], let go = object(g, o.path("g")) else {
            if !o.has("g") { fail(node, path, "missing required key \"g\"") }
            return nil
        }
        guard let count = go["p"].flatMap({ integer($0, go.path("p"), in: 0...1000) }) else {
            if !go.has("p") { fail(g, go.path("g"), "missing required key \"p\"") }
            return nil
        }
        guard let colors = property(go["k"], go.path("k")) else {
            if !go.has("k") { fail(g, o.path("g"), "missing required key \"k\"") }
            return nil
        }
        for (n, k) in colors.keyframes.enumerated() where k.value.count < count * 4 {
            fail(go["k"], go.path("k"), "keyframe \(n) has \(k.value.count) numbers, fewer than the 4 × \(count) its colour stops need")
            return nil
        }
        let type = o["t"].flatMap { integer($0, o.path("t"), in: 1...2) } ?? 1
        if type == 2, o.has("h") { warn("radial gradient highlights (\"h\", \"a\"; not supported by lottie-ios's Core Animation engine)") }
        return LottieGradient(type: type, colorCount: count, colors: colors,
                              start: property(o["s"], o.path("s"), default: [0, 0]), end: property(o["e"], o.path("e"), default: [0, 0]),
                              opacity: property(o["o"], o.path("o"), default: [100]))
    }
}
