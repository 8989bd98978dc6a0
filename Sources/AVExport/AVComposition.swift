import Foundation
import Synchronization
import Geometry
import CoreMedia

/// An asset made of other assets' media: tracks whose segments point into files.
/// AVFoundation: `AVComposition`.
open class AVComposition: AVAsset, @unchecked Sendable {
    /// The tracks, in the order they were added.
    var compositionTracks: [AVMutableCompositionTrack] = []
    var storedNaturalSize = CGSize.zero

    init() { super.init(fileURL: nil) }

    override func loadedTracks() throws(AVError) -> [AVAssetTrack] { compositionTracks }
    override func loadedDuration() throws(AVError) -> CMTime { duration }
    override var needsLoading: Bool { false }

    /// The end of the longest track (zero for none).
    open override var duration: CMTime {
        compositionTracks.map { SegmentEdits.end($0.segments) }.max() ?? .zero
    }

    open override var tracks: [AVAssetTrack] { compositionTracks }

    /// The size given to the composition, else its first video track's display size.
    open override var naturalSize: CGSize { storedNaturalSize == .zero ? super.naturalSize : storedNaturalSize }

    open override func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        compositionTracks.filter { $0.mediaType == mediaType }
    }

    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? {
        compositionTracks.first { $0.trackID == trackID }
    }

    /// Every file the composition's segments read.
    var sourceURLs: Set<URL> { Set(compositionTracks.flatMap { $0.segments.compactMap(\.sourceURL) }) }
}

/// A composition that can be edited: tracks added and removed, time ranges of other assets
/// inserted, gaps inserted, ranges removed or played faster or slower.
/// AVFoundation: `AVMutableComposition`.
open class AVMutableComposition: AVComposition, @unchecked Sendable {
    /// An empty composition.
    public override init() { super.init() }

    /// An empty composition; `options` are those its URL assets would be made with (unused here).
    public convenience init(urlAssetInitializationOptions options: [String: Any]? = nil) { self.init() }

    /// The composition's size; zero (default) uses its first video track's display size.
    open override var naturalSize: CGSize {
        get { super.naturalSize }
        set { storedNaturalSize = newValue }
    }

    /// A new empty track of `mediaType`, with `preferredTrackID` unless that is
    /// `kCMPersistentTrackID_Invalid` or taken (then the next free ID).
    open func addMutableTrack(withMediaType mediaType: AVMediaType, preferredTrackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        let taken = Set(compositionTracks.map(\.trackID))
        var id = preferredTrackID
        if id == kCMPersistentTrackID_Invalid || taken.contains(id) || id < 0 { id = (taken.max() ?? 0) + 1 }
        let track = AVMutableCompositionTrack(composition: self, trackID: id, mediaType: mediaType)
        compositionTracks.append(track)
        return track
    }

    /// Removes `track` from the composition.
    open func removeTrack(_ track: AVCompositionTrack) {
        compositionTracks.removeAll { $0 === track }
    }

    /// The first track that can take `track`'s media (same media type), nil when there is none.
    open func mutableTrack(compatibleWith track: AVAssetTrack) -> AVMutableCompositionTrack? {
        compositionTracks.first { $0.mediaType == track.mediaType }
    }

    /// Inserts `timeRange` of every track of `asset` at `startTime`, into compatible tracks
    /// (one per asset track, added as needed), moving what was at or after `startTime` later
    /// on every track. Throws when `asset` cannot be read.
    open func insertTimeRange(_ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime) throws {
        let sourceTracks = try asset.loadedTracks()
        guard timeRange.isValid, timeRange.duration.isNumeric, startTime.isNumeric else {
            throw AVError(.invalidSourceMedia, "insertTimeRange: the time range \(timeRange) or start \(startTime) is not a valid, finite time")
        }
        var used = Set<ObjectIdentifier>()
        for source in sourceTracks where source.mediaType == .video || source.mediaType == .audio {
            let target = compositionTracks.first { $0.mediaType == source.mediaType && !used.contains(ObjectIdentifier($0)) }
                ?? addMutableTrack(withMediaType: source.mediaType, preferredTrackID: kCMPersistentTrackID_Invalid)!
            used.insert(ObjectIdentifier(target))
            try target.insertTimeRange(timeRange, of: source, at: startTime)
        }
        // Tracks that got nothing move their later media along too.
        for track in compositionTracks where !used.contains(ObjectIdentifier(track)) {
            track.insertEmptyTimeRange(CMTimeRange(start: startTime, duration: timeRange.duration))
        }
    }

    /// Inserts a gap of `timeRange.duration` at `timeRange.start` on every track.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        for track in compositionTracks { track.insertEmptyTimeRange(timeRange) }
    }

    /// Removes `timeRange` from every track, moving what followed it earlier.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        for track in compositionTracks { track.removeTimeRange(timeRange) }
    }

    /// Plays `timeRange` of every track over `duration` (slower when longer).
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        for track in compositionTracks { track.scaleTimeRange(timeRange, toDuration: duration) }
    }
}

/// A track of a composition: segments of other tracks' media. AVFoundation: `AVCompositionTrack`.
open class AVCompositionTrack: AVAssetTrack, @unchecked Sendable {
    /// The track's timeline, contiguous from 0.
    open internal(set) var segments: [AVCompositionTrackSegment] = []

    init(composition: AVComposition, trackID: CMPersistentTrackID, mediaType: AVMediaType) {
        super.init(asset: composition, trackID: trackID, mediaType: mediaType, source: nil, naturalSize: .zero,
                   preferredTransform: .identity, timeRange: .zero, nominalFrameRate: 0)
    }

