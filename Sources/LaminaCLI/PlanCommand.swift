import Foundation
import Lamina

/// `lamina plan SCENE --json`: the segment list of a video render, for rendering on many machines.
enum PlanCommand {
    static let usage = """
    usage: lamina plan SCENE [--segment-seconds S] [-o OUT.mp4|.mov|.webm] [--fps N] [--size WxH] [--scale S]
                       [--codec NAME] [--crf N] [--backend gpu|cpu] [--encoder-threads N] [--segments-from FILE] [--json]

    Splits the video render of SCENE (its duration, or its input video's) into segments of about
    S seconds (default 10), rounded to whole keyframe intervals (two seconds of frames, counted from
    frame 0): boundaries depend only on the render, never on how many machines render it. With
    --json it prints the plan as one JSON object:
      {render_id, scene_sha256, settings_sha256, lamina_version, fps, frame_count, keyframe_interval,
       scene, settings, segments: [{index, frames: [A, B], name}]}
    Render a segment anywhere with `lamina render --plan PLAN --segment I -o DIR`, then join the
    parts with `lamina join DIR/part-… -o OUT --audio-from INPUT`. --segments-from FILE takes the
    segments ([[A, B], …] or the segments of a plan) from a file; they must follow each other from
    frame 0 and start on the keyframe grid. OUT names the container (default .mp4).
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["--segment-seconds", "-o", "--output", "--fps", "--size", "--scale", "--codec", "--crf",
                                                     "--backend", "--encoder-threads", "--segments-from"],
                                 flags: ["--json", "--help", "-h"])
        if args.flags.contains("--help") || args.flags.contains("-h") { print(usage); return 0 }
        guard args.positional.count == 1, let sceneFile = args.positional.first else {
            throw UsageError(description: args.positional.isEmpty ? "plan needs a scene file" : "plan takes one scene file")
        }
        let sceneURL = URL(fileURLWithPath: sceneFile)
        let output = (args.values("-o") + args.values("--output")).last ?? "out.mp4"
        let container = (output as NSString).pathExtension.lowercased()
        let codec = args.values("--codec").last
        do {
            let kind = try OutputKind.forPath(output, codec: codec)
            guard kind.isJoinable else { throw UsageError(description: "\(output): GIF renders cannot be split into segments") }
        } catch let error as ExportError {
            throw UsageError(description: error.description)
        }
        let seconds = try args.values("--segment-seconds").last.map { try RenderCommand.number($0, "--segment-seconds") } ?? 10
        guard seconds > 0 else { throw UsageError(description: "--segment-seconds must be positive") }
        let backendName = args.values("--backend").last ?? "gpu"
        guard BackendKind(rawValue: backendName) != nil else { throw UsageError(description: "--backend must be gpu or cpu, not \(backendName)") }
        let threads = try args.values("--encoder-threads").last.map { text throws(UsageError) -> Int in
            guard let n = Int(text), (1...64).contains(n) else { throw UsageError(description: "--encoder-threads must be 1…64, not \(text)") }
            return n
        } ?? EncoderSettings.defaultThreads
        let quality = try args.values("--crf").last.map { text throws(UsageError) -> Int in
            guard let n = Int(text), (0...63).contains(n) else { throw UsageError(description: "--crf \(text) is not an integer in 0…63") }
            return n
        }

        let scene: Scene
        do { scene = try LottieImporter.loadScene(contentsOf: sceneURL) } catch { throw JobFailure(description: "\(error)") }
        let fps = try args.values("--fps").last.map { try RenderCommand.number($0, "--fps") }
        if let fps, !(fps > 0) { throw UsageError(description: "--fps must be positive") }
        let scale = try args.values("--scale").last.map { try RenderCommand.number($0, "--scale") }
        if let scale, !(scale > 0 && scale <= 64) { throw UsageError(description: "--scale must be in (0, 64]") }
        let target = SceneOutput(scene: scene, size: try args.values("--size").last.map(RenderCommand.size), scale: scale, framesPerSecond: fps)
        let frames: ClosedRange<Int>
        do throws(ExportError) { frames = try target.videoFrames() } catch {
            if case .invalidSettings = error { throw UsageError(description: error.description) }
            throw JobFailure(failure: error)
        }
        var custom: [[Int]]?
        if let file = args.values("--segments-from").last {
            custom = try segments(from: URL(fileURLWithPath: file))
        }
        let settings = RenderSettings(width: target.width, height: target.height, scale: Double(target.scale),
                                      fps: target.clock.framesPerSecond, container: container, codec: codec, quality: quality,
                                      backend: backendName, encoderThreads: threads)
        let plan: SegmentPlan
        do {
            // The composited video's sound, taken once at join time.
            let input = target.videoComposition?.url
            let audio = try input.flatMap { url throws(ExportError) in try VideoInfo.probe(url).audioCodec != nil ? url : nil }
            plan = try SegmentPlan.make(sceneURL: sceneURL, settings: settings, frameCount: frames.count, segmentSeconds: seconds,
                                        custom: custom, audio: audio)
        } catch {
            throw JobFailure(failure: error)
        }
        if args.flags.contains("--json") {
            print(plan.json())
        } else {
            print("render \(plan.renderID): \(plan.frameCount) frames at \(plan.fps) fps in \(plan.segments.count) segments")
            for s in plan.segments { print("  \(s.index): frames \(s.frames[0])..\(s.frames[1]) → \(s.name)") }
        }
        return 0
    }

    /// `[[A, B], …]`, or a plan's `segments`, from a JSON file.
    static func segments(from url: URL) throws -> [[Int]] {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw JobFailure(description: "\(url.path): cannot be read") }
        if let pairs = try? JSONDecoder().decode([[Int]].self, from: data) { return pairs }
        if let plan = try? JSONDecoder().decode(SegmentPlan.self, from: data) { return plan.segments.map(\.frames) }
        struct Listed: Decodable { var segments: [Entry]; struct Entry: Decodable { var frames: [Int] } }
        if let listed = try? JSONDecoder().decode(Listed.self, from: data) { return listed.segments.map(\.frames) }
        throw JobFailure(description: "\(url.path): expected [[A, B], …] or {\"segments\": [{\"frames\": [A, B]}, …]}")
    }
}
