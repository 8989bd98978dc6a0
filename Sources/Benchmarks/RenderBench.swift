import Foundation
import Geometry
import Timing
import Layers
import Presentation
import Rendering
import ImageIO
import ContentRaster
import GLRenderer
import CPURenderer
import Export
import SceneFormat

/// `lamina bench`: built-in (or given) scenes rendered by each backend, one after the other in
/// the same run (scenes compared with each other interleaved: `comparisonGroups`), with frames/s,
/// milliseconds per frame by stage, the process's peak memory so far, how far the two backends'
/// frames agree, and — for the textured scenes — the same quads drawn by a minimal hand-written
/// GL loop (the floor).
public enum RenderBench {
    /// One scene at one size.
    public struct Row: Codable {
        public var scene: String, size: String
        public var gpu: Measurement?, cpu: Measurement?
        public var floorFramesPerSecond: Double?
        /// GPU vs CPU on the frame at t = 0.5 s; infinite (identical frames) is written as the
        /// JSON string `"inf"`.
        public var psnr: Double?
        public var maxDifference: Int?
        /// Percentage of pixels where some channel differs by more than 2/255.
        public var pixelsOverTolerancePercent: Double?
        public var peakMemoryMB: Double
        /// The goals' ratios (`withRatios`).
        public var ratios: Ratios?
        /// The compared frames as PNG, when `Options.keepsFrames` (not part of the JSON).
        public var frames: Frames?

        enum CodingKeys: String, CodingKey {
            case scene, size, gpu, cpu, floorFramesPerSecond, psnr, maxDifference, pixelsOverTolerancePercent, peakMemoryMB, ratios
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(scene, forKey: .scene); try c.encode(size, forKey: .size)
            try c.encodeIfPresent(gpu, forKey: .gpu); try c.encodeIfPresent(cpu, forKey: .cpu)
            try c.encodeIfPresent(floorFramesPerSecond, forKey: .floorFramesPerSecond)
            if let psnr {
                if psnr.isFinite { try c.encode(psnr, forKey: .psnr) } else { try c.encode("inf", forKey: .psnr) }
            }
            try c.encodeIfPresent(maxDifference, forKey: .maxDifference)
            try c.encodeIfPresent(pixelsOverTolerancePercent, forKey: .pixelsOverTolerancePercent)
            try c.encode(peakMemoryMB, forKey: .peakMemoryMB)
            try c.encodeIfPresent(ratios, forKey: .ratios)
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            scene = try c.decode(String.self, forKey: .scene); size = try c.decode(String.self, forKey: .size)
            gpu = try c.decodeIfPresent(Measurement.self, forKey: .gpu); cpu = try c.decodeIfPresent(Measurement.self, forKey: .cpu)
            floorFramesPerSecond = try c.decodeIfPresent(Double.self, forKey: .floorFramesPerSecond)
            if let text = try? c.decodeIfPresent(String.self, forKey: .psnr) {
                psnr = text == "inf" ? .infinity : Double(text)
            } else {
                psnr = try c.decodeIfPresent(Double.self, forKey: .psnr)
            }
            maxDifference = try c.decodeIfPresent(Int.self, forKey: .maxDifference)
            pixelsOverTolerancePercent = try c.decodeIfPresent(Double.self, forKey: .pixelsOverTolerancePercent)
            peakMemoryMB = try c.decode(Double.self, forKey: .peakMemoryMB)
            ratios = try c.decodeIfPresent(Ratios.self, forKey: .ratios)
        }

        public init(scene: String, size: String, peakMemoryMB: Double) {
            self.scene = scene; self.size = size; self.peakMemoryMB = peakMemoryMB
        }
    }

    /// The frames a row's agreement measures compare (t = 0.5 s), PNG-encoded.
    public struct Frames: Sendable {
        public var gpu: [UInt8]?, cpu: [UInt8]?
        /// `ImageComparison.differenceImage` of the two, when both were drawn.
        public var difference: [UInt8]?
    }

    /// One backend's figures for a scene.
    public struct Measurement: Codable {
        public var backend: String
        public var framesPerSecond: Double
        public var evaluateMs: Double, planMs: Double, rasterMs: Double, compositeMs: Double, readbackMs: Double
        /// The scenes whose runs of frames alternated with this one's on the same backend (nil:
        /// measured on its own), so their ratio is of one stretch of the machine's time.
        public var interleavedWith: [String]? = nil
    }

