import Foundation
import CoreMedia
import Export

/// The audio of an export of a composition: its audio tracks' segments placed on the
/// composition's timeline (trimmed, moved, played faster or slower with the pitch kept), each
/// track's volume ramps applied, the tracks summed, the export's range cut out. One segment of
/// a file's first audio stream covering the whole export, at full volume, is carried over as
/// it is (copied where the container takes its codec).
enum CompositionAudio {
    static func audio(of snapshot: CompositionSnapshot, volumes: [CMPersistentTrackID: RampTimeline<Float>],
                      from start: Double, to end: Double) -> ExportAudio? {
        let tracks = snapshot.tracks.filter { $0.mediaType == .audio }.map { track in
            (track, track.segments.filter { $0.targetEnd > start && $0.targetStart < end && $0.targetDuration > 0 })
        }.filter { !$0.1.isEmpty }
        guard !tracks.isEmpty else { return nil }

        if tracks.count == 1, let (track, segments) = tracks.first, segments.count == 1, let segment = segments.first,
           segment.speed == 1, segment.track.ordinal == 0, track.preferredVolume == 1,
           volumes[track.trackID].map({ $0.ramps.allSatisfy { $0.start == 1 && $0.end == 1 } }) ?? true,
           segment.targetStart <= start + 1e-6,
           segment.targetEnd >= end - 1e-3 || segment.sourceStart + segment.sourceDuration >= segment.track.timeRange.end.seconds - 1e-3 {
            return .passthrough(AudioPassthrough(url: segment.url, codec: segment.track.codec,
                                                 start: segment.sourceStart + (start - segment.targetStart),
                                                 container: (try? VideoContainer.of(segment.url.path)) ?? .mov))
        }

        var inputs: [[String]] = []
        var chains: [String] = []
        var trackLabels: [String] = []
        for (t, (track, segments)) in tracks.enumerated() {
            var labels: [String] = []
            for segment in segments {
                let input = inputs.count + 1  // input 0 is the raw frames
                inputs.append(["-ss", seconds(segment.sourceStart), "-t", seconds(segment.sourceDuration), "-i", segment.url.path])
                let label = "s\(input)"
                let delay = Int((segment.targetStart * 48000).rounded())
                chains.append("[\(input):\(segment.track.streamIndex)]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,"
                              + "asetpts=PTS-STARTPTS" + tempo(segment.speed) + ",adelay=delays=\(delay)S:all=1[\(label)]")
                labels.append(label)
            }
            var trackLabel = labels[0]
            if labels.count > 1 {
                trackLabel = "t\(t)"
                chains.append(labels.map { "[\($0)]" }.joined() + "amix=inputs=\(labels.count):normalize=0:duration=longest[\(trackLabel)]")
            }
            if let gain = volumeExpression(volumes[track.trackID], preferred: track.preferredVolume) {
                chains.append("[\(trackLabel)]volume=volume='\(gain)':eval=frame[v\(t)]")
                trackLabel = "v\(t)"
            }
            trackLabels.append(trackLabel)
        }
        let mixed = trackLabels.count == 1 ? "[\(trackLabels[0])]"
            : trackLabels.map { "[\($0)]" }.joined() + "amix=inputs=\(trackLabels.count):normalize=0:duration=longest,"
        chains.append(mixed + "atrim=start=\(seconds(start)),asetpts=PTS-STARTPTS[\(AudioGraph.output)]")
        return .graph(AudioGraph(inputs: inputs, filter: chains.joined(separator: ";")))
    }

    /// `atempo` stages for `speed` (each stage takes 0.5…100; pitch is kept).
    static func tempo(_ speed: Double) -> String {
        guard speed != 1, speed > 0 else { return "" }
        var remaining = speed
        var stages: [Double] = []
        while remaining < 0.5 { stages.append(0.5); remaining /= 0.5 }
        while remaining > 100 { stages.append(100); remaining /= 100 }
        stages.append(remaining)
        return stages.map { ",atempo=\(String(format: "%.9g", $0))" }.joined()
    }

    /// The volume over composition time `t` as an ffmpeg expression, nil for a constant 1.
    static func volumeExpression(_ timeline: RampTimeline<Float>?, preferred: Float) -> String? {
        let ramps = timeline?.ramps ?? []
        if ramps.isEmpty, preferred == 1 { return nil }
        // Built from the last entry back: before entry i its predecessor's end value holds.
        var expression = ramps.last.map { number($0.end) } ?? "1"
        for (i, ramp) in ramps.enumerated().reversed() {
            let a = ramp.timeRange.start.seconds, d = ramp.timeRange.duration.seconds
            let before = i == 0 ? "1" : number(ramps[i - 1].end)
            let during = d > 0 ? "\(number(ramp.start))+(\(number(ramp.end - ramp.start)))*(t-\(seconds(a)))/\(seconds(d))" : number(ramp.end)
            expression = "if(lt(t,\(seconds(a))),\(before),if(lt(t,\(seconds(a + max(d, 0)))),\(during),\(expression)))"
        }
        return preferred == 1 ? expression : "\(number(preferred))*(\(expression))"
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.6f", value) }
    private static func number(_ value: Float) -> String { String(format: "%.6g", value) }
}
