import Foundation
import Lamina

/// `lamina render SCENE -o OUT [options]`: PNG frames of a scene (cli.md).
enum RenderCommand {
    static let usage = """
    usage: lamina render SCENE -o OUT [--time T | --frames A..B] [options]
           lamina render --plan PLAN --segment I -o DIR [SCENE]

    OUT ending in .png writes one frame (at --time, default 0); a name with a %d-style pattern
    (frames/%05d.png) writes a PNG sequence of --frames A..B (frame i is at time i/fps).
    Video (through ffmpeg): .mp4/.mov H.264; .webm VP9 (alpha kept when the background is
    transparent); .mov with --codec prores ProRes 4444 (alpha kept); .gif. A video renders the
    scene's duration (or the composited video's), or --frames A..B as a self-contained segment
    that `lamina join` can join.
    options:
      --backend gpu|cpu   renderer (default gpu: headless EGL + OpenGL ES 3; cpu: the
                          reference renderer, same pixels within rounding)
      --time T            time of a single frame, seconds
      --frames A..B       frames A to B inclusive
      --fps N             frames per second (default: the scene's)
      --size WxH          output size in pixels (default: the scene's); without --scale the
                          scene is scaled to fit it
      --scale S           pixels per point (default: the scene's)
      --codec NAME        h264 (mp4, mov), prores (mov), vp9 (webm), gif
      --crf N             quality: H.264 constant quantizer (default 20, lower is better),
                          VP9 constant quantizer (default 28); ProRes and GIF ignore it
      --progress          progress line and summary even when standard error is not a terminal
      --quiet             nothing but errors
      --overwrite         replace existing outputs
    Ctrl-C stops the export and leaves no output.
    Outputs are written to a temporary file and renamed into place when complete.

    --plan PLAN --segment I renders segment I of a plan written by `lamina plan --json` into the
    folder DIR (video only, with the plan's settings; SCENE overrides the plan's scene path), as
    DIR/NAME.partial renamed to DIR/NAME when complete, and prints one JSON line:
    {render_id, index, name, frames, frame_count, bytes, sha256}. The same segment is the same
    bytes on every machine and every retry.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["-o", "--output", "--time", "--frames", "--fps", "--size", "--scale", "--backend",
                                                        "--codec", "--crf", "--queue", "--plan", "--segment"],
                                 flags: ["--overwrite", "--help", "-h", "--quiet", "--progress", "--sequential"])
        if args.flags.contains("--help") || args.flags.contains("-h") {
            print(usage)
            return 0
        }
        if let plan = args.values("--plan").last { return try renderSegment(plan: plan, args: args) }
        guard args.positional.count == 1, let sceneFile = args.positional.first else {
            throw UsageError(description: args.positional.isEmpty ? "render needs a scene file" : "render takes one scene file")
        }
        guard let output = (args.values("-o") + args.values("--output")).last else {
            throw UsageError(description: "render needs -o OUT")
        }
        let backendName = args.values("--backend").last ?? "gpu"
        guard let backend = BackendKind(rawValue: backendName) else {
            throw UsageError(description: "--backend must be gpu or cpu, not \(backendName)")
        }
        let isSequence = PNGSink.isSequencePattern(output)
        let isVideo = !output.lowercased().hasSuffix(".png")
        if isVideo {
            do { _ = try OutputKind.forPath(output, codec: args.values("--codec").last) } catch { throw UsageError(description: error.description) }
        }
        let time = try args.values("--time").last.map { try number($0, "--time") }
        let frames = try args.values("--frames").last.map(frameRange)
        if frames != nil, time != nil { throw UsageError(description: "--time and --frames cannot be combined") }
        if frames != nil, !isSequence, !isVideo { throw UsageError(description: "--frames needs an output pattern with %d, such as frames/%05d.png, or a video output") }
        if time != nil, isVideo { throw UsageError(description: "--time is for PNG output; a video takes --frames A..B") }

        let scene: Scene
        do { scene = try SceneLoader.load(contentsOf: URL(fileURLWithPath: sceneFile)) } catch { throw JobFailure(description: error.description) }
        let fps = try args.values("--fps").last.map { try number($0, "--fps") }
        if let fps, !(fps > 0) { throw UsageError(description: "--fps must be positive") }
        let explicitScale = try args.values("--scale").last.map { try number($0, "--scale") }
        if let explicitScale, !(explicitScale > 0 && explicitScale <= 64) { throw UsageError(description: "--scale must be in (0, 64]") }
        let size = try args.values("--size").last.map(self.size)
        let target = SceneOutput(scene: scene, size: size, scale: explicitScale, framesPerSecond: fps)
        let side = 1...SceneLimits.maximumOutputSide
        guard side.contains(target.width), side.contains(target.height) else {
            throw UsageError(description: "output size \(target.width)x\(target.height) is outside 1…\(SceneLimits.maximumOutputSide)")
        }
        if isVideo { return try renderVideo(target, output: output, frames: frames, backend: backend, args: args) }

        let renderer: FrameRenderer
        do { renderer = try target.makeRenderer(backend: backend) } catch { throw JobFailure(failure: error) }
        let overwrite = args.flags.contains("--overwrite")
        let sink = PNGSink(pattern: output, overwrite: overwrite)
        do {
            if let frames {
                try renderer.render(scene.root, frames: frames, clock: target.clock, into: sink)
            } else {
                try renderer.render(scene.root, at: time ?? 0, into: sink)
            }
        } catch {
            throw JobFailure(failure: error)
        }
        for problem in renderer.warnings { FileHandle.standardError.write(Data("lamina: warning: \(problem)\n".utf8)) }
        let count = frames?.count ?? 1
        if !args.flags.contains("--quiet"), count > 1 || isatty(STDERR_FILENO) == 1 {
            FileHandle.standardError.write(Data("lamina: wrote \(count) frame\(count == 1 ? "" : "s") (\(target.width)x\(target.height)) to \(output)\n".utf8))
        }
        return 0
    }

    /// `render SCENE -o OUT.mp4|.mov|.webm|.gif`: the scene as a video, composited over its
    /// `video` asset when it has one.
    static func renderVideo(_ target: SceneOutput, output: String, frames: ClosedRange<Int>?, backend: BackendKind,
                            args: Arguments) throws -> Int32 {
        var range: ClosedRange<Int>
        if let frames {
            range = frames
        } else {
            do throws(ExportError) { range = try target.videoFrames() } catch {
                if case .invalidSettings = error { throw UsageError(description: error.description) }
                throw JobFailure(failure: error)
            }
        }
        var options = target.exportOptions(to: URL(fileURLWithPath: output), frames: range, backend: backend)
        options.codec = args.values("--codec").last
        options.quality = try args.values("--crf").last.map { text throws(UsageError) in
            guard let n = Int(text), (0...63).contains(n) else { throw UsageError(description: "--crf \(text) is not an integer in 0…63") }
            return n
        }
        options.overwrite = args.flags.contains("--overwrite")
        if args.flags.contains("--sequential") { options.queueDepth = 0 }
        if let queue = args.values("--queue").last {
            guard let n = Int(queue), (0...64).contains(n) else { throw UsageError(description: "--queue \(queue) is not an integer in 0…64") }
            options.queueDepth = n
        }
        let exporter = VideoExporter(root: target.scene.root, options: options, composition: target.videoComposition)
        // A scene's clock is the export clock (beginTime 0 is the first frame), so Apple's export
        // pitfalls do not apply to scene files.
        exporter.checksExportTiming = false
        guard try ExportRunner.run(exporter, reporting: .init(args)) != nil else { return ExportRunner.interruptedStatus }
        return 0
    }

    /// `render --plan PLAN --segment I -o DIR [SCENE]`.
    static func renderSegment(plan path: String, args: Arguments) throws -> Int32 {
        guard let indexText = args.values("--segment").last, let index = Int(indexText), index >= 0 else {
            throw UsageError(description: "--plan needs --segment I (an index ≥ 0)")
        }
        guard let folder = (args.values("-o") + args.values("--output")).last else { throw UsageError(description: "--plan needs -o DIR") }
        let settingOptions = ["--time", "--frames", "--fps", "--size", "--scale", "--backend", "--codec", "--crf"]
        if let given = settingOptions.first(where: { !args.values($0).isEmpty }) {
            throw UsageError(description: "\(given) cannot be combined with --plan (the plan's settings are used)")
        }
        guard args.positional.count <= 1 else { throw UsageError(description: "render --plan takes at most one scene file") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw JobFailure(description: "\(folder): no such folder (the segment is written into it)")
        }
        let plan: SegmentPlan
        do { plan = try SegmentPlan.read(contentsOf: URL(fileURLWithPath: path)) } catch { throw JobFailure(failure: error) }
        let scene = args.positional.first.map { URL(fileURLWithPath: $0) }
        let written = try ExportRunner.supervise(reporting: .init(args)) { attach throws(ExportError) in
            try SegmentRenderer.render(plan, index: index, into: URL(fileURLWithPath: folder), sceneURL: scene, configure: attach)
        }
        guard let manifest = written else { return ExportRunner.interruptedStatus }
        print(manifest.json)
        return 0
    }

    static func number(_ text: String, _ option: String) throws(UsageError) -> Double {
        guard let v = Double(text), v.isFinite else { throw UsageError(description: "\(option) \(text) is not a finite number") }
        return v
    }

    static func size(_ text: String) throws(UsageError) -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw UsageError(description: "--size \(text) is not WxH")
        }
        return (w, h)
    }

    static func frameRange(_ text: String) throws(UsageError) -> ClosedRange<Int> {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= a else {
            throw UsageError(description: "--frames \(text) is not A..B with 0 ≤ A ≤ B")
        }
        guard b - a < SceneLimits.maximumFrames else { throw UsageError(description: "--frames \(text) is more than 1,000,000 frames") }
        return a...b
    }
}
