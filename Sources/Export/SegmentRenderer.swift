import Foundation
import SceneFormat
import LottieImport
#if canImport(Glibc)
import Glibc
#endif

/// What rendering one segment of a plan wrote: printed by `lamina render --plan P --segment I`
/// as one JSON line, and checked by whoever joins (or resumes) the render.
public struct SegmentManifest: Codable, Equatable, Sendable {
    public var renderID: String
    public var index: Int
    public var name: String
    public var frames: [Int]
    public var frameCount: Int
    public var bytes: Int64
    public var sha256: String

    enum CodingKeys: String, CodingKey {
        case renderID = "render_id", index, name, frames, frameCount = "frame_count", bytes, sha256
    }

    /// One line of JSON (sorted keys).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// Renders one segment of a `SegmentPlan` into a folder: video only (the audio is muxed once at
/// join time), written as `NAME.partial` and renamed to `NAME` when complete, so an interrupted
/// or killed render leaves no file under the segment's name; a retry replaces the partial file.
public enum SegmentRenderer {
    /// Renders segment `index` of `plan` from the scene at `sceneURL` (default: the plan's) into
    /// `folder`, after checking that the scene and this build are the planned ones.
    ///
    /// - Parameter configure: adjusts the exporter (progress, cancellation) before it runs.
    public static func render(_ plan: SegmentPlan, index: Int, into folder: URL, sceneURL: URL? = nil,
                              configure: (VideoExporter) -> Void = { _ in }) throws(ExportError) -> SegmentManifest {
        guard let segment = plan.segments.first(where: { $0.index == index }) else {
            throw .invalidSettings("the plan has no segment \(index) (it has 0…\(plan.segments.count - 1))")
        }
        let url = sceneURL ?? URL(fileURLWithPath: plan.scene)
        try plan.verify(sceneURL: url)
        let scene: Scene
        do { scene = try LottieImporter.loadScene(contentsOf: url) } catch { throw .badInput(path: url.path, reason: error.description) }
        let s = plan.settings
        guard let backend = BackendKind(rawValue: s.backend) else { throw .invalidSettings("unknown backend \"\(s.backend)\" in the plan") }
        let target = SceneOutput(scene: scene, size: (s.width, s.height), scale: s.scale, framesPerSecond: s.fps)
        let final = folder.appendingPathComponent(segment.name)
        let partial = folder.appendingPathComponent(segment.name + ".partial")
        // A plan counts frames from the video's first (a Lottie file's ip).
        let first = target.firstFrame
        var options = target.exportOptions(to: partial, frames: (segment.range.lowerBound + first)...(segment.range.upperBound + first),
                                           backend: backend)
        options.kind = try s.outputKind()
        options.quality = s.quality
        options.encoderThreads = s.encoderThreads
        options.includesAudio = false
        options.overwrite = true
        options.keyframeInterval = plan.keyframeInterval
        let exporter = VideoExporter(root: scene.root, options: options, composition: target.videoComposition)
        exporter.checksExportTiming = false
        configure(exporter)
        let summary = try exporter.run()
        guard rename(partial.path, final.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial.path)
            throw .cannotWrite(path: final.path, reason: reason)
        }
        let digest: String
        do { digest = try SHA256.hex(ofFile: final) } catch { throw .cannotWrite(path: final.path, reason: "cannot be read back") }
        return SegmentManifest(renderID: plan.renderID, index: index, name: segment.name, frames: segment.frames,
                               frameCount: segment.range.count, bytes: summary.bytes, sha256: digest)
    }
}
