import Foundation
import Geometry
import Layers
import SceneFormat

/// Imports Lottie files (Bodymovin JSON 4.x–5.x, or `.lottie` archives) as Core Animation layer
/// trees, as lottie-ios's Core Animation rendering engine builds them.
///
/// Strict in what it reads: malformed JSON, wrong types, missing assets and exceeded limits are
/// errors listed as `file:line:column: JSON path: reason`, and nothing is returned. Keys the
/// importer has no use for are ignored, as every Lottie player ignores them.
public enum LottieImporter {
    /// Whether `bytes` look like a Lottie file: a `.lottie` (zip) archive, or a JSON object with
    /// the keys every Lottie composition has (`layers`, `w`, `h`, `fr`, `ip`, `op`).
    public static func isLottie(_ bytes: [UInt8]) -> Bool {
        if ZipArchive.hasSignature(bytes) { return true }
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return false }
        // Look for the composition keys near the top without parsing the whole file.
        let head = String(decoding: bytes[i..<min(bytes.count, i + 1 << 20)], as: UTF8.self)
        if head.contains("\"format\"") && head.contains("\"root\"") { return false }
        return ["\"layers\"", "\"fr\"", "\"ip\"", "\"op\""].allSatisfy { head.contains($0) }
    }

    /// Imports the file at `url` (JSON or `.lottie`); assets resolve relative to its folder.
    public static func load(contentsOf url: URL, flipsNegativeScale: Bool = true) throws(SceneLoadError) -> LottieImport {
        let name = url.lastPathComponent
        let bytes = try readFile(url)
        return try load(bytes: bytes, fileName: name, baseDirectory: url.deletingLastPathComponent(), flipsNegativeScale: flipsNegativeScale)
    }

    /// Imports a Lottie file from bytes; `fileName` names it in errors.
    ///
    /// - Parameter flipsNegativeScale: draw layers with a negative x scale mirrored (a half turn
    ///   about y, as lottie-ios does); false draws them unmirrored, as lottie-ios's snapshot-test
    ///   mode does.
    public static func load(bytes: [UInt8], fileName: String, baseDirectory: URL?,
                            flipsNegativeScale: Bool = true) throws(SceneLoadError) -> LottieImport {
        func problem(_ reason: String, _ location: JSONLocation? = nil, _ path: String = "") -> SceneLoadError {
            SceneLoadError(problems: [SceneProblem(file: fileName, location: location, path: path, reason: reason)])
        }
        var json = bytes
        var archiveImages: [String: [UInt8]] = [:]
        var displayName = fileName
        if ZipArchive.hasSignature(bytes) {
            do {
                let archive = try ZipArchive(bytes)
                let (animationPath, animationBytes) = try archive.firstAnimation()
                json = animationBytes
                displayName = "\(fileName)/\(animationPath)"
                for entry in archive.entries where entry.name.lowercased().hasSuffix(".png") || entry.name.lowercased().hasSuffix(".jpg")
                    || entry.name.lowercased().hasSuffix(".jpeg") || entry.name.lowercased().hasSuffix(".webp") {
                    let data = try archive.contents(of: entry)
                    // Images are named by their path under the archive's images folder.
                    let relative = entry.name.split(separator: "/").drop { $0 != "images" && $0 != "i" }.dropFirst().joined(separator: "/")
                    archiveImages[relative.isEmpty ? entry.name : relative] = data
                    archiveImages[entry.name] = data
                }
            } catch {
                throw problem(error.description)
            }
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(json, maxDepth: SceneLimits.Lottie.maximumJSONDepth)
        } catch {
            throw problem("invalid JSON: \(error.message)", error.location)
        }
        let decoder = LottieDecoder(file: displayName, baseDirectory: baseDirectory)
        decoder.archiveImages = archiveImages
        let document = decoder.document(root)
        guard let document, decoder.problems.isEmpty else {
            throw failure(decoder.problems, omitted: decoder.omittedProblems, file: displayName)
        }
        if let baseDirectory { FontFiles.register(decoder.fontNames, near: baseDirectory) }
        let builder = LayerTreeBuilder(document: document, file: displayName, warnings: decoder.warnings,
                                       flipsNegativeScale: flipsNegativeScale)
        let tree = builder.buildRoot()
        guard builder.problems.isEmpty else { throw failure(builder.problems, omitted: 0, file: displayName) }
        let animation = LottieAnimation(
            size: CGSize(width: document.width, height: document.height), frameRate: document.frameRate,
            startFrame: document.inFrame, endFrame: document.outFrame,
            markers: document.markers.map { .init(name: $0.name, frame: $0.frame, durationFrames: $0.durationFrames) },
            version: document.version, name: document.name)
        return LottieImport(animation: animation, root: tree, warnings: builder.warnings.map { SceneProblem(file: displayName, location: nil, path: "", reason: $0) })
    }

    /// The file as a scene: the composition at scale 1, frames `ip … op − 1` for whole-file exports.
    public static func scene(contentsOf url: URL) throws(SceneLoadError) -> Scene {
        let imported = try load(contentsOf: url)
        return scene(imported, url: url)
    }

    static func scene(_ imported: LottieImport, url: URL?) -> Scene {
        let a = imported.animation
        var scene = Scene(width: max(1, Int(a.size.width.rounded(.up))), height: max(1, Int(a.size.height.rounded(.up))),
                          framesPerSecond: a.frameRate, root: imported.root)
        scene.pointSize = a.size
        scene.startTime = a.startFrame / a.frameRate
        scene.duration = a.duration
        scene.warnings = imported.warnings
        scene.fileURL = url
        return scene
    }

    /// Loads a scene file or a Lottie file, told apart by content: the one call a tool needs.
    /// Scene files may hold Lottie animations as `{"type": "lottie", "source": …}` layers.
    public static func loadScene(contentsOf url: URL, options: SceneLoadOptions = SceneLoadOptions()) throws(SceneLoadError) -> Scene {
        let bytes = try readFile(url)
        var scene = try loadScene(bytes: bytes, fileName: url.lastPathComponent, baseDirectory: url.deletingLastPathComponent(), options: options)
        scene.fileURL = url
        return scene
    }

    /// `loadScene(contentsOf:options:)` from bytes; `fileName` names the file in errors.
    public static func loadScene(bytes: [UInt8], fileName: String, baseDirectory: URL,
                                 options: SceneLoadOptions = SceneLoadOptions()) throws(SceneLoadError) -> Scene {
        if isLottie(bytes) {
            return scene(try load(bytes: bytes, fileName: fileName, baseDirectory: baseDirectory), url: nil)
        }
        return try SceneLoader.load(bytes: bytes, fileName: fileName, baseDirectory: baseDirectory, options: options,
                                    layerImporters: ["lottie": LottieSceneLayer.importer])
    }

    static func readFile(_ url: URL) throws(SceneLoadError) -> [UInt8] {
        switch InputFile.read(url.path, limit: SceneLimits.maximumFileBytes) {
        case .success(let bytes): return bytes
        case .failure(let failure): throw SceneLoadError(problems: [SceneProblem(file: url.relativePath, location: nil, path: "", reason: failure.reason)])
        }
    }

    private static func failure(_ problems: [SceneProblem], omitted: Int, file: String) -> SceneLoadError {
        var sorted = problems.sorted { ($0.location?.offset ?? Int.max) < ($1.location?.offset ?? Int.max) }
        if omitted > 0 {
            sorted.append(SceneProblem(file: file, location: nil, path: "", reason: "… and \(omitted) more problem\(omitted == 1 ? "" : "s") not listed"))
        }
        if sorted.isEmpty { sorted = [SceneProblem(file: file, location: nil, path: "", reason: "invalid Lottie file")] }
        return SceneLoadError(problems: sorted)
    }
}

/// Scene-file layers of type `"lottie"`: `{"type": "lottie", "source": "anim.json", …}`.
enum LottieSceneLayer {
    static let importer = SceneLayerImporter { (url: URL) throws(SceneLoadError) -> (layer: CALayer, warnings: [SceneProblem]) in
        let layer = try LottieLayer(contentsOf: url)
        return (layer, layer.importWarnings)
    } finish: { layer in
        (layer as? LottieLayer)?.layoutComposition()
    }
}

