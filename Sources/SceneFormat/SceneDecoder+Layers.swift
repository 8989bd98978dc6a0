import Foundation
import Geometry
import Animation
import Layers

/// A decoded layer and the keys its object set.
struct DecodedLayer {
    let layer: CALayer
    let keys: Set<String>
    func isPropertySet(_ key: String) -> Bool { keys.contains(key) }
}

extension SceneDecoder {
    static let layerTypes = ["layer", "text", "shape", "gradient", "replicator", "transform", "emitter", "video"]

    func layer(_ node: JSONNode, _ path: String, depth: Int, context: inout LayerContext) -> DecodedLayer? {
        guard depth <= SceneLimits.maximumDepth else {
            fail(node, path, "layers nested deeper than \(SceneLimits.maximumDepth)")
            return nil
        }
        context.layerCount += 1
        guard context.layerCount <= SceneLimits.maximumLayers else {
            if context.layerCount == SceneLimits.maximumLayers + 1 {
                fail(node, path, "more than \(SceneLimits.maximumLayers) layers")
            }
            return nil
        }
        guard let reader = object(node, path) else { return nil }
        defer { reader.reportUnknownKeys() }
        let type = reader["type"].flatMap { choice($0, reader.path("type"), Self.layerTypes + layerImporters.keys.sorted()) } ?? "layer"
        var imported: CALayer?
        if let importer = layerImporters[type] {
            guard let made = importedLayer(reader, importer) else { return nil }
            imported = made
        }
        let layer: CALayer = if let imported { imported } else { switch type {
        case "text": CATextLayer()
        case "shape": CAShapeLayer()
        case "gradient": CAGradientLayer()
        case "replicator": CAReplicatorLayer()
        case "transform": CATransformLayer()
        case "emitter": CAEmitterLayer()
        case "video": VideoFrameLayer()
        default: CALayer()
        } }
        commonProperties(reader, layer)
        switch layer {
        case let text as CATextLayer: textProperties(reader, text)
        case let shape as CAShapeLayer: shapeProperties(reader, shape)
        case let gradient as CAGradientLayer: gradientProperties(reader, gradient)
        case let replicator as CAReplicatorLayer: replicatorProperties(reader, replicator)
        case let emitter as CAEmitterLayer: emitterProperties(reader, emitter)
        default: break
        }

        if let maskNode = reader["mask"] {
            if let mask = self.layer(maskNode, reader.path("mask"), depth: depth + 1, context: &context) { layer.mask = mask.layer }
        }
        if let subNode = reader["sublayers"], let items = array(subNode, reader.path("sublayers")) {
            for (i, item) in items.enumerated() {
                if let child = self.layer(item, "\(reader.path("sublayers"))[\(i)]", depth: depth + 1, context: &context) {
                    layer.addSublayer(child.layer)
                }
            }
        }
        if let actionsNode = reader["actions"], let actionsReader = object(actionsNode, reader.path("actions")) {
            var actions: [String: CAAction] = [:]
            for member in actionsReader.members {
                _ = actionsReader[member.key]
                if case .null = member.value.value {
                    actions[member.key] = NSNull()
                } else if let animation = animation(member.value, actionsReader.path(member.key), layer: layer, allowKey: false) {
                    actions[member.key] = animation.animation
                }
            }
            layer.actions = actions
        }
        if let animationsNode = reader["animations"], let items = array(animationsNode, reader.path("animations")) {
            var animations: [(String?, CAAnimation)] = []
            for (i, item) in items.enumerated() {
                if let decoded = animation(item, "\(reader.path("animations"))[\(i)]", layer: layer, allowKey: true) {
                    animations.append((decoded.key, decoded.animation))
                }
            }
            if !animations.isEmpty { context.pendingAnimations.append((layer, animations)) }
        }
        if let importer = layerImporters[type] { importer.finish(layer) }
        return DecodedLayer(layer: layer, keys: Set(reader.members.map(\.key)))
    }