    /// What to run.
    public struct Options {
        public var sizes: [(width: Int, height: Int)] = [(1280, 720), (1920, 1080)]
        /// Seconds per scene and backend.
        public var seconds = 1.5
        public var backends: [BackendKind] = [.gpu, .cpu]
        /// The CPU backend's thread count (nil: one per core).
        public var threads: Int?
        /// Whether each frame may be planned while the one before draws (`FrameRenderer.plansAhead`).
        public var plansAhead = true
        /// `FrameRenderer.planningAheadThreshold` (nil: the renderer's; 0: always plan ahead).
        public var planningAheadThreshold: Double?
        /// Scene files to run instead of the built-in scenes (loaded by the caller).
        public var scenes: [BenchScenes.Scene]?
        /// Keeps the built-in scenes whose name contains this.
        public var only: String?
        /// Keep each row's compared frames (`Row.frames`), for the HTML report.
        public var keepsFrames = false
        /// Called after each row is measured.
        public var onRow: ((Row) -> Void)?

        public init() {}
    }

    /// The frames the measured loop draws: 30 a second.
    static let clock = FrameClock(framesPerSecond: 30)

    /// Measures every scene at every size; `.gpu` throws when no GL context can be made.
    public static func run(_ options: Options) throws(GLContextError) -> [Row] {
        let gl = options.backends.contains(.gpu) ? try GLRenderer() : nil
        let cpu = options.backends.contains(.cpu) ? (options.threads.map { CPURenderer(threads: $0) } ?? CPURenderer()) : nil
        var rows: [Row] = []
        var animations: [String: Int] = [:]
        for (width, height) in options.sizes {
            var scenes = options.scenes ?? BenchScenes.all(width: width, height: height)
            if options.scenes == nil, let only = options.only { scenes = scenes.filter { $0.name.contains(only) } }
            for group in comparisonGroups(scenes) {
                let gpuRuns = gl.map { measure(group, width: width, height: height, backend: $0, options: options) }
                let cpuRuns = cpu.map { measure(group, width: width, height: height, backend: $0, options: options) }
                for (k, scene) in group.enumerated() {
                    animations[scene.name] = animationCount(scene.root)
                    let row = row(scene, width: width, height: height, gl: gl, gpuRun: gpuRuns?[k], cpu: cpu, cpuRun: cpuRuns?[k],
                                  options: options)
                    rows.append(row)
                    options.onRow?(row)
                }
            }
        }
        return withRatios(rows, animations: animations)
    }

    /// A scene's row: its measurements, each backend's frame at t = 0.5 s and how they agree, the
    /// floor's frames/s, the peak memory so far.
    static func row(_ scene: BenchScenes.Scene, width: Int, height: Int, gl: GLRenderer?, gpuRun: SceneRun?,
                    cpu: CPURenderer?, cpuRun: SceneRun?, options: Options) -> Row {
        var row = Row(scene: scene.name, size: "\(width)x\(height)", peakMemoryMB: 0)
        var frames: [Image] = []
        var kept = Frames()
        if let gl {
            row.gpu = gpuRun?.measurement
            row.floorFramesPerSecond = gpuRun?.floorFramesPerSecond
            row.gpu?.backend = "gpu (\(gl.context.rendererName))"
            if let frame = probe(scene, width: width, height: height, backend: gl) {
                frames.append(frame)
                if options.keepsFrames { kept.gpu = try? PNGCodec.encode(frame, compressionLevel: 9) }
            }
        }
        if let cpu {
            row.cpu = cpuRun?.measurement
            row.cpu?.backend = "cpu (\(cpu.threads) threads)"
            if let frame = probe(scene, width: width, height: height, backend: cpu) {
                frames.append(frame)
                if options.keepsFrames { kept.cpu = try? PNGCodec.encode(frame, compressionLevel: 9) }
            }
        }
        if frames.count == 2, let difference = ImageComparison.compare(frames[0], frames[1]) {
            row.psnr = difference.psnr
            row.maxDifference = difference.maxChannelDifference
            row.pixelsOverTolerancePercent = 100 * Double(difference.pixelsOverTolerance) / Double(difference.pixelCount)
            if options.keepsFrames, let picture = ImageComparison.differenceImage(frames[0], frames[1]) {
                kept.difference = try? PNGCodec.encode(picture, compressionLevel: 9)
            }
        }
        if options.keepsFrames { row.frames = kept }
        row.peakMemoryMB = Double(ExportSummary.peakResidentMemory()) / 1_048_576
        return row
    }

    /// The frame at t = 0.5 s, with a cache of its own, for comparing the backends.
    static func probe(_ scene: BenchScenes.Scene, width: Int, height: Int, backend: any RenderBackend) -> Image? {
        let timeline = Timeline(scene, width: width, height: height)
        return FrameRenderer(width: width, height: height, scale: timeline.scale, backend: backend)
            .render(scene.root, at: timeline.time(ofFrame: timeline.frame(at: 0.5)))
    }

