import Foundation
import Lamina

/// `lamina join SEG… -o OUT`: joins video segments (renders of consecutive --frames ranges)
/// without re-encoding.
enum JoinCommand {
    static let usage = """
    usage: lamina join SEGMENT… -o OUT [--audio-from INPUT] [--overwrite]

    Joins video segments written by `lamina render --frames A..B` (in the order given) into OUT
    with ffmpeg's concat demuxer, copying the streams: the joined file decodes to the same frames
    as one render of the whole range. Start each H.264 segment on a multiple of the keyframe
    interval (two seconds of frames) so keyframes fall where a single run's do.
    --audio-from INPUT muxes INPUT's first audio stream over the whole joined video (segments
    rendered from a plan are video-only, so the audio is taken once, with no seams).
    Every segment is checked first: a video file with the first one's codec, size, frame rate
    and pixel format; the joined file must hold all their frames. Ctrl-C, SIGTERM and SIGHUP
    stop ffmpeg and leave no output (exit status 130, 143, 129).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["-o", "--output", "--audio-from"], flags: ["--overwrite", "--help", "-h", "--quiet"])
        if args.flags.contains("--help") || args.flags.contains("-h") { print(usage); return 0 }
        guard !args.positional.isEmpty else { throw UsageError(description: "join needs segment files") }
        guard let output = (args.values("-o") + args.values("--output")).last else { throw UsageError(description: "join needs -o OUT") }
        let signals = TerminationSignals()
        defer { signals.uninstall() }
        do {
            try SegmentJoiner.join(args.positional.map { URL(fileURLWithPath: $0) }, into: URL(fileURLWithPath: output),
                                   overwrite: args.flags.contains("--overwrite"),
                                   audioFrom: args.values("--audio-from").last.map { URL(fileURLWithPath: $0) },
                                   cancellation: signals.cancellation)
        } catch {
            if error == .cancelled || signals.received != nil {
                fail(signals.message)
                return signals.exitStatus
            }
            throw JobFailure(description: error.description)
        }
        if !args.flags.contains("--quiet"), isatty(STDERR_FILENO) == 1 {
            FileHandle.standardError.write(Data("lamina: joined \(args.positional.count) segments into \(output)\n".utf8))
        }
        return 0
    }
}