    /// A layer made from a file by a later stage's importer: `source` names the file, and the
    /// layer's own timing may repeat (`repeatCount`).
    private func importedLayer(_ reader: ObjectReader, _ importer: SceneLayerImporter) -> CALayer? {
        guard let sourceNode = reader["source"] else {
            fail(reader.node, reader.path("source"), "missing required key \"source\"")
            return nil
        }
        guard let relative = string(sourceNode, reader.path("source")) else { return nil }
        guard let url = assetURL(relative, sourceNode, reader.path("source")) else { return nil }
        let layer: CALayer
        do {
            let made = try importer.make(url)
            layer = made.layer
            for warning in made.warnings { warn(warning) }
        } catch {
            for problem in error.problems {
                var p = problem
                if p.path.isEmpty, p.location == nil {
                    p = SceneProblem(file: file, location: sourceNode.location, path: reader.path("source"), reason: "\(problem.file): \(problem.reason)")
                }
                fail(p)
            }
            return nil
        }
        if let n = reader["repeatCount"], let v = number(n, reader.path("repeatCount"), in: 0...1e9, allowInfinity: true) {
            layer.repeatCount = v.isInfinite ? .infinity : Float(v)
        }
        return layer
    }

    private func commonProperties(_ r: ObjectReader, _ layer: CALayer) {
        if let n = r["name"], let v = string(n, r.path("name")) { layer.name = v }
        if r.has("frame"), r.has("bounds") || r.has("position") {
            fail(r["frame"], r.path("frame"), "\"frame\" cannot be combined with \"bounds\" or \"position\"")
        }
        if let n = r["anchorPoint"], let v = point(n, r.path("anchorPoint")) { layer.anchorPoint = v }
        if let n = r["anchorPointZ"], let v = number(n, r.path("anchorPointZ")) { layer.anchorPointZ = v }
        if let n = r["transform"], let v = transform(n, r.path("transform")) { layer.transform = v }
        if let n = r["bounds"], let v = rect(n, r.path("bounds")) {
            if v.size.width < 0 || v.size.height < 0 { fail(n, r.path("bounds"), "bounds width and height must not be negative") } else { layer.bounds = v }
        }
        if let n = r["position"], let v = point(n, r.path("position")) { layer.position = v }
        // frame after anchor and transform: it depends on both.
        if let n = r["frame"], let v = rect(n, r.path("frame")) {
            if v.size.width < 0 || v.size.height < 0 { fail(n, r.path("frame"), "frame width and height must not be negative") } else { layer.frame = v }
        }
        if let n = r["zPosition"], let v = number(n, r.path("zPosition")) { layer.zPosition = v }
        if let n = r["sublayerTransform"], let v = transform(n, r.path("sublayerTransform")) { layer.sublayerTransform = v }
        if let n = r["opacity"], let v = number(n, r.path("opacity"), in: 0...1) { layer.opacity = Float(v) }
        if let n = r["hidden"], let v = bool(n, r.path("hidden")) { layer.isHidden = v }
        if let n = r["backgroundColor"], let v = color(n, r.path("backgroundColor"), nullable: true) { layer.backgroundColor = v }
        if let n = r["cornerRadius"], let v = number(n, r.path("cornerRadius"), in: 0...1e9) { layer.cornerRadius = v }
        if let n = r["maskedCorners"], let items = array(n, r.path("maskedCorners")) {
            var mask: CACornerMask = []
            let names: [String: CACornerMask] = ["minXMinY": .layerMinXMinYCorner, "maxXMinY": .layerMaxXMinYCorner,
                                                 "minXMaxY": .layerMinXMaxYCorner, "maxXMaxY": .layerMaxXMaxYCorner]
            for (i, item) in items.enumerated() {
                if let s = choice(item, "\(r.path("maskedCorners"))[\(i)]", ["minXMinY", "maxXMinY", "minXMaxY", "maxXMaxY"]),
                   let corner = names[s] { mask.insert(corner) }
            }
            layer.maskedCorners = mask
        }
        if let n = r["cornerCurve"], let v = choice(n, r.path("cornerCurve"), ["circular", "continuous"]) {
            layer.cornerCurve = CALayerCornerCurve(rawValue: v)
        }
        if let n = r["borderWidth"], let v = number(n, r.path("borderWidth"), in: 0...1e9) { layer.borderWidth = v }
        if let n = r["borderColor"], let v = color(n, r.path("borderColor"), nullable: true) { layer.borderColor = v }
        if let n = r["contents"] {
            if case .null = n.value { layer.contents = nil } else if let image = image(n, r.path("contents")) { layer.contents = image }
        }
        if let n = r["contentsRect"], let v = rect(n, r.path("contentsRect")) { layer.contentsRect = v }
        if let n = r["contentsCenter"], let v = rect(n, r.path("contentsCenter")) { layer.contentsCenter = v }
        if let n = r["contentsGravity"], let v = choice(n, r.path("contentsGravity"), CALayerContentsGravity.allCases.map(\.rawValue)) {
            layer.contentsGravity = CALayerContentsGravity(rawValue: v)
        }
        if let n = r["contentsScale"], let v = number(n, r.path("contentsScale"), in: 0.01...64) { layer.contentsScale = v }
        let filters = ["linear", "nearest", "trilinear"]
        if let n = r["minificationFilter"], let v = choice(n, r.path("minificationFilter"), filters) {
            layer.minificationFilter = CALayerContentsFilter(rawValue: v)
        }
        if let n = r["magnificationFilter"], let v = choice(n, r.path("magnificationFilter"), ["linear", "nearest"]) {
            layer.magnificationFilter = CALayerContentsFilter(rawValue: v)
        }
        if let n = r["masksToBounds"], let v = bool(n, r.path("masksToBounds")) { layer.masksToBounds = v }
        if let n = r["doubleSided"], let v = bool(n, r.path("doubleSided")) { layer.isDoubleSided = v }
        if let n = r["geometryFlipped"], let v = bool(n, r.path("geometryFlipped")) { layer.isGeometryFlipped = v }
        if let n = r["allowsEdgeAntialiasing"], let v = bool(n, r.path("allowsEdgeAntialiasing")) { layer.allowsEdgeAntialiasing = v }
        if let n = r["allowsGroupOpacity"], let v = bool(n, r.path("allowsGroupOpacity")) { layer.allowsGroupOpacity = v }
        if let n = r["shadowColor"], let v = color(n, r.path("shadowColor"), nullable: true) { layer.shadowColor = v }
        if let n = r["shadowOpacity"], let v = number(n, r.path("shadowOpacity"), in: 0...1) { layer.shadowOpacity = Float(v) }
        if let n = r["shadowOffset"], let v = size(n, r.path("shadowOffset")) { layer.shadowOffset = v }
        if let n = r["shadowRadius"], let v = number(n, r.path("shadowRadius"), in: 0...1e6) { layer.shadowRadius = v }
        if let n = r["shadowPath"] {
            if case .null = n.value { layer.shadowPath = nil } else if let p = path(n, r.path("shadowPath")) { layer.shadowPath = p }
        }
        filterProperties(r, layer)
        if let n = r["speed"], let v = number(n, r.path("speed"), in: -1e6...1e6) { layer.speed = Float(v) }
        if let n = r["timeOffset"], let v = number(n, r.path("timeOffset")) { layer.timeOffset = v }
        if let n = r["beginTime"], let v = number(n, r.path("beginTime")) { layer.beginTime = v }
        // Read by the caller (tree structure), marked known here.
        for key in ["type", "mask", "sublayers", "animations", "actions"] { _ = r[key] }
    }

