import XCTest
import Lamina
import TestSupport

/// Segment plans (`lamina plan`), segment renders (`lamina render --plan --segment`) and the
/// array-job contract: every segment rendered in parallel processes, one killed and rerun, joined
/// into exactly the frames of one run, with the audio muxed once.
final class SegmentPlanTests: XCTestCase {
    private func settings(fps: Double = 30) -> RenderSettings {
        RenderSettings(width: 64, height: 48, scale: 1, fps: fps, container: "mp4", backend: "cpu")
    }

    /// A 64×48 scene over a generated clip with a tone; `seconds` long.
    private func sceneWithVideo(in folder: URL, seconds: Int) throws -> URL {
        try VideoTestSupport.clip(folder.appendingPathComponent("in.mp4"), video: "testsrc2=s=80x60:r=30", seconds: Double(seconds))
        let scene = folder.appendingPathComponent("scene.json")
        try Data("""
        {"format": 1, "size": [64, 48], "fps": 30, "duration": \(seconds), "background": "#000000",
         "assets": {"clip": "in.mp4"}, "video": {"asset": "clip", "layer": "video"},
         "root": {"sublayers": [{"name": "video", "type": "video", "frame": [0, 0, 64, 48]},
           {"bounds": [0, 0, 16, 16], "position": [32, 24], "backgroundColor": "#ff8800",
            "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 6.28, "duration": 3, "repeatCount": "infinity"}]}]}}
        """.utf8).write(to: scene)
        return scene
    }

    func testBoundariesLieOnTheKeyframeGridWhateverTheSegmentLength() throws {
        let folder = try TemporaryFolder(for: self)
        let scene = try sceneWithVideo(in: folder.url, seconds: 1)
        // 11 s at 30 fps: 330 frames; keyframes every 60.
        let plan = try SegmentPlan.make(sceneURL: scene, settings: settings(), frameCount: 330, segmentSeconds: 5)
        XCTAssertEqual(plan.keyframeInterval, 60)
        XCTAssertEqual(plan.segments.map(\.frames), [[0, 179], [180, 329]], "5 s rounds to 3 keyframe intervals")
        XCTAssertEqual(try SegmentPlan.make(sceneURL: scene, settings: settings(), frameCount: 330, segmentSeconds: 0.1).segments.count, 6,
                       "never shorter than one interval")
        XCTAssertEqual(plan.segments.map(\.index), [0, 1])
        XCTAssertTrue(plan.segments[1].name.hasPrefix("part-\(plan.renderID)-00001"), plan.segments[1].name)
        XCTAssertEqual(plan.renderID.count, 16)
        // The same inputs plan the same render; other settings another one.
        XCTAssertEqual(try SegmentPlan.make(sceneURL: scene, settings: settings(), frameCount: 330, segmentSeconds: 5), plan)
        var other = settings(); other.quality = 18
        XCTAssertNotEqual(try SegmentPlan.make(sceneURL: scene, settings: other, frameCount: 330, segmentSeconds: 5).renderID, plan.renderID)
        // A round trip through JSON keeps everything.
        XCTAssertEqual(try JSONDecoder().decode(SegmentPlan.self, from: Data(plan.json().utf8)), plan)
    }

    func testUsersSegmentsMustFollowEachOtherOnTheGrid() throws {
        let folder = try TemporaryFolder(for: self)
        let scene = try sceneWithVideo(in: folder.url, seconds: 1)
        let good = try SegmentPlan.make(sceneURL: scene, settings: settings(), frameCount: 200, custom: [[0, 119], [120, 199]])
        XCTAssertEqual(good.segments.map(\.frames), [[0, 119], [120, 199]])
        for (custom, expected) in [([[0, 99], [100, 199]], "off the keyframe grid"), ([[0, 59], [120, 199]], "expected 60"),
                                   ([[0, 59]], "cover frames 0…59, the render has 0…199"), ([[0]], "[A, B]")] {
            XCTAssertThrowsError(try SegmentPlan.make(sceneURL: scene, settings: settings(), frameCount: 200, custom: custom)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(custom): \(error)")
            }
        }
        var gif = settings(); gif.container = "gif"
        XCTAssertThrowsError(try SegmentPlan.make(sceneURL: scene, settings: gif, frameCount: 200))
    }

    /// Changing the scene, one of its assets or the plan's settings is caught before rendering.
    func testAChangedSceneOrAssetIsRefused() throws {
        let folder = try TemporaryFolder(for: self)
        let scene = try sceneWithVideo(in: folder.url, seconds: 1)
        let plan = try SegmentPlan.make(sceneURL: scene, settings: settings(), frameCount: 30)
        XCTAssertNoThrow(try plan.verify(sceneURL: scene))
        try VideoTestSupport.clip(folder.file("in.mp4"), video: "testsrc2=s=80x60:r=30", seconds: 2)
        XCTAssertThrowsError(try plan.verify(sceneURL: scene)) { XCTAssertTrue("\($0)".contains("changed since the plan"), "\($0)") }
        var tampered = plan
        tampered.settings.width = 32
        XCTAssertThrowsError(try tampered.verify(sceneURL: scene)) { XCTAssertTrue("\($0)".contains("settings"), "\($0)") }
    }

