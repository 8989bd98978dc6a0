import Foundation
import Lamina

/// `lamina inspect SCENE --time T [--time T …]`: the presentation tree at each time, as JSON lines.
enum InspectCommand {
    static let usage = """
    usage: lamina inspect SCENE --time T [--time T …]
           lamina inspect SCENE --budget [--time T …] [--size WxH] [--backend gpu|cpu] [--max-memory MB]
           lamina inspect SCENE --plan --time T [--time T …] [--size WxH] [--backend gpu|cpu]

    Prints the presentation tree of SCENE at each time T (seconds) as one JSON object per line:
    {"time": T, "layers": [...]}, layers depth-first with every property's presentation value.
    --budget prints what rendering SCENE costs instead, against its limits (docs/scene-limits.md):
    presented layers after replicator and particle expansion, offscreen pixels of a frame (the
    largest of the times given, or of the first, middle and last frame), keyframe values, path
    elements, image pixels and the estimated memory; exit status 1 when it is over budget.
    --plan prints the render plan of the frame at each time instead, as text: each pass (size,
    purpose) and its draw items in order, what a backend is asked to draw.
    --allow-assets-outside lets asset paths lead outside the scene's folder (trusted scenes only).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["--time", "--size", "--max-memory", "--backend"],
                                 flags: ["--help", "-h", "--budget", "--plan", "--allow-assets-outside"])
        if args.flags.contains("--help") || args.flags.contains("-h") {
            print(usage)
            return 0
        }
        guard args.positional.count == 1, let file = args.positional.first else {
            throw UsageError(description: args.positional.isEmpty ? "inspect needs a scene file" : "inspect takes one scene file")
        }
        let times = try args.values("--time").map { text throws(UsageError) -> Double in
            guard let t = Double(text), t.isFinite else { throw UsageError(description: "--time \(text) is not a finite number of seconds") }
            return t
        }
        let budget = args.flags.contains("--budget"), plans = args.flags.contains("--plan")
        guard !times.isEmpty || budget else { throw UsageError(description: "inspect needs at least one --time (or --budget)") }
        if budget, plans { throw UsageError(description: "--budget and --plan are separate views; give one") }
        if !budget, !plans, !args.values("--size").isEmpty || !args.values("--max-memory").isEmpty || !args.values("--backend").isEmpty {
            throw UsageError(description: "--size, --backend and --max-memory go with --budget (--size and --backend also with --plan)")
        }
        if plans, !args.values("--max-memory").isEmpty { throw UsageError(description: "--max-memory goes with --budget") }
        let backendName = args.values("--backend").last ?? "gpu"
        guard let backend = BackendKind(rawValue: backendName) else {
            throw UsageError(description: "--backend must be gpu or cpu, not \(backendName)")
        }
        let size = try args.values("--size").last.map(RenderCommand.size)
        let maximumMemory = try args.values("--max-memory").last.map(RenderCommand.megabytes)
        let scene = try RenderCommand.loadScene(file, args)
        if budget {
            var target = SceneOutput(scene: scene, size: size)
            target.budget.memoryBytes = maximumMemory
            let frames = (try? target.videoFrames()) ?? 0...0
            let figures = target.measureBudget(times: times.isEmpty ? RenderBudget.sampleTimes(frames, clock: target.clock) : times,
                                               queueDepth: 3, backend: backend)
            print(figures.lines.joined(separator: "\n"))
            if let problem = figures.problem { throw JobFailure(description: "\(target.subject): \(problem)") }
            return 0
        }
        if plans {
            let renderer = try SceneOutput(scene: scene, size: size).makeRenderer(backend: backend)
            let text = times.map { "time \($0)\n" + renderer.plan(scene.root, at: $0).description + "\n" }.joined()
            FileHandle.standardOutput.write(Data(text.utf8))
            return 0
        }
        let encoder = PresentationJSON(imageName: scene.assetNamer())
        var output = ""
        for t in times {
            output += encoder.line(for: PresentationTree.evaluate(scene.root, at: t)) + "\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        return 0
    }
}
