import Foundation
import Lamina

/// `lamina bench`: built-in (or given) scenes rendered by each backend, with per-stage times.
enum BenchCommand {
    static let usage = """
    usage: lamina bench [SCENE…] [--size WxH …] [--seconds S] [--json]

    Renders each built-in benchmark scene (or the scene files given) with the GPU backend and
    prints frames/s, milliseconds per frame by stage (evaluate, plan, composite, read back) and
    peak memory; for the textured scenes the same quads drawn by a minimal hand-written GL loop
    (the floor) run in the same process. Default sizes: 1280x720 and 1920x1080.
    """

    struct Row: Codable {
        var scene: String, size: String, backend: String
        var framesPerSecond: Double
        var evaluateMs: Double, planMs: Double, compositeMs: Double, readbackMs: Double
        var floorFramesPerSecond: Double?
        var peakMemoryMB: Double
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["--size", "--seconds", "--backend"], flags: ["--json", "--help", "-h", "--export"])
        if args.flags.contains("--help") || args.flags.contains("-h") { print(usage); return 0 }
        let sizes = try (args.values("--size").isEmpty ? ["1280x720", "1920x1080"] : args.values("--size")).map(RenderCommand.size)
        let seconds = try args.values("--seconds").last.map { try RenderCommand.number($0, "--seconds") } ?? 1.5
        if args.values("--backend").contains("cpu") {
            throw JobFailure(description: "the CPU backend is not in this build yet; bench measures the GPU backend")
        }
        var rows: [Row] = []
        for (width, height) in sizes {
            var scenes: [BenchScenes.Scene]
            if args.positional.isEmpty {
                scenes = BenchScenes.all(width: width, height: height)
            } else {
                scenes = []
                for file in args.positional {
                    do {
                        let scene = try SceneLoader.load(contentsOf: URL(fileURLWithPath: file))
                        scenes.append(BenchScenes.Scene(name: URL(fileURLWithPath: file).lastPathComponent, root: scene.root, floorLayers: nil))
                    } catch {
                        throw JobFailure(description: error.description)
                    }
                }
            }
            let renderer: GLRenderer
            do { renderer = try GLRenderer() } catch { throw JobFailure(description: error.description) }
            for scene in scenes {
                rows.append(measure(scene, renderer: renderer, width: width, height: height, seconds: seconds))
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

    static func measure(_ scene: BenchScenes.Scene, renderer: GLRenderer, width: Int, height: Int, seconds: Double) -> Row {
        let images = FileImageProvider()
        let builder = RenderPlanBuilder(width: width, height: height, scale: 1)
        var evaluate = 0.0, plan = 0.0, composite = 0.0, readback = 0.0
        var frames = 0
        // Warm up: uploads textures and sizes the pass targets.
        _ = renderer.render(builder.plan(for: PresentationTree.evaluate(scene.root, at: 0)), images: images)
        let start = CACurrentMediaTime()
        while CACurrentMediaTime() - start < seconds || frames < 5 {
            let t = Double(frames) / 30
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
        var floorFPS: Double?
        if let count = scene.floorLayers, let floor = try? GLFloorLoop(width: width, height: height) {
            // The same quads: matrices taken from the presentation (outside the timed loop).
            let matrixFrames = (0..<30).map { i in floorMatrices(PresentationTree.evaluate(scene.root, at: Double(i) / 30), count: count, width, height) }
            floor.frame(matrixFrames[0])
            var floorFrames = 0
            let floorStart = CACurrentMediaTime()
            while CACurrentMediaTime() - floorStart < seconds || floorFrames < 5 {
                floor.frame(matrixFrames[floorFrames % matrixFrames.count])
                floorFrames += 1
            }
            floorFPS = Double(floorFrames) / (CACurrentMediaTime() - floorStart)
            renderer.context.makeCurrent()
        }
        let ms = { (seconds: Double) in seconds / Double(frames) * 1000 }
        return Row(scene: scene.name, size: "\(width)x\(height)", backend: "gpu (\(renderer.context.rendererName))",
                   framesPerSecond: Double(frames) / total, evaluateMs: ms(evaluate), planMs: ms(plan),
                   compositeMs: ms(composite), readbackMs: ms(readback), floorFramesPerSecond: floorFPS,
                   peakMemoryMB: peakMemoryMB())
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
        let header = ["scene", "size", "fps", "evaluate", "plan", "composite", "readback", "floor fps", "vs floor", "peak MB"]
        var lines = [header]
        for r in rows {
            lines.append([r.scene, r.size, String(format: "%.1f", r.framesPerSecond),
                          String(format: "%.2f ms", r.evaluateMs), String(format: "%.2f ms", r.planMs),
                          String(format: "%.2f ms", r.compositeMs), String(format: "%.2f ms", r.readbackMs),
                          r.floorFramesPerSecond.map { String(format: "%.1f", $0) } ?? "-",
                          r.floorFramesPerSecond.map { String(format: "%.2fx", r.framesPerSecond / $0) } ?? "-",
                          String(format: "%.0f", r.peakMemoryMB)])
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        for line in lines {
            print(line.enumerated().map { column, text in
                column == 0 ? text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  "))
        }
        if let backend = rows.first?.backend { print("backend: \(backend); \(ProcessInfo.processInfo.activeProcessorCount) CPU cores") }
    }

    static func peakMemoryMB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
