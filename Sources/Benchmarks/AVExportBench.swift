import Foundation
import Geometry
import CoreMedia
import Layers
import SceneFormat
import Rendering
import Export
import AVExport
import Demo
#if canImport(Glibc)
import Glibc
#endif

/// The `bench --export` row for AVFoundation's API: what the AVFoundation layer costs.
///
/// One job two ways, in one run: the title card (`Examples/title-card.json`) composited over a
/// generated 7 s 1280×720 clip with a tone, to H.264 MP4 —
/// - **scene path**: the scene file with a `video` binding, exported as `lamina render` does
///   (`SceneLoader` → `SceneOutput` → `VideoExporter` with the scene's `VideoComposition`);
/// - **AVFoundation path**: the same tree as an `AVVideoCompositionCoreAnimationTool`'s
///   animation layer (geometry-flipped, so the y-up tool draws the same picture), the clip in an
///   `AVMutableComposition`, `AVMutableVideoComposition(propertiesOf:)`, an
///   `AVAssetExportSession` with the 1920x1080 preset (the same quantizer as `lamina render`,
///   no scaling) and `shouldOptimizeForNetworkUse` (MP4's faststart, as `lamina render` writes).
/// Each runs three times, alternating; the fastest run of each counts. Both wall-clock time and
/// CPU time (this process's threads and its ffmpeg children: the work done, which a shared
/// machine's load disturbs far less) are measured. Goal: overhead ≤ 5 %. The two outputs are
/// compared (PSNR over every frame) to show that they are the same job.
public enum AVExportBench {
    public struct Result: Codable {
        public var frames: Int
        public var sceneSeconds: Double
        public var sessionSeconds: Double
        /// Session time over scene time, minus 1 (0.03 = 3 % slower).
        public var overhead: Double
        /// CPU seconds (process and ffmpeg children) of the faster run of each.
        public var sceneCPUSeconds: Double
        public var sessionCPUSeconds: Double
        public var cpuOverhead: Double
        /// The two outputs' agreement, mean PSNR over every frame (dB).
        public var agreementPSNR: Double?
        public var sceneFramesPerSecond: Double { sceneSeconds > 0 ? Double(frames) / sceneSeconds : 0 }
        public var sessionFramesPerSecond: Double { sessionSeconds > 0 ? Double(frames) / sessionSeconds : 0 }
    }

    public static func run(backend: BackendKind, folder: URL) throws -> Result {
        try DemoJob.writeExamples(into: folder)
        let clip = folder.appendingPathComponent("title-clip.mp4")
        _ = try FFmpegProcess.run(arguments: [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "gradients=s=1280x720:r=30:n=3:speed=0.015:d=7",
            "-f", "lavfi", "-i", "sine=frequency=220:sample_rate=48000:duration=7",
            "-c:v", "libx264", "-preset", "ultrafast", "-qp", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip.path,
        ])
        let sceneFile = try writeScene(in: folder, clip: clip)
        var scene = (wall: Double.infinity, cpu: Double.infinity), session = scene
        var frames = 0
        for round in 0..<3 {
            let sceneOutput = folder.appendingPathComponent("scene-\(round).mp4"), sessionOutput = folder.appendingPathComponent("session-\(round).mp4")
            var cpu = cpuSeconds()
            let (sceneSeconds, count) = try renderScene(sceneFile, to: sceneOutput, backend: backend)
            scene = (min(scene.wall, sceneSeconds), min(scene.cpu, cpuSeconds() - cpu))
            frames = count
            cpu = cpuSeconds()
            let sessionSeconds = try exportSession(sceneFile, clip: clip, to: sessionOutput, backend: backend)
            session = (min(session.wall, sessionSeconds), min(session.cpu, cpuSeconds() - cpu))
        }
        let psnr = try? agreement(folder.appendingPathComponent("scene-2.mp4"), folder.appendingPathComponent("session-2.mp4"))
        return Result(frames: frames, sceneSeconds: scene.wall, sessionSeconds: session.wall, overhead: session.wall / scene.wall - 1,
                      sceneCPUSeconds: scene.cpu, sessionCPUSeconds: session.cpu, cpuOverhead: session.cpu / scene.cpu - 1,
                      agreementPSNR: psnr)
    }

