import Foundation

/// The kinds of video output, chosen by the output's extension and `--codec` (cli.md).
public enum OutputKind: String, Sendable, CaseIterable {
    /// H.264 in MP4 (`.mp4`, `.m4v`): yuv420p, BT.709, limited range.
    case h264MP4
    /// H.264 in QuickTime (`.mov`).
    case h264MOV
    /// VP9 in WebM (`.webm`): yuva420p when the background is transparent.
    case vp9WebM
    /// ProRes 4444 in QuickTime (`.mov` with `--codec prores`): alpha kept when transparent.
    case prores4444
    /// Animated GIF (`.gif`), made with a palette computed over every frame (two passes).
    case gif

    /// The kind of output `path` names; `codec` (`h264`, `vp9`, `prores`, `gif`) overrides where
    /// the container allows it.
    /// `allowsImages` says whether PNG output is possible where the kind is asked for (`render`
    /// writes PNG frames too, `demo` and `join` only videos), for the message about others.
    public static func forPath(_ path: String, codec: String? = nil, allowsImages: Bool = true) throws(ExportError) -> OutputKind {
        let ext = (path as NSString).pathExtension.lowercased()
        let codec = codec?.lowercased()
        let kind: OutputKind
        switch ext {
        case "mp4", "m4v": kind = .h264MP4
        case "mov": kind = codec == "prores" || codec == "prores4444" ? .prores4444 : .h264MOV
        case "webm": kind = .vp9WebM
        case "gif": kind = .gif
        case "png" where !allowsImages:
            throw .unsupportedOutput(path: path, reason: "a video is written here, not a PNG image (use .mp4, .mov, .webm or .gif)")
        default:
            let known = allowsImages ? ".png, a %d pattern, .mp4, .mov, .webm or .gif" : ".mp4, .mov, .webm or .gif"
            throw .unsupportedOutput(path: path, reason: "unknown output extension \".\(ext)\" (use \(known))")
        }
        if let codec {
            let allowed: [OutputKind: Set<String>] = [
                .h264MP4: ["h264", "libx264"], .h264MOV: ["h264", "libx264"], .prores4444: ["prores", "prores4444"],
                .vp9WebM: ["vp9", "libvpx-vp9"], .gif: ["gif"],
            ]
            guard allowed.values.contains(where: { $0.contains(codec) }) else {
                throw .unsupportedOutput(path: path, reason: "unknown codec \"\(codec)\" (known: h264, prores, vp9, gif)")
            }
            guard allowed[kind]?.contains(codec) == true else {
                throw .unsupportedOutput(path: path, reason: "codec \"\(codec)\" does not go in .\(ext) (mp4: h264; mov: h264, prores; webm: vp9; gif: gif)")
            }
        }
        return kind
    }

    /// ffmpeg's name for the container (`-f`).
    public var muxer: String {
        switch self {
        case .h264MP4: "mp4"
        case .h264MOV, .prores4444: "mov"
        case .vp9WebM: "webm"
        case .gif: "gif"
        }
    }

    /// ffmpeg's demuxer for reading the output back (`ffprobe -f`).
    public var demuxer: String {
        switch self {
        case .h264MP4, .h264MOV, .prores4444: "mov"
        case .vp9WebM: "matroska"
        case .gif: "gif"
        }
    }

    /// Whether this output can carry an alpha channel.
    public var supportsAlpha: Bool { self == .vp9WebM || self == .prores4444 || self == .gif }

    /// Whether segments of this kind can be joined with the concat demuxer and `-c copy`.
    public var isJoinable: Bool { self != .gif }

    /// The quality values (`--crf`) this kind takes: x264's constant quantizer 0…51, VP9's 0…63;
    /// nil for ProRes and GIF, which have no quality setting.
    public var qualityRange: ClosedRange<Int>? {
        switch self {
        case .h264MP4, .h264MOV: 0...51
        case .vp9WebM: 0...63
        case .prores4444, .gif: nil
        }
    }

    /// What the kind is called in messages.
    public var displayName: String {
        switch self {
        case .h264MP4, .h264MOV: "H.264"
        case .vp9WebM: "VP9"
        case .prores4444: "ProRes"
        case .gif: "GIF"
        }
    }

