import Foundation
import Synchronization
import Geometry
import Layers
import Presentation
import Rendering
import ImageIO
import ContentRaster
import Snapshot
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

    /// Options for `frameCount` frames (from 0) of `width`×`height` at `framesPerSecond`.
    public init(output: URL, width: Int, height: Int, framesPerSecond: Double = 30, frames: ClosedRange<Int>) {
        self.output = output; self.width = width; self.height = height
        self.framesPerSecond = framesPerSecond; self.frames = frames
    }

    /// Options for `duration` seconds (frames 0 ..< duration·fps, at least one).
    public init(output: URL, width: Int, height: Int, framesPerSecond: Double = 30, duration: Double) {
        let count = max(1, Int((duration * framesPerSecond).rounded()))
        self.init(output: output, width: width, height: height, framesPerSecond: framesPerSecond, frames: 0...(count - 1))
    }
}

/// The video an export composites over and the layers that show its frames
/// (the `AVVideoCompositionCoreAnimationTool` job).
public struct VideoComposition {
    /// The input video (its audio is carried into the output).
    public var url: URL
    /// Layers that show the current frame: `VideoFrameLayer`s (drawn through the render plan's
    /// video hook) or any `CALayer` (its `contents` is set for each frame).
    public var layers: [CALayer]

    public init(url: URL, layers: [CALayer]) { self.url = url; self.layers = layers }
}

/// Renders a layer tree frame by frame into a video file through ffmpeg.
///
/// Frame i is the tree at time i / fps and depends on nothing else, so any range of frames can be
/// rendered alone (resumable, segmentable). Evaluating, planning and drawing frame n+1 overlaps
/// with encoding frame n (`FramePipeline`). The file is written under a temporary name beside the
/// output and renamed into place only when complete: a failed or cancelled export leaves nothing
/// under the output's name.
///
/// Run it on one thread (`run()`); `cancel()` may be called from any thread (a signal handler's
/// dispatch source, another task).
public final class VideoExporter: @unchecked Sendable {
    public let root: CALayer
    public let options: VideoExportOptions
    public let composition: VideoComposition?
    /// Called on the exporting thread after each frame.
    public var onProgress: ((ExportProgress) -> Void)?
    /// Sees every frame (premultiplied RGBA) on the writer thread, before it is encoded.
    public var onFrame: (@Sendable (Int, Image) -> Void)?
    /// Reports animations that would not show in an AVFoundation export (default on).
    public var checksExportTiming = true
    private let cancelled = Atomic<Bool>(false)

    public init(root: CALayer, options: VideoExportOptions, composition: VideoComposition? = nil) {
        self.root = root; self.options = options; self.composition = composition
    }

    /// Stops the export at the next frame; `run()` then throws `.cancelled`.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Exports; returns what was written.
    @discardableResult
    public func run() throws(ExportError) -> ExportSummary {
        LargeAllocations.mapped
        let o = options
        let outputPath = o.output.path
        let kind = try OutputKind.forPath(outputPath, codec: o.codec)
        guard o.width > 0, o.height > 0, o.width <= 16384, o.height <= 16384 else {
            throw .invalidSettings("output size \(o.width)x\(o.height) is outside 1…16384")
        }
        guard o.framesPerSecond > 0, o.framesPerSecond.isFinite else { throw .invalidSettings("frames per second must be positive") }
        if !o.overwrite, FileManager.default.fileExists(atPath: outputPath) { throw .outputExists(path: outputPath) }
        let folder = o.output.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw .cannotWrite(path: outputPath, reason: "no folder \(folder)")
        }
        guard isFolder.boolValue else { throw .cannotWrite(path: outputPath, reason: "\(folder) is a file, not a folder") }
        // ffmpeg must be there before anything renders (LAMINA_FFMPEG, else PATH).
        let ffmpeg = FFmpegProcess.resolve("ffmpeg")
        guard FFmpegProcess.locate(ffmpeg) != nil else { throw .toolMissing(ffmpeg) }
        let started = BoundedQueue<Int>.now()
        let warnings = checksExportTiming
            ? ExportLint.warnings(root, from: Double(o.frames.lowerBound) / o.framesPerSecond,
                                  to: Double(o.frames.upperBound + 1) / o.framesPerSecond)
            : []

