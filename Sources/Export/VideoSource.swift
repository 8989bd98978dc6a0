import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Layers
import ImageIO

/// What ffprobe says about an input video.
public struct VideoInfo: Sendable, Equatable {
    /// Displayed size in pixels, after rotation metadata is applied.
    public var width: Int
    public var height: Int
    /// Average frame rate.
    public var framesPerSecond: Double
    /// Seconds (container duration, or the video stream's).
    public var duration: Double
    /// Rotation metadata in degrees (ffmpeg applies it when decoding).
    public var rotation: Int
    /// The first audio stream's codec, nil without audio.
    public var audioCodec: String?
    /// The container, read from the file's first bytes; ffmpeg is forced to open it as such.
    public var container: VideoContainer = .mov

    public init(width: Int, height: Int, framesPerSecond: Double, duration: Double, rotation: Int = 0, audioCodec: String? = nil,
                container: VideoContainer = .mov) {
        self.width = width; self.height = height; self.framesPerSecond = framesPerSecond; self.duration = duration
        self.rotation = rotation; self.audioCodec = audioCodec; self.container = container
    }

    /// Probes `url` with ffprobe; errors name the file (missing, unreadable, not a video, a
    /// playlist, larger than `SceneLimits.maximumVideoSide` a side).
    public static func probe(_ url: URL) throws(ExportError) -> VideoInfo {
        let path = url.path
        try checkReadable(path)
        let container = try VideoContainer.of(path)
        let output: [UInt8]
        do {
            output = try FFmpegProcess.run(program: "ffprobe", arguments: [
                "-v", "error", "-print_format", "json", "-show_format", "-show_streams"] + container.inputArguments(path, forProbe: true))
        } catch {
            if case .toolFailed(_, _, let message) = error {
                throw .badInput(path: path, reason: "not a video ffmpeg can read" + (message.isEmpty ? "" : " (\(message))"))
            }
            throw error
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(output)) as? [String: Any],
              let streams = json["streams"] as? [[String: Any]] else {
            throw .badInput(path: path, reason: "not a video ffmpeg can read")
        }
        // Still images (PNG, JPEG) probe as one-frame "video" streams; refuse them by codec.
        let stillCodecs: Set<String> = ["png", "mjpeg", "bmp", "gif", "tiff", "webp", "ansi", "tty"]
        guard let video = streams.first(where: { ($0["codec_type"] as? String) == "video"
                && !stillCodecs.contains(($0["codec_name"] as? String) ?? "")
                && ((($0["disposition"] as? [String: Any])?["attached_pic"] as? Int) ?? 0) == 0 }),
              var width = video["width"] as? Int, var height = video["height"] as? Int, width > 0, height > 0 else {
            throw .badInput(path: path, reason: "has no video stream")
        }
        var rotation = 0
        if let tags = video["tags"] as? [String: Any], let r = (tags["rotate"] as? String).flatMap(Int.init) { rotation = r }
        if let sideData = video["side_data_list"] as? [[String: Any]] {
            for entry in sideData { if let r = entry["rotation"] as? Int { rotation = r } }
        }
        if abs(rotation) % 180 == 90 { swap(&width, &height) }
        let side = SceneLimits.maximumVideoSide
        guard width <= side, height <= side else {
            throw .badInput(path: path, reason: "is \(width)×\(height), over the \(side)×\(side) limit for input videos")
        }
        let rate = Self.rational(video["avg_frame_rate"] as? String) ?? Self.rational(video["r_frame_rate"] as? String) ?? 30
        let format = json["format"] as? [String: Any]
        let duration = (format?["duration"] as? String).flatMap(Double.init)
            ?? (video["duration"] as? String).flatMap(Double.init) ?? 0
        let audio = streams.first { ($0["codec_type"] as? String) == "audio" }?["codec_name"] as? String
        return VideoInfo(width: width, height: height, framesPerSecond: rate, duration: duration, rotation: rotation, audioCodec: audio,
                         container: container)
    }

    /// Refuses what ffmpeg cannot read as a file, before ffprobe runs: a missing path, a folder,
    /// a fifo, device or socket (ffprobe would wait on a fifo with no writer for ever, and the
    /// input is opened twice: probe, then decode), and a file this process may not open.
    public static func checkReadable(_ path: String) throws(ExportError) {
        switch InputFile.open(path) {
        case .failure(let error): throw .badInput(path: path, reason: error.reason)
        case .success(let fd): close(fd)
        }
    }

