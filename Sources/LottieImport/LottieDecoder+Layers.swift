import Foundation
import Layers
import Geometry
import SceneFormat

extension LottieDecoder {
    func layer(_ node: JSONNode, _ path: String) -> LottieLayerModel? {
        guard let o = object(node, path) else { return nil }
        func req(_ key: String) -> Double? {
            guard let n = o[key] else { fail(node, path, "missing required key \"\(key)\""); return nil }
            return number(n, o.path(key), in: -1e9...1e9)
        }
        guard let tyNode = o["ty"] else { fail(node, path, "missing required key \"ty\""); return nil }
        guard let ty = integer(tyNode, o.path("ty"), in: 0...1000) else { return nil }
        let kind = LottieLayerKind(rawValue: ty)
        if kind == nil { warn("layer type \(ty) (skipped)") }
        let ip = req("ip"), op = req("op")
        let st = o["st"].flatMap { number($0, o.path("st"), in: -1e9...1e9) } ?? 0
        let name = o["nm"].flatMap { string($0, o.path("nm")) } ?? "Layer"
        let index = o["ind"].flatMap { integer($0, o.path("ind"), in: Int(Int32.min)...Int(Int32.max)) }
        let parent = o["parent"].flatMap { integer($0, o.path("parent"), in: Int(Int32.min)...Int(Int32.max)) }
        var sr = o["sr"].flatMap { number($0, o.path("sr"), in: -1e6...1e6) } ?? 1
        if sr == 0 { fail(o["sr"], o.path("sr"), "a time stretch of 0 freezes time; it must not be 0"); sr = 1 }
        let transform = o["ks"].flatMap { self.transform($0, o.path("ks"), isLayer: true) } ?? LottieTransform()

        var masks: [LottieMask] = []
        if let mn = o["masksProperties"], let items = array(mn, o.path("masksProperties")) {
            for (i, item) in items.enumerated() {
                if let m = mask(item, "\(o.path("masksProperties"))[\(i)]") { masks.append(m) }
            }
        }
        let tt = o["tt"].flatMap { integer($0, o.path("tt"), in: 0...4) } ?? 0
        let matte = LottieMatteMode(rawValue: tt) ?? .none
        if matte == .luma || matte == .lumaInverted { warn("luma track mattes (drawn as alpha mattes, as lottie-ios does)") }
        let bm = o["bm"].flatMap { integer($0, o.path("bm"), in: 0...100) } ?? 0
        if bm != 0, LottieBlendModes.filterName(bm) == nil { warn("blend mode \(bm) (\"bm\"; lottie-ios knows 0…15; drawn as normal)") }
        let is3D = o["ddd"].flatMap { bool($0, o.path("ddd")) } ?? false
        if is3D { warn("3D layers (\"ddd\"; drawn without the camera, as lottie-ios does)") }

        var model = LottieLayerModel(
            path: path, name: name, index: index, kind: kind, parent: parent, inFrame: ip ?? 0, outFrame: op ?? 0,
            startTime: st, timeStretch: sr, transform: transform, masks: masks, matte: matte,
            matteParent: o["tp"].flatMap { integer($0, o.path("tp"), in: Int(Int32.min)...Int(Int32.max)) },
            isMatteSource: o["td"].flatMap { bool($0, o.path("td")) } ?? false,
            hidden: o["hd"].flatMap { bool($0, o.path("hd")) } ?? false,
            is3D: is3D, autoOrient: o["ao"].flatMap { bool($0, o.path("ao")) } ?? false, blendMode: bm,
            shapes: [], refId: nil, width: nil, height: nil, solidColor: nil, timeRemap: nil, dropShadow: nil, text: nil)
        if model.autoOrient { warn("auto-orient (\"ao\"; not supported by lottie-ios's Core Animation engine)") }

        switch kind {
        case .shape:
            if let sn = o["shapes"], let items = array(sn, o.path("shapes")) {
                model.shapes = shapeItems(items, o.path("shapes"), depth: 1)
            }
        case .precomp:
            model.refId = o["refId"].flatMap { string($0, o.path("refId")) }
            if model.refId == nil, !o.has("refId") { fail(node, path, "a precomp layer needs \"refId\"") }
            model.width = o["w"].flatMap { number($0, o.path("w"), in: 0...SceneLimits.Lottie.maximumSide) }
            model.height = o["h"].flatMap { number($0, o.path("h"), in: 0...SceneLimits.Lottie.maximumSide) }
            if let tm = o["tm"] { model.timeRemap = property(tm, o.path("tm")) }
        case .image:
            model.refId = o["refId"].flatMap { string($0, o.path("refId")) }
            if model.refId == nil, !o.has("refId") { fail(node, path, "an image layer needs \"refId\"") }
        case .solid:
            model.width = o["sw"].flatMap { number($0, o.path("sw"), in: 0...SceneLimits.Lottie.maximumSide) } ?? 0
            model.height = o["sh"].flatMap { number($0, o.path("sh"), in: 0...SceneLimits.Lottie.maximumSide) } ?? 0
            if let sc = o["sc"], let hex = string(sc, o.path("sc")) {
                guard let color = CGColor(hex: hex) else {
                    fail(sc, o.path("sc"), "\"\(hex)\" is not a #RRGGBB colour")
                    return nil
                }
                model.solidColor = [color.red, color.green, color.blue, color.alpha]
            }
        case .text:
            if let t = o["t"] { model.text = text(t, o.path("t")) }
        case .null, nil:
            break
        }
        model.dropShadow = dropShadow(o)
        if o["ef"] != nil, model.dropShadow == nil || (o["ef"].flatMap { array($0, o.path("ef")) }?.count ?? 0) > 1 {
            warn("layer effects (\"ef\"; only drop shadows are drawn, as lottie-ios does)")
        }
        guard ip != nil, op != nil else { return nil }
        return model
    }

