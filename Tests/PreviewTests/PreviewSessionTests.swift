import XCTest
import Foundation
import Synchronization
import Lamina
@testable import Preview
import TestSupport

/// The preview's model: frames equal `FrameRenderer`'s at the frame's time, edits to the scene
/// or an asset make a new version, a broken scene reports its problems and keeps the last good
/// version, and each layer's box is where its pixels are.
final class PreviewSessionTests: XCTestCase {
    /// A 64×48 scene at 10 fps, 1 s: a square moving right from x = 8 by 40 points.
    static func scene(background: String = "#000000", color: String = "#FF0000", asset: String? = nil) -> String {
        """
        {
          "format": 1, "size": [64, 48], "fps": 10, "duration": 1, "background": "\(background)",
          \(asset.map { "\"assets\": {\"tile\": \"\($0)\"}," } ?? "")
          "root": {
            "name": "view",
            "sublayers": [
              {"name": "box", "bounds": [0, 0, 16, 16], "position": [16, 24], "backgroundColor": "\(color)"
               \(asset == nil ? "" : ", \"contents\": \"tile\""),
               "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 16, "toValue": 56, "duration": 1}]}
            ]
          }
        }
        """
    }

    private func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    private func decode(_ frame: Result<PreviewSession.EncodedFrame, PreviewError>) throws -> Image {
        try PNGCodec.decode(try frame.get().png)
    }

    func testAFrameIsTheRenderOfItsFrameTime() throws {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        try write(Self.scene(), to: url)
        let session = PreviewSession(scene: url)
        let info = try XCTUnwrap(session.status.scene)
        XCTAssertEqual(info.version, 1)
        XCTAssertEqual(info.frameCount, 10)
        XCTAssertEqual(info.frameDuration, 0.1, accuracy: 1e-12)
        let scene = try SceneLoader.load(contentsOf: url)
        let output = SceneOutput(scene: scene, size: nil)
        for frame in [0, 3, 9] {
            let shown = try decode(session.frame(version: 1, frame: frame, view: .cpu))
            let expected = try XCTUnwrap(try output.makeRenderer(backend: .cpu).render(scene.root, at: output.clock.time(ofFrame: frame)))
            XCTAssertEqual(shown, expected, "frame \(frame)")
            XCTAssertEqual(try session.frame(version: 1, frame: frame, view: .cpu).get().time, output.clock.time(ofFrame: frame))
        }
        // The square moved: frames 0 and 9 differ.
        XCTAssertNotEqual(try decode(session.frame(version: 1, frame: 0, view: .cpu)), try decode(session.frame(version: 1, frame: 9, view: .cpu)))
    }

    func testRequestsOutsideTheTimelineOrForAnotherVersionAreRefused() throws {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        try write(Self.scene(), to: url)
        let session = PreviewSession(scene: url)
        XCTAssertEqual(session.frame(version: 1, frame: 10, view: .cpu).error?.status, 404)
        XCTAssertEqual(session.frame(version: 1, frame: -1, view: .cpu).error?.status, 404)
        XCTAssertEqual(session.frame(version: 2, frame: 0, view: .cpu).error?.status, 409)
        XCTAssertEqual(session.tree(version: 0, frame: 0).error?.status, 409)
    }