    /// The array-job contract with real processes: plan, render every segment in parallel, kill
    /// one mid-render and run it again, join with the audio: the frames of one `lamina render`.
    func testSegmentsInParallelProcessesJoinIntoTheSingleRun() throws {
        let folder = try TemporaryFolder(for: self)
        let scene = try sceneWithVideo(in: folder.url, seconds: 8)
        let planned = try LaminaProcess.run(["plan", scene.path, "--segment-seconds", "2", "--backend", "cpu", "--json"], in: folder.url)
        XCTAssertEqual(planned.status, 0, planned.stderr)
        try Data(planned.stdout.utf8).write(to: folder.file("plan.json"))
        let plan = try SegmentPlan.read(contentsOf: folder.file("plan.json"))
        XCTAssertEqual(plan.segments.count, 4)
        XCTAssertEqual(plan.audio, folder.file("in.mp4").standardizedFileURL.path)
        let parts = folder.file("parts")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)

        let started = try plan.segments.map {
            try LaminaProcess.start(["render", "--plan", "plan.json", "--segment", String($0.index), "-o", "parts"], in: folder.url)
        }
        // Kill segment 2 hard once it is encoding (its partial file exists), then run it again.
        let victim = started[2].process
        VideoTestSupport.wait(30) {
            ((try? FileManager.default.contentsOfDirectory(atPath: parts.path)) ?? []).contains { $0.contains("-00002") && $0.contains("partial") }
                || !victim.isRunning
        }
        kill(victim.processIdentifier, SIGKILL)
        var manifests: [Int: SegmentManifest] = [:]
        for (i, run) in started.enumerated() {
            let result = run.finish()
            if i == 2 {
                XCTAssertNotEqual(result.status, 0)
                XCTAssertFalse(FileManager.default.fileExists(atPath: parts.appendingPathComponent(plan.segments[2].name).path),
                               "a killed render leaves nothing under the segment's name")
                continue
            }
            XCTAssertEqual(result.status, 0, result.stderr)
            manifests[i] = try JSONDecoder().decode(SegmentManifest.self, from: Data(result.stdout.utf8))
        }
        let rerun = try LaminaProcess.run(["render", "--plan", "plan.json", "--segment", "2", "-o", "parts"], in: folder.url)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        manifests[2] = try JSONDecoder().decode(SegmentManifest.self, from: Data(rerun.stdout.utf8))
        // A segment is the same bytes every time it is rendered.
        let again = try LaminaProcess.run(["render", "--plan", "plan.json", "--segment", "1", "-o", "parts"], in: folder.url)
        XCTAssertEqual(try JSONDecoder().decode(SegmentManifest.self, from: Data(again.stdout.utf8)).sha256, manifests[1]?.sha256)
        for (i, manifest) in manifests {
            XCTAssertEqual(manifest.frames, plan.segments[i].frames)
            XCTAssertEqual(manifest.sha256, try SHA256.hex(ofFile: parts.appendingPathComponent(manifest.name)))
            XCTAssertNil(try VideoTestSupport.probe(parts.appendingPathComponent(manifest.name), stream: "a"), "segments are video-only")
        }
        // Nothing half-written under a segment's names (the killed process's hidden temporary
        // file is its own; the exporter's cleanup of stale temporaries deals with it).
        XCTAssertEqual(VideoTestSupport.leftovers(parts).filter { !$0.hasPrefix(".") }.sorted(), plan.segments.map(\.name).sorted())

        let joined = try LaminaProcess.run(["join"] + plan.segments.map { "parts/" + $0.name } + ["-o", "joined.mp4", "--audio-from", "in.mp4"],
                                           in: folder.url)
        XCTAssertEqual(joined.status, 0, joined.stderr)
        let single = try LaminaProcess.run(["render", scene.path, "-o", "single.mp4", "--backend", "cpu"], in: folder.url)
        XCTAssertEqual(single.status, 0, single.stderr)
        XCTAssertEqual(try VideoTestSupport.frameHashes(folder.file("joined.mp4")), try VideoTestSupport.frameHashes(folder.file("single.mp4")))
        let audio = try XCTUnwrap(try VideoTestSupport.probe(folder.file("joined.mp4"), stream: "a"))
        let video = try XCTUnwrap(try VideoTestSupport.probe(folder.file("joined.mp4"), stream: "v"))
        let frame = 1.0 / 30
        XCTAssertEqual(Double(audio["start_time"] as? String ?? "") ?? -1, 0, accuracy: frame, "the audio starts with the video")
        XCTAssertEqual(Double(audio["duration"] as? String ?? "") ?? -1, Double(video["duration"] as? String ?? "") ?? 0, accuracy: frame,
                       "and lasts as long")
    }

    func testSegmentRenderRefusesMisuse() throws {
        let folder = try TemporaryFolder(for: self)
        let scene = try sceneWithVideo(in: folder.url, seconds: 1)
        try Data(try SegmentPlan.make(sceneURL: scene, settings: settings(), frameCount: 30).json().utf8).write(to: folder.file("plan.json"))
        let missingFolder = try LaminaProcess.run(["render", "--plan", "plan.json", "--segment", "0", "-o", "nowhere"], in: folder.url)
        XCTAssertEqual(missingFolder.status, 1)
        XCTAssertEqual(missingFolder.stderrLines, ["lamina: nowhere: no such folder (the segment is written into it)"])
        let noSegment = try LaminaProcess.run(["render", "--plan", "plan.json", "--segment", "5", "-o", "."], in: folder.url)
        XCTAssertEqual(noSegment.status, 1)
        XCTAssertEqual(noSegment.stderrLines, ["lamina: the plan has no segment 5 (it has 0…0)"])
        let mixed = try LaminaProcess.run(["render", "--plan", "plan.json", "--segment", "0", "-o", ".", "--fps", "60"], in: folder.url)
        XCTAssertEqual(mixed.status, 2)
        XCTAssertEqual(mixed.stderrLines, ["lamina: --fps cannot be combined with --plan (the plan's settings are used)"])
    }
}
