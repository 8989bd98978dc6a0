import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Joins video segments (each written by an export of a frame range) into one file with ffmpeg's
/// concat demuxer, copying the streams (`-c copy`): no re-encoding, so the joined file decodes
/// to exactly the frames of the segments.
///
/// Segments must come from the same settings (size, fps, codec) and follow each other; for
/// H.264, start each segment on a multiple of the keyframe interval so the joined file's
/// keyframes fall where a single run's do. Every segment is checked before anything is joined
/// (a regular file of a known container, with a video stream of the first one's codec, size,
/// frame rate and pixel format), and the joined file must hold the sum of their frames.
public enum SegmentJoiner {
    /// A segment's video stream, as ffprobe reads it.
    public struct Segment: Sendable, Equatable {
        public var codec: String
        public var width: Int
        public var height: Int
        /// ffprobe's `r_frame_rate` (`30/1`).
        public var frameRate: String
        public var pixelFormat: String
        /// Coded frames (packets) of the video stream.
        public var frames: Int
    }

    /// Joins `segments` in order into `output` (same container as the segments), atomically.
    /// A `cancellation` stops ffmpeg and removes what was written (`.cancelled`).
    ///
    /// - Parameter audioFrom: a file whose first audio stream is muxed over the whole joined
    ///   timeline (segments rendered from a plan are video-only, so the audio has no seams).
    public static func join(_ segments: [URL], into output: URL, overwrite: Bool = false, audioFrom: URL? = nil,
                            cancellation: Cancellation? = nil) throws(ExportError) {
        guard !segments.isEmpty else { throw .invalidSettings("join needs at least one segment") }
        let kind = try OutputKind.forPath(output.path, allowsImages: false)
        guard kind.isJoinable else { throw .unsupportedOutput(path: output.path, reason: "GIF segments cannot be joined (each has its own palette)") }
        try OutputFiles.checkWritable(output, overwrite: overwrite)
        for program in ["ffmpeg", "ffprobe"] {
            let resolved = FFmpegProcess.resolve(program)
            guard FFmpegProcess.locate(resolved) != nil else { throw .toolMissing(resolved) }
        }
        var probed: [Segment] = []
        for url in segments {
            let segment = try probe(url, cancellation: cancellation)
            if let first = probed.first { try check(segment, of: url, against: first, firstURL: segments[0]) }
            probed.append(segment)
        }
        var audioInfo: VideoInfo?
        if let audioFrom {
            audioInfo = try VideoInfo.probe(audioFrom)
            guard audioInfo?.audioCodec != nil else { throw .badInput(path: audioFrom.path, reason: "has no audio stream") }
        }
        OutputFiles.removeStaleTemporaries(for: output)
        let temporary = OutputFiles.temporaryPath(for: output)
        let list = OutputFiles.temporaryPath(for: output.deletingPathExtension().appendingPathExtension("concat.txt"))
        defer { unlink(temporary); unlink(list) }
        // The concat list quotes paths with single quotes; a quote inside is written '\''. Line
        // breaks, which the list cannot hold, were refused by `probe`.
        let text = segments.map { "file 'file:" + $0.standardizedFileURL.path.replacingOccurrences(of: "'", with: "'\\''") + "'\n" }.joined()
        guard FileManager.default.createFile(atPath: list, contents: Data(text.utf8)) else {
            throw .cannotWrite(path: list, reason: "cannot create the segment list")
        }
        var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                         "-f", "concat", "-safe", "0", "-protocol_whitelist", VideoContainer.protocols, "-i", "file:" + list,
                         "-map", "0", "-c", "copy"]
        if kind == .h264MP4 { arguments += ["-movflags", "+faststart"] }
        arguments += ["-f", kind.muxer, temporary]
        _ = try FFmpegProcess.run(arguments: arguments, cancellation: cancellation)
        let ffmpeg = FFmpegProcess.resolve("ffmpeg")
        let encoder = FFmpegProcess.locate(ffmpeg)?.path ?? ffmpeg
        let frames = probed.reduce(0) { $0 + $1.frames }
        try OutputFiles.verifyVideo(temporary, named: output.path, demuxer: kind.demuxer, frames: frames, encoder: encoder,
                                    cancellation: cancellation)
        var finished = temporary
        let muxed = OutputFiles.temporaryPath(for: output)
        defer { unlink(muxed) }
        if let audioFrom, let audioInfo, let codec = audioInfo.audioCodec {
            // The video as joined, the audio cut at the video's end (an audio stream that is
            // shorter simply ends early; the video is never cut).
            let joined = try VideoInfo.probe(URL(fileURLWithPath: temporary))
            // Half a frame past the container's duration, so rounding never cuts the last frame.
            let seconds = joined.duration + 0.5 * FrameClock(framesPerSecond: max(joined.framesPerSecond, 1)).frameDuration
            var mux = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y"]
                + joined.container.inputArguments(temporary) + audioInfo.container.inputArguments(audioFrom.path)
                + ["-map", "0:v", "-map", "1:a:0", "-c:v", "copy", "-c:a", kind.audioCodec(for: codec), "-t", String(format: "%.6f", seconds)]
            if kind == .h264MP4 { mux += ["-movflags", "+faststart"] }
            mux += ["-f", kind.muxer, muxed]
            _ = try FFmpegProcess.run(arguments: mux, cancellation: cancellation)
            try OutputFiles.verifyVideo(muxed, named: output.path, demuxer: kind.demuxer, frames: frames, encoder: encoder,
                                        cancellation: cancellation)
            finished = muxed
        }
        if cancellation?.isCancelled == true { throw .cancelled }
        try VideoExporter.moveIntoPlace(finished, output.path, overwrite: overwrite)
    }

    /// Reads a segment's video stream, refusing what cannot be one: a name the concat list
    /// cannot hold, a fifo, device or socket, a file of no known container, no video stream.
    public static func probe(_ url: URL, cancellation: Cancellation? = nil) throws(ExportError) -> Segment {
        let path = url.path
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badInput(path: path.debugDescription,
                            reason: "has a line break or control character in its name, which the concat list cannot hold; rename it")
        }
        let container = try VideoContainer.of(path)
        let output: [UInt8]
        do {
            output = try FFmpegProcess.run(program: "ffprobe", arguments: [
                "-v", "error", "-count_packets", "-show_entries",
                "stream=codec_type,codec_name,width,height,r_frame_rate,pix_fmt,nb_read_packets", "-print_format", "json"]
                + container.inputArguments(path, forProbe: true), cancellation: cancellation)
        } catch {
            if case .toolFailed(_, _, let message) = error {
                throw .badInput(path: path, reason: "not a video ffmpeg can read" + (message.isEmpty ? "" : " (\(message))"))
            }
            throw error
        }
        let json = try? JSONSerialization.jsonObject(with: Data(output)) as? [String: Any]
        guard let stream = (json?["streams"] as? [[String: Any]])?.first(where: { ($0["codec_type"] as? String) == "video" }),
              let codec = stream["codec_name"] as? String, let width = stream["width"] as? Int, let height = stream["height"] as? Int else {
            throw .badInput(path: path, reason: "has no video stream")
        }
        let frames = (stream["nb_read_packets"] as? String).flatMap(Int.init) ?? 0
        guard frames > 0 else { throw .badInput(path: path, reason: "has no video frames") }
        return Segment(codec: codec, width: width, height: height, frameRate: stream["r_frame_rate"] as? String ?? "?",
                       pixelFormat: stream["pix_fmt"] as? String ?? "?", frames: frames)
    }

    /// Refuses a segment whose video differs from the first one's in what `-c copy` cannot mix.
    static func check(_ segment: Segment, of url: URL, against first: Segment, firstURL: URL) throws(ExportError) {
        let name = firstURL.lastPathComponent
        func refuse(_ what: String, _ mine: String, _ theirs: String) -> ExportError {
            .badInput(path: url.path, reason: "its video \(what) is \(mine), not \(theirs) as in \(name) (segments must come from the same settings)")
        }
        if segment.codec != first.codec { throw refuse("codec", segment.codec, first.codec) }
        if segment.width != first.width || segment.height != first.height {
            throw refuse("size", "\(segment.width)×\(segment.height)", "\(first.width)×\(first.height)")
        }
        if segment.frameRate != first.frameRate { throw refuse("frame rate", segment.frameRate, first.frameRate) }
        if segment.pixelFormat != first.pixelFormat { throw refuse("pixel format", segment.pixelFormat, first.pixelFormat) }
    }
}
