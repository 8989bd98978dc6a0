import Foundation
import Lamina

/// `lamina inspect SCENE --time T [--time T …]`: the presentation tree at each time, as JSON lines.
enum InspectCommand {
    static let usage = """
    usage: lamina inspect SCENE --time T [--time T …]

    Prints the presentation tree of SCENE at each time T (seconds) as one JSON object per line:
    {"time": T, "layers": [...]}, layers depth-first with every property's presentation value.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["--time"], flags: ["--help", "-h"])
        if args.flags.contains("--help") || args.flags.contains("-h") {
            print(usage)
            return 0
        }
        guard args.positional.count == 1, let file = args.positional.first else {
            throw UsageError(description: args.positional.isEmpty ? "inspect needs a scene file" : "inspect takes one scene file")
        }
        let times = try args.values("--time").map { text throws(UsageError) -> Double in
            guard let t = Double(text), t.isFinite else { throw UsageError(description: "--time \(text) is not a finite number of seconds") }
            return t
        }
        guard !times.isEmpty else { throw UsageError(description: "inspect needs at least one --time") }
        let scene: Scene
        do {
            scene = try SceneLoader.load(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw JobFailure(description: error.description)
        }
        let encoder = PresentationJSON(imageName: scene.assetNamer())
        var output = ""
        for t in times {
            output += encoder.line(for: PresentationTree.evaluate(scene.root, at: t)) + "\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        return 0
    }
}
