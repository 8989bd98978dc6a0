import Foundation
import Synchronization
import Lamina

/// Runs a `VideoExporter` for the command line: SIGINT, SIGTERM and SIGHUP cancel it (`signals`:
/// no output left, one line, exit 130/143/129), a progress line goes to standard error on a
/// terminal (or with `--progress`), and a one-line summary with per-stage times follows at the
/// end (unless `--quiet`).
enum ExportRunner {
    struct Reporting {
        var quiet: Bool
        var progress: Bool

        init(_ args: Arguments) {
            quiet = args.flags.contains("--quiet")
            progress = !quiet && (args.flags.contains("--progress") || isatty(STDERR_FILENO) == 1)
        }
    }

    /// Runs `exporter`; returns the summary, or nil after a signal (printed; the caller exits
    /// with `signals.exitStatus`).
    static func run(_ exporter: VideoExporter, signals: TerminationSignals, reporting: Reporting) throws -> ExportSummary? {
        let summary: ExportSummary? = try supervise(signals: signals, reporting: reporting) { attach throws(ExportError) in
            attach(exporter)
            return try exporter.run()
        }
        guard let summary else { return nil }
        for warning in summary.warnings where !reporting.quiet {
            FileHandle.standardError.write(Data("lamina: warning: \(warning)\n".utf8))
        }
        if !reporting.quiet {
            for name in exporter.removedLeftovers {
                FileHandle.standardError.write(Data("lamina: removed \(name), left by an export that did not finish\n".utf8))
            }
        }
        if reporting.progress {
            FileHandle.standardError.write(Data("lamina: \(summary.line)\nlamina: stages: \(summary.stages.summary(frames: summary.frames))\n".utf8))
        }
        return summary
    }

    /// Runs `body`, which hands the exporter it runs to `attach` before running it: a signal
    /// cancels that exporter, and its progress is shown. Returns nil after a signal (with the
    /// one-line message printed); an export failure becomes a `JobFailure`.
    static func supervise<T>(signals: TerminationSignals, reporting: Reporting,
                             _ body: (_ attach: (VideoExporter) -> Void) throws(ExportError) -> T) throws -> T? {
        let current = Mutex<VideoExporter?>(nil)
        let token = signals.cancellation.onCancel { current.withLock { $0 }?.cancel() }
        defer { signals.cancellation.remove(token) }
        let terminal = isatty(STDERR_FILENO) == 1
        func attach(_ exporter: VideoExporter) {
            current.withLock { $0 = exporter }
            if signals.cancellation.isCancelled { exporter.cancel() }
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
            if error == .cancelled || signals.received != nil {
                fail(signals.message)
                return nil
            }
            throw JobFailure(failure: error)
        }
    }
}
