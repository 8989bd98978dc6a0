import Foundation
import Layers
import Geometry
import SceneFormat

extension LottieDecoder {
    /// The whole file; nil when a required part is missing (problems say why).
    func document(_ root: JSONNode) -> LottieDocument? {
        guard let o = object(root, "") else { return nil }
        func required(_ key: String, in range: ClosedRange<Double>) -> Double? {
            guard let n = o[key] else {
                fail(root, key, "missing required key \"\(key)\" (is this a Lottie file?)")
                return nil
            }
            return number(n, key, in: range)
        }
        let side = 0.0...SceneLimits.Lottie.maximumSide
        let w = required("w", in: side), h = required("h", in: side)
        let fr = required("fr", in: 0.001...1000)
        let ip = required("ip", in: -1e9...1e9), op = required("op", in: -1e9...1e9)
        if let ip, let op {
            if op < ip { fail(o["op"], "op", "out point \(format(op)) is before the in point \(format(ip))") }
            if op - ip > SceneLimits.Lottie.maximumFrames {
                fail(o["op"], "op", "\(format(op - ip)) frames, over the \(format(SceneLimits.Lottie.maximumFrames))-frame limit")
            }
        }
        guard let layersNode = o["layers"] else {
            fail(root, "layers", "missing required key \"layers\"")
            return nil
        }
        if o.has("chars") { warn("glyph outlines (\"chars\"; text is drawn with fonts, as lottie-ios does)") }
        // Assets first: layers refer to them.
        var precompNodes: [(id: String, node: JSONNode, path: String)] = []
        var images: [String: LottieImageAsset] = [:]
        if let assetsNode = o["assets"], let items = array(assetsNode, "assets") {
            for (i, item) in items.enumerated() {
                let p = "assets[\(i)]"
                guard let a = object(item, p) else { continue }
                guard let idNode = a["id"] else { fail(item, p, "missing required key \"id\""); continue }
                let id: String
                if case .number(let n) = idNode.value { id = format(n) } else if let s = string(idNode, a.path("id")) { id = s } else { continue }
                if let layers = a["layers"] {
                    precompNodes.append((id, layers, a.path("layers")))
                } else if let image = imageAsset(a, id: id) {
                    images[id] = image
                }
            }
        }
        var precomps: [String: [LottieLayerModel]] = [:]
        for entry in precompNodes {
            if precomps[entry.id] != nil { fail(entry.node, entry.path, "duplicate asset id \"\(entry.id)\"") }
            precomps[entry.id] = layerList(entry.node, entry.path)
        }
        let layers = layerList(layersNode, "layers")
        var markers: [LottieMarkerModel] = []
        if let m = o["markers"], let items = array(m, "markers") {
            for (i, item) in items.enumerated() {
                guard let mo = object(item, "markers[\(i)]") else { continue }
                let name = mo["cm"].flatMap { string($0, mo.path("cm")) } ?? ""
                let frame = mo["tm"].flatMap { number($0, mo.path("tm")) } ?? 0
                let duration = mo["dr"].flatMap { number($0, mo.path("dr")) } ?? 0
                markers.append(LottieMarkerModel(name: name, frame: frame, durationFrames: duration))
            }
        }
        guard let w, let h, let fr, let ip, let op, problems.isEmpty else { return nil }
        if w == 0 || h == 0 { fail(o["w"], w == 0 ? "w" : "h", "the composition has no area") ; return nil }
        return LottieDocument(version: o["v"].flatMap { string($0, "v") }, name: o["nm"].flatMap { string($0, "nm") },
                              width: w, height: h, frameRate: fr, inFrame: ip, outFrame: op, layers: layers,
                              precomps: precomps, images: images, markers: markers)
    }

    private func imageAsset(_ a: JSONObject, id: String) -> LottieImageAsset? {
        guard let pn = a["p"], let p = string(pn, a.path("p")) else {
            // Assets without a picture or layers (fonts, sounds) draw nothing.
            return nil
        }
        let w = a["w"].flatMap { number($0, a.path("w"), in: 0...SceneLimits.Lottie.maximumSide) } ?? 0
        let h = a["h"].flatMap { number($0, a.path("h"), in: 0...SceneLimits.Lottie.maximumSide) } ?? 0
        let bytes: [UInt8]
        if p.hasPrefix("data:") {
            guard let comma = p.firstIndex(of: ","), p[..<comma].hasSuffix(";base64"),
                  let data = Data(base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters) else {
                fail(pn, a.path("p"), "an embedded image must be a base64 data URL")
                return nil
            }
            bytes = [UInt8](data)
        } else {
            let folder = a["u"].flatMap { string($0, a.path("u")) } ?? ""
            let relative = folder + p
            if let archived = archiveImages[relative] ?? archiveImages["images/" + p] {
                bytes = archived
            } else {
                guard let base = baseDirectory else {
                    fail(pn, a.path("p"), "external image \"\(relative)\" has no folder to be found in")
                    return nil
                }
                let path: String
                if allowsAssetsOutsideFolder {
                    path = relative.hasPrefix("/") ? relative : base.appendingPathComponent(relative).path
                } else {
                    // As a scene file's assets: inside the file's folder, the same answer whether or not it exists.
                    guard let confined = AssetPath.confined(relative, in: base.path) else {
                        fail(pn, a.path("p"), "\"\(relative)\" is outside the animation's folder (images must resolve inside it, "
                             + "symlinks followed; --allow-assets-outside lifts this for trusted files)")
                        return nil
                    }
                    path = confined
                }
                switch InputFile.read(path, limit: SceneLimits.maximumFileBytes) {
                case .failure(let failure):
                    fail(pn, a.path("p"), "cannot read image \"\(relative)\": \(failure.reason)")
                    return nil
                case .success(let read): bytes = read
                }
            }
        }
        switch ImageHeader.read(bytes) {
        case .failure(let problem):
            fail(pn, a.path("p"), "image \"\(id)\": \(problem.reason)")
            return nil
        case .success(let info):
            let limit = SceneLimits.maximumImageSide
            guard info.width <= limit, info.height <= limit else {
                fail(pn, a.path("p"), "image \"\(id)\" is \(info.width)×\(info.height), over the \(limit)×\(limit) limit")
                return nil
            }
            let image = CGImage(width: info.width, height: info.height, encoded: bytes)
            return LottieImageAsset(id: id, width: w > 0 ? w : Double(info.width), height: h > 0 ? h : Double(info.height), image: image)
        }
    }

    func layerList(_ node: JSONNode, _ path: String) -> [LottieLayerModel] {
        guard let items = array(node, path) else { return [] }
        var result: [LottieLayerModel] = []
        for (i, item) in items.enumerated() {
            layerCount += 1
            guard layerCount <= SceneLimits.Lottie.maximumLayers else {
                exceed(item, "\(path)[\(i)]", "more than \(SceneLimits.Lottie.maximumLayers) layers in the file")
                break
            }
            if let layer = layer(item, "\(path)[\(i)]") { result.append(layer) }
        }
        return result
    }
}
