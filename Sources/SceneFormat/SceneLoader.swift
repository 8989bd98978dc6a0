import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Animation
import Layers

/// How a scene file is loaded.
public struct SceneLoadOptions: Sendable, Equatable {
    /// Let asset paths lead outside the scene file's folder (`../`, absolute paths, symlinks
    /// pointing out): for trusted local files only (`--allow-assets-outside`). Default false:
    /// a scene can read nothing but the files beside it.
    public var allowsAssetsOutsideFolder: Bool

    public init(allowsAssetsOutsideFolder: Bool = false) {
        self.allowsAssetsOutsideFolder = allowsAssetsOutsideFolder
    }
}

/// Loads scene files (scene-format.md) into exactly the layer tree the equivalent Swift calls build.
///
/// Strict: unknown keys, wrong types, NaN, out-of-range values and exceeded limits are all errors,
/// every one listed as `file:line:column: JSON path: reason`, and nothing is returned.
public enum SceneLoader {
    /// Loads the scene at `url`; asset paths are relative to its folder and, unless `options`
    /// say otherwise, must stay inside it.
    public static func load(contentsOf url: URL, options: SceneLoadOptions = SceneLoadOptions()) throws(SceneLoadError) -> Scene {
        let name = url.lastPathComponent
        func refuse(_ reason: String) -> SceneLoadError {
            SceneLoadError(problems: [SceneProblem(file: url.relativePath, location: nil, path: "", reason: reason)])
        }
        // Opened without blocking: a fifo or a device is refused, never waited on.
        let bytes: [UInt8]
        switch InputFile.read(url.path, limit: SceneLimits.maximumFileBytes) {
        case .failure(let error): throw refuse(error.reason)
        case .success(let read): bytes = read
        }
        var scene = try load(bytes: bytes, fileName: name, baseDirectory: url.deletingLastPathComponent(), options: options)
        scene.fileURL = url
        return scene
    }

    /// Loads a scene from bytes; `fileName` names it in errors, `baseDirectory` resolves assets
    /// (and confines them, unless `options` say otherwise). `layerImporters` make layers of types
    /// this stage does not know (`"lottie"`) from files.
    public static func load(bytes: [UInt8], fileName: String, baseDirectory: URL,
                            options: SceneLoadOptions = SceneLoadOptions(),
                            layerImporters: [String: SceneLayerImporter] = [:]) throws(SceneLoadError) -> Scene {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, maxDepth: 2 * SceneLimits.maximumDepth + 16)
        } catch {
            // The reader's container limit is about twice the layer limit; name the one users know.
            let reason = error.message.hasPrefix("nesting deeper than")
                ? "nested deeper than \(SceneLimits.maximumDepth) layers (JSON \(error.message))"
                : "invalid JSON: \(error.message)"
            throw SceneLoadError(problems: [SceneProblem(file: fileName, location: error.location, path: "", reason: reason)])
        }
        let decoder = SceneDecoder(file: fileName, baseDirectory: baseDirectory, options: options)
        decoder.layerImporters = layerImporters
        let scene = decoder.scene(root)
        if var scene, decoder.problems.isEmpty {
            scene.warnings = decoder.warnings
            return scene
        }
        var sorted = decoder.problems.sorted { ($0.location?.offset ?? -1) < ($1.location?.offset ?? -1) }
        if decoder.omittedProblems > 0 {
            let n = decoder.omittedProblems
            sorted.append(SceneProblem(file: fileName, location: nil, path: "",
                                       reason: "… and \(n) more problem\(n == 1 ? "" : "s") not listed"))
        }
        throw SceneLoadError(problems: sorted.isEmpty
            ? [SceneProblem(file: fileName, location: nil, path: "", reason: "invalid scene")] : sorted)
    }
}

