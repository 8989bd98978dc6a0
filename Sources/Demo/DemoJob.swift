import Foundation
import Geometry
import Layers
import SceneFormat
import Export

/// `lamina demo`: the built-in demo, a 10 s 1280×720 video of the seed programs (title card,
/// falling petals, swinging door, rotating ship, lower third, progress ring) composited over a
/// background clip with a tone that ffmpeg generates, and a contact sheet beside it.
///
/// The scene is `Examples/demo.json`, embedded at build time with its images, so the demo needs
/// no files: they are written into a scratch folder (removed when the job goes), with the clip.
public final class DemoJob {
    /// The video export; run it (`exporter.run()`) or hand it to something that reports progress.
    public let exporter: VideoExporter
    /// Where the contact sheet goes: `NAME.contact-sheet.png` beside the video.
    public let contactSheet: URL
    public let scene: Scene
    private let scratch: URL

    /// Prepares the demo's export to `output` (replaced if it exists); `frames` defaults to the
    /// whole scene. Makes the output's folder.
    public init(output: URL, backend: BackendKind = .gpu, frames: ClosedRange<Int>? = nil) throws {
        _ = try OutputKind.forPath(output.path, allowsImages: false)
        let folder = output.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ExportError.cannotWrite(path: folder.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-demo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        do {
            scene = try Self.loadScene(into: scratch)
            let target = SceneOutput(scene: scene)
            let clip = scratch.appendingPathComponent("background.mp4")
            try Self.makeBackgroundClip(clip, seconds: scene.duration ?? 10, width: target.width, height: target.height,
                                        clock: target.clock)
            var videoLayers: [CALayer] = []
            scene.root.forEachLayerInTree { if $0.name == "videoLayer" { videoLayers.append($0) } }
            var options = target.exportOptions(to: output, frames: try frames ?? target.videoFrames(), backend: backend)
            options.overwrite = true
            exporter = VideoExporter(root: scene.root, options: options, composition: VideoComposition(url: clip, layers: videoLayers))
            exporter.checksExportTiming = false  // the demo's animations are written for the export clock
            contactSheet = output.deletingPathExtension().appendingPathExtension("contact-sheet.png")
            exporter.additionalSinks = [ContactSheetSink(output: contactSheet)]
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(at: scratch) }

    /// The embedded demo scene, its files written into `folder` first.
    public static func loadScene(into folder: URL) throws -> Scene {
        try writeExamples(into: folder)
        return try SceneLoader.load(contentsOf: folder.appendingPathComponent("demo.json"))
    }

    /// Writes the embedded examples into `folder`: `demo.json`, `title-card.json` and their
    /// images under `assets/`.
    public static func writeExamples(into folder: URL) throws {
        for (path, base64) in EmbeddedExamples.files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard let data = Data(base64Encoded: base64) else { throw ExportError.invalidSettings("embedded \(path) is damaged") }
            try data.write(to: url)
        }
    }

    /// A colourful moving background with a quiet tone: `gradients` + `sine`, H.264 + AAC.
    static func makeBackgroundClip(_ url: URL, seconds: Double, width: Int, height: Int, clock: FrameClock) throws {
        let duration = String(format: "%.3f", seconds)
        _ = try FFmpegProcess.run(arguments: [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "gradients=s=\(width)x\(height):r=\(String(format: "%g", clock.framesPerSecond)):n=3:c0=0x10204f:c1=0x3c7dd9:c2=0xb04a8c:speed=0.015:d=\(duration)",
            "-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=\(duration)",
            "-c:v", "libx264", "-preset", "ultrafast", "-qp", "18", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-b:a", "96k", "-shortest", url.path,
        ])
    }
}
