import XCTest
import Foundation
import Lamina
import RenderTesting

/// Reftests: each line of `Reftests/<group>/reftest.list` says that two scenes (or a scene and a
/// golden PNG) render alike (`==`) or differently (`!=`); see `Reftests/README.md`.
///
/// Every entry is rendered with every backend in `BackendKind.allCases`, or the ones named in
/// `LAMINA_REFTEST_BACKENDS` (comma-separated, e.g. `gpu`). With both backends on, the GPU frame
/// of every left-hand scene is also checked against the CPU frame (PSNR ≥ 40 dB and ≥ 99.5 % of
/// pixels within 2/255). Failures leave the actual, expected and difference PNGs in
/// `$TMPDIR/lamina-reftests/<group>/` and name them. `LAMINA_RECORD=1` (re)writes the golden PNGs
/// of the `.png` entries from the first backend and fails those entries, so that nothing new
/// goes in unseen.
final class ReftestTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reftests")
    static let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-reftests")
    /// The groups, one test method each.
    static let groups = ["basics", "transforms3d", "contents", "content-layers", "corners-borders", "masks-clips", "shadows",
                         "opacity", "transitions", "timing", "animations", "text", "shapes", "gradients", "replicators",
                         "particles", "blend", "filters", "lottie"]

    // The backends are made once for the class; XCTest runs the methods serially on one thread.
    nonisolated(unsafe) private static var backends: [(kind: BackendKind, backend: (any RenderBackend)?, error: String?)]?
    nonisolated(unsafe) private static var stats = Statistics()

    struct Statistics {
        var entries = 0
        var passed = 0
        var renders: [BackendKind: Int] = [:]
        var psnrs: [Double] = []
        var identicalFrames = 0
    }

    override class func tearDown() {
        let s = stats
        if s.entries > 0 {
            let counts = enabledBackendKinds.map { s.renders[$0, default: 0] }
            let renders = Set(counts).count == 1 ? "\(counts.first ?? 0) renders per backend"
                : "renders per backend " + zip(enabledBackendKinds, counts).map { "\($0.rawValue) \($1)" }.joined(separator: ", ")
            var line = "reftests: \(s.entries) entries, \(renders), \(s.passed) passed"
            let compared = s.psnrs.count + s.identicalFrames
            if compared > 0 {
                let minimum = s.psnrs.min() ?? .infinity
                let mean = s.psnrs.isEmpty ? Double.infinity : s.psnrs.reduce(0, +) / Double(s.psnrs.count)
                line += "; GPU vs CPU PSNR min \(format(minimum)) dB mean \(format(mean)) dB over \(s.psnrs.count) differing frames"
                    + " (\(s.identicalFrames) of \(compared) frames identical)"
            } else {
                line += "; GPU vs CPU not compared (needs both backends)"
            }
            print(line)
        }
        super.tearDown()
    }

    // MARK: - Groups

    func testBasics() throws { try runGroup("basics") }
    func testTransforms3D() throws { try runGroup("transforms3d") }
    func testContents() throws { try runGroup("contents") }
    func testContentLayers() throws { try runGroup("content-layers") }
    func testCornersBorders() throws { try runGroup("corners-borders") }
    func testMasksClips() throws { try runGroup("masks-clips") }
    func testShadows() throws { try runGroup("shadows") }
    func testOpacity() throws { try runGroup("opacity") }
    func testTransitions() throws { try runGroup("transitions") }
    func testTiming() throws { try runGroup("timing") }
    func testAnimations() throws { try runGroup("animations") }
    func testText() throws { try runGroup("text") }
    func testShapes() throws { try runGroup("shapes") }
    func testGradients() throws { try runGroup("gradients") }
    func testReplicators() throws { try runGroup("replicators") }
    func testParticles() throws { try runGroup("particles") }
    func testBlend() throws { try runGroup("blend") }
    func testFilters() throws { try runGroup("filters") }
    func testLottie() throws { try runGroup("lottie") }

    /// Every folder with a manifest has a test method (no manifest is silently skipped).
    func testEveryManifestHasATestMethod() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter {
            FileManager.default.fileExists(atPath: Self.corpus.appendingPathComponent($0).appendingPathComponent("reftest.list").path)
        }
        XCTAssertEqual(Set(folders), Set(Self.groups), "manifests without a test method, or methods without a manifest")
    }

    // MARK: - Running a group

    static var enabledBackendKinds: [BackendKind] {
        guard let list = ProcessInfo.processInfo.environment["LAMINA_REFTEST_BACKENDS"], !list.isEmpty else {
            return BackendKind.allCases
        }
        return list.split(separator: ",").compactMap { BackendKind(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
    }

    private func makeBackends() throws -> [(kind: BackendKind, backend: (any RenderBackend)?, error: String?)] {
        if let backends = Self.backends { return backends }
        if let list = ProcessInfo.processInfo.environment["LAMINA_REFTEST_BACKENDS"], !list.isEmpty {
            let unknown = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { BackendKind(rawValue: $0) == nil }
            guard unknown.isEmpty else {
                throw ReftestSetupError(message: "LAMINA_REFTEST_BACKENDS names unknown backends \(unknown); known: \(BackendKind.allCases.map(\.rawValue))")
            }
        }
        let made = Self.enabledBackendKinds.map { kind -> (kind: BackendKind, backend: (any RenderBackend)?, error: String?) in
            do {
                return (kind, try kind.makeBackend(), nil)
            } catch {
                return (kind, nil, "cannot make the \(kind.rawValue) backend: \(error) (set LAMINA_REFTEST_BACKENDS to the available ones)")
            }
        }
        Self.backends = made
        return made
    }

    private func runGroup(_ group: String) throws {
        let manifest = Self.corpus.appendingPathComponent(group).appendingPathComponent("reftest.list")
        let (entries, errors) = ReftestManifest.parse(contentsOf: manifest)
        for error in errors { XCTFail("manifest error: \(error)") }
        XCTAssertFalse(entries.isEmpty && errors.isEmpty, "\(group)/reftest.list has no entries")

        let backends = try makeBackends()
        for b in backends where b.backend == nil { XCTFail(b.error ?? "no \(b.kind.rawValue) backend") }
        // An entry only passes when every enabled backend drew it.
        let allBackends = backends.allSatisfy { $0.backend != nil }
        let artifacts = Self.artifacts.appendingPathComponent(group)
        try? FileManager.default.removeItem(at: artifacts)

        var run = ReftestRunner(artifacts: artifacts, backends: backends.compactMap { b in b.backend.map { (b.kind, $0) } })
        for entry in entries {
            Self.stats.entries += 1
            let failures = run.check(entry)
            if failures.isEmpty, allBackends {
                Self.stats.passed += 1
            }
            for failure in failures { XCTFail("\(entry.location): \(failure)") }
        }
        for (kind, count) in run.renders { Self.stats.renders[kind, default: 0] += count }
        Self.stats.psnrs += run.crossBackendPSNRs
        Self.stats.identicalFrames += run.identicalCrossBackendFrames
    }

    static func format(_ value: Double) -> String { ReftestRunner.format(value) }
}

struct ReftestSetupError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