    /// An asset name that must refer to an image.
    func image(_ node: JSONNode, _ path: String) -> CGImage? {
        guard let name = string(node, path) else { return nil }
        guard let asset = assets[name] else {
            reportMissingAsset(name, node, path)
            return nil
        }
        guard let image = asset.image else {
            fail(node, path, "asset \"\(name)\" is a video, not an image")
            return nil
        }
        return image
    }

    /// Reports a reference to an asset that does not exist; a declared asset that failed to load
    /// was reported where it was declared, so it is not reported again.
    func reportMissingAsset(_ name: String, _ node: JSONNode, _ path: String) {
        guard !declaredAssetNames.contains(name) else { return }
        fail(node, path, "unknown asset \"\(name)\"")
    }

    private func textProperties(_ r: ObjectReader, _ layer: CATextLayer) {
        if let n = r["string"] {
            switch n.value {
            case .string(let s): layer.string = s
            case .null: layer.string = nil
            case .array(let items):
                var runs: [TextRun] = []
                for (i, item) in items.enumerated() {
                    let itemPath = "\(r.path("string"))[\(i)]"
                    guard let run = object(item, itemPath) else { continue }
                    guard let textNode = run["text"], let text = string(textNode, run.path("text")) else {
                        if !run.has("text") { fail(item, itemPath, "missing required key \"text\"") }
                        continue
                    }
                    let font = run["font"].flatMap { string($0, run.path("font")) }
                    let size = run["fontSize"].flatMap { number($0, run.path("fontSize"), in: 0.1...10_000) }
                    let color = run["color"].flatMap { self.color($0, run.path("color"), nullable: false) } ?? nil
                    run.reportUnknownKeys()
                    runs.append(TextRun(text: text, font: font, fontSize: size.map { CGFloat($0) }, color: color))
                }
                layer.string = runs
            default:
                fail(n, r.path("string"), "expected a string or a list of runs, found \(n.value.typeName)")
            }
        }
        if let n = r["font"], let v = string(n, r.path("font")) { layer.font = v }
        if let n = r["fontSize"], let v = number(n, r.path("fontSize"), in: 0.1...10_000) { layer.fontSize = v }
        if let n = r["foregroundColor"], let v = color(n, r.path("foregroundColor"), nullable: true) { layer.foregroundColor = v }
        if let n = r["alignmentMode"], let v = choice(n, r.path("alignmentMode"), ["natural", "left", "right", "center", "justified"]) {
            layer.alignmentMode = CATextLayerAlignmentMode(rawValue: v)
        }
        if let n = r["isWrapped"], let v = bool(n, r.path("isWrapped")) { layer.isWrapped = v }
        if let n = r["truncationMode"], let v = choice(n, r.path("truncationMode"), ["none", "start", "middle", "end"]) {
            layer.truncationMode = CATextLayerTruncationMode(rawValue: v)
        }
    }

