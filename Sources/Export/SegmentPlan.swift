import Foundation
import SceneFormat
import LottieImport

/// What a render's bytes depend on besides the scene: output size, density, frame rate, container,
/// codec, quality, backend and the encoder's thread count.
public struct RenderSettings: Codable, Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Pixels per point.
    public var scale: Double
    public var fps: Double
    /// The container, as an output extension: `mp4`, `mov` or `webm`.
    public var container: String
    /// `--codec` (nil: the container's default).
    public var codec: String?
    /// `--crf` (nil: the codec's default).
    public var quality: Int?
    /// `gpu` or `cpu` (the two draw the same frames within rounding, not the same bytes).
    public var backend: String
    public var encoderThreads: Int

    public init(width: Int, height: Int, scale: Double, fps: Double, container: String, codec: String? = nil,
                quality: Int? = nil, backend: String = "gpu", encoderThreads: Int = EncoderSettings.defaultThreads) {
        self.width = width; self.height = height; self.scale = scale; self.fps = fps; self.container = container
        self.codec = codec; self.quality = quality; self.backend = backend; self.encoderThreads = encoderThreads
    }

    /// The output kind these settings write.
    public func outputKind() throws(ExportError) -> OutputKind {
        try OutputKind.forPath("segment." + container, codec: codec)
    }

    /// SHA-256 of the settings as canonical JSON (sorted keys).
    public var sha256: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return SHA256.hex((try? encoder.encode(self)) ?? Data())
    }
}

/// The segments of one video render, for rendering them on many machines and joining them
/// (`lamina plan`, `lamina render --plan P --segment I`, `lamina join`).
///
/// Boundaries lie on the keyframe grid counted from frame 0 (`EncoderSettings.keyframeInterval`:
/// two seconds of frames), so joined segments decode to exactly the frames of one run, and they
/// depend only on the frame count and the segment length, never on how many machines render.
/// A segment is a pure function of (scene and its assets, settings, Lamina version, frame range):
/// the same bytes on every machine and every retry.
public struct SegmentPlan: Codable, Equatable, Sendable {
    /// One segment: frames `frames[0]…frames[1]`, written as `name`.
    public struct Segment: Codable, Equatable, Sendable {
        public var index: Int
        public var frames: [Int]
        public var name: String

        public var range: ClosedRange<Int> { frames[0]...frames[1] }
    }

    public var renderID: String
    public var sceneSHA256: String
    public var settingsSHA256: String
    public var laminaVersion: String
    public var fps: Double
    public var frameCount: Int
    public var keyframeInterval: Int
    /// The scene file, as an absolute path on the machine that planned (another can be given when rendering).
    public var scene: String
    public var settings: RenderSettings
    public var segments: [Segment]
    /// The input whose audio the joined video carries (`lamina join --audio-from`), when the
    /// scene composites over a video with sound; segments themselves are video-only.
    public var audio: String?

    enum CodingKeys: String, CodingKey {
        case renderID = "render_id", sceneSHA256 = "scene_sha256", settingsSHA256 = "settings_sha256"
        case laminaVersion = "lamina_version", fps, frameCount = "frame_count", keyframeInterval = "keyframe_interval"
        case scene, settings, segments, audio
    }

