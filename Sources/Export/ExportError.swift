import Foundation
import ImageIO

/// Why an export (or a decode, probe or join) failed. Every case names the file it is about.
public enum ExportError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A program (`ffmpeg`, `ffprobe`) is not on `PATH`, or not at the path `LAMINA_FFMPEG` gives
    /// (the associated value is the name or path that was looked for).
    case toolMissing(String)
    /// A program exited with a non-zero status; `message` is the tail of its standard error.
    case toolFailed(String, status: Int32, message: String)
    /// The output exists and overwriting was not asked for.
    case outputExists(path: String)
    /// The output's extension (or codec) names no supported output.
    case unsupportedOutput(path: String, reason: String)
    /// An input video is missing or unreadable, or is not a video.
    case badInput(path: String, reason: String)
    /// Writing the output failed (folder missing, rename failed …).
    case cannotWrite(path: String, reason: String)
    /// The renderer returned no frame.
    case renderFailed(frame: Int)
    /// The render was cancelled (`VideoExporter.cancel()`, SIGINT); nothing was left at the output.
    case cancelled
    /// Settings that cannot be encoded (a size, a frame range, no duration …).
    case invalidSettings(String)
    /// An image output (a PNG frame) could not be written.
    case imageOutput(ImageIOError)
    /// The chosen backend cannot draw here (no EGL display or GLES 3 context for `gpu`).
    case backendUnavailable(String)
    /// The render would cost more than its budget (`RenderBudget`): the figure, the limit and
    /// the layer behind it, found before the frame that would need it is drawn.
    case overBudget(String)
    /// The encoder exited without an error but did not write the video it was asked for.
    case invalidOutput(path: String, reason: String)

    public var description: String {
        switch self {
        case .toolMissing(let program):
            program.contains("/")
                ? "\((program as NSString).lastPathComponent) not found: no program at \(program); install ffmpeg with "
                    + "tools/install.sh or `apt-get install ffmpeg`, or set \(FFmpegProcess.programVariable) to its path"
                : "\(program) not found on PATH; install ffmpeg with tools/install.sh or `apt-get install ffmpeg`"
        case .toolFailed(let program, 0, let message):
            // It stopped reading before the last frame, yet reported success.
            "\(program) stopped reading frames and exited with status 0 before the video was complete" + (message.isEmpty ? "" : ": \(message)")
        case .toolFailed(let program, let status, let message):
            "\(program) failed (exit status \(status))" + (message.isEmpty ? "" : ": \(message)")
        case .outputExists(let path): "\(path): already exists (use --overwrite to replace it)"
        case .unsupportedOutput(let path, let reason): "\(path): \(reason)"
        case .badInput(let path, let reason): "\(path): \(reason)"
        case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason)"
        case .renderFailed(let frame): "the renderer returned no frame for frame \(frame)"
        case .cancelled: "cancelled; no output written"
        case .invalidSettings(let reason): reason
        case .imageOutput(let error): error.description
        case .backendUnavailable(let reason): reason
        case .overBudget(let reason): reason
        case .invalidOutput(let path, let reason): "\(path): \(reason)"
        }
    }
}