    /// User + system CPU seconds of this process's threads and of its children that have ended.
    static func cpuSeconds() -> Double {
        func seconds(_ who: Int32) -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(who), &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
        }
        return seconds(RUSAGE_SELF.rawValue) + seconds(RUSAGE_CHILDREN.rawValue)
    }

    /// `title-card.json` with the clip as a `video` asset shown by a full-frame video layer under the card.
    static func writeScene(in folder: URL, clip: URL) throws -> URL {
        let data = try Data(contentsOf: folder.appendingPathComponent("title-card.json"))
        guard var scene = try JSONSerialization.jsonObject(with: data) as? [String: Any], var root = scene["root"] as? [String: Any],
              var assets = scene["assets"] as? [String: Any] else { throw BenchFailure(description: "the embedded title-card.json is not a scene") }
        assets["clip"] = clip.lastPathComponent
        scene["assets"] = assets
        scene["video"] = ["asset": "clip", "layer": "video"]
        root["sublayers"] = [["name": "video", "type": "video", "bounds": [0, 0, 1280, 720], "position": [640, 360]]]
            + (root["sublayers"] as? [Any] ?? [])
        scene["root"] = root
        let url = folder.appendingPathComponent("title-card-over-video.json")
        try JSONSerialization.data(withJSONObject: scene).write(to: url)
        return url
    }

    /// `lamina render SCENE -o OUT.mp4`'s export. Returns the seconds and frames.
    static func renderScene(_ file: URL, to output: URL, backend: BackendKind) throws -> (Double, Int) {
        let start = Stopwatch.now()
        let scene = try SceneLoader.load(contentsOf: file)
        let target = SceneOutput(scene: scene)
        let exporter = VideoExporter(root: scene.root, options: target.exportOptions(to: output, frames: try target.videoFrames(), backend: backend),
                                     composition: target.videoComposition)
        exporter.checksExportTiming = false
        let summary = try exporter.run()
        return (Stopwatch.now() - start, summary.frames)
    }

    /// The same job as AVFoundation export code writes it. Returns the seconds.
    static func exportSession(_ file: URL, clip: URL, to output: URL, backend: BackendKind) throws -> Double {
        let start = Stopwatch.now()
        let scene = try SceneLoader.load(contentsOf: file)
        var videoLayer: CALayer?
        scene.root.forEachLayerInTree { if $0.name == "video" { videoLayer = $0 } }
        scene.root.isGeometryFlipped = true  // the y-up tool then draws the scene's top-left picture
        let asset = AVURLAsset(url: clip)
        let composition = AVMutableComposition()
        let range = CMTimeRange(start: .zero, duration: asset.duration)
        for type in [AVMediaType.video, .audio] {
            try composition.addMutableTrack(withMediaType: type, preferredTrackID: kCMPersistentTrackID_Invalid)?
                .insertTimeRange(range, of: asset.tracks(withMediaType: type)[0], at: .zero)
        }
        let videoComposition = AVMutableVideoComposition(propertiesOf: composition)
        videoComposition.animationTool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: videoLayer!, in: scene.root)
        guard let session = AVAssetExportSession(asset: composition, presetName: AVAssetExportPreset1920x1080) else {
            throw BenchFailure(description: "no 1920x1080 preset")
        }
        session.outputURL = output
        session.outputFileType = .mp4
        session.shouldOptimizeForNetworkUse = true
        session.videoComposition = videoComposition
        session.renderBackend = backend
        let done = DispatchSemaphore(value: 0)
        session.exportAsynchronously { done.signal() }
        done.wait()
        guard session.status == .completed else { throw BenchFailure(description: "the export session failed: \(session.error.map { "\($0)" } ?? "")") }
        return Stopwatch.now() - start
    }

    /// Mean PSNR (dB) of `b` against `a` over every frame (ffmpeg's `psnr` filter).
    static func agreement(_ a: URL, _ b: URL) throws -> Double? {
        let process = Process()
        process.executableURL = FFmpegProcess.locate(FFmpegProcess.resolve("ffmpeg"))
        process.arguments = ["-hide_banner", "-nostdin", "-i", b.path, "-i", a.path, "-lavfi", "psnr", "-f", "null", "-"]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let range = text.range(of: #"average:(inf|[0-9.]+)"#, options: .regularExpression) else { return nil }
        let value = text[range].dropFirst("average:".count)
        return value == "inf" ? .infinity : Double(value)
    }
}
