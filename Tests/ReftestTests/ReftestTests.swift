import XCTest
import Foundation
import Lamina

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
                         "particles", "blend", "filters"]

    /// GPU vs CPU agreement on every left-hand scene.
    static let crossBackendMinimumPSNR = 40.0
    static let crossBackendTolerance = 2
    static let crossBackendPixelFraction = 0.005

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

        var run = GroupRun(group: group, artifacts: artifacts, backends: backends.compactMap { b in b.backend.map { (b.kind, $0) } })
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

    static func format(_ value: Double) -> String {
        value.isFinite ? String(format: "%.2f", value) : "∞"
    }
}

struct ReftestSetupError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The state of one group's run: loaded scenes and rendered frames are shared between entries.
struct GroupRun {
    let group: String
    let artifacts: URL
    let backends: [(kind: BackendKind, backend: any RenderBackend)]
    let images = FileImageProvider()
    /// Shape, text and shadow-path rasters shared by every scene of the group.
    let contents = ContentCache()
    let record = ProcessInfo.processInfo.environment["LAMINA_RECORD"] == "1"
    /// `LAMINA_REFTEST_DUMP=1`: every rendered frame goes to `<artifacts>/frames/`, to look at.
    let dump = ProcessInfo.processInfo.environment["LAMINA_REFTEST_DUMP"] == "1"
    /// `LAMINA_REFTEST_VERBOSE=1`: prints how much every comparison differs (to size `fuzzy`).
    let verbose = ProcessInfo.processInfo.environment["LAMINA_REFTEST_VERBOSE"] == "1"

    private var scenes: [URL: Result<Scene, SceneLoadError>] = [:]
    /// Frames by backend, scene file and time (nil: the backend returned none).
    private var frames: [String: Image?] = [:]
    /// Scene frames already checked GPU against CPU.
    private var crossChecked: Set<String> = []
    private(set) var renders: [BackendKind: Int] = [:]
    private(set) var crossBackendPSNRs: [Double] = []
    private(set) var identicalCrossBackendFrames = 0

    init(group: String, artifacts: URL, backends: [(kind: BackendKind, backend: any RenderBackend)]) {
        self.group = group
        self.artifacts = artifacts
        self.backends = backends
    }

    /// Checks one entry on every backend; the failures, each a sentence.
    mutating func check(_ entry: ReftestEntry) -> [String] {
        var failures: [String] = []
        var golden: Image?
        if entry.right.kind == .golden, !record {
            do {
                golden = try ImageFile.read(contentsOf: entry.right.url)
            } catch {
                return ["cannot read the golden image: \(error)"]
            }
        }
        var recorded = false
        for t in entry.times {
            let leftTime = entry.left.pinnedTime ?? t
            let rightTime = entry.right.pinnedTime ?? t
            var leftFrames: [BackendKind: Image] = [:]
            for (kind, backend) in backends {
                let what = "\(entry.left)\(entry.left.pinnedTime == nil ? " at t=\(ReftestManifest.format(t))" : "") on \(kind.rawValue)"
                let actual: Image
                switch frame(entry.left.url, at: leftTime, kind, backend) {
                case .failure(let message): failures.append("\(what): \(message)"); continue
                case .success(let image): actual = image
                }
                leftFrames[kind] = actual
                let expected: Image
                switch entry.right.kind {
                case .golden:
                    if record {
                        if !recorded {
                            recorded = true
                            do {
                                try ImageFile.writePNG(actual, to: entry.right.url, overwrite: true)
                                failures.append("recorded \(entry.right.url.path) from \(what); look at it, then run again without LAMINA_RECORD")
                            } catch {
                                failures.append("cannot record \(entry.right.url.path): \(error)")
                            }
                        }
                        continue
                    }
                    guard let golden else { continue }
                    expected = golden
                case .scene:
                    switch frame(entry.right.url, at: rightTime, kind, backend) {
                    case .failure(let message): failures.append("\(entry.right) on \(kind.rawValue): \(message)"); continue
                    case .success(let image): expected = image
                    }
                }
                guard let difference = ImageComparison.compare(actual, expected, tolerance: 0) else {
                    failures.append("\(what): size \(actual.width)×\(actual.height) differs from \(entry.right)'s \(expected.width)×\(expected.height)")
                    continue
                }
                if verbose {
                    print("\(entry.location) \(what): \(difference.pixelsOverTolerance) pixels differ, max \(difference.maxChannelDifference)")
                }
                let alike = entry.withinTolerance(maxChannelDifference: difference.maxChannelDifference,
                                                  differingPixels: difference.pixelsOverTolerance)
                if alike == (entry.relation == .equal) { continue }
                let tolerance = entry.fuzz.map { "fuzzy(\($0.maxDifference),\($0.maxPixels))" } ?? "exact"
                let files = writeArtifacts(entry, t: t, kind, actual: actual, expected: expected)
                if entry.relation == .equal {
                    failures.append("\(what) does not match \(entry.right) (\(tolerance)): \(difference.pixelsOverTolerance) pixels differ, max difference \(difference.maxChannelDifference)/255, PSNR \(ReftestTests.format(difference.psnr)) dB; \(files)")
                } else {
                    failures.append("\(what) should differ from \(entry.right) by more than \(tolerance) but \(difference.pixelsOverTolerance) pixels differ, max difference \(difference.maxChannelDifference)/255; \(files)")
                }
            }
            if let gpu = leftFrames[.gpu], let cpu = leftFrames[.cpu] {
                let key = "\(entry.left.url.path)@\(leftTime)"
                if crossChecked.insert(key).inserted, let failure = crossCheck(entry, t: t, gpu: gpu, cpu: cpu) {
                    failures.append(failure)
                }
            }
        }
        return failures
    }

