import Foundation
import Lamina

/// `lamina render SCENE -o OUT.mp4|.mov|.webm|.gif`: a scene as a video, composited over the
/// scene's `video` asset when it has one.
enum VideoRender {
    static func run(scene: Scene, output: String, frames: ClosedRange<Int>?, fps: Double, width: Int, height: Int,
                    scale: Double, backend: BackendKind, args: Arguments) throws -> Int32 {
        var composition: VideoComposition?
        var inputDuration: Double?
        if let binding = scene.video, let asset = scene.assets[binding.asset] {
            var layers: [CALayer] = []
            scene.root.forEachLayerInTree { if $0.name == binding.layerName { layers.append($0) } }
            composition = VideoComposition(url: asset.url, layers: layers)
            do { inputDuration = try VideoInfo.probe(asset.url).duration } catch { throw JobFailure(description: error.description) }
        }
        let range: ClosedRange<Int>
        if let frames {
            range = frames
        } else if let duration = scene.duration ?? inputDuration {
            let first = Int((scene.startTime * fps).rounded())
            range = first...max(first, first + Int((duration * fps).rounded()) - 1)
        } else {
            throw UsageError(description: "\(scene.fileURL?.lastPathComponent ?? "scene"): a video needs the scene's \"duration\" or --frames A..B")
        }
        var options = VideoExportOptions(output: URL(fileURLWithPath: output), width: width, height: height,
                                         framesPerSecond: fps, frames: range)
        options.scale = CGFloat(scale)
        options.background = scene.background
        options.codec = args.values("--codec").last
        options.quality = try args.values("--crf").last.map { text throws(UsageError) in
            guard let n = Int(text), (0...63).contains(n) else { throw UsageError(description: "--crf \(text) is not an integer in 0…63") }
            return n
        }
        options.backend = backend
        options.overwrite = args.flags.contains("--overwrite")
        if args.flags.contains("--sequential") { options.queueDepth = 0 }
        if let queue = args.values("--queue").last {
            guard let n = Int(queue), (0...64).contains(n) else { throw UsageError(description: "--queue \(queue) is not an integer in 0…64") }
            options.queueDepth = n
        }
        let exporter = VideoExporter(root: scene.root, options: options, composition: composition)
        // A scene's clock is the export clock (beginTime 0 is the first frame), so Apple's export
        // pitfalls do not apply to scene files.
        exporter.checksExportTiming = false
        guard try ExportRunner.run(exporter, reporting: .init(args)) != nil else { return ExportRunner.interruptedStatus }
        return 0
    }
}