extension SceneDecoder {
    /// Decodes the top level; nil when a required part is missing (problems say why).
    func scene(_ node: JSONNode) -> Scene? {
        guard let top = object(node, "") else { return nil }
        defer { top.reportUnknownKeys() }

        if let format = top["format"] {
            if let version = integer(format, "format", in: Int.min...Int.max), version != 1 {
                fail(format, "format", "unsupported format \(version) (this version of Lamina reads format 1)")
            }
        } else {
            fail(node, "format", "missing required key \"format\"")
        }

        var width = 0, height = 0
        if let sizeNode = top["size"] {
            if let v = numbers(sizeNode, "size", count: 2, what: "a size [w, h]") {
                let side = 1...Double(SceneLimits.maximumOutputSide)
                for (i, n) in v.enumerated() where n.rounded() != n || !side.contains(n) {
                    fail(element(sizeNode, i), "size[\(i)]", "\(SceneDecoder.format(n)) must be an integer in 1…\(SceneLimits.maximumOutputSide)")
                }
                if v.allSatisfy({ $0.rounded() == $0 && side.contains($0) }) { (width, height) = (Int(v[0]), Int(v[1])) }
            }
        } else {
            fail(node, "size", "missing required key \"size\"")
        }
        let scale = top["scale"].flatMap { number($0, "scale", in: 0.01...64) } ?? 1
        let fps = top["fps"].flatMap { number($0, "fps", in: 0.001...1000) } ?? 30
        let duration = top["duration"].flatMap { number($0, "duration", in: 0...86_400) }
        var background: CGColor?
        if let b = top["background"], let c = color(b, "background", nullable: true) { background = c }

        var assets: [String: SceneAsset] = [:]
        if let assetsNode = top["assets"], let reader = object(assetsNode, "assets") {
            declaredAssetNames = Set(reader.members.map(\.key))
            for member in reader.members {
                _ = reader[member.key]
                if let asset = asset(member.value, reader.path(member.key)) { assets[member.key] = asset }
            }
        }

        var limits = SceneLimits.Budget.standard
        if let limitsNode = top["limits"], let reader = object(limitsNode, "limits") {
            let fields: [(String, WritableKeyPath<SceneLimits.Budget, Int>)] = [
                ("presentedLayers", \.presentedLayers), ("offscreenPixels", \.offscreenPixels),
                ("keyframeValues", \.keyframeValues), ("pathElements", \.pathElements)]
            for (key, field) in fields {
                // A scene may lower a limit, never raise it.
                if let n = reader[key], let v = integer(n, reader.path(key), in: 0...SceneLimits.Budget.standard[keyPath: field]) {
                    limits[keyPath: field] = v
                }
            }
            reader.reportUnknownKeys()
        }

        var video: VideoBinding?
        if let videoNode = top["video"], let reader = object(videoNode, "video") {
            let assetName = reader["asset"].flatMap { string($0, reader.path("asset")) }
            let layerName = reader["layer"].flatMap { string($0, reader.path("layer")) }
            if !reader.has("asset") { fail(videoNode, "video", "missing required key \"asset\"") }
            if !reader.has("layer") { fail(videoNode, "video", "missing required key \"layer\"") }
            reader.reportUnknownKeys()
            if let assetName, let layerName {
                if let asset = assets[assetName], asset.kind != .video {
                    fail(reader["asset"], reader.path("asset"), "asset \"\(assetName)\" is an image, not a video")
                } else if assets[assetName] == nil, !declaredAssetNames.contains(assetName) {
                    // A declared asset that failed to load has its own error already.
                    fail(reader["asset"], reader.path("asset"), "unknown asset \"\(assetName)\"")
                }
                video = VideoBinding(asset: assetName, layerName: layerName)
            }
        }

        guard let rootNode = top["root"] else {
            fail(node, "root", "missing required key \"root\"")
            return nil
        }
        // Limits are checked before any layer is made.
        if let overflow = Self.firstLayerOverLimit(rootNode, path: "root") {
            fail(overflow.node, overflow.path, "more than \(SceneLimits.maximumLayers) layers")
            return nil
        }
        self.assets = assets
        var context = LayerContext()
        guard let root = layer(rootNode, "root", depth: 0, context: &context) else { return nil }
        if !root.isPropertySet("bounds"), !root.isPropertySet("frame") {
            root.layer.bounds = CGRect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
        }
        if !root.isPropertySet("position"), !root.isPropertySet("frame") {
            root.layer.position = CGPoint(x: root.layer.bounds.midX, y: root.layer.bounds.midY)
        }
        if !root.isPropertySet("contentsScale") { root.layer.contentsScale = scale }

        if let video, problems.isEmpty {
            var found = false
            root.layer.forEachLayerInTree { if $0.name == video.layerName { found = true } }
            if !found { fail(top["video"]?.member("layer")?.value, "video.layer", "no layer named \"\(video.layerName)\"") }
        }

        // Animations go on once the whole tree exists: "now" depends on ancestors' timing.
        for pending in context.pendingAnimations {
            for (key, animation) in pending.animations {
                pending.layer.add(animation, forKey: key, atMediaTime: 0)
            }
        }
        guard problems.isEmpty, width > 0, height > 0 else { return nil }
        return Scene(width: width, height: height, scale: scale, framesPerSecond: fps, duration: duration,
                     background: background, root: root.layer, assets: assets, video: video, fileURL: nil, limits: limits)
    }

