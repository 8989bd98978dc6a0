import Foundation
import Synchronization
import Lamina

/// Runs a `VideoExporter` for the command line: Ctrl-C cancels it (status 130, no output left),
/// a progress line goes to standard error on a terminal (or with `--progress`), and a one-line
/// summary with per-stage times follows at the end (unless `--quiet`).
enum ExportRunner {
    /// Exit status after SIGINT, as shells report it.
    static let interruptedStatus: Int32 = 130

    struct Reporting {
        var quiet: Bool
        var progress: Bool

        init(_ args: Arguments) {
            quiet = args.flags.contains("--quiet")
            progress = !quiet && (args.flags.contains("--progress") || isatty(STDERR_FILENO) == 1)
        }
    }

    /// Runs `exporter`; returns the summary, or nil after Ctrl-C (the caller exits 130).
    static func run(_ exporter: VideoExporter, reporting: Reporting) throws -> ExportSummary? {
        let summary: ExportSummary? = try supervise(reporting: reporting) { attach throws(ExportError) in
            attach(exporter)
            return try exporter.run()
        }
        guard let summary else { return nil }
        for warning in summary.warnings where !reporting.quiet {
            FileHandle.standardError.write(Data("lamina: warning: \(warning)\n".utf8))
        }
        if reporting.progress {
            FileHandle.standardError.write(Data("lamina: \(summary.line)\nlamina: stages: \(summary.stages.summary(frames: summary.frames))\n".utf8))
        }
        return summary
    }

    /// Runs `body`, which hands the exporter it runs to `attach` before running it: SIGINT
    /// cancels that exporter, and its progress is shown. Returns nil after Ctrl-C (with the
    /// one-line message printed); an export failure becomes a `JobFailure`.
    static func supervise<T>(reporting: Reporting, _ body: (_ attach: (VideoExporter) -> Void) throws(ExportError) -> T) throws -> T? {
        let current = Mutex<VideoExporter?>(nil)
        // SIGINT becomes a cancellation request handled between frames.
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let interrupted = Atomic<Bool>(false)
        source.setEventHandler {
            interrupted.store(true, ordering: .relaxed)
            current.withLock { $0 }?.cancel()
        }
        source.resume()
        defer { source.cancel(); signal(SIGINT, SIG_DFL) }

        let terminal = isatty(STDERR_FILENO) == 1
        func attach(_ exporter: VideoExporter) {
            current.withLock { $0 = exporter }
            if interrupted.load(ordering: .relaxed) { exporter.cancel() }
            guard reporting.progress else { return }
            var lastReport = 0.0
            exporter.onProgress = { progress in
                let now = Stopwatch.now()
                guard now - lastReport >= 0.1 || progress.framesDone == progress.frameCount else { return }
                lastReport = now
                if terminal {
                    FileHandle.standardError.write(Data("\r\u{1B}[K\(progress.line)".utf8))
                } else if progress.framesDone == progress.frameCount || progress.framesDone % 30 == 0 {
                    FileHandle.standardError.write(Data("lamina: \(progress.line)\n".utf8))
                }
            }
        }
        do throws(ExportError) {
            let result = try body(attach)
            if reporting.progress, terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            return result
        } catch {
            if reporting.progress, terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            // Ctrl-C on a terminal also reaches ffmpeg, which may fail first: give the signal
            // handler a moment to record the cancellation.
            if error != .cancelled { usleep(100_000) }
            if error == .cancelled || interrupted.load(ordering: .relaxed) {
                fail("interrupted; no output written")
                return nil
            }
            throw JobFailure(failure: error)
        }
    }
}
