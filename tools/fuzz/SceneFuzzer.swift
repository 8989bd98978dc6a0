// libFuzzer entry point for the scene loader and the Lottie importer (built by
// tools/fuzz-scene-loader.sh).
//
// Each input is treated as the bytes of a scene file or a Lottie file (JSON or a .lottie archive),
// told apart by content as `lamina` tells them apart. When it loads, its budget figures are worked
// out from the model (`ModelFigures`: replicator copies and particles expanded, keyframes, paths);
// a scene over its budget is refused there, as `lamina` refuses it. Within budget, the presentation
// tree is evaluated at a few times (its layer count must stay within the figure, the bound the
// budget relies on), encoded as `lamina inspect` JSON lines, and planned as a frame of the scene's
// size with a rasterizer that draws nothing, so the plan's offscreen passes and content rasters are
// sized (and clipped to what the output shows) without allocating them. Errors (`SceneLoadError`)
// are the expected outcome for most inputs; only crashes, broken bounds, timeouts and memory
// blow-ups are findings.
import Foundation
import Layers
import Presentation
import Rendering
import ContentRaster
import SceneFormat
import LottieImport

/// Asset paths resolve against this folder (the script points it at a copy of Examples/).
/// SCENE_FUZZ_VERBOSE=1 prints each input's outcome (for reproducing and checking seeds).
private let verbose = ProcessInfo.processInfo.environment["SCENE_FUZZ_VERBOSE"] == "1"

/// Rasters are sized, never drawn: the plan's offscreen needs are what is fuzzed here.
private let measuring = MeasuringRasterizer()

nonisolated(unsafe) private var baseDirectory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SCENE_FUZZ_BASE"]
    ?? FileManager.default.currentDirectoryPath, isDirectory: true)

@_cdecl("LLVMFuzzerTestOneInput")
public func sceneFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let scene: Scene
    do {
        scene = try LottieImporter.loadScene(bytes: bytes, fileName: "fuzz.json", baseDirectory: baseDirectory)
    } catch {
        // `load` throws only SceneLoadError (typed throws). Every refusal must carry a reason; an
        // empty problem list would be a loader bug.
        if error.problems.isEmpty { fatalError("SceneLoadError without problems") }
        let text = error.description
        if verbose { print("refused (\(error.problems.count) problems):\n\(text)") }
        return 0
    }
    if verbose { print("loaded: \(scene.width)x\(scene.height)") }
    let figures = ModelFigures.measure(scene.root)
    // The budget as `lamina` applies it, with presented layers held lower: each input must run
    // in well under the 10 s timeout under ASan (about 4 s per thousand layers for the six
    // evaluations and JSON lines), and what is fuzzed is the bound, not the size it allows.
    var limits = scene.limits
    limits.presentedLayers = min(limits.presentedLayers, 500)
    guard figures.presentedLayers <= limits.presentedLayers, figures.keyframeValues <= limits.keyframeValues,
          figures.pathElements <= limits.pathElements else {
        if verbose { print("over budget: \(figures.presentedLayers) presented layers, \(figures.keyframeValues) keyframes, \(figures.pathElements) path elements") }
        return 0
    }
    var planner = RenderPlanBuilder(width: scene.width, height: scene.height, scale: CGFloat(scene.scale),
                                    background: scene.background, contentRasterizer: measuring)
    planner.placesRoot = true
    let encoder = PresentationJSON(imageName: scene.assetNamer())
    let end = scene.duration ?? 2
    var times: [Double] = [0, 1.0 / 60, 0.5, end, 1_000.25]
    if scene.framesPerSecond.isFinite, scene.framesPerSecond > 0 { times.append(7 / scene.framesPerSecond) }
    for time in times {
        let tree = PresentationTree.evaluate(scene.root, at: time)
        // Touch the parts renderers use, so the optimiser cannot drop the evaluation.
        if let last = tree.layers.last { _ = tree.path(of: last.index) }
        // The budget's bound must hold: more presented layers than the figure would let an
        // expansion through that the budget check never saw.
        if tree.layers.count > figures.presentedLayers {
            fatalError("\(tree.layers.count) presented layers at t=\(time), over the model's bound of \(figures.presentedLayers)")
        }
        let line = encoder.line(for: tree)
        if line.isEmpty { fatalError("empty presentation line") }
        let plan = planner.plan(for: tree)
        for area in plan.offscreen where area.width <= 0 || area.height <= 0
            || area.width > SceneLimits.maximumPassSide || area.height > SceneLimits.maximumPassSide {
            fatalError("offscreen \(area.purpose) of \(area.layer) is \(area.width)x\(area.height)")
        }
        if verbose {
            print("t=\(time): \(tree.layers.count) layers, \(line.utf8.count) bytes of JSON, "
                  + "\(plan.passes.count) passes, \(plan.offscreenPixels) offscreen pixels")
        }
    }
    return 0
}