    /// Throws `.invalidSettings` when `quality` is outside `qualityRange` or the kind has none.
    public func checkQuality(_ quality: Int) throws(ExportError) {
        guard let range = qualityRange else {
            throw .invalidSettings("--crf does not apply to \(displayName) output (it has no quality setting)")
        }
        guard range.contains(quality) else {
            throw .invalidSettings("--crf \(quality) is outside \(range.lowerBound)…\(range.upperBound) for \(displayName)")
        }
    }

    /// `copy` where the container takes the input's audio as it is, else a re-encode:
    /// AAC for MP4/MOV, Opus for WebM.
    public func audioCodec(for codec: String) -> String {
        switch self {
        case .h264MP4: ["aac", "mp3", "alac", "ac3", "eac3"].contains(codec) ? "copy" : "aac"
        case .h264MOV, .prores4444: ["aac", "mp3", "alac", "ac3"].contains(codec) || codec.hasPrefix("pcm_") ? "copy" : "aac"
        case .vp9WebM: ["opus", "vorbis"].contains(codec) ? "copy" : "libopus"
        case .gif: "copy"
        }
    }

    /// The default quality value (`--crf`): x264 quantizer, VP9 quantizer; unused by ProRes and GIF.
    public var defaultQuality: Int {
        switch self {
        case .h264MP4, .h264MOV: 20
        case .vp9WebM: 28
        case .prores4444, .gif: 0
        }
    }
}

/// An audio stream carried from an input video into the output.
public struct AudioPassthrough: Sendable, Equatable {
    /// The file the audio comes from (ffmpeg's second input).
    public var url: URL
    /// Its codec as ffprobe names it (`aac`, `opus`, `pcm_s16le` …).
    public var codec: String
    /// Seconds into the input where the output starts (a segment's start).
    public var start: Double
    /// The input's container (the demuxer ffmpeg is forced to use).
    public var container: VideoContainer

    public init(url: URL, codec: String, start: Double = 0, container: VideoContainer = .mov) {
        self.url = url; self.codec = codec; self.start = start; self.container = container
    }
}

/// Audio made from several inputs by an ffmpeg filter graph: an AVFoundation composition's
/// audio tracks with their edits and volume ramps, mixed into one stream.
public struct AudioGraph: Sendable, Equatable {
    /// The label of the graph's one output.
    public static let output = "aout"
    /// Each input's arguments (options, then `-i PATH`); input k of this list is ffmpeg's input
    /// k + 1, after the raw frames.
    public var inputs: [[String]]
    /// A `-filter_complex` graph reading `[1:a]` … and writing `[aout]`.
    public var filter: String

    public init(inputs: [[String]], filter: String) { self.inputs = inputs; self.filter = filter }
}

