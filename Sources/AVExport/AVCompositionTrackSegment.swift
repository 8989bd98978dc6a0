import Foundation
import CoreMedia

/// A piece of a track's timeline: a source range mapped to a target range (or empty).
/// AVFoundation: `AVAssetTrackSegment`.
public class AVAssetTrackSegment: @unchecked Sendable {
    public let timeMapping: CMTimeMapping
    /// A gap: no media over the target range.
    public let isEmpty: Bool

    init(timeMapping: CMTimeMapping, isEmpty: Bool) { self.timeMapping = timeMapping; self.isEmpty = isEmpty }
}

/// A segment of a composition track: media of a file's track over a range of the composition.
/// AVFoundation: `AVCompositionTrackSegment`.
public class AVCompositionTrackSegment: AVAssetTrackSegment, @unchecked Sendable {
    /// The file the media comes from (nil for an empty segment).
    public let sourceURL: URL?
    /// The track of that file.
    public let sourceTrackID: CMPersistentTrackID
    /// The probed stream, when the segment came from a loaded asset track.
    let source: TrackSource?

    /// Media of track `trackID` of `url` over `sourceTimeRange`, placed at `targetTimeRange`.
    public convenience init(url: URL, trackID: CMPersistentTrackID, sourceTimeRange: CMTimeRange, targetTimeRange: CMTimeRange) {
        self.init(source: nil, url: url, trackID: trackID, mapping: CMTimeMapping(source: sourceTimeRange, target: targetTimeRange))
    }

    /// An empty segment over `timeRange`.
    public convenience init(timeRange: CMTimeRange) {
        self.init(source: nil, url: nil, trackID: kCMPersistentTrackID_Invalid, mapping: CMTimeMappingMakeEmpty(target: timeRange))
    }

    init(source: TrackSource?, url: URL?, trackID: CMPersistentTrackID, mapping: CMTimeMapping) {
        self.source = source; sourceURL = url; sourceTrackID = trackID
        super.init(timeMapping: mapping, isEmpty: url == nil)
    }

    /// The same media over another target range (source times mapped along when `mapsSource`).
    func retargeted(_ target: CMTimeRange, source newSource: CMTimeRange? = nil) -> AVCompositionTrackSegment {
        if isEmpty { return AVCompositionTrackSegment(timeRange: target) }
        return AVCompositionTrackSegment(source: source, url: sourceURL, trackID: sourceTrackID,
                                         mapping: CMTimeMapping(source: newSource ?? timeMapping.source, target: target))
    }

    /// The two parts of the segment either side of target time `time` (inside it).
    func split(at time: CMTime) -> (AVCompositionTrackSegment, AVCompositionTrackSegment) {
        let target = timeMapping.target
        let first = CMTimeRange(start: target.start, end: time), second = CMTimeRange(start: time, end: target.end)
        guard !isEmpty else { return (retargeted(first), retargeted(second)) }
        let cut = CMTimeMapTimeFromRangeToRange(time, fromRange: target, toRange: timeMapping.source)
        return (retargeted(first, source: CMTimeRange(start: timeMapping.source.start, end: cut)),
                retargeted(second, source: CMTimeRange(start: cut, end: timeMapping.source.end)))
    }
}

/// Edits on a track's segment list (sorted, contiguous from 0): what `AVMutableCompositionTrack`
/// and `AVMutableComposition` do to their timelines.
enum SegmentEdits {
    /// The end of the last segment (zero for none).
    static func end(_ segments: [AVCompositionTrackSegment]) -> CMTime { segments.last?.timeMapping.target.end ?? .zero }

    /// Makes `time` a segment boundary (splitting the segment it falls inside).
    static func split(_ segments: inout [AVCompositionTrackSegment], at time: CMTime) {
        guard let i = segments.firstIndex(where: { $0.timeMapping.target.containsTime(time) && $0.timeMapping.target.start != time })
        else { return }
        let (a, b) = segments[i].split(at: time)
        segments.replaceSubrange(i...i, with: [a, b])
    }

    /// Inserts `pieces` (targets relative to 0) at `time`, moving what was at or after it later.
    static func insert(_ pieces: [AVCompositionTrackSegment], at time: CMTime, into segments: inout [AVCompositionTrackSegment]) {
        let total = pieces.last.map { $0.timeMapping.target.end } ?? .zero
        guard total > .zero else { return }
        let trackEnd = end(segments)
        if time > trackEnd { segments.append(AVCompositionTrackSegment(timeRange: CMTimeRange(start: trackEnd, end: time))) }
        split(&segments, at: time)
        let index = segments.firstIndex { $0.timeMapping.target.start >= time } ?? segments.count
        for i in index..<segments.count {
            let t = segments[i].timeMapping.target
            segments[i] = segments[i].retargeted(CMTimeRange(start: t.start + total, duration: t.duration))
        }
        let placed = pieces.map { p in
            p.retargeted(CMTimeRange(start: p.timeMapping.target.start + time, duration: p.timeMapping.target.duration))
        }
        segments.insert(contentsOf: placed, at: index)
    }

    /// Removes `range`, moving what followed it earlier.
    static func remove(_ range: CMTimeRange, from segments: inout [AVCompositionTrackSegment]) {
        guard range.isValid, range.duration > .zero else { return }
        split(&segments, at: range.start)
        split(&segments, at: range.end)
        segments.removeAll { range.containsTimeRange($0.timeMapping.target) }
        for i in segments.indices where segments[i].timeMapping.target.start >= range.end {
            let t = segments[i].timeMapping.target
            segments[i] = segments[i].retargeted(CMTimeRange(start: t.start - range.duration, duration: t.duration))
        }
    }

    /// Stretches or squeezes `range` to `duration` (the media plays slower or faster), moving what follows.
    static func scale(_ range: CMTimeRange, to duration: CMTime, in segments: inout [AVCompositionTrackSegment]) {
        guard range.isValid, range.duration > .zero, duration.isNumeric, duration > .zero else { return }
        split(&segments, at: range.start)
        split(&segments, at: range.end)
        let scaled = CMTimeRange(start: range.start, duration: duration)
        let shift = duration - range.duration
        for i in segments.indices {
            let t = segments[i].timeMapping.target
            if range.containsTimeRange(t) {
                let start = CMTimeMapTimeFromRangeToRange(t.start, fromRange: range, toRange: scaled)
                let end = CMTimeMapTimeFromRangeToRange(t.end, fromRange: range, toRange: scaled)
                segments[i] = segments[i].retargeted(CMTimeRange(start: start, end: end))
            } else if t.start >= range.end {
                segments[i] = segments[i].retargeted(CMTimeRange(start: t.start + shift, duration: t.duration))
            }
        }
    }
}
