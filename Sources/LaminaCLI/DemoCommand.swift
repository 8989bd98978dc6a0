import Foundation
import Lamina
import Demo

/// `lamina demo [-o OUT]`: the built-in demo video, needing no input files (`DemoJob`).
enum DemoCommand {
    static let usage = """
    usage: lamina demo [-o OUT] [--backend gpu|cpu] [--frames A..B] [--quiet] [--progress]

    Renders the built-in demo (Examples/demo.json, 10 s, 1280x720, 30 fps: title card, falling
    petals, swinging door, rotating ship, lower third and progress ring over a generated
    background clip) to OUT (default out/demo.mp4, replaced if it exists) and a contact sheet
    NAME.contact-sheet.png beside it, then prints where it wrote.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["-o", "--output", "--backend", "--frames", "--queue"],
                                 flags: ["--help", "-h", "--quiet", "--progress", "--sequential"])
        if args.flags.contains("--help") || args.flags.contains("-h") { print(usage); return 0 }
        guard args.positional.isEmpty else { throw UsageError(description: "demo takes no scene file") }
        let output = URL(fileURLWithPath: (args.values("-o") + args.values("--output")).last ?? "out/demo.mp4")
        let backendName = args.values("--backend").last ?? "gpu"
        guard let backend = BackendKind(rawValue: backendName) else {
            throw UsageError(description: "--backend must be gpu or cpu, not \(backendName)")
        }
        do { _ = try OutputKind.forPath(output.path, allowsImages: false) } catch { throw UsageError(description: error.description) }
        let frames = try args.values("--frames").last.map(RenderCommand.frameRange)
        let queueDepth = try args.values("--queue").last.map { queue throws(UsageError) in
            guard let n = Int(queue), (0...64).contains(n) else { throw UsageError(description: "--queue \(queue) is not an integer in 0…64") }
            return n
        }
        let job: DemoJob
        do {
            job = try DemoJob(output: output, backend: backend, frames: frames)
        } catch let error as ExportError {
            throw JobFailure(failure: error)
        } catch {
            throw JobFailure(description: "cannot prepare the demo: \(error)")
        }
        if args.flags.contains("--sequential") { job.exporter.options.queueDepth = 0 }
        if let queueDepth { job.exporter.options.queueDepth = queueDepth }
        var reporting = ExportRunner.Reporting(args)
        reporting.progress = reporting.progress || !reporting.quiet
        let signals = TerminationSignals()
        defer { signals.uninstall() }
        guard let summary = try ExportRunner.run(job.exporter, signals: signals, reporting: reporting) else { return signals.exitStatus }
        if !reporting.quiet {
            print("wrote \(output.path) (\(summary.frames) frames, \(String(format: "%.1f", summary.framesPerSecond)) fps on \(backend.rawValue)) and \(job.contactSheet.path)")
        }
        return 0
    }
}
