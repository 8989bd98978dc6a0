import Foundation
import Synchronization
import Geometry
import Layers
import Presentation
import Rendering
import ImageIO
import ContentRaster
#if canImport(Glibc)
import Glibc
#endif

/// How to export: output, size, frame range, encoder and renderer.
public struct VideoExportOptions: Sendable {
    /// The output file; its extension picks the kind (`OutputKind.forPath`).
    public var output: URL
    /// Output size in pixels.
    public var width: Int
    public var height: Int
    /// Pixels per point (default 1).
    public var scale: CGFloat = 1
    /// Default 30.
    public var framesPerSecond: Double = 30
    /// The frames to write, frame i being at time i / fps; a range not starting at 0 writes a
    /// self-contained segment that `SegmentJoiner` can join.
    public var frames: ClosedRange<Int>
    /// Cleared before the root draws; nil (transparent) keeps alpha where the output can.
    public var background: CGColor?
    /// `--codec` (`h264`, `prores`, `vp9`, `gif`); nil: the extension's default.
    public var codec: String?
    /// `--crf`; nil: the kind's default.
    public var quality: Int?
    /// Default `.gpu`.
    public var backend: BackendKind = .gpu
    /// Replace an existing output (default false: an existing output is an error).
    public var overwrite = false
    /// Frames that may wait for the encoder (default 3); 0 renders and encodes in turn.
    public var queueDepth = 3
    /// Keyframe spacing in frames (default two seconds); segments should start on a multiple.
    public var keyframeInterval: Int?
    /// The container and codec, when not the output's extension's (a segment written as
    /// `NAME.partial` before it is renamed; an AVFoundation export's `outputFileType`).
    public var kind: OutputKind?
    /// Whether the input video's audio is carried over (default true; segments rendered for a
    /// later join leave it out: the audio is muxed once over the whole timeline).
    public var includesAudio = true
    /// Encoder threads (`EncoderSettings.threads`).
    public var encoderThreads = EncoderSettings.defaultThreads
    /// Whether the root is placed by its own geometry (default), or drawn in its bounds space
    /// from the top-left (`FrameRenderer.placesRoot`).
    public var placesRoot = true
    /// What the export may cost, checked before anything is started (`RenderBudget`); nil
    /// checks nothing. Default: the standard budget.
    public var budget: SceneLimits.Budget? = .standard
    /// What is exported, as errors name it (a scene file's name); nil: "the layer tree".
    public var subject: String?
    /// Which way y grows in the frames (default `topLeft`; `bottomLeft` for AVFoundation's export tool).
    public var origin = OutputOrigin.topLeft
    /// MP4 and M4V: the index (`moov`) before the media, so that playback can start while the file
    /// downloads (default true; AVFoundation: `shouldOptimizeForNetworkUse`).
    public var fastStart = true

    /// Options for `frameCount` frames (from 0) of `width`×`height` at `framesPerSecond`.
    public init(output: URL, width: Int, height: Int, framesPerSecond: Double = 30, frames: ClosedRange<Int>) {
        self.output = output; self.width = width; self.height = height
        self.framesPerSecond = framesPerSecond; self.frames = frames
    }

    /// Options for `duration` seconds (`FrameClock.frames(forDuration:)`).
    public init(output: URL, width: Int, height: Int, framesPerSecond: Double = 30, duration: Double) {
        self.init(output: output, width: width, height: height, framesPerSecond: framesPerSecond,
                  frames: FrameClock(framesPerSecond: framesPerSecond).frames(forDuration: duration))
    }

    /// Frame n ↔ time: frame n at n / `framesPerSecond`.
    public var clock: FrameClock { FrameClock(framesPerSecond: framesPerSecond) }
}

/// Renders a layer tree frame by frame into a video file through ffmpeg.
///
/// Frame i is the tree at time i / fps and depends on nothing else, so any range of frames can be
/// rendered alone (resumable, segmentable). Evaluating, planning and drawing frame n+1 overlaps
/// with encoding frame n (`EncoderSink`). The file is written under a temporary name beside the
/// output and renamed into place only when complete: a failed or cancelled export leaves nothing
/// under the output's name.
///
/// Run it on one thread (`run()`); `cancel()` may be called from any thread (a signal handler's
/// dispatch source, another task).
public final class VideoExporter: @unchecked Sendable {
    public let root: CALayer
    public var options: VideoExportOptions
    public let composition: VideoComposition?
    /// What the frames composite over: the composition's video, or an input given directly.
    public let input: (any VideoInput)?
    /// Called on the exporting thread after each frame.
    public var onProgress: ((ExportProgress) -> Void)?
    /// Sinks that see every frame too (premultiplied RGBA) on the exporting thread, in the last
    /// pass: a contact sheet, a frame dump.
    public var additionalSinks: [any FrameSink] = []
    /// Reports animations that would not show in an AVFoundation export (default on).
    public var checksExportTiming = true
    /// Cancelled by `cancel()`; a `TerminationSignals`' cancellation can be passed at `init`
    /// so that SIGINT, SIGTERM and SIGHUP stop the export.
    public let cancellation: Cancellation
    /// The encoder and decoder of the running pass, woken by a cancellation wherever they wait.
    private let running = RunningPass()
    /// Temporary files of earlier exports to this output that were removed (their process had died).
    public private(set) var removedLeftovers: [String] = []

