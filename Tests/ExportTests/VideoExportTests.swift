import XCTest
import Lamina

/// Real exports of tiny scenes (64×48, a few frames) through ffmpeg, on the CPU renderer.
final class VideoExportTests: XCTestCase {
    func options(_ url: URL, frames: ClosedRange<Int>, background: CGColor? = nil) -> VideoExportOptions {
        var o = VideoExportOptions(output: url, width: 64, height: 48, framesPerSecond: 30, frames: frames)
        o.backend = .cpu
        o.background = background
        return o
    }

    func testMP4IsH264WithBT709TagsAndMatchesThePNGRender() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("tiny.mp4")
        let root = VideoTestSupport.movingScene()
        let summary = try VideoExporter(root: root, options: options(url, frames: 0...5, background: .black)).run()
        XCTAssertEqual(summary.frames, 6)
        XCTAssertGreaterThan(summary.bytes, 0)
        let stream = try XCTUnwrap(VideoTestSupport.probe(url))
        XCTAssertEqual(stream["codec_name"] as? String, "h264")
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(stream["width"] as? Int, 64)
        XCTAssertEqual(stream["height"] as? Int, 48)
        XCTAssertEqual(stream["nb_read_frames"] as? String, "6")
        XCTAssertEqual(stream["color_space"] as? String, "bt709")
        XCTAssertEqual(stream["color_transfer"] as? String, "bt709")
        XCTAssertEqual(stream["color_primaries"] as? String, "bt709")
        XCTAssertEqual(stream["color_range"] as? String, "tv")
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["tiny.mp4"])

        // Frame 3 decoded against the same frame rendered to pixels (H.264 is lossy: ≥ 35 dB;
        // every frame and kind: OutputFormatTests).
        let decoded = try VideoTestSupport.decode(url, width: 64, height: 48)
        XCTAssertEqual(decoded.count, 6)
        let renderer = try FrameRenderer(width: 64, height: 48, background: .black, backend: .cpu)
        let reference = try XCTUnwrap(renderer.render(root, at: 3.0 / 30))
        let frame = try XCTUnwrap(Image(width: 64, height: 48, pixels: decoded[3]))
        let difference = try XCTUnwrap(ImageComparison.compare(frame, reference))
        XCTAssertGreaterThanOrEqual(difference.psnr, 35, "PSNR \(difference.psnr) dB")
    }

    func testWebMKeepsAlphaWhenTheBackgroundIsTransparent() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("alpha.webm")
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.position = CGPoint(x: 32, y: 24)
        let square = CALayer()
        square.frame = CGRect(x: 16, y: 8, width: 32, height: 32)
        square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        root.addSublayer(square)
        try VideoExporter(root: root, options: options(url, frames: 0...2)).run()
        let frames = try VideoTestSupport.decode(url, width: 64, height: 48, vp9Alpha: true)
        XCTAssertEqual(frames.count, 3)
        let centre = (24 * 64 + 32) * 4, corner = (2 * 64 + 2) * 4
        XCTAssertEqual(Double(frames[0][centre + 3]), 128, accuracy: 6, "alpha inside the square")
        XCTAssertGreaterThan(frames[0][centre], 230, "straight red inside the square")
        XCTAssertLessThan(frames[0][corner + 3], 6, "transparent outside")
    }

    func testGIFHasEveryFrame() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("moving.gif")
        var o = options(url, frames: 0...4, background: .black)
        o.framesPerSecond = 10
        try VideoExporter(root: VideoTestSupport.movingScene(), options: o).run()
        let stream = try XCTUnwrap(VideoTestSupport.probe(url))
        XCTAssertEqual(stream["codec_name"] as? String, "gif")
        XCTAssertEqual(stream["nb_read_frames"] as? String, "5")
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["moving.gif"], "the palette file is removed")
    }

    func testProResKeepsAlpha() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("alpha.mov")
        var o = options(url, frames: 0...1)
        o.codec = "prores"
        try VideoExporter(root: VideoTestSupport.movingScene(opaque: false), options: o).run()
        let stream = try XCTUnwrap(VideoTestSupport.probe(url))
        XCTAssertEqual(stream["codec_name"] as? String, "prores")
        XCTAssertTrue((stream["pix_fmt"] as? String)?.hasPrefix("yuva444") == true, "\(stream["pix_fmt"] ?? "none")")
    }

    func testSegmentsJoinIntoTheSingleRun() throws {
        let folder = try VideoTestSupport.folder(self)
        func render(_ name: String, _ frames: ClosedRange<Int>) throws -> URL {
            let url = folder.appendingPathComponent(name)
            var o = options(url, frames: frames, background: .black)
            o.keyframeInterval = 10
            try VideoExporter(root: VideoTestSupport.movingScene(), options: o).run()
            return url
        }
        let single = try render("single.mp4", 0...29)
        let segments = try [render("a.mp4", 0...9), render("b.mp4", 10...19), render("c.mp4", 20...29)]
        let joined = folder.appendingPathComponent("joined.mp4")
        try SegmentJoiner.join(segments, into: joined)
        let expected = try VideoTestSupport.frameHashes(single)
        XCTAssertEqual(expected.count, 30)
        XCTAssertEqual(try VideoTestSupport.frameHashes(joined), expected)
        XCTAssertThrowsError(try SegmentJoiner.join(segments, into: joined)) { error in
            XCTAssertEqual(error as? ExportError, .outputExists(path: joined.path))
        }
    }

    func testEncoderFailureLeavesNoFile() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("broken.webm")
        var o = options(url, frames: 0...3, background: .black)
        // A quality outside VP9's 0…63 is refused before ffmpeg starts.
        o.quality = 999
        XCTAssertThrowsError(try VideoExporter(root: VideoTestSupport.movingScene(), options: o).run()) { error in
            XCTAssertEqual(error as? ExportError, .invalidSettings("--crf 999 is outside 0…63 for VP9"))
        }
        // An encoder that takes the frames and fails.
        o.quality = nil
        let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: "cat > /dev/null\necho 'Invalid encoder setting' >&2\nexit 3")
        setenv(FFmpegProcess.programVariable, fake, 1)
        defer { unsetenv(FFmpegProcess.programVariable) }
        XCTAssertThrowsError(try VideoExporter(root: VideoTestSupport.movingScene(), options: o).run()) { error in
            XCTAssertEqual(error as? ExportError, .toolFailed("ffmpeg", status: 3, message: "Invalid encoder setting"))
        }
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["fake-ffmpeg"])
    }

    func testCancelLeavesNoFile() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("cancelled.mp4")
        let exporter = VideoExporter(root: VideoTestSupport.movingScene(), options: options(url, frames: 0...59, background: .black))
        exporter.onProgress = { [unowned exporter] progress in if progress.framesDone == 3 { exporter.cancel() } }
        XCTAssertThrowsError(try exporter.run()) { XCTAssertEqual($0 as? ExportError, .cancelled) }
        XCTAssertEqual(VideoTestSupport.leftovers(folder), [])
    }

    func testExistingOutputIsKeptWithoutOverwrite() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("there.mp4")
        try Data("old".utf8).write(to: url)
        XCTAssertThrowsError(try VideoExporter(root: VideoTestSupport.movingScene(), options: options(url, frames: 0...0)).run()) {
            XCTAssertEqual($0 as? ExportError, .outputExists(path: url.path))
        }
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), "old")
    }

    func testPipelinedAndSequentialWriteTheSameFrames() throws {
        let folder = try VideoTestSupport.folder(self)
        var hashes: [[String]] = []
        for depth in [0, 3] {
            let url = folder.appendingPathComponent("depth\(depth).mp4")
            var o = options(url, frames: 0...11, background: .black)
            o.queueDepth = depth
            try VideoExporter(root: VideoTestSupport.movingScene(), options: o).run()
            hashes.append(try VideoTestSupport.frameHashes(url))
        }
        XCTAssertEqual(hashes[0].count, 12)
        XCTAssertEqual(hashes[0], hashes[1])
    }
}
