import Foundation
import Synchronization
import Geometry
import CoreMedia

/// Timed media: tracks over a duration. AVFoundation: `AVAsset`.
///
/// `AVAsset(url:)` and `AVURLAsset(url:)` read a file lazily: the first property that needs it
/// probes it with ffprobe (on the calling thread for the synchronous properties; off it for the
/// `load(_:)` forms), once. A missing or unreadable file gives no tracks and an invalid duration
/// synchronously, and an error naming the file from the `load` forms, as Apple's loaders do.
open class AVAsset: @unchecked Sendable {
    /// The file behind the asset (nil for compositions).
    let fileURL: URL?
    private let probe = Mutex<Result<ProbedMedia, AVError>?>(nil)
    private let trackCache = Mutex<[AVAssetTrack]?>(nil)

    init(fileURL: URL?) { self.fileURL = fileURL }

    /// An asset of the movie file at `url` (an `AVURLAsset` on Apple; here the same reader).
    public convenience init(url: URL) { self.init(fileURL: url) }

    // MARK: - Loading (subclasses with contents of their own override these)

    /// The probed file, probing it on first use.
    func probed() throws(AVError) -> ProbedMedia {
        guard let fileURL else { throw AVError(.operationNotSupportedForAsset, "the asset has no file to read") }
        return try probe.withLock { state in
            if state == nil { state = Result { () throws(AVError) in try ProbedMedia.probe(fileURL) } }
            return state!
        }.get()
    }

    /// Whether the file has been probed (the `load` forms probe off the caller's thread first).
    var needsLoading: Bool { fileURL != nil && probe.withLock { $0 == nil } }

    /// The tracks, loaded; throws what loading threw.
    func loadedTracks() throws(AVError) -> [AVAssetTrack] {
        let media = try probed()
        return trackCache.withLock { cache in
            if let cache { return cache }
            let tracks = media.tracks.map { AVAssetTrack(asset: self, url: media.url, probed: $0) }
            cache = tracks
            return tracks
        }
    }

    /// The duration, loaded; throws what loading threw.
    func loadedDuration() throws(AVError) -> CMTime { try probed().duration }

    // MARK: - Synchronous properties (deprecated on Apple since iOS 16, still what most export code reads)

    /// The asset's duration: its longest track's end (invalid when the file cannot be read).
    open var duration: CMTime { (try? loadedDuration()) ?? .invalid }

    /// Every track (empty when the file cannot be read).
    open var tracks: [AVAssetTrack] { (try? loadedTracks()) ?? [] }

