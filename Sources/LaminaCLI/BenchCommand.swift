import Foundation
import Lamina

/// `lamina bench`: built-in (or given) scenes rendered by each backend, with per-stage times.
enum BenchCommand {
    static let usage = """
    usage: lamina bench [SCENE…] [--size WxH …] [--seconds S] [--backend gpu|cpu …] [--threads N] [--only TEXT] [--json]

    Renders each built-in benchmark scene (or the scene files given) with both backends, one
    after the other in the same run, and prints frames/s, milliseconds per frame by stage
    (evaluate + plan, raster contents, composite, read back), the process's peak memory so far,
    and how far the two backends' frames agree (PSNR, largest channel difference, share of pixels
    over 2/255). For the textured scenes the same quads drawn by a minimal hand-written GL loop
    (the floor) are timed too.
    Default sizes: 1280x720 and 1920x1080; --seconds per scene and backend (default 1.5);
    --only keeps the built-in scenes whose name contains TEXT; --threads sets the CPU backend's
    thread count (default: one per core).

    lamina bench --export [--backend gpu|cpu] [--no-memory] [--json]
    measures an H.264 export of the animated content scene at 1280x720 against its stages in one
    run: render-only, encode-only and pipelined export frames/s; then the peak memory of a 1,000-
    and a 10,000-frame export of the demo (child processes, several minutes; --no-memory skips them).
    """

    struct Row: Codable {
        var scene: String, size: String
        var gpu: Measurement?, cpu: Measurement?
        var floorFramesPerSecond: Double?
        /// GPU vs CPU on the frame at t = 0.5 s.
        var psnr: Double?, maxDifference: Int?
        /// Percentage of pixels where some channel differs by more than 2/255.
        var pixelsOverTolerancePercent: Double?
        var peakMemoryMB: Double
    }