    func testEditsMakeANewVersionAndABrokenSceneKeepsTheLastGoodOne() throws {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        try write(Self.scene(), to: url)
        let session = PreviewSession(scene: url)
        XCTAssertFalse(session.reloadIfChanged(), "nothing changed")
        let red = try decode(session.frame(version: 1, frame: 0, view: .cpu))
        XCTAssertEqual(red[16, 24].r, 255)

        try write(Self.scene(color: "#0000FF"), to: url)
        XCTAssertTrue(session.reloadIfChanged())
        XCTAssertEqual(session.status.scene?.version, 2)
        XCTAssertNil(session.status.error)
        XCTAssertEqual(session.frame(version: 1, frame: 0, view: .cpu).error?.status, 409, "version 1 is gone")
        let blue = try decode(session.frame(version: 2, frame: 0, view: .cpu))
        XCTAssertEqual(blue[16, 24].b, 255)
        XCTAssertEqual(blue[16, 24].r, 0)

        // A typo in a key path: the problem is reported with its place, version 2 stays showable.
        try write(Self.scene().replacingOccurrences(of: "position.x", with: "positon.x"), to: url)
        XCTAssertTrue(session.reloadIfChanged())
        let status = session.status
        XCTAssertEqual(status.scene?.version, 2)
        let error = try XCTUnwrap(status.error)
        XCTAssertTrue(error.hasPrefix("scene.json:9:"), error)
        XCTAssertTrue(error.contains("root.sublayers[0].animations[0].keyPath"), error)
        XCTAssertTrue(error.contains("positon.x"), error)
        XCTAssertEqual(try decode(session.frame(version: 2, frame: 0, view: .cpu)), blue, "the last good frame stays")
        XCTAssertTrue(status.json().contains("\"error\": \"scene.json:9:"), status.json())

        try write(Self.scene(color: "#00FF00"), to: url)
        XCTAssertTrue(session.reloadIfChanged())
        XCTAssertEqual(session.status.scene?.version, 3)
        XCTAssertNil(session.status.error)
    }

    /// An edit saved while the scene is being read is not lost: the next look loads it.
    func testAnEditDuringALoadIsSeenAtTheNextLook() throws {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        try write(Self.scene(), to: url)
        let edits = Mutex(0)
        let session = PreviewSession(scene: url, loader: { url throws(SceneLoadError) in
            let scene = try SceneLoader.load(contentsOf: url)
            // The first load is read, then the file is saved again before the load ends.
            if edits.withLock({ $0 += 1; return $0 == 1 }) {
                try? Data(Self.scene(color: "#0000FF").utf8).write(to: url, options: .atomic)
            }
            return scene
        })
        XCTAssertEqual(try decode(session.frame(version: 1, frame: 0, view: .cpu))[16, 24].r, 255)
        XCTAssertTrue(session.reloadIfChanged())
        XCTAssertEqual(try decode(session.frame(version: 2, frame: 0, view: .cpu))[16, 24].b, 255)
        XCTAssertFalse(session.reloadIfChanged())
    }

    func testAnAssetChangeReloadsTheScene() throws {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        let tile = folder.file("tile.png")
        func writeTile(_ rgba: [UInt8]) throws {
            let image = try XCTUnwrap(Image(width: 2, height: 2, pixels: Array([[UInt8]](repeating: rgba, count: 4).joined())))
            try Data(try PNGCodec.encode(image)).write(to: tile, options: .atomic)
        }
        try writeTile([0, 255, 0, 255])
        try write(Self.scene(asset: "tile.png"), to: url)
        let session = PreviewSession(scene: url)
        XCTAssertEqual(session.status.watchedFiles, [url.path, tile.path])
        XCTAssertEqual(try decode(session.frame(version: 1, frame: 0, view: .cpu))[16, 24].g, 255)
        try writeTile([0, 0, 255, 255])
        XCTAssertTrue(session.reloadIfChanged())
        XCTAssertEqual(try decode(session.frame(version: 2, frame: 0, view: .cpu))[16, 24].b, 255)
    }