        // The input video: probed first so that a bad file fails before anything is rendered.
        var info: VideoInfo?
        if let composition { info = try VideoInfo.probe(composition.url) }
        let renderer: any RenderBackend
        do { renderer = try o.backend.makeBackend() } catch {
            throw .invalidSettings(error.description)
        }
        let temporary = Self.temporaryPath(for: o.output)
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
        let settings = EncoderSettings(
            kind: kind, width: o.width, height: o.height, framesPerSecond: o.framesPerSecond, quality: o.quality,
            keepsAlpha: (o.background?.alpha ?? 0) < 1, firstFrame: o.frames.lowerBound, frameCount: o.frames.count,
            keyframeInterval: o.keyframeInterval,
            audio: info?.audioCodec.map { AudioPassthrough(url: composition!.url, codec: $0, start: Double(o.frames.lowerBound) / o.framesPerSecond) })

        var stages = StageTimes()
        // Shape, text and shadow-path rasters, shared by every frame (and both GIF passes).
        let contents = ContentCache()
        if kind == .gif {
            let path = Self.temporaryPath(for: o.output.deletingPathExtension().appendingPathExtension("palette.png"))
            palette = path
            try renderPass(settings.paletteArguments(palette: path), settings: settings, renderer: renderer, contents: contents, info: info,
                           pass: 1, passCount: 2, started: started, stages: &stages, observe: false)
            try renderPass(settings.arguments(output: temporary, palette: path), settings: settings, renderer: renderer, contents: contents,
                           info: info, pass: 2, passCount: 2, started: started, stages: &stages, observe: true)
        } else {
            try renderPass(settings.arguments(output: temporary), settings: settings, renderer: renderer, contents: contents, info: info,
                           pass: 1, passCount: 1, started: started, stages: &stages, observe: true)
        }
        if isCancelled { throw .cancelled }
        try Self.moveIntoPlace(temporary, outputPath, overwrite: o.overwrite)
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: outputPath)[.size]) as? NSNumber)?.int64Value ?? 0
        return ExportSummary(url: o.output, frames: o.frames.count, seconds: BoundedQueue<Int>.now() - started, bytes: bytes,
                             width: o.width, height: o.height, stages: stages, warnings: warnings + contents.warnings)
    }

    /// Renders every frame of the range into one ffmpeg run.
    private func renderPass(_ arguments: [String], settings: EncoderSettings, renderer: any RenderBackend, contents: ContentCache,
                            info: VideoInfo?,
                            pass: Int, passCount: Int, started: Double, stages: inout StageTimes, observe: Bool) throws(ExportError) {
        let o = options
        var source: VideoSource?
        if let composition, let info {
            let size = Self.decodeSize(composition.layers, scale: o.scale, fallback: (o.width, o.height))
            source = try VideoSource(url: composition.url, info: info, width: size.width, height: size.height,
                                     framesPerSecond: o.framesPerSecond, start: Double(o.frames.lowerBound) / o.framesPerSecond)
        }
        defer { source?.close() }
        let encoder = try FFmpegProcess(arguments: arguments, writesInput: true)
        let pipeline = FramePipeline(encoder: encoder, straightAlpha: settings.wantsStraightAlpha, depth: o.queueDepth,
                                     observer: observe ? onFrame : nil)
        let images = ExportImageProvider()
        let videoLayerIDs = Set((composition?.layers ?? []).filter { $0.properties.content == .video }.map(ObjectIdentifier.init))
        let contentsLayers = (composition?.layers ?? []).filter { $0.properties.content != .video }
        let savedContents = contentsLayers.map { $0.contents as? CGImage }
        defer { for (layer, contents) in zip(contentsLayers, savedContents) { Self.setContents(layer, contents) } }
        var done = 0
        do throws(ExportError) {
            for index in o.frames {
                if isCancelled { throw .cancelled }
                let time = Double(index) / o.framesPerSecond
                var frameImage: CGImage?
                if let source {
                    let t = BoundedQueue<Int>.now()
                    frameImage = try source.nextFrame()
                    stages.decodeWait += BoundedQueue<Int>.now() - t
                    for layer in contentsLayers { Self.setContents(layer, frameImage) }
                }
                let t0 = BoundedQueue<Int>.now()
                let tree = PresentationTree.evaluate(root, at: time)
                let t1 = BoundedQueue<Int>.now()
                var builder = RenderPlanBuilder(width: o.width, height: o.height, scale: o.scale, background: o.background,
                                                contentRasterizer: contents)
                if let frameImage, !videoLayerIDs.isEmpty {
                    builder.videoFrame = { videoLayerIDs.contains($0) ? frameImage : nil }
                }
                let plan = builder.plan(for: tree)
                let t2 = BoundedQueue<Int>.now()
                guard let image = renderer.render(plan, images: images) else { throw .renderFailed(frame: index) }
                if let frameImage { renderer.forget(frameImage) }
                stages.evaluate += t1 - t0
                stages.plan += t2 - t1
                stages.composite += renderer.lastTimings.composite
                stages.readback += renderer.lastTimings.readback
                try pipeline.submit(index, image)
                done += 1
                if let onProgress {
                    var current = stages
                    current.encoderWait += pipeline.renderWaitSeconds
                    current.writerWait += pipeline.writerWaitSeconds
                    current.write += pipeline.writeSeconds
                    onProgress(ExportProgress(framesDone: done, frameCount: o.frames.count, elapsed: BoundedQueue<Int>.now() - started,
                                              limitingStage: current.limitingStage, pass: pass, passCount: passCount))
                }
            }
            try pipeline.finish()
        } catch {
            pipeline.abandon()
            throw isCancelled ? .cancelled : error
        }
        stages.encoderWait += pipeline.renderWaitSeconds
        stages.writerWait += pipeline.writerWaitSeconds
        stages.convert += pipeline.convertSeconds
        stages.write += pipeline.writeSeconds
    }

    private static func setContents(_ layer: CALayer, _ image: CGImage?) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.contents = image
        CATransaction.commit()
    }

    /// The size video frames are decoded at: the largest video layer's size in output pixels
    /// (model bounds × scale), or the output size when that is unknown; at most 8192 a side.
    static func decodeSize(_ layers: [CALayer], scale: CGFloat, fallback: (Int, Int)) -> (width: Int, height: Int) {
        var best: (Int, Int)?
        for layer in layers {
            let w = Int((layer.bounds.width * scale).rounded()), h = Int((layer.bounds.height * scale).rounded())
            guard w > 0, h > 0 else { continue }
            if best == nil || w * h > best!.0 * best!.1 { best = (w, h) }
        }
        let (w, h) = best ?? fallback
        return (min(max(w, 2), 8192), min(max(h, 2), 8192))
    }

    /// `.NAME.lamina-RANDOM.EXT` beside `url` (the extension kept so that tools recognise it).
    static func temporaryPath(for url: URL) -> String {
        let folder = url.deletingLastPathComponent().path
        let ext = url.pathExtension
        let base = url.deletingPathExtension().lastPathComponent
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return (folder as NSString).appendingPathComponent(".\(base).lamina-\(random)" + (ext.isEmpty ? "" : ".\(ext)"))
    }

    /// Renames the finished file into place; without `overwrite`, never replaces a file that
    /// appeared meanwhile (hard link, then unlink).
    static func moveIntoPlace(_ temporary: String, _ path: String, overwrite: Bool) throws(ExportError) {
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

/// Serves layer contents during an export: files decoded once and kept (they are reused every
/// frame), in-memory images (video frames, generated images) served as they are without a copy,
/// so that frames drawn once are not kept alive.
final class ExportImageProvider: ImageProvider {
    private let files = FileImageProvider()

    func pixels(for image: CGImage) -> Image? {
        if let bytes = image.pixels { return Image(width: image.width, height: image.height, pixels: bytes) }
        return files.pixels(for: image)
    }

    var problems: [String] { files.problems }
}
