import Foundation
import Geometry
import Rendering
import ImageIO
import ContentRaster
import SceneFormat
import LottieImport
import Export

/// Runs reftest entries (`ReftestManifest`) on one or more backends, the way Lamina's own
/// reftests run: both sides rendered at every time of the entry through `FrameRenderer`,
/// compared with the entry's tolerance; with a GPU and a CPU backend, each left-hand frame is also
/// checked GPU against CPU (PSNR ≥ 40 dB, ≥ 99.5 % of pixels within 2/255). Scenes and frames
/// are loaded and rendered once per runner, so entries of one manifest share them.
///
/// Failures write the actual, expected and difference PNGs under `artifacts` and name them.
/// `LAMINA_RECORD=1` (re)writes golden PNGs from the first backend and fails those entries, so
/// that nothing new goes in unseen; `LAMINA_REFTEST_DUMP=1` writes every frame to
/// `artifacts/frames/`; `LAMINA_REFTEST_VERBOSE=1` prints every comparison's difference.
public struct ReftestRunner {
    /// GPU vs CPU agreement required on every left-hand scene.
    public static let crossBackendMinimumPSNR = 40.0
    public static let crossBackendTolerance = 2
    public static let crossBackendPixelFraction = 0.005

    public let artifacts: URL
    public let backends: [(kind: BackendKind, backend: any RenderBackend)]
    let images = FileImageProvider()
    /// Shape, text and shadow-path rasters shared by every scene of the run.
    let contents = ContentCache()
    public var record = ProcessInfo.processInfo.environment["LAMINA_RECORD"] == "1"
    let dump = ProcessInfo.processInfo.environment["LAMINA_REFTEST_DUMP"] == "1"
    let verbose = ProcessInfo.processInfo.environment["LAMINA_REFTEST_VERBOSE"] == "1"

    private var scenes: [URL: Result<Scene, SceneLoadError>] = [:]
    /// Frames by backend, scene file and time (nil: the backend returned none).
    private var frames: [String: Image?] = [:]
    /// Scene frames already checked GPU against CPU.
    private var crossChecked: Set<String> = []
    /// Frames rendered per backend.
    public private(set) var renders: [BackendKind: Int] = [:]
    /// GPU vs CPU PSNR of every cross-checked frame that was not identical.
    public private(set) var crossBackendPSNRs: [Double] = []
    /// Cross-checked frames that were byte-identical.
    public private(set) var identicalCrossBackendFrames = 0

    /// A runner drawing with `backends`, writing failure images under `artifacts`.
    public init(artifacts: URL, backends: [(kind: BackendKind, backend: any RenderBackend)]) {
        self.artifacts = artifacts
        self.backends = backends
    }

    /// Checks one entry on every backend; the failures, each a sentence.
    public mutating func check(_ entry: ReftestEntry) -> [String] {
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
                    failures.append("\(what) does not match \(entry.right) (\(tolerance)): \(difference.pixelsOverTolerance) pixels differ, max difference \(difference.maxChannelDifference)/255, PSNR \(Self.format(difference.psnr)) dB; \(files)")
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
        guard let d = ImageComparison.compare(gpu, cpu, tolerance: Self.crossBackendTolerance) else {
            return "\(entry.left): GPU and CPU frames have different sizes"
        }
        if d.isIdentical { identicalCrossBackendFrames += 1 } else { crossBackendPSNRs.append(d.psnr) }
        let allowed = Int((Double(d.pixelCount) * Self.crossBackendPixelFraction).rounded(.down))
        guard d.psnr < Self.crossBackendMinimumPSNR || d.pixelsOverTolerance > allowed else { return nil }
        let files = writeArtifacts(entry, t: t, nil, actual: gpu, expected: cpu, names: ("gpu", "cpu"))
        return "\(entry.left) at t=\(ReftestManifest.format(entry.left.pinnedTime ?? t)): GPU and CPU frames disagree: PSNR \(Self.format(d.psnr)) dB (needs ≥ \(Int(Self.crossBackendMinimumPSNR))), \(d.pixelsOverTolerance) pixels over \(Self.crossBackendTolerance)/255 (allowed \(allowed)); \(files)"
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
        let renderer = FrameRenderer(width: scene.width, height: scene.height, scale: CGFloat(scene.scale),
                                     background: scene.background, backend: backend, contentCache: contents, images: images)
        let image = renderer.render(scene.root, at: time)
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
            result = .success(try LottieImporter.loadScene(contentsOf: url))
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

extension ReftestRunner {
    /// A PSNR for messages: two decimals, or ∞ for identical frames.
    public static func format(_ value: Double) -> String {
        value.isFinite ? String(format: "%.2f", value) : "∞"
    }
}