    public init(root: CALayer, options: VideoExportOptions, composition: VideoComposition? = nil,
                cancellation: Cancellation = Cancellation()) {
        self.root = root; self.options = options; self.composition = composition; self.cancellation = cancellation
        input = composition.map(SingleVideoInput.init)
    }

    /// An export of `root` over `input` (an AVFoundation composition's frames and audio, say).
    public init(root: CALayer, options: VideoExportOptions, input: any VideoInput, cancellation: Cancellation = Cancellation()) {
        self.root = root; self.options = options; composition = nil; self.cancellation = cancellation
        self.input = input
    }

    /// Stops the export: at once where it waits on the encoder or the decoder, else at the next
    /// frame; `run()` then throws `.cancelled` and leaves nothing behind.
    public func cancel() { cancellation.cancel() }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancellation.isCancelled }

    /// Exports; returns what was written.
    @discardableResult
    public func run() throws(ExportError) -> ExportSummary {
        LargeAllocations.mapped
        let o = options
        let outputPath = o.output.path
        let kind: OutputKind
        if let chosen = o.kind { kind = chosen } else { kind = try OutputKind.forPath(outputPath, codec: o.codec) }
        guard o.width > 0, o.height > 0, o.width <= SceneLimits.maximumOutputSide, o.height <= SceneLimits.maximumOutputSide else {
            throw .invalidSettings("output size \(o.width)x\(o.height) is outside 1…\(SceneLimits.maximumOutputSide)")
        }
        guard (SceneLimits.minimumFramesPerSecond...SceneLimits.maximumFramesPerSecond).contains(o.framesPerSecond) else {
            throw .invalidSettings("frames per second must be in 0.001…1000, not \(o.framesPerSecond)")
        }
        guard o.frames.count <= SceneLimits.maximumFrames else {
            throw .invalidSettings("\(o.frames.count) frames is more than the limit of \(SceneLimits.maximumFrames)")
        }
        let subject = o.subject ?? "the layer tree"
        if let quality = o.quality { try kind.checkQuality(quality) }
        try OutputFiles.checkWritable(o.output, overwrite: o.overwrite)
        let folder = o.output.deletingLastPathComponent().path
        // ffmpeg must be there before anything renders (LAMINA_FFMPEG, else PATH).
        let ffmpeg = FFmpegProcess.resolve("ffmpeg")
        guard FFmpegProcess.locate(ffmpeg) != nil else { throw .toolMissing(ffmpeg) }
        let started = Stopwatch.now()
        let clock = o.clock
        let span = clock.timeSpan(of: o.frames)
        let warnings = checksExportTiming ? ExportLint.warnings(root, from: span.start, to: span.end) : []

        // The input: probed first so that a bad file fails before anything is rendered.
        try input?.prepare()
        let renderer: FrameRenderer
        do {
            renderer = try FrameRenderer(width: o.width, height: o.height, scale: o.scale, background: o.background, backend: o.backend)
            renderer.placesRoot = o.placesRoot
            renderer.origin = o.origin
        } catch {
            throw .backendUnavailable(error.description)
        }
        // The budget before ffmpeg starts or any file is made.
        renderer.budget = o.budget
        renderer.subject = subject
        try renderer.checkBudget(root, times: RenderBudget.sampleTimes(o.frames, clock: clock), queueDepth: o.queueDepth)
        removedLeftovers = OutputFiles.removeStaleTemporaries(for: o.output)
        let temporary = OutputFiles.temporaryPath(for: o.output)
        var palette: String?
        defer {
            unlink(temporary)
            if let palette { unlink(palette) }
        }
        // Create the temporary file now (ffmpeg then replaces it): a folder that refuses new files
        // (permissions, a read-only file system) fails here, naming the output, before any frame renders.
        let probe = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard probe >= 0 else {
            throw .cannotWrite(path: outputPath, reason: "cannot create a file in \(folder): \(String(cString: strerror(errno)))")
        }
        close(probe)
        let audio = o.includesAudio ? input?.audio(from: span.start, to: span.end) : nil
        var settings = EncoderSettings(
            kind: kind, width: o.width, height: o.height, framesPerSecond: o.framesPerSecond, quality: o.quality,
            keepsAlpha: (o.background?.alpha ?? 0) < 1, firstFrame: o.frames.lowerBound, frameCount: o.frames.count,
            keyframeInterval: o.keyframeInterval)
        switch audio {
        case .passthrough(let passthrough)?: settings.audio = kind == .gif ? nil : passthrough
        case .graph(let graph)?: settings.audioGraph = kind == .gif ? nil : graph
        case nil: break
        }
        settings.fastStart = o.fastStart
        settings.threads = o.encoderThreads

        let stopwatch = Stopwatch()
        // GIF: a palette pass over every frame first, then the pass that uses it (the content
        // cache serves both).
        var passes = [settings.arguments(output: temporary)]
        if kind == .gif {
            let path = OutputFiles.temporaryPath(for: o.output.deletingPathExtension().appendingPathExtension("palette.png"))
            palette = path
            passes = [settings.paletteArguments(palette: path), settings.arguments(output: temporary, palette: path)]
        }
        // A cancellation wakes the encoder and decoder wherever they wait (a stalled encoder).
        let token = cancellation.onCancel { [running] in running.interrupt() }
        defer {
            cancellation.remove(token)
            running.set(nil, nil)
        }
        for (n, arguments) in passes.enumerated() {
            let last = n == passes.count - 1
            let inputs = try input?.makeFrameInputs(frames: o.frames, clock: clock,
                                                    context: FrameInputContext(width: o.width, height: o.height, scale: o.scale,
                                                                               backend: renderer.backend))
            defer { inputs?.close() }
            let encoder = try EncoderSink(arguments: arguments, straightAlpha: settings.wantsStraightAlpha, depth: o.queueDepth,
                                          stopwatch: stopwatch)
            running.set(encoder, inputs)
            if isCancelled { running.interrupt() }
            let sink: any FrameSink = last && !additionalSinks.isEmpty ? FanOutSink([encoder] + additionalSinks) : encoder
            try renderer.render(root, frames: o.frames, clock: clock, inputs: inputs, into: sink, stopwatch: stopwatch,
                                isCancelled: { isCancelled }) { [onProgress] done in
                onProgress?(ExportProgress(framesDone: done, frameCount: o.frames.count, elapsed: Stopwatch.now() - started,
                                           limitingStage: stopwatch.times.limitingStage, pass: n + 1, passCount: passes.count))
            }
        }
        if isCancelled { throw .cancelled }
        // An encoder that exits 0 without writing the video is a failure, not an empty output.
        try OutputFiles.verifyVideo(temporary, named: outputPath, demuxer: kind.demuxer, frames: o.frames.count,
                                    encoder: FFmpegProcess.locate(ffmpeg)?.path ?? ffmpeg, cancellation: cancellation)
        if isCancelled { throw .cancelled }
        try Self.moveIntoPlace(temporary, outputPath, overwrite: o.overwrite)
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: outputPath)[.size]) as? NSNumber)?.int64Value ?? 0
        return ExportSummary(url: o.output, frames: o.frames.count, seconds: Stopwatch.now() - started, bytes: bytes,
                             width: o.width, height: o.height, stages: stopwatch.times,
                             warnings: warnings + renderer.contentCache.warnings)
    }

    /// Renames the finished file into place; without `overwrite`, never replaces a file that
    /// appeared meanwhile (hard link, then unlink).
    public static func moveIntoPlace(_ temporary: String, _ path: String, overwrite: Bool) throws(ExportError) {
        if overwrite {
            guard rename(temporary, path) == 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            return
        }
        if link(temporary, path) == 0 { unlink(temporary); return }
        if errno == EEXIST { throw .outputExists(path: path) }
        if FileManager.default.fileExists(atPath: path) { throw .outputExists(path: path) }
        guard rename(temporary, path) == 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
    }
}

/// The encoder and decoder of an export's running pass, for a cancellation on another thread.
private final class RunningPass: @unchecked Sendable {
    private let lock = NSLock()
    private var encoder: EncoderSink?
    private var inputs: (any FrameInputs)?

    func set(_ encoder: EncoderSink?, _ inputs: (any FrameInputs)?) {
        lock.withLock { (self.encoder, self.inputs) = (encoder, inputs) }
    }

    /// Frees whatever waits on the encoder or the decoder.
    func interrupt() {
        let (encoder, inputs) = lock.withLock { (self.encoder, self.inputs) }
        encoder?.interrupt()
        inputs?.close()
    }
}