    private func shapeProperties(_ r: ObjectReader, _ layer: CAShapeLayer) {
        if let n = r["path"] {
            if case .null = n.value { layer.path = nil } else if let p = path(n, r.path("path")) { layer.path = p }
        }
        if let n = r["fillColor"], let v = color(n, r.path("fillColor"), nullable: true) { layer.fillColor = v }
        if let n = r["fillRule"], let v = choice(n, r.path("fillRule"), ["nonZero", "evenOdd"]) {
            layer.fillRule = v == "evenOdd" ? .evenOdd : .nonZero
        }
        if let n = r["strokeColor"], let v = color(n, r.path("strokeColor"), nullable: true) { layer.strokeColor = v }
        if let n = r["lineWidth"], let v = number(n, r.path("lineWidth"), in: 0...1e6) { layer.lineWidth = v }
        if let n = r["lineCap"], let v = choice(n, r.path("lineCap"), ["butt", "round", "square"]) { layer.lineCap = CAShapeLayerLineCap(rawValue: v) }
        if let n = r["lineJoin"], let v = choice(n, r.path("lineJoin"), ["miter", "round", "bevel"]) { layer.lineJoin = CAShapeLayerLineJoin(rawValue: v) }
        if let n = r["miterLimit"], let v = number(n, r.path("miterLimit"), in: 0...1e6) { layer.miterLimit = v }
        if let n = r["lineDashPattern"] {
            if case .null = n.value { layer.lineDashPattern = nil } else if let items = array(n, r.path("lineDashPattern")) {
                let values = items.enumerated().compactMap { number($1, "\(r.path("lineDashPattern"))[\($0)]", in: 0...1e6) }
                if values.count == items.count { layer.lineDashPattern = values.map { NSNumber(value: $0) } }
            }
        }
        if let n = r["lineDashPhase"], let v = number(n, r.path("lineDashPhase")) { layer.lineDashPhase = v }
        if let n = r["strokeStart"], let v = number(n, r.path("strokeStart"), in: 0...1) { layer.strokeStart = v }
        if let n = r["strokeEnd"], let v = number(n, r.path("strokeEnd"), in: 0...1) { layer.strokeEnd = v }
        if let n = r["trimsFill"], let v = bool(n, r.path("trimsFill")) { layer.trimsFill = v }
    }

