import Foundation
import Geometry
import CoreMedia
import Export

/// One track of a probed file, as ffprobe reports its stream.
struct ProbedTrack: Sendable, Equatable {
    var trackID: CMPersistentTrackID
    /// The stream's index in the file (ffmpeg's `0:N`).
    var streamIndex: Int
    var mediaType: AVMediaType
    var codec: String
    /// Coded size in pixels, before the rotation metadata (video).
    var naturalSize: CGSize
    /// Clockwise rotation the player applies, 0, 90, 180 or 270 degrees (video).
    var rotation: Int
    var nominalFrameRate: Float
    var timeRange: CMTimeRange
    var sampleRate: Int
    var channels: Int
    var bitRate: Float
    /// The stream's place among the file's streams of its kind (0: the first audio stream …).
    var ordinal = 0

    /// The rotation as AVFoundation's `preferredTransform`: natural frame → display, with the
    /// result in the positive quadrant (the portrait recipe's 90° is `(0, 1, −1, 0, height, 0)`).
    var preferredTransform: CGAffineTransform {
        let w = naturalSize.width, h = naturalSize.height
        switch rotation {
        case 90: return CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        case 180: return CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case 270: return CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        default: return .identity
        }
    }
}

/// A file's tracks and duration from ffprobe: what `AVURLAsset` loads.
struct ProbedMedia: Sendable, Equatable {
    var url: URL
    var duration: CMTime
    var tracks: [ProbedTrack]

    /// Probes `url`. Fails as Apple's loaders do, naming the file: missing or unreadable
    /// (`fileFailedToParse` … the reason from the file system), not a movie
    /// (`fileFormatNotRecognized`), ffprobe missing (`decoderNotFound`).
    static func probe(_ url: URL) throws(AVError) -> ProbedMedia {
        let path = url.path
        guard url.isFileURL else {
            throw AVError(.fileFormatNotRecognized, "\(url.absoluteString): only file URLs can be read here", url: url)
        }
        do {
            try VideoInfo.checkReadable(path)
        } catch {
            throw AVError(.fileFailedToParse, "cannot open \(error.description)", url: url)
        }
        let output: [UInt8]
        do {
            output = try FFmpegProcess.run(program: "ffprobe", arguments: [
                "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path])
        } catch {
            if case .toolMissing = error { throw AVError(.decoderNotFound, "\(path): \(error.description)", url: url) }
            throw AVError(.fileFormatNotRecognized, "\(path): not a movie file ffmpeg can read (\(error.description))", url: url)
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(output)) as? [String: Any],
              let streams = json["streams"] as? [[String: Any]] else {
            throw AVError(.fileFormatNotRecognized, "\(path): not a movie file ffmpeg can read", url: url)
        }
        let format = json["format"] as? [String: Any] ?? [:]
        // Still images probe as one-frame video: they are not movies (AVURLAsset has no tracks for them).
        let formatName = format["format_name"] as? String ?? ""
        if formatName.hasSuffix("_pipe") || formatName == "image2" || formatName == "gif" || formatName == "tty" {
            throw AVError(.fileFormatNotRecognized, "\(path): a still image (\(formatName)), not a movie", url: url)
        }
        let fallbackDuration = Double(format["duration"] as? String ?? "") ?? 0
        var tracks: [ProbedTrack] = []
        for stream in streams {
            guard let index = stream["index"] as? Int else { continue }
            let type = stream["codec_type"] as? String ?? ""
            let disposition = stream["disposition"] as? [String: Any] ?? [:]
            if (disposition["attached_pic"] as? Int ?? 0) == 1 { continue }  // cover art, not a track
            let mediaType: AVMediaType
            switch type {
            case "video": mediaType = .video
            case "audio": mediaType = .audio
            case "subtitle": mediaType = .text
            case "data": mediaType = .metadata
            default: continue
            }
            let id = (stream["id"] as? String).flatMap { Int32($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16) }
            var track = ProbedTrack(trackID: id.flatMap { $0 > 0 ? $0 : nil } ?? Int32(index + 1), streamIndex: index, mediaType: mediaType,
                                    codec: stream["codec_name"] as? String ?? "", naturalSize: .zero, rotation: 0,
                                    nominalFrameRate: 0, timeRange: .zero, sampleRate: 0, channels: 0, bitRate: 0)
            if mediaType == .video {
                track.naturalSize = CGSize(width: stream["width"] as? Int ?? 0, height: stream["height"] as? Int ?? 0)
                var clockwise = 0
                if let tags = stream["tags"] as? [String: Any], let r = (tags["rotate"] as? String).flatMap(Int.init) { clockwise = r }
                for entry in stream["side_data_list"] as? [[String: Any]] ?? [] {
                    if let r = entry["rotation"] as? Int { clockwise = -r }  // the display matrix turns counter-clockwise
                    if let r = entry["rotation"] as? Double { clockwise = -Int(r.rounded()) }
                }
                track.rotation = ((clockwise % 360) + 360) % 360
                track.nominalFrameRate = Float(VideoInfo.rational(stream["avg_frame_rate"] as? String)
                                               ?? VideoInfo.rational(stream["r_frame_rate"] as? String) ?? 0)
            }
            if mediaType == .audio {
                track.sampleRate = Int(stream["sample_rate"] as? String ?? "") ?? 0
                track.channels = stream["channels"] as? Int ?? 0
            }
            track.bitRate = Float(stream["bit_rate"] as? String ?? "") ?? 0
            track.timeRange = timeRange(stream, fallback: fallbackDuration)
            track.ordinal = tracks.filter { $0.mediaType == mediaType }.count
            tracks.append(track)
        }
        let ends = tracks.map(\.timeRange.end).filter(\.isNumeric)
        let duration = ends.max() ?? CMTime(seconds: fallbackDuration, preferredTimescale: 600)
        return ProbedMedia(url: url, duration: duration, tracks: tracks)
    }

    /// A stream's range in its own timescale (`time_base`), exact where ffprobe gives ticks.
    private static func timeRange(_ stream: [String: Any], fallback: Double) -> CMTimeRange {
        let base = (stream["time_base"] as? String)?.split(separator: "/").compactMap { Int64($0) } ?? []
        let start = Double(stream["start_time"] as? String ?? "") ?? 0
        if base.count == 2, base[0] == 1, let scale = Int32(exactly: base[1]), scale > 0,
           let ticks = (stream["duration_ts"] as? Int).map(Int64.init) ?? (stream["duration_ts"] as? String).flatMap(Int64.init) {
            let startTicks = Int64((stream["start_pts"] as? Int) ?? 0)
            return CMTimeRange(start: CMTime(value: max(0, startTicks), timescale: scale), duration: CMTime(value: ticks, timescale: scale))
        }
        let duration = Double(stream["duration"] as? String ?? "") ?? max(0, fallback - start)
        return CMTimeRange(start: CMTime(seconds: max(0, start), preferredTimescale: 600),
                           duration: CMTime(seconds: duration, preferredTimescale: 600))
    }
}
