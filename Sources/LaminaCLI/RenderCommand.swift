import Foundation
import Lamina

/// `lamina render SCENE -o OUT [options]`: PNG frames of a scene (cli.md).
enum RenderCommand {
    static let usage = """
    usage: lamina render SCENE -o OUT [--time T | --frames A..B] [options]

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
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["-o", "--output", "--time", "--frames", "--fps", "--size", "--scale", "--backend",
                                                        "--codec", "--crf", "--queue"],
                                 flags: ["--overwrite", "--help", "-h", "--quiet", "--progress", "--sequential"])
        if args.flags.contains("--help") || args.flags.contains("-h") {
            print(usage)
            return 0
        }
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
        let isSequence = output.range(of: #"%0?\d*d"#, options: .regularExpression) != nil
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
        do { scene = try LottieImporter.loadScene(contentsOf: URL(fileURLWithPath: sceneFile)) } catch { throw JobFailure(description: error.description) }
        let fps = try args.values("--fps").last.map { try number($0, "--fps") } ?? scene.framesPerSecond
        guard fps > 0 else { throw UsageError(description: "--fps must be positive") }
        let explicitScale = try args.values("--scale").last.map { try number($0, "--scale") }
        if let explicitScale, !(explicitScale > 0 && explicitScale <= 64) { throw UsageError(description: "--scale must be in (0, 64]") }
        var scale = explicitScale ?? scene.scale
        var (width, height) = (Int((Double(scene.width) / scene.scale * scale).rounded()), Int((Double(scene.height) / scene.scale * scale).rounded()))
        if let size = args.values("--size").last {
            (width, height) = try self.size(size)
            // A new size without --scale scales the scene to fit it.
            if explicitScale == nil {
                scale = scene.scaleToFit(width: width, height: height)
            }
        }
        guard (1...16384).contains(width), (1...16384).contains(height) else {
            throw UsageError(description: "output size \(width)x\(height) is outside 1…16384")
        }
        if isVideo {
            return try VideoRender.run(scene: scene, output: output, frames: frames, fps: fps, width: width, height: height,
                                       scale: scale, backend: backend, args: args)
        }
        let renderer = try makeBackend(backend)

        let jobs: [(time: Double, path: String)]
        if let frames {
            jobs = frames.map { (Double($0) / fps, String(format: output, $0)) }
        } else {
            jobs = [(time ?? 0, isSequence ? String(format: output, 0) : output)]
        }
        let overwrite = args.flags.contains("--overwrite")
        if !overwrite, let existing = jobs.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            throw JobFailure(description: "\(existing.path): already exists (use --overwrite to replace it)")
        }
        let images = FileImageProvider()
        let contents = ContentCache()
        let builder = RenderPlanBuilder(width: width, height: height, scale: CGFloat(scale), background: scene.background,
                                        contentRasterizer: contents)
        for job in jobs {
            let tree = PresentationTree.evaluate(scene.root, at: job.time)
            if ProcessInfo.processInfo.environment["LAMINA_PLAN"] != nil { FileHandle.standardError.write(Data(builder.plan(for: tree).description.utf8)) }
            guard let frame = renderer.render(builder.plan(for: tree), images: images) else {
                throw JobFailure(description: "\(job.path): the renderer returned no frame")
            }
            do {
                try ImageFile.writePNG(frame, to: URL(fileURLWithPath: job.path), overwrite: overwrite)
            } catch {
                throw JobFailure(description: error.description)
            }
        }
        for problem in scene.warnings + images.problems + contents.warnings { FileHandle.standardError.write(Data("lamina: warning: \(problem)\n".utf8)) }
        if !args.flags.contains("--quiet"), jobs.count > 1 || isatty(STDERR_FILENO) == 1 {
            FileHandle.standardError.write(Data("lamina: wrote \(jobs.count) frame\(jobs.count == 1 ? "" : "s") (\(width)x\(height)) to \(output)\n".utf8))
        }
        return 0
    }

    /// The renderer, or the error users need when no EGL display can be made.
    static func makeBackend(_ kind: BackendKind) throws(JobFailure) -> any RenderBackend {
        do { return try kind.makeBackend() } catch { throw JobFailure(description: error.description) }
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
        guard b - a < 1_000_000 else { throw UsageError(description: "--frames \(text) is more than 1,000,000 frames") }
        return a...b
    }
}
