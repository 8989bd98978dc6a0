import Foundation
import Geometry
import CoreMedia

/// A piece of a track's media placed on the composition's timeline, in seconds.
struct MediaSegment: Sendable {
    var url: URL
    var track: ProbedTrack
    /// Where the media comes from in its file.
    var sourceStart: Double
    var sourceDuration: Double
    /// Where it plays on the composition's timeline.
    var targetStart: Double
    var targetDuration: Double

    var targetEnd: Double { targetStart + targetDuration }
    /// Source seconds per composition second (2 plays twice as fast).
    var speed: Double { targetDuration > 0 ? sourceDuration / targetDuration : 1 }
    /// Whether composition time `t` falls in the segment.
    func contains(_ t: Double) -> Bool { t >= targetStart && t < targetEnd }
}

/// One track of the composition, resolved to files.
struct TrackPlan: Sendable {
    var trackID: CMPersistentTrackID
    var mediaType: AVMediaType
    var preferredVolume: Float
    var segments: [MediaSegment]

    func segment(at t: Double) -> MediaSegment? { segments.first { $0.contains(t) } }
}

/// An asset's tracks as files and ranges, read once before an export renders anything.
struct CompositionSnapshot: Sendable {
    var duration: CMTime
    var tracks: [TrackPlan]

    func track(_ id: CMPersistentTrackID) -> TrackPlan? { tracks.first { $0.trackID == id } }

    /// Resolves `asset`: a file's tracks as they are, a composition's segments to their files
    /// (probing files named only by URL). Throws naming the file that cannot be read.
    static func of(_ asset: AVAsset) throws(AVError) -> CompositionSnapshot {
        let tracks = try asset.loadedTracks()
        var probes: [URL: ProbedMedia] = [:]
        func probe(_ url: URL) throws(AVError) -> ProbedMedia {
            if let known = probes[url] { return known }
            let media = try ProbedMedia.probe(url)
            probes[url] = media
            return media
        }
        var plans: [TrackPlan] = []
        for track in tracks where track.mediaType == .video || track.mediaType == .audio {
            var segments: [MediaSegment] = []
            if let composed = track as? AVCompositionTrack {
                for segment in composed.segments where !segment.isEmpty {
                    guard let url = segment.sourceURL else { continue }
                    var source = segment.source
                    if source == nil {
                        guard let probed = try probe(url).tracks.first(where: { $0.trackID == segment.sourceTrackID }) else {
                            throw AVError(.noSourceTrack, "\(url.path): no track \(segment.sourceTrackID)", url: url)
                        }
                        source = TrackSource(url: url, track: probed)
                    }
                    let m = segment.timeMapping
                    segments.append(MediaSegment(url: url, track: source!.track, sourceStart: m.source.start.seconds,
                                                 sourceDuration: m.source.duration.seconds, targetStart: m.target.start.seconds,
                                                 targetDuration: m.target.duration.seconds))
                }
            } else if let source = track.source {
                let range = track.timeRange
                segments.append(MediaSegment(url: source.url, track: source.track, sourceStart: range.start.seconds,
                                             sourceDuration: range.duration.seconds, targetStart: range.start.seconds,
                                             targetDuration: range.duration.seconds))
            }
            guard track.isEnabled else { continue }
            plans.append(TrackPlan(trackID: track.trackID, mediaType: track.mediaType,
                                   preferredVolume: track.preferredVolume, segments: segments))
        }
        return CompositionSnapshot(duration: asset.duration, tracks: plans)
    }
}