    /// A scene composited over a video shows the video's frame n at frame n, as an export does,
    /// whether frames come in order (one decoder running on) or not (a decoder started there).
    func testAVideoSceneShowsTheInputFrameOfEachFrame() throws {
        let folder = try TemporaryFolder(for: self)
        let clip = folder.file("clip.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = ["ffmpeg", "-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1",
                            "-pix_fmt", "yuv420p", clip.path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        XCTAssertEqual(ffmpeg.terminationStatus, 0)
        let url = folder.file("scene.json")
        try write("""
            {"format": 1, "size": [64, 48], "fps": 10, "duration": 1, "assets": {"clip": "clip.mp4"},
             "video": {"asset": "clip", "layer": "v"},
             "root": {"name": "root", "sublayers": [{"type": "video", "name": "v", "frame": [0, 0, 64, 48]}]}}
            """, to: url)
        let session = PreviewSession(scene: url)
        let scene = try SceneLoader.load(contentsOf: url)
        let output = SceneOutput(scene: scene, size: nil)
        let composition = try XCTUnwrap(output.videoComposition)
        let info = try VideoInfo.probe(clip)
        for frame in [2, 3, 1] {
            let shown = try decode(session.frame(version: 1, frame: frame, view: .cpu))
            let inputs = try VideoFrameInputs(composition, info: info, width: 64, height: 48, clock: output.clock, first: frame)
            let expected = try output.makeRenderer(backend: .cpu).render(scene.root, at: output.clock.time(ofFrame: frame),
                                                                         inputs: try inputs.images(forFrame: frame))
            inputs.close()
            XCTAssertEqual(shown, expected, "frame \(frame)")
        }
        XCTAssertNotEqual(try decode(session.frame(version: 1, frame: 2, view: .cpu)), try decode(session.frame(version: 1, frame: 3, view: .cpu)))
    }

    /// The budget `lamina render` checks (the scene's `"limits"` included) is checked at each
    /// load, and each frame's offscreen pixels as it is drawn.
    func testAnOverBudgetSceneIsAProblemAndTheLastGoodOneStays() throws {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        try write(Self.scene(), to: url)
        let session = PreviewSession(scene: url)
        let good = try decode(session.frame(version: 1, frame: 0, view: .cpu))
        try write(Self.scene().replacingOccurrences(of: "\"duration\": 1,", with: "\"duration\": 1, \"limits\": {\"presentedLayers\": 1},"), to: url)
        XCTAssertTrue(session.reloadIfChanged())
        XCTAssertEqual(session.status.scene?.version, 1)
        XCTAssertEqual(session.status.error, "scene.json: presents up to 2 layers after replicator and particle expansion, over the budget of 1")
        XCTAssertEqual(try decode(session.frame(version: 1, frame: 0, view: .cpu)), good)

        // Group opacity (an offscreen pass of the 16×16 group) at frames 2 and 3 only: the load
        // samples frames 0, 5 and 9, the frames themselves are refused as they are drawn.
        try write("""
            {"format": 1, "size": [64, 48], "fps": 10, "duration": 1, "limits": {"offscreenPixels": 100},
             "root": {"name": "view", "sublayers": [
               {"name": "group", "frame": [8, 8, 16, 16], "backgroundColor": "#FF0000",
                "sublayers": [{"name": "inner", "frame": [4, 4, 8, 8], "backgroundColor": "#00FF00"}],
                "animations": [{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.5, 1, 1],
                                "keyTimes": [0, 0.15, 0.35, 1], "calculationMode": "discrete", "duration": 1}]}]}}
            """, to: url)
        XCTAssertTrue(session.reloadIfChanged())
        XCTAssertNil(session.status.error)
        XCTAssertEqual(session.status.scene?.version, 2)
        XCTAssertNoThrow(try session.frame(version: 2, frame: 1, view: .cpu).get())
        let refused = try XCTUnwrap(session.frame(version: 2, frame: 2, view: .cpu).error)
        XCTAssertTrue(refused.message.hasPrefix("scene.json: ") && refused.message.contains("in frame 2"), refused.message)
        XCTAssertTrue(refused.message.contains("over the budget of 100"), refused.message)
    }

    /// Assets resolve inside the scene's folder (issue 17's rule), unless the loader is told otherwise.
    func testAssetsOutsideTheScenesFolderAreRefusedUnlessAllowed() throws {
        let folder = try TemporaryFolder(for: self)
        let tile = folder.file("tile.png")
        let image = try XCTUnwrap(Image(width: 2, height: 2, pixels: Array([[UInt8]](repeating: [0, 255, 0, 255], count: 4).joined())))
        try Data(try PNGCodec.encode(image)).write(to: tile)
        try FileManager.default.createDirectory(at: folder.file("scenes"), withIntermediateDirectories: false)
        let url = folder.file("scenes/scene.json")
        try write(Self.scene(asset: "../tile.png"), to: url)
        let confined = PreviewSession(scene: url)
        XCTAssertNil(confined.status.scene)
        let error = try XCTUnwrap(confined.status.error)
        XCTAssertTrue(error.hasPrefix("scene.json:") && error.contains("assets.tile"), error)
        XCTAssertEqual(confined.status.watchedFiles, [url.path], "nothing outside the folder is watched")

        let trusted = PreviewSession(scene: url, loader: PreviewSession.sceneLoader(options: SceneLoadOptions(allowsAssetsOutsideFolder: true)))
        XCTAssertNil(trusted.status.error)
        XCTAssertEqual(try decode(trusted.frame(version: 1, frame: 0, view: .cpu))[16, 24].g, 255)
    }

    func testAFileThatNeverLoadedReportsItsProblemAndServesNoFrame() throws {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("broken.json")
        try write("{\"format\": 1,\n  \"size\": [10, 10],, }", to: url)
        let session = PreviewSession(scene: url)
        XCTAssertNil(session.status.scene)
        XCTAssertTrue(session.status.error?.hasPrefix("broken.json:2:") == true, session.status.error ?? "")
        XCTAssertEqual(session.frame(version: 1, frame: 0, view: .cpu).error?.status, 409)
        XCTAssertTrue(session.status.json().contains("\"scene\": null"))
    }

    func testTheDifferenceViewComparesTheBackends() throws {
        _ = try TestBackends.gpu()  // skips where there is no EGL at all
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        try write(Self.scene(), to: url)
        let session = PreviewSession(scene: url)
        let comparison = try session.comparison(version: 1, frame: 4).get()
        let gpu = try decode(session.frame(version: 1, frame: 4, view: .gpu))
        let cpu = try decode(session.frame(version: 1, frame: 4, view: .cpu))
        XCTAssertEqual(comparison.difference, ImageComparison.compare(gpu, cpu))
        XCTAssertGreaterThanOrEqual(comparison.difference.psnr, 40)
        XCTAssertEqual(try decode(session.frame(version: 1, frame: 4, view: .diff)), ImageComparison.differenceImage(gpu, cpu))
        XCTAssertTrue(comparison.json.contains("\"pixelCount\": 3072"), comparison.json)
    }

    /// Each layer's box, in output pixels, is where its pixels land (a scaled, rotated layer
    /// under a size that scales the scene down by 2).
    func testTreeBoxesAreWhereTheLayersDraw() throws {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        try write("""
            {"format": 1, "size": [200, 120], "duration": 1, "background": "#000000",
             "root": {"name": "view", "sublayers": [
               {"name": "card", "bounds": [0, 0, 60, 20], "position": [100, 60], "backgroundColor": "#FFFFFF",
                "transform": [{"rotate": [0.5, 0, 0, 1]}, {"scale": [1.5, 1, 1]}]}]}}
            """, to: url)
        let session = PreviewSession(scene: url, size: (width: 100, height: 60))
        let json = try session.tree(version: 1, frame: 0).get()
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let boxes = try XCTUnwrap(object["boxes"] as? [[Double]])
        let parents = try XCTUnwrap(object["parents"] as? [Any])
        XCTAssertTrue(parents.count == 2 && parents[0] is NSNull && parents[1] as? Int == 0, "\(parents)")
        XCTAssertEqual(boxes[0], [0, 0, 100, 60])
        let image = try decode(session.frame(version: 1, frame: 0, view: .cpu))
        var (minX, minY, maxX, maxY) = (Int.max, Int.max, Int.min, Int.min)
        for y in 0..<image.height { for x in 0..<image.width where image[x, y].r > 127 {
            minX = min(minX, x); maxX = max(maxX, x + 1); minY = min(minY, y); maxY = max(maxY, y + 1)
        } }
        let card = boxes[1]
        for (measured, computed) in zip([minX, minY, maxX, maxY].map(Double.init), [card[0], card[1], card[0] + card[2], card[1] + card[3]]) {
            XCTAssertEqual(measured, computed, accuracy: 1.0, "drawn \([minX, minY, maxX, maxY]) vs box \(card)")
        }
        let inspect = try XCTUnwrap(object["inspect"] as? [String: Any])
        XCTAssertEqual((inspect["layers"] as? [[String: Any]])?.map { $0["path"] as? String }, ["view", "view/card"])
    }
}

extension Result {
    var error: Failure? { if case .failure(let error) = self { error } else { nil } }
}