    /// The segment at `trackTime`, nil past the end.
    open func segment(forTrackTime trackTime: CMTime) -> AVCompositionTrackSegment? {
        segments.first { $0.timeMapping.target.containsTime(trackTime) }
    }

    /// The first media segment's source size (zero when the track has no media).
    open override var naturalSize: CGSize {
        storedNaturalSize != .zero ? storedNaturalSize : segments.lazy.compactMap { $0.source?.track.naturalSize }.first ?? .zero
    }

    open override var timeRange: CMTimeRange { CMTimeRange(start: .zero, duration: SegmentEdits.end(segments)) }

    open override var nominalFrameRate: Float {
        segments.lazy.compactMap { $0.source?.track.nominalFrameRate }.first ?? 0
    }
}

/// A composition track that can be edited. AVFoundation: `AVMutableCompositionTrack`.
open class AVMutableCompositionTrack: AVCompositionTrack, @unchecked Sendable {
    /// How the track's frames are turned for display (default identity; export code usually
    /// copies the source track's).
    open override var preferredTransform: CGAffineTransform {
        get { storedTransform }
        set { storedTransform = newValue }
    }
    open override var preferredVolume: Float {
        get { storedVolume }
        set { storedVolume = newValue }
    }
    open override var isEnabled: Bool {
        get { storedEnabled }
        set { storedEnabled = newValue }
    }
    /// The track's segments; set them to replace the timeline (they must be contiguous from 0).
    open override var segments: [AVCompositionTrackSegment] {
        get { super.segments }
        set { super.segments = newValue }
    }

    /// Inserts `timeRange` of `track` at `startTime`, moving what was at or after it later. The
    /// range is clipped to the source track's range. Throws when the media types differ, the
    /// range is not valid or lies outside the track, or the track's media cannot be found.
    open func insertTimeRange(_ timeRange: CMTimeRange, of track: AVAssetTrack, at startTime: CMTime) throws {
        guard track.mediaType == mediaType else {
            throw AVError(.invalidSourceMedia, "insertTimeRange: a \(track.mediaType) track cannot go into a \(mediaType) composition track")
        }
        guard timeRange.isValid, timeRange.duration.isNumeric, timeRange.start.isNumeric, startTime.isNumeric, startTime >= .zero else {
            throw AVError(.invalidSourceMedia, "insertTimeRange: the time range \(timeRange) or start \(startTime) is not a valid, finite time")
        }
        let pieces: [AVCompositionTrackSegment]
        if let composed = track as? AVCompositionTrack {
            // Another composition's track: its segments over the range, flattened.
            var copy = composed.segments
            SegmentEdits.split(&copy, at: timeRange.start)
            SegmentEdits.split(&copy, at: timeRange.end)
            pieces = copy.filter { timeRange.containsTimeRange($0.timeMapping.target) }.map {
                $0.retargeted(CMTimeRange(start: $0.timeMapping.target.start - timeRange.start, duration: $0.timeMapping.target.duration))
            }
        } else if let source = track.source {
            let clipped = timeRange.intersection(track.timeRange)
            guard clipped.duration > .zero else {
                throw AVError(.invalidSourceMedia, "insertTimeRange: \(timeRange) lies outside track \(track.trackID) of \(source.url.lastPathComponent) (\(track.timeRange))", url: source.url)
            }
            pieces = [AVCompositionTrackSegment(source: source, url: source.url, trackID: track.trackID,
                                                mapping: CMTimeMapping(source: clipped, target: CMTimeRange(start: .zero, duration: clipped.duration)))]
        } else {
            throw AVError(.invalidSourceMedia, "insertTimeRange: track \(track.trackID) has no media to insert")
        }
        SegmentEdits.insert(pieces, at: startTime, into: &segments)
    }

    /// Inserts the ranges one after the other at `startTime`.
    open func insertTimeRanges(_ timeRanges: [CMTimeRange], of tracks: [AVAssetTrack], at startTime: CMTime) throws {
        var at = startTime
        for (range, track) in zip(timeRanges, tracks) {
            try insertTimeRange(range, of: track, at: at)
            at = at + range.duration
        }
    }

    /// Inserts a gap of `timeRange.duration` at `timeRange.start`.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.duration > .zero else { return }
        SegmentEdits.insert([AVCompositionTrackSegment(timeRange: CMTimeRange(start: .zero, duration: timeRange.duration))],
                            at: timeRange.start, into: &segments)
    }

    /// Removes `timeRange`, moving what followed it earlier.
    open func removeTimeRange(_ timeRange: CMTimeRange) { SegmentEdits.remove(timeRange, from: &segments) }

    /// Plays `timeRange` over `duration` (slower when longer; audio keeps its pitch).
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        SegmentEdits.scale(timeRange, to: duration, in: &segments)
    }

    /// Checks that `trackSegments` could be the track's timeline: contiguous from 0, valid ranges.
    open func validateSegments(_ trackSegments: [AVCompositionTrackSegment]) throws {
        var at = CMTime.zero
        for segment in trackSegments {
            guard segment.timeMapping.target.isValid, segment.timeMapping.target.start == at else {
                throw AVError(.invalidSourceMedia, "segments are not contiguous: one starts at \(segment.timeMapping.target.start), not \(at)")
            }
            at = segment.timeMapping.target.end
        }
    }
}
