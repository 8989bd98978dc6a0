import Foundation
import Geometry
import CoreMedia

/// One track of an asset: its media type, identity, size, rotation, rate and range.
/// AVFoundation: `AVAssetTrack`.
open class AVAssetTrack: @unchecked Sendable {
    /// The asset the track belongs to.
    public private(set) weak var asset: AVAsset?
    public let trackID: CMPersistentTrackID
    public let mediaType: AVMediaType
    /// The file and stream the track's media comes from (nil for composition tracks, whose
    /// media comes from their segments).
    let source: TrackSource?
    var storedNaturalSize: CGSize
    var storedTransform: CGAffineTransform
    var storedTimeRange: CMTimeRange
    var storedFrameRate: Float
    var storedVolume: Float = 1
    var storedEnabled = true

    init(asset: AVAsset?, trackID: CMPersistentTrackID, mediaType: AVMediaType, source: TrackSource?, naturalSize: CGSize,
         preferredTransform: CGAffineTransform, timeRange: CMTimeRange, nominalFrameRate: Float) {
        self.asset = asset; self.trackID = trackID; self.mediaType = mediaType; self.source = source
        storedNaturalSize = naturalSize; storedTransform = preferredTransform; storedTimeRange = timeRange
        storedFrameRate = nominalFrameRate
    }

    convenience init(asset: AVAsset, url: URL, probed: ProbedTrack) {
        self.init(asset: asset, trackID: probed.trackID, mediaType: probed.mediaType, source: TrackSource(url: url, track: probed),
                  naturalSize: probed.naturalSize, preferredTransform: probed.preferredTransform, timeRange: probed.timeRange,
                  nominalFrameRate: probed.nominalFrameRate)
    }

    /// Size of the frames as coded, before `preferredTransform` (video; zero otherwise).
    open var naturalSize: CGSize { storedNaturalSize }
    /// How the frames are turned for display (from the file's rotation metadata): a portrait
    /// phone video is landscape-coded with a 90° transform.
    open var preferredTransform: CGAffineTransform { storedTransform }
    /// The track's range on the asset's timeline.
    open var timeRange: CMTimeRange { storedTimeRange }
    /// Frames per second (video; 0 otherwise).
    open var nominalFrameRate: Float { storedFrameRate }
    /// The shortest frame duration (1 / the nominal rate; invalid without one).
    open var minFrameDuration: CMTime {
        nominalFrameRate > 0 ? CMTime(seconds: 1 / Double(nominalFrameRate), preferredTimescale: 600_000) : .invalid
    }
    /// The track's own timescale (its range's).
    open var naturalTimeScale: CMTimeScale { timeRange.duration.isNumeric ? timeRange.duration.timescale : 600 }
    /// Bits per second of the stream as ffprobe reports it.
    open var estimatedDataRate: Float { source?.track.bitRate ?? 0 }
    open var isEnabled: Bool { storedEnabled }
    open var isPlayable: Bool { true }
    open var isDecodable: Bool { true }
    open var isSelfContained: Bool { true }
    open var preferredVolume: Float { storedVolume }
    /// The track's media characteristics test: whether it has `mediaType`'s kind of media.
    open func hasMediaCharacteristic(_ characteristic: AVMediaCharacteristic) -> Bool {
        switch characteristic {
        case .visual: mediaType == .video
        case .audible: mediaType == .audio
        case .legible: mediaType == .text || mediaType == .subtitle || mediaType == .closedCaption
        default: false
        }
    }
}

extension AVAssetTrack: AVAsynchronousKeyValueLoading {
    /// `.loaded` for every key: a track exists only once its asset has been read.
    public func statusOfValue(forKey key: String, error outError: UnsafeMutablePointer<NSError?>?) -> AVKeyValueStatus { .loaded }

    public func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)? = nil) {
        DispatchQueue.global().async { handler?() }
    }
}

/// What a track shows, by kind. AVFoundation: `AVMediaCharacteristic`.
public struct AVMediaCharacteristic: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let visual = AVMediaCharacteristic(rawValue: "public.visual")
    public static let audible = AVMediaCharacteristic(rawValue: "public.audible")
    public static let legible = AVMediaCharacteristic(rawValue: "public.legible")
}

/// A track's media in a file: the file and the probed stream.
struct TrackSource: Sendable, Equatable {
    var url: URL
    var track: ProbedTrack
}
