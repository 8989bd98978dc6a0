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
      --fps N             frames per second, 0.001…1000 (default: the scene's)
      --size WxH          output size in pixels (default: the scene's); without --scale the
                          scene is scaled to fit it
      --scale S           pixels per point (default: the scene's)
      --codec NAME        h264 (mp4, mov), prores (mov), vp9 (webm), gif
      --crf N             quality: H.264 constant quantizer 0…51 (default 20, lower is better),
                          VP9 constant quantizer 0…63 (default 28); not for ProRes, GIF or PNG
      --progress          progress line and summary even when standard error is not a terminal
      --quiet             nothing but errors
      --overwrite         replace existing outputs
      --max-memory MB     refuse the scene, before rendering, when its render would need more
                          (estimated from its budget figures: `lamina inspect SCENE --budget`)
      --allow-assets-outside  let asset paths lead outside the scene's folder (trusted scenes only)
    Ctrl-C, SIGTERM and SIGHUP stop the render and leave no output (frames written are removed);
    exit status 130, 143, 129.
    Outputs are written to a temporary file and renamed into place when complete.

    --plan PLAN --segment I renders segment I of a plan written by `lamina plan --json` into the
    folder DIR (video only, with the plan's settings; SCENE overrides the plan's scene path), as
    DIR/NAME.partial renamed to DIR/NAME when complete, and prints one JSON line:
    {render_id, index, name, frames, frame_count, bytes, sha256}. The same segment is the same
    bytes on every machine and every retry.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["-o", "--output", "--time", "--frames", "--fps", "--size", "--scale", "--backend",
                                                        "--codec", "--crf", "--queue", "--max-memory", "--plan", "--segment"],
                                 flags: ["--overwrite", "--help", "-h", "--quiet", "--progress", "--sequential", "--allow-assets-outside"])
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
        var kind: OutputKind?
        if isVideo {
            do { kind = try OutputKind.forPath(output, codec: args.values("--codec").last) } catch { throw UsageError(description: error.description) }
        } else {
            for option in ["--codec", "--crf", "--queue"] where !args.values(option).isEmpty {
                throw UsageError(description: "\(option) is for video output, not for \(output) (PNG)")
            }
            if args.flags.contains("--sequential") { throw UsageError(description: "--sequential is for video output, not for \(output) (PNG)") }
        }
        let time = try args.values("--time").last.map { try number($0, "--time") }
        let frames = try args.values("--frames").last.map(frameRange)
        if frames != nil, time != nil { throw UsageError(description: "--time and --frames cannot be combined") }
        if frames != nil, !isSequence, !isVideo { throw UsageError(description: "--frames needs an output pattern with %d, such as frames/%05d.png, or a video output") }
        if time != nil, isVideo { throw UsageError(description: "--time is for PNG output; a video takes --frames A..B") }
        let fps = try args.values("--fps").last.map { try number($0, "--fps") }
        if let fps, !(SceneLimits.minimumFramesPerSecond...SceneLimits.maximumFramesPerSecond).contains(fps) {
            throw UsageError(description: "--fps \(args.values("--fps").last!) is outside 0.001…1000")
        }
        let explicitScale = try args.values("--scale").last.map { try number($0, "--scale") }
        if let explicitScale, !(explicitScale > 0 && explicitScale <= 64) { throw UsageError(description: "--scale must be in (0, 64]") }
        let size = try args.values("--size").last.map(self.size)
        let quality = try args.values("--crf").last.map { text throws(UsageError) in
            guard let n = Int(text) else { throw UsageError(description: "--crf \(text) is not an integer") }
            do throws(ExportError) { try kind?.checkQuality(n) } catch { throw UsageError(description: error.description) }
            return n
        }
        let maximumMemory = try args.values("--max-memory").last.map(megabytes)
        var options = Options(args)
        options.quality = quality

        let signals = TerminationSignals()
        defer { signals.uninstall() }
        let scene = try loadScene(sceneFile, args)
        if !options.quiet { for warning in scene.warnings { fail("warning: \(warning)") } }
        var target = SceneOutput(scene: scene, size: size, scale: explicitScale, framesPerSecond: fps)
        let side = 1...SceneLimits.maximumOutputSide
        guard side.contains(target.width), side.contains(target.height) else {
            let option = size != nil ? "--size" : explicitScale != nil ? "--scale" : "the scene's size"
            throw UsageError(description: "output size \(target.width)x\(target.height) (\(option)) is outside 1…\(SceneLimits.maximumOutputSide)")
        }
        target.budget.memoryBytes = maximumMemory
        if isVideo { return try renderVideo(target, output: output, frames: frames, backend: backend, options: options, signals: signals, args: args) }

        let renderer: FrameRenderer
        do { renderer = try target.makeRenderer(backend: backend) } catch { throw JobFailure(failure: error) }
        let sink = PNGSink(pattern: output, overwrite: options.overwrite)
        do {
            if let frames {
                try renderer.render(scene.root, frames: frames, clock: target.clock, into: sink,
                                    isCancelled: { signals.cancellation.isCancelled })
            } else {
                try renderer.render(scene.root, at: time ?? 0, into: sink, isCancelled: { signals.cancellation.isCancelled })
            }
        } catch {
            // The frames written so far are gone (PNGSink.cancel); say why, exit as the signal asks.
            if error == .cancelled || signals.received != nil {
                fail(signals.message)
                return signals.exitStatus
            }
            throw JobFailure(failure: error)
        }
        for problem in renderer.warnings { FileHandle.standardError.write(Data("lamina: warning: \(problem)\n".utf8)) }
        let count = frames?.count ?? 1
        if !options.quiet, count > 1 || isatty(STDERR_FILENO) == 1 {
            FileHandle.standardError.write(Data("lamina: wrote \(count) frame\(count == 1 ? "" : "s") (\(target.width)x\(target.height)) to \(output)\n".utf8))
        }
        return 0
    }

    /// The options of `render` that are not about what to render.
    struct Options {
        var overwrite: Bool
        var quiet: Bool
        var quality: Int?

        init(_ args: Arguments) {
            overwrite = args.flags.contains("--overwrite")
            quiet = args.flags.contains("--quiet")
        }
    }

    /// `render SCENE -o OUT.mp4|.mov|.webm|.gif`: the scene as a video, composited over its
    /// `video` asset when it has one.
    static func renderVideo(_ target: SceneOutput, output: String, frames: ClosedRange<Int>?, backend: BackendKind,
                            options: Options, signals: TerminationSignals, args: Arguments) throws -> Int32 {
        var range: ClosedRange<Int>
        if let frames {
            range = frames
        } else {
            do throws(ExportError) { range = try target.videoFrames() } catch {
                if case .invalidSettings = error { throw UsageError(description: error.description) }
                throw JobFailure(failure: error)
            }
        }
        var export = target.exportOptions(to: URL(fileURLWithPath: output), frames: range, backend: backend)
        export.codec = args.values("--codec").last
        export.quality = options.quality
        export.overwrite = options.overwrite
        if args.flags.contains("--sequential") { export.queueDepth = 0 }
        if let queue = args.values("--queue").last {
            guard let n = Int(queue), (0...64).contains(n) else { throw UsageError(description: "--queue \(queue) is not an integer in 0…64") }
            export.queueDepth = n
        }
        let exporter = VideoExporter(root: target.scene.root, options: export, composition: target.videoComposition)
        // A scene's clock is the export clock (beginTime 0 is the first frame), so Apple's export
        // pitfalls do not apply to scene files.
        exporter.checksExportTiming = false
        guard try ExportRunner.run(exporter, signals: signals, reporting: .init(args)) != nil else { return signals.exitStatus }
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
        let signals = TerminationSignals()
        defer { signals.uninstall() }
        let written = try ExportRunner.supervise(signals: signals, reporting: .init(args)) { attach throws(ExportError) in
            try SegmentRenderer.render(plan, index: index, into: URL(fileURLWithPath: folder), sceneURL: scene, configure: attach)
        }
        guard let manifest = written else { return signals.exitStatus }
        print(manifest.json)
        return 0
    }

    /// The scene or Lottie file (told apart by content), its assets confined unless
    /// `--allow-assets-outside`.
    static func loadScene(_ file: String, _ args: Arguments) throws(JobFailure) -> Scene {
        do {
            return try LottieImporter.loadScene(contentsOf: URL(fileURLWithPath: file),
                                                options: SceneLoadOptions(allowsAssetsOutsideFolder: args.flags.contains("--allow-assets-outside")))
        } catch {
            throw JobFailure(description: error.description)
        }
    }

    /// `--max-memory MB` in bytes.
    static func megabytes(_ text: String) throws(UsageError) -> Int {
        guard let n = Int(text), (16...(1 << 24)).contains(n) else {
            throw UsageError(description: "--max-memory \(text) is not a number of megabytes in 16…16777216")
        }
        return n << 20
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