    /// Plans `frameCount` frames of the scene at `sceneURL` in segments of about `segmentSeconds`
    /// (rounded to whole keyframe intervals, at least one), or in the ranges of `custom` (each
    /// `[A, B]`; they must start at 0, follow each other and start on the keyframe grid).
    public static func make(sceneURL: URL, settings: RenderSettings, frameCount: Int, segmentSeconds: Double = 10,
                            custom: [[Int]]? = nil, audio: URL? = nil) throws(ExportError) -> SegmentPlan {
        guard try settings.outputKind().isJoinable else {
            throw .invalidSettings("\(settings.container) segments cannot be joined; plan an .mp4, .mov or .webm render")
        }
        guard frameCount > 0 else { throw .invalidSettings("a render needs at least one frame") }
        let clock = FrameClock(framesPerSecond: settings.fps)
        let interval = EncoderSettings.keyframeInterval(framesPerSecond: settings.fps)
        var ranges: [ClosedRange<Int>] = []
        if let custom {
            var next = 0
            for (i, pair) in custom.enumerated() {
                guard pair.count == 2, pair[0] <= pair[1] else { throw .invalidSettings("segment \(i): frames must be [A, B] with A ≤ B") }
                guard pair[0] == next else {
                    throw .invalidSettings("segment \(i) starts at frame \(pair[0]), expected \(next) (segments must follow each other from frame 0)")
                }
                guard pair[0] % interval == 0 else {
                    throw .invalidSettings("segment \(i) starts at frame \(pair[0]), off the keyframe grid (multiples of \(interval))")
                }
                ranges.append(pair[0]...pair[1])
                next = pair[1] + 1
            }
            guard next == frameCount else {
                throw .invalidSettings("the segments cover frames 0…\(next - 1), the render has 0…\(frameCount - 1)")
            }
        } else {
            let wanted = clock.frameCount(forDuration: max(segmentSeconds, 0))
            let length = interval * max(1, Int((Double(wanted) / Double(interval)).rounded()))
            ranges = stride(from: 0, to: frameCount, by: length).map { $0...min($0 + length, frameCount) - 1 }
        }
        let sceneSHA = try sceneDigest(sceneURL)
        let settingsSHA = settings.sha256
        let layout = ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
        let renderID = String(SHA256.hex(Data("\(sceneSHA)\n\(settingsSHA)\n\(LaminaVersion.current)\n\(layout)".utf8)).prefix(16))
        let segments = ranges.enumerated().map { i, r in
            Segment(index: i, frames: [r.lowerBound, r.upperBound], name: "part-\(renderID)-\(String(format: "%05d", i)).\(settings.container)")
        }
        return SegmentPlan(renderID: renderID, sceneSHA256: sceneSHA, settingsSHA256: settingsSHA, laminaVersion: LaminaVersion.current,
                           fps: settings.fps, frameCount: frameCount, keyframeInterval: interval,
                           scene: sceneURL.standardizedFileURL.path, settings: settings, segments: segments,
                           audio: audio?.standardizedFileURL.path)
    }

    /// SHA-256 over the scene file and every asset it names (sorted by name), so a changed
    /// image or input video changes the render.
    public static func sceneDigest(_ url: URL) throws(ExportError) -> String {
        let scene: Scene
        do { scene = try LottieImporter.loadScene(contentsOf: url) } catch { throw .badInput(path: url.path, reason: error.description) }
        var text: String
        do { text = try SHA256.hex(ofFile: url) } catch { throw .badInput(path: url.path, reason: "cannot be read") }
        for name in scene.assets.keys.sorted() {
            guard let asset = scene.assets[name] else { continue }
            do { text += "\n\(name) " + (try SHA256.hex(ofFile: asset.url)) } catch {
                throw .badInput(path: asset.url.path, reason: "cannot be read (asset \"\(name)\")")
            }
        }
        return SHA256.hex(Data(text.utf8))
    }

    /// Checks that the scene at `url` and this build are the ones planned: a render of a changed
    /// scene or by another Lamina would not join with the others.
    public func verify(sceneURL url: URL) throws(ExportError) {
        guard laminaVersion == LaminaVersion.current else {
            throw .invalidSettings("the plan is for Lamina \(laminaVersion), this is \(LaminaVersion.current)")
        }
        guard settings.sha256 == settingsSHA256 else { throw .invalidSettings("the plan's settings do not match its settings_sha256") }
        let digest = try Self.sceneDigest(url)
        guard digest == sceneSHA256 else {
            throw .invalidSettings("\(url.path): the scene or its assets changed since the plan (scene_sha256 \(digest.prefix(12))…, planned \(sceneSHA256.prefix(12))…)")
        }
    }

    /// The plan in a file (as `lamina plan --json` writes it).
    public static func read(contentsOf url: URL) throws(ExportError) -> SegmentPlan {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .badInput(path: url.path, reason: "cannot be read") }
        do { return try JSONDecoder().decode(SegmentPlan.self, from: data) } catch {
            throw .badInput(path: url.path, reason: "is not a segment plan: \(error)")
        }
    }

    /// The plan as one JSON object (sorted keys).
    public func json(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