    struct Measurement: Codable {
        var backend: String
        var framesPerSecond: Double
        var evaluateMs: Double, planMs: Double, rasterMs: Double, compositeMs: Double, readbackMs: Double
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["--size", "--seconds", "--backend", "--only", "--threads"], flags: ["--json", "--help", "-h", "--export", "--no-memory"])
        if args.flags.contains("--help") || args.flags.contains("-h") { print(usage); return 0 }
        if args.flags.contains("--export") { return try runExport(args) }
        let sizes = try (args.values("--size").isEmpty ? ["1280x720", "1920x1080"] : args.values("--size")).map(RenderCommand.size)
        let seconds = try args.values("--seconds").last.map { try RenderCommand.number($0, "--seconds") } ?? 1.5
        let kinds = try backends(args, default: [.gpu, .cpu])
        let gl = kinds.contains(.gpu) ? try RenderCommand.makeBackend(.gpu) as? GLRenderer : nil
        let threads = try args.values("--threads").last.map { text throws(UsageError) -> Int in
            guard let n = Int(text), (1...256).contains(n) else { throw UsageError(description: "--threads must be 1…256, not \(text)") }
            return n
        }
        let cpu = kinds.contains(.cpu) ? (threads.map { CPURenderer(threads: $0) } ?? CPURenderer()) : nil
        var rows: [Row] = []
        for (width, height) in sizes {
            var scenes: [BenchScenes.Scene]
            if args.positional.isEmpty {
                scenes = BenchScenes.all(width: width, height: height)
                if let only = args.values("--only").last { scenes = scenes.filter { $0.name.contains(only) } }
            } else {
                scenes = []
                for file in args.positional {
                    do {
                        let scene = try LottieImporter.loadScene(contentsOf: URL(fileURLWithPath: file))
                        scenes.append(BenchScenes.Scene(name: URL(fileURLWithPath: file).lastPathComponent, root: scene.root, floorLayers: nil, file: scene))
                    } catch {
                        throw JobFailure(description: error.description)
                    }
                }
            }
            for scene in scenes {
                let builder = RenderPlanBuilder(width: width, height: height, scale: scene.file?.scaleToFit(width: width, height: height) ?? 1)
                var row = Row(scene: scene.name, size: "\(width)x\(height)", peakMemoryMB: 0)
                var probeBuilder = builder
                probeBuilder.contentRasterizer = ContentCache()
                let probe = probeBuilder.plan(for: PresentationTree.evaluate(scene.root, at: 0.5))
                var frames: [Image] = []
                if let gl {
                    row.gpu = measure(scene, builder: builder, renderer: gl, seconds: seconds)
                    row.gpu?.backend = "gpu (\(gl.context.rendererName))"
                    if let frame = gl.render(probe, images: FileImageProvider()) { frames.append(frame) }
                    row.floorFramesPerSecond = floor(scene, width: width, height: height, seconds: seconds)
                    gl.context.makeCurrent()
                }
                if let cpu {
                    row.cpu = measure(scene, builder: builder, renderer: cpu, seconds: seconds)
                    row.cpu?.backend = "cpu (\(cpu.threads) threads)"
                    if let frame = cpu.render(probe, images: FileImageProvider()) { frames.append(frame) }
                }
                if frames.count == 2, let difference = ImageComparison.compare(frames[0], frames[1]) {
                    row.psnr = difference.psnr.isFinite ? difference.psnr : nil  // identical frames: JSON has no infinity
                    row.maxDifference = difference.maxChannelDifference
                    row.pixelsOverTolerancePercent = 100 * Double(difference.pixelsOverTolerance) / Double(difference.pixelCount)
                }
                row.peakMemoryMB = Double(ExportSummary.peakResidentMemory()) / 1_048_576
                rows.append(row)
                if !args.flags.contains("--json") {
                    FileHandle.standardError.write(Data("lamina: measured \(scene.name) at \(width)x\(height)\n".utf8))
                }
            }
        }
        if args.flags.contains("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else {
            printTable(rows)
        }
        return 0
    }

    /// The `--backend` values given (each once, in order), or `defaults`.
    static func backends(_ args: Arguments, default defaults: [BackendKind]) throws(UsageError) -> [BackendKind] {
        var kinds: [BackendKind] = []
        for name in args.values("--backend") {
            guard let kind = BackendKind(rawValue: name) else { throw UsageError(description: "--backend must be gpu or cpu, not \(name)") }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds.isEmpty ? defaults : kinds
    }

    /// `--export`: export throughput against its stages, and memory over the video's length.
    static func runExport(_ args: Arguments) throws -> Int32 {
        let kind = try backends(args, default: [.gpu]).last ?? .gpu
        let result = try ExportBench.run(backend: kind, frames: 300, memory: !args.flags.contains("--no-memory"))
        if args.flags.contains("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
            return 0
        }
        print("export of \(result.frames) frames, \(result.scene), \(result.size), H.264, \(result.backend) backend:")
        print(String(format: "  render only  %6.1f fps", result.renderOnlyFramesPerSecond))
        print(String(format: "  encode only  %6.1f fps", result.encodeOnlyFramesPerSecond))
        print(String(format: "  export       %6.1f fps  = %.2f× the slower stage (goal ≥ 0.90×)",
                     result.exportFramesPerSecond, result.exportRatio))
        if let small = result.peakMemoryMB1000Frames, let large = result.peakMemoryMB10000Frames {
            print(String(format: "  peak memory, demo export (1280x720 over video): 1,000 frames %.0f MB, 10,000 frames %.0f MB (%+.1f%%; goal within 10%%)",
                         small, large, (large / small - 1) * 100))
        }
        return 0
    }

    static func measure(_ scene: BenchScenes.Scene, builder: RenderPlanBuilder, renderer: any RenderBackend, seconds: Double) -> Measurement {
        let images = FileImageProvider()
        // A cache per backend run, so each run pays its own first rasterization.
        let contents = ContentCache()
        var builder = builder
        builder.contentRasterizer = contents
        var evaluate = 0.0, plan = 0.0, composite = 0.0, readback = 0.0
        var frames = 0
        // Warm up: uploads textures and sizes the pass targets.
        _ = renderer.render(builder.plan(for: PresentationTree.evaluate(scene.root, at: 0)), images: images)
        let rasterBefore = contents.rasterSeconds
        let start = CACurrentMediaTime()
        while CACurrentMediaTime() - start < seconds || frames < 5 {
            // Past t = 0 (the warm-up frame): the static scene has nothing new to rasterize.
            var t = Double(frames + 1) / 30
            // A file with a timeline (a Lottie animation) loops over it, so every frame is new work.
            if let file = scene.file, let duration = file.duration, duration > 0 {
                t = file.startTime + t.truncatingRemainder(dividingBy: duration)
            }
            let t0 = CACurrentMediaTime()
            let tree = PresentationTree.evaluate(scene.root, at: t)
            let t1 = CACurrentMediaTime()
            let renderPlan = builder.plan(for: tree)
            let t2 = CACurrentMediaTime()
            _ = renderer.render(renderPlan, images: images)
            evaluate += t1 - t0; plan += t2 - t1
            composite += renderer.lastTimings.composite; readback += renderer.lastTimings.readback
            frames += 1
        }
        let total = CACurrentMediaTime() - start
        let ms = { (seconds: Double) in seconds / Double(frames) * 1000 }
        // The plan stage includes rasterizing content; the raster column shows that part alone.
        let raster = contents.rasterSeconds - rasterBefore
        return Measurement(backend: renderer.name, framesPerSecond: Double(frames) / total, evaluateMs: ms(evaluate),
                           planMs: ms(plan - raster), rasterMs: ms(raster), compositeMs: ms(composite), readbackMs: ms(readback))
    }

    /// Frames/s of the hand-written GL loop drawing the scene's quads (nil: no floor for it).
    static func floor(_ scene: BenchScenes.Scene, width: Int, height: Int, seconds: Double) -> Double? {
        guard let count = scene.floorLayers, let floor = try? GLFloorLoop(width: width, height: height) else { return nil }
        // The same quads: matrices taken from the presentation (outside the timed loop).
        let matrixFrames = (0..<30).map { i in floorMatrices(PresentationTree.evaluate(scene.root, at: Double(i) / 30), count: count, width, height) }
        floor.frame(matrixFrames[0])
        var frames = 0
        let start = CACurrentMediaTime()
        while CACurrentMediaTime() - start < seconds || frames < 5 {
            floor.frame(matrixFrames[frames % matrixFrames.count])
            frames += 1
        }
        return Double(frames) / (CACurrentMediaTime() - start)
    }

    /// Clip-space matrices (column-major, as GL reads them) of the first `count` sublayers' quads.
    static func floorMatrices(_ tree: PresentationTree, count: Int, _ width: Int, _ height: Int) -> [[Float]] {
        var toClip = CATransform3DIdentity
        toClip.m11 = 2 / CGFloat(width); toClip.m22 = 2 / CGFloat(height); toClip.m33 = 0
        toClip.m41 = -1; toClip.m42 = -1
        return tree.layers.dropFirst().prefix(count).map { layer in
            let b = layer.properties.bounds
            let unitToRect = CATransform3DMakeScale(b.width, b.height, 1).concatenating(CATransform3DMakeTranslation(b.minX, b.minY, 0))
            return unitToRect.concatenating(layer.transformToRoot).concatenating(toClip).rowMajor.map { Float($0) }
        }
    }

    static func printTable(_ rows: [Row]) {
        let header = ["scene", "size", "gpu fps", "cpu fps", "cpu/gpu", "floor fps", "gpu/floor",
                      "eval+plan", "raster", "gpu composite", "gpu readback", "cpu composite", "psnr", "max diff", "> 2/255", "peak MB"]
        func fixed(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "-" }
        var lines = [header]
        for r in rows {
            let ratio = r.gpu.flatMap { g in r.cpu.map { $0.framesPerSecond / g.framesPerSecond } }
            let vsFloor = r.gpu.flatMap { g in r.floorFramesPerSecond.map { g.framesPerSecond / $0 } }
            lines.append([r.scene, r.size, fixed(r.gpu?.framesPerSecond, "%.1f"), fixed(r.cpu?.framesPerSecond, "%.1f"),
                          fixed(ratio, "%.2fx"), fixed(r.floorFramesPerSecond, "%.1f"), fixed(vsFloor, "%.2fx"),
                          fixed(r.gpu.map { $0.evaluateMs + $0.planMs } ?? r.cpu.map { $0.evaluateMs + $0.planMs }, "%.2f ms"),
                          fixed(r.gpu?.rasterMs ?? r.cpu?.rasterMs, "%.2f ms"),
                          fixed(r.gpu?.compositeMs, "%.2f ms"), fixed(r.gpu?.readbackMs, "%.2f ms"), fixed(r.cpu?.compositeMs, "%.2f ms"),
                          r.psnr.map { $0.isInfinite ? "inf" : String(format: "%.1f dB", $0) } ?? "-",
                          r.maxDifference.map(String.init) ?? "-", fixed(r.pixelsOverTolerancePercent, "%.3f%%"),
                          String(format: "%.0f", r.peakMemoryMB)])
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        for line in lines {
            print(line.enumerated().map { column, text in
                column == 0 ? text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  "))
        }
        let backends = [rows.first?.gpu?.backend, rows.first?.cpu?.backend].compactMap { $0 }
        print("backends: \(backends.joined(separator: ", ")); \(ProcessInfo.processInfo.activeProcessorCount) CPU cores; psnr, max diff, > 2/255: GPU vs CPU frame at t = 0.5 s")
    }
}
