import XCTest
import Lamina

/// Movie files for tests: clips generated from ffmpeg's lavfi sources, and decoded frames and
/// streams read back with ffmpeg and ffprobe.
public enum MediaFiles {
    /// Writes a clip of `seconds` from the lavfi video source `filter` (`color=c=red:s=64x48:r=30`,
    /// `testsrc2=s=160x120:r=30` …), with a 440 Hz tone as audio unless `audio` is false. Lossless
    /// H.264 4:4:4, so decoded input frames are exactly the source's; `extra` arguments go before
    /// the output (`-metadata:s:v:0 rotate=90` …).
    public static func clip(_ url: URL, video filter: String, seconds: Double, audio: Bool = true, extra: [String] = []) throws {
        var args = ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", filter]
        if audio { args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"] }
        args += ["-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv444p"]
        if audio { args += ["-c:a", "aac"] }
        args += extra
        args.append(url.path)
        _ = try FFmpegProcess.run(arguments: args)
    }

    /// Every decoded frame as straight RGBA (`-c:v libvpx-vp9` first for WebM, to keep alpha).
    public static func decode(_ url: URL, width: Int, height: Int, vp9Alpha: Bool = false) throws -> [[UInt8]] {
        var args = ["-v", "error", "-nostdin"]
        if vp9Alpha { args += ["-c:v", "libvpx-vp9"] }
        args += ["-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]
        let bytes = try FFmpegProcess.run(arguments: args)
        let frame = width * height * 4
        return stride(from: 0, to: bytes.count - frame + 1, by: frame).map { Array(bytes[$0..<($0 + frame)]) }
    }

    /// Decoded frame `index` as an `Image` (opaque video: straight and premultiplied agree).
    public static func frame(_ url: URL, index: Int, width: Int, height: Int) throws -> Image {
        let frames = try decode(url, width: width, height: height)
        guard index < frames.count else { throw XCTSkip("\(url.lastPathComponent) has \(frames.count) frames, not \(index + 1)") }
        return try XCTUnwrap(Image(width: width, height: height, pixels: frames[index]))
    }

    /// ffprobe's view of the first stream of `type` (`v` or `a`), frames counted; nil without one.
    public static func probe(_ url: URL, stream: String = "v") throws -> [String: Any]? {
        let out = try FFmpegProcess.run(program: "ffprobe", arguments: [
            "-v", "error", "-count_frames", "-select_streams", "\(stream):0", "-show_streams", "-print_format", "json", url.path])
        let json = try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any]
        return (json?["streams"] as? [[String: Any]])?.first
    }
}
