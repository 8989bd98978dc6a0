import Foundation
import Layers
import Rendering
import Export

/// Something the bench times a run of frames at a time, so that the runs of what is compared
/// can alternate (`RenderBench.measure(_:width:height:backend:options:)`): a shared machine's
/// speed drifts by a third within seconds here, and figures measured one after the other took
/// that drift into their ratio.
protocol RunTimer: AnyObject {
    /// Whether it has been timed for `seconds` and at least 5 frames (or can go no further).
    func isDone(after seconds: Double) -> Bool
    /// Draws the next run of frames.
    func drawRun()
}

extension RenderBench {
    /// About how long one run of frames lasts.
    static let runSeconds = 0.2

    /// How many frames the next run draws, after `frames` frames in `elapsed` seconds: 32 until
    /// the speed is known, then about `runSeconds` worth (1…32).
    static func runLength(frames: Int, elapsed: Double) -> Int {
        guard frames > 0, elapsed > 0 else { return 32 }
        return min(32, max(1, Int(runSeconds * Double(frames) / elapsed)))
    }
}

/// One backend drawing one bench scene.
final class SceneTimer: RunTimer {
    let scene: BenchScenes.Scene
    private let timeline: RenderBench.Timeline
    private let renderer: FrameRenderer
    private let stopwatch = Stopwatch()
    private let sink = CountingSink()
    /// Seconds spent drawing runs, summed.
    private var elapsed: Double = 0
    /// A run drew fewer frames than asked (a render failed): nothing more to time.
    private var stalled = false

    /// A renderer (and content cache) of its own, warmed up: textures uploaded, pass targets
    /// sized, rasters of what does not change kept (a shape asked for a second time is
    /// rasterized and kept: `rasterizeIfRepeated`).
    init(_ scene: BenchScenes.Scene, width: Int, height: Int, backend: any RenderBackend, options: RenderBench.Options) {
        self.scene = scene
        timeline = RenderBench.Timeline(scene, width: width, height: height)
        renderer = FrameRenderer(width: width, height: height, scale: timeline.scale, backend: backend)
        for _ in 0..<2 { _ = renderer.render(scene.root, at: timeline.time(ofFrame: 0)) }
        // Runs of frames through the export's frame loop (each run's next frame planned while one
        // draws), without its budget check, which the single frames above skip too.
        renderer.budget = nil
        renderer.plansAhead = options.plansAhead
        if let threshold = options.planningAheadThreshold { renderer.planningAheadThreshold = threshold }
    }

    func isDone(after seconds: Double) -> Bool { stalled || (elapsed >= seconds && sink.count >= 5) }

    /// Draws the next run of frames: up to 32, about `RenderBench.runSeconds` long once the
    /// scene's speed is known (so the runs of a slow scene still alternate).
    func drawRun() {
        let count = RenderBench.runLength(frames: sink.count, elapsed: elapsed)
        // Past frame 0 (the warm-up): the static scene has nothing new to rasterize.
        let run = timeline.run(from: sink.count + 1, count: count)
        let before = sink.count
        let start = Stopwatch.now()
        try? renderer.render(scene.root, frames: run, clock: timeline.clock, into: sink, stopwatch: stopwatch)
        elapsed += Stopwatch.now() - start
        if sink.count < before + run.count { stalled = true }
    }

    /// Frames/s and milliseconds per frame by stage, over every run drawn.
    func measurement(backend: String, interleavedWith others: [String]) -> RenderBench.Measurement {
        let frames = Double(max(sink.count, 1))
        let times = stopwatch.times
        let ms = { (seconds: Double) in seconds / frames * 1000 }
        var result = RenderBench.Measurement(
            backend: backend, framesPerSecond: elapsed > 0 ? Double(sink.count) / elapsed : 0,
            evaluateMs: ms(times.evaluate), planMs: ms(times.plan), rasterMs: ms(times.raster),
            compositeMs: ms(times.composite), readbackMs: ms(times.readback))
        result.interleavedWith = others.isEmpty ? nil : others
        return result
    }
}

/// Counts the frames it is given and keeps none (the benchmarks' frame loop).
private final class CountingSink: FrameSink {
    private(set) var count = 0
    func consume(_ index: Int, _ image: Image) throws(ExportError) { count += 1 }
    func finish() throws(ExportError) {}
    func cancel() {}
}