    /// A scene's scale and frame times: a file's scene fitted to the size, its frames looping over
    /// ip … op − 1 (an animation measured past its end would draw one still frame); the built-in
    /// scenes at scale 1, frames at 30 fps from 0.
    struct Timeline {
        var scale: CGFloat = 1
        var clock = RenderBench.clock
        var frames: ClosedRange<Int>?

        init(_ scene: BenchScenes.Scene, width: Int, height: Int) {
            guard let file = scene.file else { return }
            let output = SceneOutput(scene: file, size: (width, height))
            scale = output.scale
            clock = output.clock
            frames = try? output.videoFrames()
        }

        /// The time of the `index`th measured frame.
        func time(ofFrame index: Int) -> Double {
            guard let frames else { return clock.time(ofFrame: index) }
            return clock.time(ofFrame: frames.lowerBound + index % frames.count)
        }

        /// Up to `count` clock frames from the `index`th measured frame on, within one loop.
        func run(from index: Int, count: Int) -> ClosedRange<Int> {
            guard let frames else { return index...(index + count - 1) }
            let first = frames.lowerBound + index % frames.count
            return first...min(first + count - 1, frames.upperBound)
        }

        /// The measured frame index nearest `time` (within the first loop).
        func frame(at time: Double) -> Int {
            guard let frames else { return clock.frame(at: time) }
            return max(0, clock.frame(at: time) - frames.lowerBound)
        }
    }

    /// The scenes in the order given, grouped with those they are compared with: "N plain cards"
    /// with "N rounded + borders" (at the plain cards' place) when both are there, to be
    /// measured interleaved; every other scene alone.
    static func comparisonGroups(_ scenes: [BenchScenes.Scene]) -> [[BenchScenes.Scene]] {
        let names = Set(scenes.map(\.name))
        // Each rounded scene whose plain twin is here, by that twin's name.
        var roundedOfPlain: [String: BenchScenes.Scene] = [:]
        for scene in scenes {
            if let twin = BenchScenes.plainTwin(of: scene.name), names.contains(twin) { roundedOfPlain[twin] = scene }
        }
        let paired = Set(roundedOfPlain.values.map(\.name))
        var groups: [[BenchScenes.Scene]] = []
        for scene in scenes where !paired.contains(scene.name) {
            groups.append(roundedOfPlain[scene.name].map { [scene, $0] } ?? [scene])
        }
        return groups
    }

    /// One backend's figures for a scene, and on the GL backend its floor's frames/s (nil: no floor).
    struct SceneRun {
        var measurement: Measurement
        var floorFramesPerSecond: Double?
    }

    /// Frames/s and per-stage times of `backend` drawing each of `scenes` for at least
    /// `options.seconds` (and 5 frames) of its own, and on the GL backend the floor's frames/s
    /// of each scene that has one; the runs of frames of all of them alternating.
    static func measure(_ scenes: [BenchScenes.Scene], width: Int, height: Int, backend: any RenderBackend,
                        options: Options) -> [SceneRun] {
        let timers = scenes.map { SceneTimer($0, width: width, height: height, backend: backend, options: options) }
        let floors = scenes.map { scene in
            (backend as? GLRenderer).flatMap { FloorTimer(scene, width: width, height: height, restoring: $0.context) }
        }
        let all: [any RunTimer] = timers + floors.compactMap { $0 }
        while all.contains(where: { !$0.isDone(after: options.seconds) }) {
            for timer in all where !timer.isDone(after: options.seconds) { timer.drawRun() }
        }
        return zip(timers, floors).map { timer, floor in
            let others = scenes.map(\.name).filter { $0 != timer.scene.name } + (floor == nil ? [] : [Self.floorName])
            return SceneRun(measurement: timer.measurement(backend: backend.name, interleavedWith: others),
                            floorFramesPerSecond: floor?.framesPerSecond)
        }
    }

    /// What `Measurement.interleavedWith` calls the scene's GL floor.
    static let floorName = "floor"

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

    /// The rows as `--json` prints them: pretty, keys sorted.
    public static func json(_ rows: [Row]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(rows)
    }

    /// The rows as an aligned text table, with a line naming the backends.
    public static func table(_ rows: [Row]) -> String {
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
        var out = ""
        for line in lines {
            out += line.enumerated().map { column, text in
                column == 0 ? text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  ") + "\n"
        }
        let backends = [rows.first?.gpu?.backend, rows.first?.cpu?.backend].compactMap { $0 }
        out += "backends: \(backends.joined(separator: ", ")); \(ProcessInfo.processInfo.activeProcessorCount) CPU cores; psnr, max diff, > 2/255: GPU vs CPU frame at t = 0.5 s"
        let ratios = ratioLines(rows)
        if !ratios.isEmpty { out += "\nratios (this run):\n" + ratios }
        return out
    }
}
