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
/// keyframes fall where a single run's do.
public enum SegmentJoiner {
    /// Joins `segments` in order into `output` (same container as the segments), atomically.
    ///
    /// - Parameter audioFrom: a file whose first audio stream is muxed over the whole joined
    ///   timeline (segments rendered from a plan are video-only, so the audio has no seams).
    public static func join(_ segments: [URL], into output: URL, overwrite: Bool = false, audioFrom: URL? = nil) throws(ExportError) {
        guard !segments.isEmpty else { throw .invalidSettings("join needs at least one segment") }
        let kind = try OutputKind.forPath(output.path)
        guard kind.isJoinable else { throw .unsupportedOutput(path: output.path, reason: "GIF segments cannot be joined (each has its own palette)") }
        if !overwrite, FileManager.default.fileExists(atPath: output.path) { throw .outputExists(path: output.path) }
        for segment in segments {
            guard FileManager.default.isReadableFile(atPath: segment.path) else { throw .badInput(path: segment.path, reason: "no such file") }
        }
        let temporary = VideoExporter.temporaryPath(for: output)
        let list = VideoExporter.temporaryPath(for: output.deletingPathExtension().appendingPathExtension("concat.txt"))
        defer { unlink(temporary); unlink(list) }
        // The concat list quotes paths with single quotes; a quote inside is written '\''.
        let text = segments.map { "file '" + $0.standardizedFileURL.path.replacingOccurrences(of: "'", with: "'\\''") + "'\n" }.joined()
        guard FileManager.default.createFile(atPath: list, contents: Data(text.utf8)) else {
            throw .cannotWrite(path: list, reason: "cannot create the segment list")
        }
        var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0",
                         "-i", list, "-map", "0", "-c", "copy"]
        if kind == .h264MP4 { arguments += ["-movflags", "+faststart"] }
        arguments += ["-f", kind.muxer, temporary]
        var audioInfo: VideoInfo?
        if let audioFrom {
            audioInfo = try VideoInfo.probe(audioFrom)
            guard audioInfo?.audioCodec != nil else { throw .badInput(path: audioFrom.path, reason: "has no audio stream") }
        }
        _ = try FFmpegProcess.run(arguments: arguments)
        if let audioFrom, let codec = audioInfo?.audioCodec {
            let muxed = VideoExporter.temporaryPath(for: output)
            defer { unlink(muxed) }
            // The video as joined, the audio cut at the video's end (an audio stream that is
            // shorter simply ends early; the video is never cut).
            let joined = try VideoInfo.probe(URL(fileURLWithPath: temporary))
            // Half a frame past the container's duration, so rounding never cuts the last frame.
            let seconds = joined.duration + 0.5 * FrameClock(framesPerSecond: max(joined.framesPerSecond, 1)).frameDuration
            var mux = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y", "-i", temporary, "-i", audioFrom.path,
                       "-map", "0:v", "-map", "1:a:0", "-c:v", "copy", "-c:a", kind.audioCodec(for: codec),
                       "-t", String(format: "%.6f", seconds)]
            if kind == .h264MP4 { mux += ["-movflags", "+faststart"] }
            mux += ["-f", kind.muxer, muxed]
            _ = try FFmpegProcess.run(arguments: mux)
            try VideoExporter.moveIntoPlace(muxed, output.path, overwrite: overwrite)
            return
        }
        try VideoExporter.moveIntoPlace(temporary, output.path, overwrite: overwrite)
    }
}