    /// "30000/1001" or "25" as a positive number (nil for 0/0 and the like).
    public static func rational(_ text: String?) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: "/")
        if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d != 0, n > 0 { return n / d }
        if parts.count == 1, let v = Double(parts[0]), v > 0 { return v }
        return nil
    }
}

/// Decodes an input video into RGBA frames at the export's frame rate and a chosen size, one
/// frame per output frame, with ffmpeg in a second process.
///
/// What users get: rotation metadata is applied (ffmpeg autorotates when decoding); another frame
/// rate is resampled to the output's (the `fps` filter repeats or drops frames, nearest in time);
/// another size is scaled to the requested size (bicubic, aspect not kept: the layer's gravity
/// fits it); an input shorter than the export holds its last frame; a segment starting at frame
/// A seeks to A/fps.
public final class VideoSource: @unchecked Sendable {
    public let url: URL
    public let info: VideoInfo
    /// Size of the decoded frames.
    public let width: Int
    public let height: Int
    private let process: FFmpegProcess
    private let prefetch: BoundedQueue<[UInt8]>
    private var last: CGImage?

    /// Starts decoding `url` at `framesPerSecond` from `start` seconds, scaled to `width`×`height`.
    ///
    /// - Parameters:
    ///   - stream: the video stream to decode (its index in the file; default the first).
    ///   - duration: seconds of the input to decode (default: to its end).
    ///   - speed: input seconds per output second (2 plays twice as fast; default 1).
    ///   - autorotates: apply the rotation metadata (default); false decodes the frames as coded,
    ///     as AVFoundation's compositions see them (their `preferredTransform` turns them).
    public init(url: URL, info: VideoInfo? = nil, width: Int, height: Int, framesPerSecond: Double, start: Double = 0,
                stream: Int? = nil, duration: Double? = nil, speed: Double = 1, autorotates: Bool = true) throws(ExportError) {
        self.url = url
        if let info { self.info = info } else { self.info = try VideoInfo.probe(url) }
        self.width = width
        self.height = height
        var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error"]
        if !autorotates { arguments.append("-noautorotate") }
        var before = start > 0 ? ["-ss", String(format: "%.6f", start)] : []
        if let duration { before += ["-t", String(format: "%.6f", max(duration, 0.001))] }
        let retime = speed == 1 ? "" : "setpts=(PTS-STARTPTS)/\(speed),"
        arguments += self.info.container.inputArguments(url.path, before: before) + (stream.map { ["-map", "0:\($0)"] } ?? [])
        arguments += ["-an", "-sn",
                      "-vf", retime + "fps=\(framesPerSecond),scale=\(width):\(height):flags=bicubic,format=rgba",
                      "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]
        process = try FFmpegProcess(arguments: arguments, readsOutput: true)
        // A reader thread keeps two frames decoded ahead of the render loop.
        let queue = BoundedQueue<[UInt8]>(capacity: 2)
        prefetch = queue
        let frameBytes = width * height * 4
        let thread = Thread { [process] in
            while true {
                var frame = [UInt8](repeating: 0, count: frameBytes)
                let complete = frame.withUnsafeMutableBytes { process.read(into: $0) }
                guard complete else { break }
                // Inputs with alpha (ProRes 4444, PNG-in-MOV) decode straight; layers hold premultiplied.
                PremultipliedAlpha.premultiply(&frame)
                guard queue.put(frame) else { break }
            }
            queue.close()
        }
        thread.name = "lamina video decoder"
        thread.start()
    }

    deinit { close() }

    /// The next frame (premultiplied; video frames are opaque, so as decoded). After the input's
    /// last frame the last one again; throws when the input gave no frame at all.
    public func nextFrame() throws(ExportError) -> CGImage {
        let bytes = prefetch.take()
        if let bytes, let image = CGImage(width: width, height: height, premultipliedRGBA: bytes) {
            last = image
            return image
        }
        if let last { return last }
        let status = process.waitForExit()
        throw .badInput(path: url.path, reason: status == 0 ? "decoded to no frames" : "cannot be decoded: \(process.errorMessage)")
    }

    /// Stops the decoder (also frees a frame wait on a decoder that stopped writing).
    public func close() {
        prefetch.abandon()
        process.terminate()
    }
}
