import Foundation
import Synchronization
import Geometry
import CoreMedia
import Layers
import Rendering
import Export

/// Writes an asset — a file or a composition, with a video composition (instructions, Core
/// Animation tool) and an audio mix — to a movie file in the form a preset describes.
/// AVFoundation: `AVAssetExportSession`.
///
/// The export runs on a thread of its own through Lamina's `VideoExporter` (one frame loop,
/// ffmpeg for decoding and encoding). Before anything renders, the session checks its settings
/// and reads every source file, so a bad setting or file fails at once; a failed or cancelled
/// export leaves no file at `outputURL`. `status`, `progress` and `error` may be read from any
/// thread.
public final class AVAssetExportSession: @unchecked Sendable {
    /// What an export is doing. AVFoundation: `AVAssetExportSession.Status`.
    public enum Status: Int, Sendable {
        case unknown = 0, waiting, exporting, completed, failed, cancelled
    }

    public let asset: AVAsset
    public let presetName: String
    /// Where to write (must not exist: an existing file fails with `fileAlreadyExists`).
    public var outputURL: URL?
    /// `.mov`, `.mp4` or `.m4v` (`supportedFileTypes`); the container written, whatever the URL's extension.
    public var outputFileType: AVFileType?
    public var videoComposition: AVVideoComposition?
    public var audioMix: AVAudioMix?
    /// The part of the asset to export (default: all of it).
    public var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
    /// Puts the file's index before its media, so that playback can start while it downloads.
    public var shouldOptimizeForNetworkUse = false
    /// Pitch is kept when scaled audio plays faster or slower (`spectral`, as Apple's exports).
    public var audioTimePitchAlgorithm = AVAudioTimePitchAlgorithm.spectral
    /// Accepted for source compatibility; Lamina reads each source once or twice (GIF) either way.
    public var canPerformMultiplePassesOverSourceMediaData = false
    /// Where temporary files go (unused: the output is written under a temporary name beside itself).
    public var directoryForTemporaryFiles: URL?
    /// Lamina: the renderer that draws the frames (default the GPU backend, falling back to the
    /// CPU one where no EGL display can be had). Apple has one renderer.
    public var renderBackend = BackendKind.gpu

    private struct State {
        var status = Status.unknown
        var error: (any Error)?
        var progress: Float = 0
        var cancelRequested = false
        var exporter: VideoExporter?
        var warnings: [String] = []
    }
    private let state = Mutex(State())
    private let preset: ExportPreset

    /// A session exporting `asset` as `presetName` describes; nil for a preset Lamina does not
    /// offer (HEVC, audio-only), as Apple returns nil for a preset that cannot be used.
    public init?(asset: AVAsset, presetName: String) {
        guard let preset = ExportPreset.named(presetName) else { return nil }
        self.asset = asset
        self.presetName = presetName
        self.preset = preset
    }

    public var status: Status { state.withLock { $0.status } }
    /// Why the export failed (an `AVError` naming the cause), nil otherwise.
    public var error: (any Error)? { state.withLock { $0.error } }
    /// 0 … 1, the share of frames written.
    public var progress: Float { state.withLock { $0.progress } }
    /// Lamina: animations an export on Apple would not show (`ExportLint`), and fonts or
    /// images that were substituted, after the export.
    public var warnings: [String] { state.withLock { $0.warnings } }

    /// The file types this preset writes.
    public var supportedFileTypes: [AVFileType] { preset.fileTypes }

    /// Every preset name Lamina offers.
    public class func allExportPresets() -> [String] { ExportPreset.all.map(\.name) }

    /// The presets that can export `asset` (all of them for a readable asset with video).
    public class func exportPresets(compatibleWith asset: AVAsset) -> [String] {
        asset.tracks(withMediaType: .video).isEmpty ? [] : allExportPresets()
    }

    /// Whether `presetName` can export `asset` to `outputFileType` (nil: any), to `handler`.
    public class func determineCompatibility(ofExportPreset presetName: String, with asset: AVAsset, outputFileType: AVFileType?,
                                             completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async {
            guard let preset = ExportPreset.named(presetName), !asset.tracks(withMediaType: .video).isEmpty else { return handler(false) }
            handler(outputFileType.map { preset.fileTypes.contains($0) } ?? true)
        }
    }

