import XCTest
import Lamina

/// Compositing over generated lavfi clips: the video layer shows the input, the overlay the rest,
/// the audio passes through, a short input holds its last frame, and bad inputs name the file.
final class CompositingTests: XCTestCase {
    /// A 64×48 root with the video layer on the left half and a blue layer on the right half.
    func tree(videoLayer: CALayer) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.position = CGPoint(x: 32, y: 24)
        videoLayer.frame = CGRect(x: 0, y: 0, width: 32, height: 48)
        root.addSublayer(videoLayer)
        let overlay = CALayer()
        overlay.frame = CGRect(x: 32, y: 0, width: 32, height: 48)
        overlay.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        root.addSublayer(overlay)
        return root
    }

    func pixel(_ frame: [UInt8], _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * 64 + x) * 4
        return (Int(frame[i]), Int(frame[i + 1]), Int(frame[i + 2]))
    }

    func testVideoLayerShowsTheInputAndAudioPassesThrough() throws {
        let folder = try VideoTestSupport.folder(self)
        let clip = folder.appendingPathComponent("green.mp4")
        try VideoTestSupport.clip(clip, video: "color=c=0x00C000:s=80x60:r=25", seconds: 1)
        let video = VideoFrameLayer()
        let root = tree(videoLayer: video)
        let output = folder.appendingPathComponent("out.mp4")
        let tool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: video, in: root)
        let summary = try export(tool, video: clip, to: output) { options in
            options.backend = .cpu
            options.frames = 0...9
        }
        XCTAssertEqual(summary.width, 64)
        XCTAssertEqual(summary.height, 48)
        let audio = try VideoTestSupport.probe(output, stream: "a")
        XCTAssertEqual(audio?["codec_name"] as? String, "aac", "the input's audio is carried over")
        let frames = try VideoTestSupport.decode(output, width: 64, height: 48)
        XCTAssertEqual(frames.count, 10)
        let left = pixel(frames[5], 12, 24), right = pixel(frames[5], 52, 24)
        XCTAssertLessThan(left.0, 30); XCTAssertGreaterThan(left.1, 160); XCTAssertLessThan(left.2, 30)
        XCTAssertLessThan(right.0, 30); XCTAssertLessThan(right.1, 30); XCTAssertGreaterThan(right.2, 200)
    }

    func testShorterInputHoldsItsLastFrame() throws {
        let folder = try VideoTestSupport.folder(self)
        let clip = folder.appendingPathComponent("redblue.mp4")
        // Red for 0.1 s, then blue for 0.1 s: 6 frames at 30 fps; no audio.
        _ = try FFmpegProcess.run(arguments: [
            "-v", "error", "-nostdin", "-y",
            "-f", "lavfi", "-i", "color=c=red:s=32x48:r=30:d=0.1",
            "-f", "lavfi", "-i", "color=c=blue:s=32x48:r=30:d=0.1",
            "-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
            "-pix_fmt", "yuv444p", clip.path,
        ])
        // A plain CALayer as the video layer: it gets each frame as its contents.
        let video = CALayer()
        let root = tree(videoLayer: video)
        let output = folder.appendingPathComponent("held.mp4")
        var options = VideoExportOptions(output: output, width: 64, height: 48, framesPerSecond: 30, frames: 0...19)
        options.backend = .cpu
        try VideoExporter(root: root, options: options, composition: VideoComposition(url: clip, layers: [video])).run()
        XCTAssertNil(video.contents, "the layer's own contents are restored")
        XCTAssertNil(try VideoTestSupport.probe(output, stream: "a"), "no audio in, no audio out")
        let frames = try VideoTestSupport.decode(output, width: 64, height: 48)
        XCTAssertEqual(frames.count, 20)
        XCTAssertGreaterThan(pixel(frames[0], 12, 24).0, 200, "red at the start")
        for i in [8, 19] {
            let p = pixel(frames[i], 12, 24)
            XCTAssertLessThan(p.0, 40, "frame \(i) holds the last (blue) frame")
            XCTAssertGreaterThan(p.2, 200, "frame \(i) holds the last (blue) frame")
        }
    }

    func testMissingVideoNamesTheFile() throws {
        let folder = try VideoTestSupport.folder(self)
        let missing = folder.appendingPathComponent("nowhere.mp4")
        let video = VideoFrameLayer()
        let tool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: video, in: tree(videoLayer: video))
        XCTAssertThrowsError(try export(tool, video: missing, to: folder.appendingPathComponent("o.mp4"))) { error in
            XCTAssertEqual(error as? ExportError, .badInput(path: missing.path, reason: "no such file"))
            XCTAssertTrue("\(error)".contains("nowhere.mp4"))
        }
    }

    func testNonVideoNamesTheFile() throws {
        let folder = try VideoTestSupport.folder(self)
        let text = folder.appendingPathComponent("notes.mp4")
        try Data("not a video at all".utf8).write(to: text)
        let video = VideoFrameLayer()
        let root = tree(videoLayer: video)
        var options = VideoExportOptions(output: folder.appendingPathComponent("o.mp4"), width: 64, height: 48, frames: 0...1)
        options.backend = .cpu
        XCTAssertThrowsError(try VideoExporter(root: root, options: options, composition: VideoComposition(url: text, layers: [video])).run()) { error in
            guard case .badInput(let path, _)? = error as? ExportError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, text.path)
        }
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["notes.mp4"])
    }

    func testVideoLayerOutsideTheTreeIsRefused() throws {
        let folder = try VideoTestSupport.folder(self)
        let tool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: CALayer(), in: CALayer())
        XCTAssertThrowsError(try export(tool, video: folder.appendingPathComponent("x.mp4"), to: folder.appendingPathComponent("o.mp4")))
    }
}
