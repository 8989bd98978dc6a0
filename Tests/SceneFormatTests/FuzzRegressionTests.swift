import XCTest
import Foundation
import Lamina

/// Inputs kept from fuzzing the scene loader (`tools/fuzz-scene-loader.sh`) and its stress seeds.
///
/// Every file in `FuzzRegressions/` must either load or be refused with a `SceneLoadError` that
/// lists at least one problem; a loaded scene must also evaluate and encode at a few times (what
/// the fuzz target does). Files are named `NNN-description.json`; the tests below pin the
/// expected outcome of each one.
final class FuzzRegressionTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions", isDirectory: true)

    private static func inputs() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    private func load(_ url: URL) -> Result<Scene, SceneLoadError> {
        do { return .success(try SceneLoader.load(contentsOf: url)) } catch { return .failure(error) }
    }

    private func loaded(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> Scene? {
        switch load(Self.url(name)) {
        case .success(let scene): return scene
        case .failure(let error):
            XCTFail("\(name) should load, but: \(error)", file: file, line: line)
            return nil
        }
    }

    private func refusal(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> SceneLoadError? {
        switch load(Self.url(name)) {
        case .success:
            XCTFail("\(name) should be refused", file: file, line: line)
            return nil
        case .failure(let error): return error
        }
    }

    // MARK: - Every file: loads or throws SceneLoadError, never crashes

    func testEveryInputLoadsOrIsRefusedWithProblems() throws {
        let inputs = try Self.inputs()
        XCTAssertFalse(inputs.isEmpty, "no inputs in \(Self.folder.path)")
        for url in inputs {
            switch load(url) {
            case .success(let scene):
                let encoder = PresentationJSON(imageName: scene.assetNamer())
                for time in [0, 1.0 / 60, 0.5, scene.duration ?? 2, 1_000.25] {
                    let tree = PresentationTree.evaluate(scene.root, at: time)
                    XCTAssertFalse(tree.layers.isEmpty, url.lastPathComponent)
                    XCTAssertFalse(encoder.line(for: tree).isEmpty, url.lastPathComponent)
                }
            case .failure(let error):
                XCTAssertFalse(error.problems.isEmpty, "\(url.lastPathComponent): a refusal must list its problems")
            }
        }
    }

    // MARK: - 001: springs whose settling time is found by a 600,000-step scan

    /// A critically damped spring with a tiny natural frequency (stiffness 1e-6, mass 1e6 →
    /// ω0 = 1e-6) and no `duration` takes `settlingDuration` as its duration. For ζ ≥ 1,
    /// `SpringMotion.settlingDuration` (Sources/Timing/SpringMotion.swift) scans `displacement(at:)`
    /// in 1 ms steps up to 600 s, and its early exit (`t > last + 1 / (w0 * 0.1)`) never fires when
    /// ω0 is tiny: 600,000 `exp` evaluations per spring at load time (≈5.5 ms in release, ≈20 ms
    /// under ASan). 600 such springs (a 62 KB file) take 3.3 s to load in release and 11.8 s in the
    /// fuzzer (over its 10 s timeout). This file has 20 so the suite stays fast; it must load, with
    /// each spring lasting its settling duration.
    func test001SpringSettlingScanLoads() throws {
        guard let scene = loaded("001-spring-settling-duration-scan.json") else { return }
        for i in 0..<20 {
            let spring = try XCTUnwrap(scene.root.animation(forKey: "s\(i)") as? CASpringAnimation)
            XCTAssertEqual(spring.duration, spring.settlingDuration, accuracy: 1e-9)
            XCTAssertTrue(spring.duration.isFinite && spring.duration > 0)
        }
    }

    /// The fix made the settling time exact for slow springs instead of scanning 600 s in 1 ms
    /// steps (which both took 600,000 evaluations and capped the answer at 600 s). A critically
    /// damped spring with ω0 = 1e-6 settles when (1 + ω0 t)·e^(−ω0 t) = 0.001, at ω0 t ≈ 9.23341.
    func test001SlowSpringSettlesAtTheAnalyticTime() {
        let motion = SpringMotion(mass: 1e6, stiffness: 1e-6, damping: 2)
        XCTAssertEqual(motion.dampingRatio, 1, accuracy: 1e-12)
        XCTAssertEqual(motion.settlingDuration, 9.23341e6, accuracy: 0.0001 * 9.23341e6)
    }

    // MARK: - 002–007: nesting at and past the limits (no stack overflow, clear refusals)

    /// 256 nested sublayers is the limit (SceneLimits.maximumDepth): it loads, and the recursive
    /// decoder, `PresentationTree.evaluate` and `PresentationJSON` all handle the 257-layer chain.
    func test002DeepSublayersAtTheLimitLoad() {
        guard let scene = loaded("002-deep-sublayers-256-loads.json") else { return }
        let tree = PresentationTree.evaluate(scene.root, at: 0.5)
        XCTAssertEqual(tree.layers.count, 257)
        XCTAssertEqual(tree.layers.last?.depth, 256)
        XCTAssertFalse(PresentationJSON(imageName: scene.assetNamer()).line(for: tree).isEmpty)
    }

    func test003DeepSublayersPastTheLimitAreRefused() {
        guard let error = refusal("003-deep-sublayers-257-refused.json") else { return }
        XCTAssertTrue(error.problems.contains { $0.reason.contains("nested deeper than 256") }, error.description)
    }

    func test004DeepMasksPastTheLimitAreRefused() {
        guard let error = refusal("004-deep-mask-300-refused.json") else { return }
        XCTAssertTrue(error.problems.contains { $0.reason.contains("nested deeper than 256") }, error.description)
    }

    /// JSON nesting past the parser's limit (2 × 256 + 16 = 528) is a syntax error, not a crash.
    func test005DeepJSONIsRefusedByTheParser() {
        guard let error = refusal("005-deep-json-600-refused.json") else { return }
        XCTAssertEqual(error.problems.count, 1, error.description)
        XCTAssertTrue(error.problems.first?.reason.contains("deeper than") == true, error.description)
    }

    func test006DeepAnimationGroupsAreRefused() {
        guard let error = refusal("006-deep-groups-33-refused.json") else { return }
        XCTAssertTrue(error.problems.contains { $0.reason.contains("nested deeper than 32") }, error.description)
    }

    /// A chain of 256 masks loads and evaluates: each mask is drawn into its owner's plane.
    func test007DeepMasksAtTheLimitLoad() {
        guard let scene = loaded("007-deep-mask-256-loads.json") else { return }
        let tree = PresentationTree.evaluate(scene.root, at: 0)
        XCTAssertEqual(tree.layers.count, 257)
        XCTAssertEqual(tree.layers.filter(\.isMask).count, 256)
    }
}