    /// Starts the export on another thread and returns; `handler` is called on that thread when
    /// it has completed, failed or been cancelled (read `status` and `error` there).
    public func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void) {
        let settings: ExportSettings
        do {
            settings = try state.withLock { s throws(AVError) in
                guard s.status == .unknown else {
                    throw AVError(.operationNotSupportedForAsset, "an export session exports once (status is \(s.status))")
                }
                s.status = .waiting
                return try snapshotSettings()
            }
        } catch {
            finish(.failed, error)
            // Called back on another thread, as always (the caller may be waiting for it).
            DispatchQueue.global().async { handler() }
            return
        }
        let thread = Thread { [self] in
            run(settings)
            handler()
        }
        thread.name = "lamina export session"
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// Exports and returns when done: read `status` and `error` afterwards.
    public func export(isolation: isolated (any Actor)? = #isolation) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            exportAsynchronously { continuation.resume() }
        }
    }

    /// Exports to `url` as `fileType`; throws the export's error, or `CancellationError` when
    /// the export (or the calling task) was cancelled.
    public func export(to url: URL, as fileType: AVFileType, isolation: isolated (any Actor)? = #isolation) async throws {
        outputURL = url
        outputFileType = fileType
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                exportAsynchronously { continuation.resume() }
            }
        } onCancel: { cancelExport() }
        switch status {
        case .completed: return
        case .cancelled: throw CancellationError()
        default: throw error ?? AVError(.exportFailed, "the export failed")
        }
    }

    /// Stops the export at the next frame (`status` becomes `.cancelled`; no file is left).
    public func cancelExport() {
        let exporter = state.withLock { s -> VideoExporter? in
            s.cancelRequested = true
            return s.exporter
        }
        exporter?.cancel()
    }

    // MARK: - The export

    /// What the caller set, read on the caller's thread when the export starts.
    struct ExportSettings {
        var output: URL
        var fileType: AVFileType
        var videoComposition: AVVideoComposition?
        var audioMix: AVAudioMix?
        var timeRange: CMTimeRange
        var fastStart: Bool
        var backend: BackendKind
    }

    private func snapshotSettings() throws(AVError) -> ExportSettings {
        guard let outputURL else { throw AVError(.exportFailed, "outputURL is not set") }
        guard outputURL.isFileURL else { throw AVError(.exportFailed, "\(outputURL): only file URLs can be written", url: outputURL) }
        guard let outputFileType else { throw AVError(.exportFailed, "outputFileType is not set (use one of supportedFileTypes)") }
        guard preset.fileTypes.contains(outputFileType) else {
            throw AVError(.exportFailed, "\(presetName) cannot write \(outputFileType.rawValue) (it writes \(preset.fileTypes.map(\.rawValue).joined(separator: ", ")))")
        }
        return ExportSettings(output: outputURL, fileType: outputFileType, videoComposition: videoComposition, audioMix: audioMix,
                              timeRange: timeRange, fastStart: shouldOptimizeForNetworkUse, backend: renderBackend)
    }

    private func finish(_ status: Status, _ error: (any Error)?, warnings: [String] = []) {
        state.withLock { s in
            s.status = status
            s.error = error
            s.exporter = nil
            s.warnings += warnings
            if status == .completed { s.progress = 1 }
        }
    }

    private func run(_ settings: ExportSettings) {
        do throws(AVError) {
            let job = try ExportJob(asset: asset, preset: preset, settings: settings)
            if state.withLock({ $0.cancelRequested }) { throw AVError(.operationCancelled, "the export was cancelled") }
            state.withLock { $0.status = .exporting }
            let warnings = try job.run { [self] exporter in
                // The exporter is published so that cancelExport() reaches it; a cancel that came first stops it at once.
                let cancelled = state.withLock { s in
                    s.exporter = exporter
                    return s.cancelRequested
                }
                if cancelled { exporter.cancel() }
            } progress: { [self] fraction in
                state.withLock { $0.progress = fraction }
            }
            finish(.completed, nil, warnings: warnings)
        } catch {
            finish(error.code == .operationCancelled ? .cancelled : .failed, error)
        }
    }
}
