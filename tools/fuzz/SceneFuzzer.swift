// libFuzzer entry point for the scene loader (built by tools/fuzz-scene-loader.sh).
//
// Each input is treated as the bytes of a scene file. When it loads, the presentation tree is
// evaluated at a few times and encoded as `lamina inspect` JSON lines, so the presentation and
// encoding code run on every tree the loader accepts. Errors (`SceneLoadError`) are the expected
// outcome for most inputs; only crashes, timeouts and memory blow-ups are findings.
import Foundation
import Layers
import Presentation
import SceneFormat

/// Asset paths resolve against this folder (the script points it at a copy of Examples/).
/// SCENE_FUZZ_VERBOSE=1 prints each input's outcome (for reproducing and checking seeds).
private let verbose = ProcessInfo.processInfo.environment["SCENE_FUZZ_VERBOSE"] == "1"

nonisolated(unsafe) private var baseDirectory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SCENE_FUZZ_BASE"]
    ?? FileManager.default.currentDirectoryPath, isDirectory: true)

@_cdecl("LLVMFuzzerTestOneInput")
public func sceneFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let scene: Scene
    do {
        scene = try SceneLoader.load(bytes: bytes, fileName: "fuzz.json", baseDirectory: baseDirectory)
    } catch {
        // `load` throws only SceneLoadError (typed throws). Every refusal must carry a reason; an
        // empty problem list would be a loader bug.
        if error.problems.isEmpty { fatalError("SceneLoadError without problems") }
        let text = error.description
        if verbose { print("refused (\(error.problems.count) problems):\n\(text)") }
        return 0
    }
    if verbose { print("loaded: \(scene.width)x\(scene.height)") }
    let encoder = PresentationJSON(scene: scene)
    let end = scene.duration ?? 2
    var times: [Double] = [0, 1.0 / 60, 0.5, end, 1_000.25]
    if scene.framesPerSecond.isFinite, scene.framesPerSecond > 0 { times.append(7 / scene.framesPerSecond) }
    for time in times {
        let tree = PresentationTree.evaluate(scene.root, at: time)
        // Touch the parts renderers use, so the optimiser cannot drop the evaluation.
        if let last = tree.layers.last { _ = tree.path(of: last.index) }
        let line = encoder.line(for: tree)
        if line.isEmpty { fatalError("empty presentation line") }
        if verbose { print("t=\(time): \(tree.layers.count) layers, \(line.utf8.count) bytes of JSON") }
    }
    return 0
}
