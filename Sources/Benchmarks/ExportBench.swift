import Foundation
import Geometry
import Layers
import Rendering
import ContentRaster
import Export

/// `lamina bench --export`: whether an H.264 export runs at the speed of its slowest stage, and
/// whether its memory stays flat over the length of the video.
///
/// In one run, on the animated content scene at 1280×720: render-only frames/s (every frame
/// evaluated, planned, drawn, read back and dropped), encode-only frames/s (frames rendered
/// beforehand, piped to the same ffmpeg command), and the pipelined export's frames/s; the goal is
/// export ≥ 90 % of the slower of the first two. Then the peak resident memory of a 1,000-frame
/// and a 10,000-frame export of the built-in demo (1280×720 over a decoded video; each in a
/// child process). And `AVExportBench`: the title card through `AVAssetExportSession` against the
/// same job through `lamina render`.
public enum ExportBench {
    /// The figures of one run.
    public struct Result: Codable {
        public var scene: String, size: String, backend: String, frames: Int
        public var renderOnlyFramesPerSecond: Double
        public var encodeOnlyFramesPerSecond: Double
        public var exportFramesPerSecond: Double
        /// Export frames/s over the slower of render-only and encode-only.
        public var exportRatio: Double
        /// The rate if rendering and encoding took turns on the same cores for every frame:
        /// 1 / (1 / render-only + 1 / encode-only) — an export with no overlap at all.
        public var sharedCoreBoundFramesPerSecond: Double?
        /// Export frames/s over `sharedCoreBoundFramesPerSecond` (above 1: the stages overlap).
        public var exportVersusSharedCoreBound: Double?
        /// Peak memory of 1,000- and 10,000-frame exports of the demo (1280×720, over video).
        public var peakMemoryMB1000Frames: Double?
        public var peakMemoryMB10000Frames: Double?
        /// The title card through `AVAssetExportSession` against the same job through `lamina render`.
        public var avFoundation: AVExportBench.Result?
    }

    /// Measures `frames` frames on `backend`; with `memory`, the two child-process exports too.
    public static func run(backend: BackendKind, frames: Int, memory: Bool) throws -> Result {
        let (width, height) = (1280, 720)
        let scene = BenchScenes.content(animated: true, width, height)
        let clock = FrameClock(framesPerSecond: 30)
        let renderer: FrameRenderer
        do {
            renderer = try FrameRenderer(width: width, height: height, background: CGColor(gray: 0, alpha: 1), backend: backend)
        } catch {
            throw ExportError.backendUnavailable(error.description)
        }
        func frame(_ i: Int) -> Image? { renderer.render(scene.root, at: clock.time(ofFrame: i)) }

        // Render only.
        _ = frame(0)
        var start = Stopwatch.now()
        for i in 0..<frames { _ = frame(i) }
        let renderOnly = Double(frames) / (Stopwatch.now() - start)

        // Encode only: a second of distinct frames, cycled, into the export's own ffmpeg command.
        let sample = (0..<30).compactMap(frame)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-export-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = EncoderSettings(kind: .h264MP4, width: width, height: height, framesPerSecond: 30, frameCount: frames)
        start = Stopwatch.now()
        do {
            // Sequential (no queue): the encoder's own speed, frames handed over as fast as it takes them.
            let encoder = try EncoderSink(arguments: settings.arguments(output: folder.appendingPathComponent("encode.mp4").path),
                                          straightAlpha: false, depth: 0)
            for i in 0..<frames { try encoder.consume(i, sample[i % sample.count]) }
            try encoder.finish()
        } catch {
            throw BenchFailure(description: "encode-only run: \(error)")
        }
        let encodeOnly = Double(frames) / (Stopwatch.now() - start)

        // The export: both overlapped.
        var options = VideoExportOptions(output: folder.appendingPathComponent("export.mp4"), width: width, height: height,
                                         frames: 0...(frames - 1))
        options.background = CGColor(gray: 0, alpha: 1)
        options.backend = backend
        let exporter = VideoExporter(root: scene.root, options: options)
        exporter.checksExportTiming = false
        let summary: ExportSummary
        do { summary = try exporter.run() } catch { throw BenchFailure(description: "export run: \(error)") }

        var result = Result(scene: scene.name, size: "\(width)x\(height)", backend: renderer.backend.name, frames: frames,
                            renderOnlyFramesPerSecond: renderOnly, encodeOnlyFramesPerSecond: encodeOnly,
                            exportFramesPerSecond: summary.framesPerSecond,
                            exportRatio: summary.framesPerSecond / min(renderOnly, encodeOnly))
        let bound = 1 / (1 / renderOnly + 1 / encodeOnly)
        result.sharedCoreBoundFramesPerSecond = bound
        result.exportVersusSharedCoreBound = summary.framesPerSecond / bound
        do { result.avFoundation = try AVExportBench.run(backend: backend, folder: folder) } catch {
            throw BenchFailure(description: "AVFoundation row: \(error)")
        }
        if memory {
            result.peakMemoryMB1000Frames = try childPeakMemory(frames: 1000, backend: backend, folder: folder)
            result.peakMemoryMB10000Frames = try childPeakMemory(frames: 10000, backend: backend, folder: folder)
        }
        return result
    }

    /// Peak resident memory (MB) of `lamina demo --frames 0..N−1` in a child process — a
    /// 1280×720 export composited over a decoded video, with text, paths and images — as the
    /// child reports it in its summary line (getrusage would count the pages the child shared
    /// with this process before exec).
    static func childPeakMemory(frames: Int, backend: BackendKind, folder: URL) throws -> Double {
        let errors = folder.appendingPathComponent("memory-\(frames).log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let log = try FileHandle(forWritingTo: errors)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["demo", "-o", folder.appendingPathComponent("memory-\(frames).mp4").path,
                             "--frames", "0..\(frames - 1)", "--backend", backend.rawValue, "--progress"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log
        try process.run()
        process.waitUntilExit()
        try log.close()
        let text = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        guard process.terminationStatus == 0, let range = text.range(of: #"peak memory (\d+) MB"#, options: .regularExpression),
              let megabytes = Double(text[range].split(separator: " ")[2]) else {
            throw BenchFailure(description: "the \(frames)-frame export in a child process failed: \(text.suffix(300))")
        }
        return megabytes
    }
}

/// A benchmark that could not run, with the reason.
public struct BenchFailure: Error, CustomStringConvertible {
    public var description: String
}
