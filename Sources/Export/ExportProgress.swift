import Foundation
import Rendering

/// Where an export stands, reported after every frame.
public struct ExportProgress: Sendable {
    /// Frames written to the pipeline so far, and in all.
    public var framesDone: Int
    public var frameCount: Int
    /// Seconds since the export started (monotonic clock, for reporting only).
    public var elapsed: Double
    /// Frames per second so far.
    public var framesPerSecond: Double { elapsed > 0 ? Double(framesDone) / elapsed : 0 }
    /// Estimated seconds left at the rate so far.
    public var secondsLeft: Double { framesDone > 0 ? Double(frameCount - framesDone) * elapsed / Double(framesDone) : 0 }
    /// The stage that limits the speed: `render`, `encode` or `decode`.
    public var limitingStage: String
    /// The GIF palette pass is pass 1 of 2.
    public var pass: Int = 1
    public var passCount: Int = 1

    /// One terminal line: `frame 120/300 (40%)  58.2 fps  ETA 3.1 s  limited by encode`.
    public var line: String {
        let percent = frameCount > 0 ? framesDone * 100 / frameCount : 100
        let passText = passCount > 1 ? "pass \(pass)/\(passCount)  " : ""
        return "\(passText)frame \(framesDone)/\(frameCount) (\(percent)%)  \(String(format: "%.1f", framesPerSecond)) fps  ETA \(String(format: "%.1f", secondsLeft)) s  limited by \(limitingStage)"
    }
}

/// The result of a finished export.
public struct ExportSummary: Sendable {
    /// Where the output is.
    public var url: URL
    public var frames: Int
    /// Wall-clock seconds of the export.
    public var seconds: Double
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
    /// Output size in bytes.
    public var bytes: Int64
    public var width: Int
    public var height: Int
    public var stages: StageTimes
    /// Animations that would not show in an AVFoundation export (see `ExportLint`).
    public var warnings: [String]
    /// This process's peak resident memory when the export ended, in bytes (Linux `VmHWM`; 0
    /// where unknown). It does not grow with the length of the video.
    public var peakMemoryBytes: Int64 = ExportSummary.peakResidentMemory()

    /// The process's peak resident set (`VmHWM` of /proc/self/status, which, unlike
    /// `getrusage`, starts afresh at exec).
    public static func peakResidentMemory() -> Int64 {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int64(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }

    /// `wrote 300 frames (1280x720) in 5.2 s (57.7 fps), 2.4 MB: out/demo.mp4; peak memory 134 MB`
    public var line: String {
        let size = bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.1f KB", Double(bytes) / 1024)
        return "wrote \(frames) frame\(frames == 1 ? "" : "s") (\(width)x\(height)) in \(String(format: "%.1f", seconds)) s "
            + "(\(String(format: "%.1f", framesPerSecond)) fps), \(size): \(url.path); peak memory "
            + String(format: "%.0f MB", Double(peakMemoryBytes) / 1_048_576)
    }
}
