import Foundation
import Geometry
import CoreMedia
import Layers
import Rendering
import Export
#if canImport(Glibc)
import Glibc
#endif

/// One export session's work, worked out before anything renders: the asset read, the video
/// composition (given or the asset's own) checked, the output's kind, size, clock and frames,
/// the layer tree and its video layers.
struct ExportJob {
    let settings: AVAssetExportSession.ExportSettings
    let preset: ExportPreset
    let asset: AVAsset
    let snapshot: CompositionSnapshot
    /// The export's part of the composition, in seconds.
    let start: Double, end: Double

    init(asset: AVAsset, preset: ExportPreset, settings: AVAssetExportSession.ExportSettings) throws(AVError) {
        self.asset = asset; self.preset = preset; self.settings = settings
        let output = settings.output
        if FileManager.default.fileExists(atPath: output.path) {
            throw AVError(.fileAlreadyExists, "Cannot Save: \(output.path) already exists (remove it first)", url: output)
        }
        snapshot = try CompositionSnapshot.of(asset)
        let duration = snapshot.duration.seconds
        let range = settings.timeRange
        guard range.isValid else { throw AVError(.exportFailed, "timeRange \(range) is not a valid range") }
        let from = max(0, range.start.isNumeric ? range.start.seconds : 0)
        let to = min(duration, range.end.isNumeric ? range.end.seconds : .infinity)
        guard to > from else {
            throw AVError(.exportFailed, "timeRange \(range) holds nothing of the asset (its duration is \(String(format: "%.3f", duration)) s)")
        }
        start = from; end = to
        guard snapshot.tracks.contains(where: { $0.mediaType == .video && !$0.segments.isEmpty }) else {
            throw AVError(.operationNotSupportedForAsset, "the asset has no video track (Lamina exports video; audio-only export is not supported)")
        }
        if preset.passthrough, settings.videoComposition != nil {
            throw AVError(.operationNotSupportedForPreset, "\(preset.name) copies the media as it is: it takes no videoComposition")
        }
    }

    /// Exports; `publish` gets the exporter (for cancellation), `progress` the share done.
    /// Returns the warnings.
    func run(publish: (VideoExporter) -> Void, progress: @escaping @Sendable (Float) -> Void) throws(AVError) -> [String] {
        if preset.passthrough, asset is AVURLAsset || (asset.fileURL != nil && !(asset is AVComposition)) {
            try copyStreams()
            return []
        }
        let videoComposition = settings.videoComposition ?? AVVideoComposition(propertiesOf: asset)
        if let problem = videoComposition.problem(for: asset, timeRange: CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600_000),
                                                                                     end: CMTime(seconds: end, preferredTimescale: 600_000))) {
            throw problem
        }
        let frameDuration = videoComposition.frameDuration
        let clock = FrameClock(framesPerSecond: Double(frameDuration.timescale) / Double(frameDuration.value))
        let first = max(0, clock.frame(at: start))
        let count = clock.frameCount(forDuration: end - start)
        guard count <= SceneLimits.maximumFrames else {
            throw AVError(.exportFailed, "\(count) frames is more than Lamina exports at once (\(SceneLimits.maximumFrames))")
        }
        let size = preset.outputSize(for: videoComposition.renderSize)
        guard size.width <= SceneLimits.maximumOutputSide, size.height <= SceneLimits.maximumOutputSide else {
            throw AVError(.invalidVideoComposition, "renderSize \(videoComposition.renderSize) is larger than Lamina renders (\(SceneLimits.maximumOutputSide) a side)")
        }
        guard let kind = preset.kind(for: settings.fileType) else { throw AVError(.exportFailed, "\(preset.name) cannot write \(settings.fileType)") }

        // The tree: the tool's animation layer (y-up, as Apple renders it) over the composed
        // frames in its video layers, or a layer of the render size showing them.
        let tool = videoComposition.animationTool
        let root: CALayer
        let targets: [CALayer]
        if let animationLayer = tool?.animationLayer {
            root = animationLayer
            targets = tool?.videoLayers ?? []
        } else {
            root = CALayer()
            root.bounds = CGRect(origin: .zero, size: videoComposition.renderSize)
            root.position = CGPoint(x: videoComposition.renderSize.width / 2, y: videoComposition.renderSize.height / 2)
            targets = [root]
        }
        var options = VideoExportOptions(output: settings.output, width: size.width, height: size.height,
                                         framesPerSecond: clock.framesPerSecond, frames: first...(first + count - 1))
        options.scale = size.scale
        options.kind = kind
        options.quality = preset.prores ? nil : preset.quality
        options.backend = settings.backend
        options.fastStart = settings.fastStart
        options.origin = tool?.animationLayer != nil ? .bottomLeft : .topLeft
        let input = CompositionInput(snapshot: snapshot, videoComposition: videoComposition, audioMix: settings.audioMix, targets: targets)
        var warnings: [String] = []
        func attempt(_ options: VideoExportOptions) throws(ExportError) -> ExportSummary {
            let exporter = VideoExporter(root: root, options: options, input: input)
            exporter.checksExportTiming = tool?.animationLayer != nil
            exporter.onProgress = { progress(Float($0.framesDone) / Float(max(1, $0.frameCount)) * 0.999) }
            publish(exporter)
            return try exporter.run()
        }
        do throws(ExportError) {
            let summary: ExportSummary
            do throws(ExportError) {
                summary = try attempt(options)
            } catch {
                guard case .backendUnavailable(let reason) = error, options.backend == .gpu else { throw error }
                warnings.append("the GPU backend is not available here (\(reason)); drawn with the CPU backend")
                options.backend = .cpu
                summary = try attempt(options)
            }
            return warnings + summary.warnings
        } catch {
            throw Self.avError(error, output: settings.output)
        }
    }

    /// Passthrough of a file: its video and audio streams copied over the export's range.
    private func copyStreams() throws(AVError) {
        guard let source = asset.fileURL else { return }
        let output = settings.output
        let temporary = OutputFiles.temporaryPath(for: output)
        defer { unlink(temporary) }
        var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y"]
        if start > 0 { arguments += ["-ss", String(format: "%.6f", start)] }
        arguments += ["-t", String(format: "%.6f", end - start), "-i", source.path, "-map", "0:V", "-map", "0:a?", "-c", "copy"]
        if settings.fastStart { arguments += ["-movflags", "+faststart"] }
        arguments += ["-f", settings.fileType == .mov ? "mov" : "mp4", temporary]
        do throws(ExportError) {
            _ = try FFmpegProcess.run(arguments: arguments)
            try VideoExporter.moveIntoPlace(temporary, output.path, overwrite: false)
        } catch {
            throw Self.avError(error, output: output)
        }
    }

    /// Lamina's export errors as AVFoundation's, keeping the description.
    static func avError(_ error: ExportError, output: URL) -> AVError {
        let reason = error.description
        switch error {
        case .outputExists(let path): return AVError(.fileAlreadyExists, "Cannot Save: \(path) already exists", url: output)
        case .cancelled: return AVError(.operationCancelled, "the export was cancelled; no file was written", url: output)
        case .badInput(let path, _): return AVError(.decodeFailed, reason, url: URL(fileURLWithPath: path))
        case .toolMissing: return AVError(.encoderNotFound, reason)
        case .renderFailed: return AVError(.videoCompositorFailed, reason)
        case .cannotWrite: return AVError(.exportFailed, "Cannot Save: \(reason)", url: output)
        case .toolFailed, .unsupportedOutput, .invalidSettings, .imageOutput, .backendUnavailable, .overBudget, .invalidOutput:
            return AVError(.exportFailed, reason, url: output)
        }
    }
}