/// Everything ffmpeg needs to encode raw RGBA frames into one output; `arguments` turns it into
/// a command line without running anything.
///
/// Frames arrive as `rgba` at `width`×`height` and `framesPerSecond`. Choices, and why:
/// - H.264: `libx264 -preset veryfast`, 4:2:0, BT.709 matrix, limited range, tagged as such.
///   Quality is a **constant quantizer** (`-qp`, set by `--crf`), not x264's CRF rate control:
///   CRF carries rate-control state from frame to frame (measured: 40 of 60 decoded frames
///   differed between one run and two joined halves), and a constant quantizer keeps each closed
///   group of pictures dependent on its own frames only, so segments join into the single run.
/// - Keyframes every `keyframeInterval` frames counted from frame 0 of the whole video (not of
///   the segment), plus one at the segment's first frame; no scene-cut keyframes; closed GOPs.
/// - VP9: `libvpx-vp9` realtime, `-crf N -b:v 0` with `-qmin N -qmax N`: a constant quantizer too.
///   Left to its constant-quality mode libvpx moves the quantizer from frame to frame with state
///   carried across frames, and joined segments did not decode to the single run (measured: 8 of
///   30 frames differed); pinned, they do. The default, 28, pinned, matches the quality of the
///   former free CRF 32 (measured on the test scene: lowest frame PSNR 36.6 vs 35.5 dB, about the
///   same size). yuva420p when alpha is kept.
/// - ProRes 4444 (`prores_ks`, profile 4444, 10-bit 4:4:4, alpha when kept), BT.709 tagged in the
///   frames themselves (`setparams`), where prores_ks reads the colour description.
/// - GIF: pass 1 `palettegen` to a PNG, pass 2 `paletteuse` with that palette.
/// - A pinned encoder thread count (`threads`, default 2): x264's frame threads and libvpx's row
///   threads make other decisions with another count, so an unpinned encoder would write other
///   bytes on a machine with more cores; pinned, a segment is the same file everywhere.
/// - Odd sizes are padded to even ones for the 4:2:0 codecs (one transparent/black row or column).
public struct EncoderSettings: Sendable, Equatable {
    public var kind: OutputKind
    public var width: Int
    public var height: Int
    public var framesPerSecond: Double
    /// `--crf`; nil: the kind's default.
    public var quality: Int?
    /// Keep the alpha channel (webm, ProRes, GIF transparency); frames are then sent straight
    /// (un-premultiplied). Without alpha the premultiplied frames are sent as they are, which
    /// is the same as compositing them over black.
    public var keepsAlpha: Bool
    /// The number of the first frame in the whole video (0 unless this is a segment).
    public var firstFrame: Int
    /// Frames written (for `-frames:v` and the audio's length).
    public var frameCount: Int
    /// Keyframe spacing in frames (default: two seconds).
    public var keyframeInterval: Int
    /// Audio carried over from an input video.
    public var audio: AudioPassthrough?
    /// Audio mixed from several inputs (used when `audio` is nil): re-encoded, AAC (Opus for WebM).
    public var audioGraph: AudioGraph?
    /// MP4: `-movflags +faststart`, the index before the media (default true).
    public var fastStart = true
    /// Encoder threads, pinned (default `defaultThreads`): x264 and libvpx decide differently
    /// with another thread count, so a fixed one makes a segment the same bytes on every machine.
    public var threads: Int = EncoderSettings.defaultThreads

    /// The encoder thread count unless told otherwise.
    public static let defaultThreads = 2

    /// The default keyframe spacing: two seconds of frames, counted from frame 0 of the whole video.
    public static func keyframeInterval(framesPerSecond: Double) -> Int {
        FrameClock(framesPerSecond: framesPerSecond).frameCount(forDuration: 2)
    }

    public init(kind: OutputKind, width: Int, height: Int, framesPerSecond: Double, quality: Int? = nil,
                keepsAlpha: Bool = false, firstFrame: Int = 0, frameCount: Int, keyframeInterval: Int? = nil,
                audio: AudioPassthrough? = nil) {
        self.kind = kind; self.width = width; self.height = height; self.framesPerSecond = framesPerSecond
        self.quality = quality; self.keepsAlpha = keepsAlpha && kind.supportsAlpha; self.firstFrame = firstFrame
        self.frameCount = frameCount
        self.keyframeInterval = max(1, keyframeInterval ?? Self.keyframeInterval(framesPerSecond: framesPerSecond))
        self.audio = kind == .gif ? nil : audio
    }

    /// Whether frames must be un-premultiplied before they are written.
    public var wantsStraightAlpha: Bool { keepsAlpha }

    /// `-r` value: integers print without a fraction, others as ffmpeg parses them.
    var rate: String {
        framesPerSecond.rounded() == framesPerSecond ? String(Int(framesPerSecond)) : String(framesPerSecond)
    }

    /// The raw-frame input (input 0): frames on standard input.
    var rawInput: [String] {
        ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-r", rate, "-i", "pipe:0"]
    }