    /// The tracks of `mediaType`, in track order.
    open func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] { tracks.filter { $0.mediaType == mediaType } }

    /// The track with `trackID`, nil when there is none.
    open func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? { tracks.first { $0.trackID == trackID } }

    /// The first video track's display size (its natural size turned by its rotation).
    open var naturalSize: CGSize {
        guard let video = tracks(withMediaType: .video).first else { return .zero }
        let box = CGRect(origin: .zero, size: video.naturalSize).applying(video.preferredTransform)
        return CGSize(width: abs(box.width), height: abs(box.height))
    }

    /// The asset's own display transform (identity; each track has its own).
    open var preferredTransform: CGAffineTransform { .identity }
    open var preferredRate: Float { 1 }
    open var preferredVolume: Float { 1 }
    /// Whether the file could be read (and so played, exported, read and composed here).
    open var isPlayable: Bool { (try? loadedTracks()) != nil }
    open var isExportable: Bool { isPlayable }
    open var isReadable: Bool { isPlayable }
    open var isComposable: Bool { isPlayable }
    /// Durations and times are exact here (ffprobe reads the container's tables).
    open var providesPreciseDurationAndTiming: Bool { true }

    // MARK: - Asynchronous loading

    /// Probes the file off the calling thread (once), so that loading never blocks an actor.
    func loadInBackground() async {
        guard needsLoading else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                _ = try? self.probed()
                continuation.resume()
            }
        }
    }

    /// The tracks of `mediaType`. Throws an error naming the file when it cannot be read.
    public func loadTracks(withMediaType mediaType: AVMediaType, isolation: isolated (any Actor)? = #isolation) async throws -> [AVAssetTrack] {
        await loadInBackground()
        return try loadedTracks().filter { $0.mediaType == mediaType }
    }

    /// The tracks of `mediaType`, or the error, to `completionHandler` (on another thread).
    public func loadTracks(withMediaType mediaType: AVMediaType, completionHandler: @escaping @Sendable ([AVAssetTrack]?, (any Error)?) -> Void) {
        DispatchQueue.global().async {
            do throws(AVError) { completionHandler(try self.loadedTracks().filter { $0.mediaType == mediaType }, nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// The track with `trackID` (nil when there is none). Throws when the file cannot be read.
    public func loadTrack(withTrackID trackID: CMPersistentTrackID, isolation: isolated (any Actor)? = #isolation) async throws -> AVAssetTrack? {
        await loadInBackground()
        return try loadedTracks().first { $0.trackID == trackID }
    }

    /// The track with `trackID`, or the error, to `completionHandler` (on another thread).
    public func loadTrack(withTrackID trackID: CMPersistentTrackID, completionHandler: @escaping @Sendable (AVAssetTrack?, (any Error)?) -> Void) {
        DispatchQueue.global().async {
            do throws(AVError) { completionHandler(try self.loadedTracks().first { $0.trackID == trackID }, nil) } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// Stops loading (loading here is one short probe; nothing to stop).
    open func cancelLoading() {}
}

extension AVAsset: AVAsynchronousKeyValueLoading {
    /// `.loaded` once the file has been read, `.failed` (with the error in `outError`) when it
    /// cannot be, `.unknown` before. Keys: `duration`, `tracks`, `playable`, `exportable`,
    /// `readable`, `composable`, `naturalSize`, `preferredTransform`, `providesPreciseDurationAndTiming`.
    public func statusOfValue(forKey key: String, error outError: UnsafeMutablePointer<NSError?>?) -> AVKeyValueStatus {
        guard Self.keys.contains(key) else {
            outError?.pointee = AVError(.unknown, "\"\(key)\" is not a key AVAsset loads") as NSError
            return .failed
        }
        if needsLoading { return .unknown }
        do throws(AVError) {
            _ = try loadedTracks()
            return .loaded
        } catch {
            outError?.pointee = error as NSError
            return .failed
        }
    }

    /// Loads `keys`, then calls `handler` on another thread; ask `statusOfValue(forKey:error:)` there.
    public func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        DispatchQueue.global().async {
            _ = try? self.loadedTracks()
            handler?()
        }
    }

    static let keys: Set<String> = ["duration", "tracks", "playable", "exportable", "readable", "composable", "naturalSize",
                                     "preferredTransform", "providesPreciseDurationAndTiming", "preferredRate", "preferredVolume"]
}

/// Asks `AVURLAsset` for precise durations and timing (always precise here).
public let AVURLAssetPreferPreciseDurationAndTimingKey = "AVURLAssetPreferPreciseDurationAndTimingKey"

/// An asset read from a movie file. AVFoundation: `AVURLAsset`.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The file.
    public let url: URL

    /// The movie at `url` (read when first needed). `options` may hold
    /// `AVURLAssetPreferPreciseDurationAndTimingKey`; timing is always precise here.
    public init(url: URL, options: [String: Any]? = nil) {
        self.url = url
        super.init(fileURL: url)
    }

    /// The file types Lamina reads (what ffmpeg demuxes; these are the common ones).
    public class func audiovisualTypes() -> [AVFileType] { [.mov, .mp4, .m4v] }
    /// Whether `type` is one Lamina reads.
    public class func isPlayableExtendedMIMEType(_ type: String) -> Bool { type.hasPrefix("video/") || type.hasPrefix("audio/") }
}

/// Where a key's value stands. AVFoundation: `AVKeyValueStatus`.
public enum AVKeyValueStatus: Int, Sendable {
    case unknown = 0, loading, loaded, failed, cancelled
}
