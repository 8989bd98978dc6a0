import Foundation

// The `lamina` command (spec/cli.md). Exit status: 0 success, 1 the job failed, 2 bad usage.

let usage = """
usage: lamina <subcommand> [options]

Core Animation's layer-and-animation model for Linux.

subcommands:
  demo [-o OUT]                         render the built-in demo video (default out/demo.mp4)
  render SCENE -o OUT [options]         render PNG frames or a video (.mp4 .mov .webm .gif)
  join SEGMENT… -o OUT                  join video segments rendered with --frames or --plan
  plan SCENE --json                     the segments of a video render, for many machines
  inspect SCENE --time T [--time T …]   print the presentation tree at each time as JSON lines
  compare A.png B.png [--diff OUT.png]  PSNR, largest channel difference, pixels over 2/255
  bench [SCENE…] [--size WxH] [--json]  frames/s and per-stage times of both backends
  preview SCENE [--port N]              a local web page to scrub, play and compare SCENE

Run `lamina <subcommand> --help` for a subcommand's options.
"""

func fail(_ message: String) {
    for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
        FileHandle.standardError.write(Data("lamina: \(line)\n".utf8))
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
if arguments.isEmpty {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    status = 2
} else if ["--help", "-h", "help"].contains(arguments[0]) {
    print(usage)
    status = 0
} else {
    let subcommand = arguments.removeFirst()
    do {
        switch subcommand {
        case "inspect": status = try InspectCommand.run(arguments)
        case "render": status = try RenderCommand.run(arguments)
        case "plan": status = try PlanCommand.run(arguments)
        case "join": status = try JoinCommand.run(arguments)
        case "demo": status = try DemoCommand.run(arguments)
        case "compare": status = try CompareCommand.run(arguments)
        case "bench": status = try BenchCommand.run(arguments)
        case "preview": status = try PreviewCommand.run(arguments)
        default: throw UsageError(description: "unknown subcommand \"\(subcommand)\" (see `lamina --help`)")
        }
    } catch let error as UsageError {
        fail(error.description)
        status = 2
    } catch let error as JobFailure {
        fail(error.description)
        status = 1
    } catch {
        fail("\(error)")
        status = 1
    }
}
exit(status)