    /// GPU ≈ CPU on one frame; a failure sentence or nil.
    private mutating func crossCheck(_ entry: ReftestEntry, t: Double, gpu: Image, cpu: Image) -> String? {
        guard let d = ImageComparison.compare(gpu, cpu, tolerance: ReftestTests.crossBackendTolerance) else {
            return "\(entry.left): GPU and CPU frames have different sizes"
        }
        if d.isIdentical { identicalCrossBackendFrames += 1 } else { crossBackendPSNRs.append(d.psnr) }
        let allowed = Int((Double(d.pixelCount) * ReftestTests.crossBackendPixelFraction).rounded(.down))
        guard d.psnr < ReftestTests.crossBackendMinimumPSNR || d.pixelsOverTolerance > allowed else { return nil }
        let files = writeArtifacts(entry, t: t, nil, actual: gpu, expected: cpu, names: ("gpu", "cpu"))
        return "\(entry.left) at t=\(ReftestManifest.format(entry.left.pinnedTime ?? t)): GPU and CPU frames disagree: PSNR \(ReftestTests.format(d.psnr)) dB (needs ≥ \(Int(ReftestTests.crossBackendMinimumPSNR))), \(d.pixelsOverTolerance) pixels over \(ReftestTests.crossBackendTolerance)/255 (allowed \(allowed)); \(files)"
    }

    /// The frame of a scene file at a time on one backend, rendered once per group.
    private mutating func frame(_ url: URL, at time: Double, _ kind: BackendKind, _ backend: any RenderBackend) -> Result<Image, FrameError> {
        let key = "\(kind.rawValue) \(url.path)@\(time)"
        if let cached = frames[key] {
            return cached.map { .success($0) } ?? .failure(FrameError(message: "the \(kind.rawValue) backend returned no frame"))
        }
        let scene: Scene
        switch loadScene(url) {
        case .failure(let error): return .failure(FrameError(message: "cannot load the scene: \(error)"))
        case .success(let loaded): scene = loaded
        }
        let tree = PresentationTree.evaluate(scene.root, at: time)
        let plan = RenderPlanBuilder(width: scene.width, height: scene.height, scale: scene.scale,
                                     background: scene.background, contentRasterizer: contents).plan(for: tree)
        let image = backend.render(plan, images: images)
        renders[kind, default: 0] += 1
        frames[key] = image
        if dump, let image {
            let folder = artifacts.appendingPathComponent("frames")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let name = "\(url.deletingPathExtension().lastPathComponent)-t\(ReftestManifest.format(time))-\(kind.rawValue).png"
            try? ImageFile.writePNG(image, to: folder.appendingPathComponent(name), overwrite: true)
        }
        return image.map { .success($0) } ?? .failure(FrameError(message: "the \(kind.rawValue) backend returned no frame"))
    }

    private mutating func loadScene(_ url: URL) -> Result<Scene, SceneLoadError> {
        if let scene = scenes[url] { return scene }
        let result: Result<Scene, SceneLoadError>
        do {
            result = .success(try SceneLoader.load(contentsOf: url))
        } catch {
            result = .failure(error)
        }
        scenes[url] = result
        return result
    }

    /// Writes actual, expected and difference PNGs; a sentence naming them.
    private func writeArtifacts(_ entry: ReftestEntry, t: Double, _ kind: BackendKind?, actual: Image, expected: Image,
                                names: (String, String) = ("actual", "expected")) -> String {
        let stem = entry.left.url.deletingPathExtension().lastPathComponent
        let base = "line\(entry.line)-\(stem)-t\(ReftestManifest.format(entry.left.pinnedTime ?? t))" + (kind.map { "-\($0.rawValue)" } ?? "")
        do {
            try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
            let a = artifacts.appendingPathComponent("\(base).\(names.0).png")
            let e = artifacts.appendingPathComponent("\(base).\(names.1).png")
            let d = artifacts.appendingPathComponent("\(base).diff.png")
            try ImageFile.writePNG(actual, to: a, overwrite: true)
            try ImageFile.writePNG(expected, to: e, overwrite: true)
            if let diff = ImageComparison.differenceImage(actual, expected) { try ImageFile.writePNG(diff, to: d, overwrite: true) }
            return "\(names.0): \(a.path), \(names.1): \(e.path), difference: \(d.path)"
        } catch {
            return "(could not write the frames: \(error))"
        }
    }
}

struct FrameError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