    /// Command-line arguments that encode the frames on standard input into `output`
    /// (for GIF: the second pass, reading `palette`).
    public func arguments(output: String, palette: String? = nil) -> [String] {
        var a = ["-hide_banner", "-nostats", "-loglevel", "error", "-y"] + rawInput
        let graph = kind == .gif || audio != nil ? nil : audioGraph
        if let audio {
            a += audio.container.inputArguments(audio.url.path, before: audio.start > 0 ? ["-ss", seconds(audio.start)] : [])
        }
        if let graph { a += graph.inputs.flatMap { $0 } + ["-filter_complex", graph.filter] }
        if kind == .gif {
            a += ["-i", palette ?? "palette.png",
                  "-lavfi", "[0:v][1:v]paletteuse=dither=sierra2_4a" + (keepsAlpha ? ":alpha_threshold=128" : ""),
                  "-loop", "0", "-frames:v", String(frameCount), "-f", "gif", output]
            return a
        }
        a += ["-map", "0:v"]
        if audio != nil { a += ["-map", "1:a:0?"] }
        if graph != nil { a += ["-map", "[\(AudioGraph.output)]"] }
        let even = width % 2 != 0 || height % 2 != 0 ? "pad=ceil(iw/2)*2:ceil(ih/2)*2," : ""
        let colour = "scale=out_color_matrix=bt709:out_range=tv"
        let tags = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        let q = String(quality ?? kind.defaultQuality)
        switch kind {
        case .h264MP4, .h264MOV:
            a += ["-vf", even + colour + ",format=yuv420p", "-c:v", "libx264", "-preset", "veryfast", "-qp", q]
            a += keyframes + ["-x264-params", "open-gop=0"]
            a += tags
            if kind == .h264MP4, fastStart { a += ["-movflags", "+faststart"] }
        case .vp9WebM:
            a += ["-vf", even + colour + ",format=" + (keepsAlpha ? "yuva420p" : "yuv420p"), "-c:v", "libvpx-vp9",
                  "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-crf", q, "-b:v", "0", "-qmin", q, "-qmax", q]
            a += keyframes + tags
        case .prores4444:
            // prores_ks writes the colour description of the frames it gets, not `-colorspace` and
            // friends (ffmpeg 5.1): without `setparams` the file says "unknown" and decoders fall back
            // to BT.601 at small sizes (measured: teal 26,128,140 decoded as 35,138,138).
            a += ["-vf", colour + ",format=" + (keepsAlpha ? "yuva444p10le" : "yuv444p10le")
                    + ",setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=tv", "-c:v", "prores_ks",
                  "-profile:v", "4444", "-vendor", "apl0"] + tags
        case .gif:
            break
        }
        a += ["-threads", String(max(1, threads))]
        if let audio { a += ["-c:a", kind.audioCodec(for: audio.codec)] }
        if graph != nil { a += ["-c:a", kind == .vp9WebM ? "libopus" : "aac"] }
        // The frames on the pipe end the video. With audio, `-t` ends both streams at the last
        // frame's end; `-frames:v` would close the file as soon as the last video packet left a
        // multi-threaded x264 (which holds frames back), before any audio was written.
        if audio != nil || graph != nil {
            a += ["-t", seconds(FrameClock(framesPerSecond: framesPerSecond).time(ofFrame: frameCount))]
        } else {
            a += ["-frames:v", String(frameCount)]
        }
        a += ["-f", kind.muxer, output]
        return a
    }

    /// GIF pass 1: computes the palette of every frame into `palette` (a PNG).
    public func paletteArguments(palette: String) -> [String] {
        ["-hide_banner", "-nostats", "-loglevel", "error", "-y"] + rawInput
            + ["-vf", "palettegen=stats_mode=full" + (keepsAlpha ? ":reserve_transparent=1" : ":reserve_transparent=0"),
               "-frames:v", "1", "-update", "1", "-f", "image2", palette]
    }

    /// Forced keyframes at multiples of the interval counted over the whole video, and at the
    /// segment's first frame (`n` counts from the segment start).
    var keyframes: [String] {
        let g = String(keyframeInterval)
        return ["-g", g, "-keyint_min", g, "-sc_threshold", "0",
                "-force_key_frames", "expr:eq(n,0)+eq(mod(n+\(firstFrame),\(keyframeInterval)),0)"]
    }

    private func seconds(_ value: Double) -> String { String(format: "%.6f", value) }
}
