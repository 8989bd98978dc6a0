import Foundation
import Lamina
import Benchmarks

/// `lamina bench`: built-in (or given) scenes rendered by each backend, with per-stage times.
enum BenchCommand {
    static let usage = """
    usage: lamina bench [SCENE…] [--size WxH …] [--seconds S] [--backend gpu|cpu …] [--threads N] [--only TEXT] [--json]
                        [--sequential | --plan-ahead] [--html OUT.html]

    Renders each built-in benchmark scene (or the scene files given) with both backends, one
    after the other in the same run, and prints frames/s, milliseconds per frame by stage
    (evaluate + plan, raster contents, composite, read back), the process's peak memory so far,
    and how far the two backends' frames agree (PSNR, largest channel difference, share of pixels
    over 2/255). For the textured scenes the same quads drawn by a minimal hand-written GL loop
    (the floor) are timed too. What a goal compares is timed with its runs of frames
    alternating (so the machine's drift falls on both): plain and rounded cards on each backend,
    each textured scene and its floor.
    Default sizes: 1280x720 and 1920x1080; --seconds per scene and backend (default 1.5);
    --only keeps the built-in scenes whose name contains TEXT; --threads sets the CPU backend's
    thread count (default: one per core). Frames are drawn as an export draws them, each planned
    while the one before draws (with the CPU backend always, with GL on llvmpipe where planning
    takes long enough); --plan-ahead always does, --sequential never does. --html OUT.html also
    writes the run as a page (a bar chart of frames/s, stage breakdowns, agreement, and each
    scene's GPU frame, CPU frame and difference image inline) and its JSON beside it (OUT.json).

    lamina bench --export [--backend gpu|cpu] [--no-memory] [--json]
    measures an H.264 export of the animated content scene at 1280x720 against its stages in one
    run: render-only, encode-only and pipelined export frames/s; the title card over a clip through
    AVAssetExportSession against the same job through `lamina render`; then the peak memory of a
    1,000- and a 10,000-frame export of the demo (child processes, several minutes; --no-memory
    skips them).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["--size", "--seconds", "--backend", "--only", "--threads", "--html"], flags: ["--json", "--help", "-h", "--export", "--no-memory", "--sequential", "--plan-ahead"])
        if args.flags.contains("--help") || args.flags.contains("-h") { print(usage); return 0 }
        if args.flags.contains("--export") { return try runExport(args) }
        var options = RenderBench.Options()
        if !args.values("--size").isEmpty { options.sizes = try args.values("--size").map(RenderCommand.size) }
        options.seconds = try args.values("--seconds").last.map { try RenderCommand.number($0, "--seconds") } ?? 1.5
        options.backends = try backends(args, default: [.gpu, .cpu])
        options.threads = try args.values("--threads").last.map { text throws(UsageError) -> Int in
            guard let n = Int(text), (1...256).contains(n) else { throw UsageError(description: "--threads must be 1…256, not \(text)") }
            return n
        }
        options.only = args.values("--only").last
        options.plansAhead = !args.flags.contains("--sequential")
        if args.flags.contains("--plan-ahead") { options.planningAheadThreshold = 0 }
        if !args.positional.isEmpty {
            options.scenes = try args.positional.map { file throws(JobFailure) in
                do {
                    let scene = try LottieImporter.loadScene(contentsOf: URL(fileURLWithPath: file))
                    return BenchScenes.Scene(name: URL(fileURLWithPath: file).lastPathComponent, file: scene)
                } catch {
                    throw JobFailure(description: "\(error)")
                }
            }
        }
        let html = args.values("--html").last
        options.keepsFrames = html != nil
        let json = args.flags.contains("--json")
        if !json {
            options.onRow = { row in FileHandle.standardError.write(Data("lamina: measured \(row.scene) at \(row.size)\n".utf8)) }
        }
        let rows: [RenderBench.Row]
        do { rows = try RenderBench.run(options) } catch { throw JobFailure(failure: .backendUnavailable(error.description)) }
        if let html {
            let written: URL
            do { written = try BenchReport.write(rows, to: URL(fileURLWithPath: html)) } catch {
                throw JobFailure(description: "cannot write \(html): \(error.localizedDescription)")
            }
            FileHandle.standardError.write(Data("lamina: wrote \(html) and \(written.relativePath)\n".utf8))
        }
        if json {
            print(String(decoding: try RenderBench.json(rows), as: UTF8.self))
        } else {
            print(RenderBench.table(rows))
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
        let result: ExportBench.Result
        do {
            result = try ExportBench.run(backend: kind, frames: 300, memory: !args.flags.contains("--no-memory"))
        } catch let error as ExportError {
            throw JobFailure(failure: error)
        } catch {
            throw JobFailure(description: "\(error)")
        }
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
        if let bound = result.sharedCoreBoundFramesPerSecond, let ratio = result.exportVersusSharedCoreBound {
            print(String(format: "  shared-core bound 1/(1/render + 1/encode) %6.1f fps: export at %.2f× it", bound, ratio))
        }
        if let av = result.avFoundation {
            print(String(format: "  title card over a 7 s clip, %d frames: lamina render %.1f fps, AVAssetExportSession %.1f fps = %+.1f%% wall, %+.1f%% CPU (%.1f vs %.1f s; goal ≤ +5%%)",
                         av.frames, av.sceneFramesPerSecond, av.sessionFramesPerSecond, av.overhead * 100, av.cpuOverhead * 100,
                         av.sessionCPUSeconds, av.sceneCPUSeconds)
                  + (av.agreementPSNR.map { String(format: "; outputs agree at %.1f dB", $0) } ?? ""))
        }
        if let small = result.peakMemoryMB1000Frames, let large = result.peakMemoryMB10000Frames {
            print(String(format: "  peak memory, demo export (1280x720 over video): 1,000 frames %.0f MB, 10,000 frames %.0f MB (%+.1f%%; goal within 10%%)",
                         small, large, (large / small - 1) * 100))
        }
        return 0
    }
}