    func transform(_ node: JSONNode, _ path: String, isLayer: Bool) -> LottieTransform? {
        guard let o = object(node, path) else { return nil }
        var t = LottieTransform()
        t.anchor = property(o["a"], o.path("a"), default: [0, 0, 0])
        if let p = o["p"], case .object = p.value, let po = object(p, o.path("p")), po["s"].flatMap({ bool($0, po.path("s")) }) == true {
            t.position = nil
            t.positionX = property(po["x"], po.path("x"), default: [0])
            t.positionY = property(po["y"], po.path("y"), default: [0])
        } else if let px = o["px"], let py = o["py"] {
            t.position = nil
            t.positionX = property(px, o.path("px"))
            t.positionY = property(py, o.path("py"))
        } else {
            t.position = property(o["p"], o.path("p"), default: [0, 0, 0])
        }
        t.scale = property(o["s"], o.path("s"), default: [100, 100, 100])
        t.rotationX = property(o["rx"], o.path("rx"), default: [0])
        t.rotationY = property(o["ry"], o.path("ry"), default: [0])
        if let r = o["r"] { t.rotationZ = property(r, o.path("r"), default: [0]) } else { t.rotationZ = property(o["rz"], o.path("rz"), default: [0]) }
        t.opacity = property(o["o"], o.path("o"), default: [100])
        // Layer transforms' skew is not read by lottie-ios; shape transforms' is.
        if !isLayer {
            t.skew = property(o["sk"], o.path("sk"), default: [0])
            t.skewAxis = property(o["sa"], o.path("sa"), default: [0])
        } else if let sk = o["sk"], let skew = property(sk, o.path("sk")), skew.keyframes.contains(where: { ($0.value.first ?? 0) != 0 }) {
            warn("layer skew (\"ks.sk\"; not supported by lottie-ios's Core Animation engine)")
        }
        return t
    }

    private func mask(_ node: JSONNode, _ path: String) -> LottieMask? {
        guard let o = object(node, path) else { return nil }
        var mode = LottieMaskMode.add
        if let m = o["mode"], let s = string(m, o.path("mode")) {
            guard let parsed = LottieMaskMode(rawValue: s) else {
                fail(m, o.path("mode"), "unknown mask mode \"\(s)\" (a, s, i, l, d, f or n)")
                return nil
            }
            mode = parsed
        }
        guard let pt = o["pt"] else { fail(node, path, "missing required key \"pt\""); return nil }
        guard let shape = shapeProperty(pt, o.path("pt")) else { return nil }
        let expansion = property(o["x"], o.path("x"), default: [0])
        if expansion.keyframes.contains(where: { ($0.value.first ?? 0) != 0 }) { warn("mask expansion (not supported by lottie-ios's Core Animation engine)") }
        let opacity = property(o["o"], o.path("o"), default: [100])
        if opacity.keyframes.contains(where: { ($0.value.first ?? 100) != 100 }) { warn("mask opacity (not supported by lottie-ios's Core Animation engine)") }
        return LottieMask(mode: mode, inverted: o["inv"].flatMap { bool($0, o.path("inv")) } ?? false, shape: shape,
                          opacity: opacity, expansion: expansion)
    }