    private func asset(_ node: JSONNode, _ path: String) -> SceneAsset? {
        guard let relative = string(node, path) else { return nil }
        guard !relative.isEmpty else {
            fail(node, path, "empty asset path")
            return nil
        }
        guard let url = assetURL(relative, node, path) else { return nil }
        let ext = url.pathExtension.lowercased()
        if ["mp4", "mov", "m4v", "webm", "mkv", "avi"].contains(ext) {
            if let problem = InputFile.problem(at: url.path) {
                fail(node, path, "cannot read video \"\(relative)\": \(problem)")
                return nil
            }
            return SceneAsset(kind: .video, url: url, image: nil)
        }
        // Sizes live in the first few kilobytes; read no more than that (a fifo is refused, not waited on).
        let header: [UInt8]
        switch InputFile.readPrefix(url.path, limit: 64 * 1024) {
        case .failure(let error):
            fail(node, path, "cannot read image \"\(relative)\": \(error.reason)")
            return nil
        case .success(let bytes): header = bytes
        }
        switch ImageHeader.read(header) {
        case .failure(let reason):
            fail(node, path, "\"\(relative)\": \(reason.reason)")
            return nil
        case .success(let info):
            let limit = SceneLimits.maximumImageSide
            guard info.width <= limit, info.height <= limit else {
                fail(node, path, "image \"\(relative)\" is \(info.width)×\(info.height), over the \(limit)×\(limit) limit")
                return nil
            }
            return SceneAsset(kind: .image, url: url, image: CGImage(width: info.width, height: info.height, source: url.path))
        }
    }
}

extension SceneDecoder {
    /// Where an asset path (or an imported layer's `source`) leads: inside the scene's folder
    /// unless the options allow more; nil (a problem recorded) when it leads outside.
    func assetURL(_ relative: String, _ node: JSONNode, _ path: String) -> URL? {
        if options.allowsAssetsOutsideFolder {
            return relative.hasPrefix("/") ? URL(fileURLWithPath: relative) : baseDirectory.appendingPathComponent(relative)
        }
        // The same answer whether or not the file exists: it tells nothing about the machine.
        guard let resolved = AssetPath.confined(relative, in: baseDirectory.path) else {
            fail(node, path, "\"\(relative)\" is outside the scene's folder (assets must resolve inside it, "
                 + "symlinks followed; --allow-assets-outside lifts this for trusted scenes)")
            return nil
        }
        return URL(fileURLWithPath: resolved)
    }
}

/// State shared while decoding the layer tree.
struct LayerContext {
    var layerCount = 0
    var pendingAnimations: [(layer: CALayer, animations: [(String?, CAAnimation)])] = []
}

extension SceneDecoder {
    /// The first layer object past `SceneLimits.maximumLayers` in document order (pre-order:
    /// a layer, its mask, its sublayers), found by walking the JSON without building anything.
    static func firstLayerOverLimit(_ root: JSONNode, path: String) -> (node: JSONNode, path: String)? {
        var count = 0
        var stack: [(JSONNode, String)] = [(root, path)]
        while let (node, path) = stack.popLast() {
            guard case .object(let members) = node.value else { continue }
            count += 1
            if count > SceneLimits.maximumLayers { return (node, path) }
            var children: [(JSONNode, String)] = []
            if let mask = members.first(where: { $0.key == "mask" }) { children.append((mask.value, path + ".mask")) }
            if let sublayers = members.first(where: { $0.key == "sublayers" }), case .array(let items) = sublayers.value.value {
                for (i, item) in items.enumerated() { children.append((item, "\(path).sublayers[\(i)]")) }
            }
            stack.append(contentsOf: children.reversed())
        }
        return nil
    }
}