    private func gradientProperties(_ r: ObjectReader, _ layer: CAGradientLayer) {
        if let n = r["colors"], let items = array(n, r.path("colors")) {
            let colors = items.enumerated().compactMap { color($1, "\(r.path("colors"))[\($0)]", nullable: false) ?? nil }
            if colors.count == items.count { layer.colors = colors }
        }
        if let n = r["locations"], let items = array(n, r.path("locations")) {
            let values = items.enumerated().compactMap { number($1, "\(r.path("locations"))[\($0)]") }
            if values.count == items.count { layer.locations = values.map { NSNumber(value: $0) } }
            // What Core Animation draws then is not known (ignored, or nothing): refused (§15.2).
            if let colors = r["colors"].flatMap({ node -> [JSONNode]? in if case .array(let c) = node.value { c } else { nil } }),
               colors.count != items.count {
                fail(n, r.path("locations"), "\(items.count) location\(items.count == 1 ? "" : "s") for \(colors.count) colour\(colors.count == 1 ? "" : "s") (give one location per colour, or none)")
            }
        }
        if let n = r["startPoint"], let v = point(n, r.path("startPoint")) { layer.startPoint = v }
        if let n = r["endPoint"], let v = point(n, r.path("endPoint")) { layer.endPoint = v }
        if let n = r["gradientType"], let v = choice(n, r.path("gradientType"), ["axial", "radial", "conic"]) {
            layer.type = CAGradientLayerType(rawValue: v)
        }
    }

    private func replicatorProperties(_ r: ObjectReader, _ layer: CAReplicatorLayer) {
        if let n = r["instanceCount"], let v = integer(n, r.path("instanceCount"), in: 0...SceneLimits.maximumInstanceCount) { layer.instanceCount = v }
        if let n = r["instanceTransform"], let v = transform(n, r.path("instanceTransform")) { layer.instanceTransform = v }
        if let n = r["instanceDelay"], let v = number(n, r.path("instanceDelay")) { layer.instanceDelay = v }
        if let n = r["instanceColor"], let v = color(n, r.path("instanceColor"), nullable: true) { layer.instanceColor = v }
        if let n = r["instanceRedOffset"], let v = number(n, r.path("instanceRedOffset"), in: -1...1) { layer.instanceRedOffset = Float(v) }
        if let n = r["instanceGreenOffset"], let v = number(n, r.path("instanceGreenOffset"), in: -1...1) { layer.instanceGreenOffset = Float(v) }
        if let n = r["instanceBlueOffset"], let v = number(n, r.path("instanceBlueOffset"), in: -1...1) { layer.instanceBlueOffset = Float(v) }
        if let n = r["instanceAlphaOffset"], let v = number(n, r.path("instanceAlphaOffset"), in: -1...1) { layer.instanceAlphaOffset = Float(v) }
    }
}