    private func dropShadow(_ o: JSONObject) -> LottieDropShadow? {
        if let ef = o["ef"], case .array(let effects) = ef.value {
            for (i, effect) in effects.enumerated() {
                guard case .object = effect.value, let e = object(effect, "\(o.path("ef"))[\(i)]"),
                      e["ty"].flatMap({ number($0, e.path("ty")) }) == 25,
                      let valuesNode = e["ef"], let values = array(valuesNode, e.path("ef")) else { continue }
                func value(_ n: Int) -> KeyframeGroup<[Double]>? {
                    guard n < values.count, let vo = object(values[n], "\(e.path("ef"))[\(n)]") else { return nil }
                    return vo["v"].flatMap { property($0, vo.path("v")) }
                }
                return LottieDropShadow(color: value(0), opacity: value(1).map { $0.map { [($0.first ?? 0) / 255 * 100] } },
                                        radius: value(4).map { $0.map { [($0.first ?? 0) / 5] } },
                                        angle: value(2).map { $0.map { [($0.first ?? 0) - 90] } }, distance: value(3))
            }
        }
        if let sy = o["sy"], case .array(let styles) = sy.value {
            for (i, style) in styles.enumerated() {
                guard case .object = style.value, let s = object(style, "\(o.path("sy"))[\(i)]"),
                      s["ty"].flatMap({ number($0, s.path("ty")) }) == 1 else { continue }
                return LottieDropShadow(color: s["c"].flatMap { property($0, s.path("c")) }, opacity: s["o"].flatMap { property($0, s.path("o")) },
                                        radius: s["s"].flatMap { property($0, s.path("s")) }?.map { [($0.first ?? 0) / 2] },
                                        angle: s["a"].flatMap { property($0, s.path("a")) }, distance: s["d"].flatMap { property($0, s.path("d")) })
            }
        }
        return nil
    }

    private func text(_ node: JSONNode, _ path: String) -> LottieTextModel? {
        guard let o = object(node, path), let d = o["d"], let dObj = object(d, o.path("d")),
              let k = dObj["k"], let items = array(k, dObj.path("k")), let first = items.first,
              let kf = object(first, "\(dObj.path("k"))[0]"), let s = kf["s"], let doc = object(s, kf.path("s")) else {
            return nil
        }
        if items.count > 1 { warn("text that changes over time (the first text keyframe is drawn, as lottie-ios does)") }
        let animators = o["a"].flatMap { n -> Int? in if case .array(let a) = n.value { a.count } else { nil } } ?? 0
        if animators > 0 { warn("text animators (not supported by lottie-ios's Core Animation engine)") }
        let fontName = doc["f"].flatMap { string($0, doc.path("f")) } ?? ""
        fontNames.insert(fontName)
        return LottieTextModel(
            text: doc["t"].flatMap { string($0, doc.path("t")) } ?? "",
            fontName: fontName,
            fontSize: doc["s"].flatMap { number($0, doc.path("s"), in: 0...100_000) } ?? 12,
            fillColor: doc["fc"].flatMap { numbers($0, doc.path("fc")) },
            strokeColor: doc["sc"].flatMap { numbers($0, doc.path("sc")) },
            strokeWidth: doc["sw"].flatMap { number($0, doc.path("sw")) } ?? 0,
            justification: doc["j"].flatMap { integer($0, doc.path("j"), in: 0...10) } ?? 0,
            lineHeight: doc["lh"].flatMap { number($0, doc.path("lh")) } ?? 0,
            tracking: doc["tr"].flatMap { number($0, doc.path("tr")) } ?? 0,
            boxPosition: doc["ps"].flatMap { numbers($0, doc.path("ps")) },
            boxSize: doc["sz"].flatMap { numbers($0, doc.path("sz")) },
            hasAnimators: animators > 0)
    }
}
