import XCTest
import Lamina

/// Every output kind checked with ffprobe (codec, pixel format, size, frame count, duration,
/// alpha where promised) and decoded frame by frame against the same frames rendered directly on
/// the same (CPU) backend: PSNR ≥ 35 dB for the lossy codecs, identical RGBA for PNG sequences.
///
/// The scene (`VideoTestSupport.movingScene`) has large flat areas and edges between them; its
/// colours are chosen so that 4:2:0 chroma subsampling is fair to it (no one-pixel coloured detail,
/// which no 4:2:0 codec can keep).
final class OutputFormatTests: XCTestCase {
    static let minimumPSNR = 35.0

    func export(_ name: String, frames: ClosedRange<Int> = 0...5, fps: Double = 30, background: CGColor? = .black,
                codec: String? = nil, root: CALayer) throws -> URL {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent(name)
        var o = VideoExportOptions(output: url, width: 64, height: 48, framesPerSecond: fps, frames: frames)
        o.backend = .cpu
        o.background = background
        o.codec = codec
        let summary = try VideoExporter(root: root, options: o).run()
        XCTAssertEqual(summary.frames, frames.count)
        XCTAssertEqual(VideoTestSupport.leftovers(folder), [name], "only the output remains")
        return url
    }

    /// Checks what every video output shares and returns (stream, format).
    func checkStream(_ url: URL, codec: String, frames: Int, fps: Double,
                     file: StaticString = #filePath, line: UInt = #line) throws -> (stream: [String: Any], format: [String: Any]) {
        let (stream, format) = try VideoTestSupport.probeFile(url)
        XCTAssertEqual(stream["codec_name"] as? String, codec, file: file, line: line)
        XCTAssertEqual(stream["width"] as? Int, 64, file: file, line: line)
        XCTAssertEqual(stream["height"] as? Int, 48, file: file, line: line)
        XCTAssertEqual(stream["nb_read_frames"] as? String, String(frames), file: file, line: line)
        let duration = try XCTUnwrap((format["duration"] as? String).flatMap(Double.init), file: file, line: line)
        XCTAssertEqual(duration, Double(frames) / fps, accuracy: 0.011, "container duration", file: file, line: line)
        return (stream, format)
    }

    /// The PSNRs of every decoded frame against the directly rendered frame; all ≥ 35 dB.
    func checkPSNR(_ url: URL, root: CALayer, fps: Double = 30, background: CGColor?, alpha: Bool = false, vp9Alpha: Bool = false,
                   frames: Int, label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let decoded = try VideoTestSupport.decode(url, width: 64, height: 48, vp9Alpha: vp9Alpha)
        XCTAssertEqual(decoded.count, frames, file: file, line: line)
        let values = try VideoTestSupport.psnrs(decoded, of: root, fps: fps, background: background, straight: alpha)
        let worst = values.min() ?? 0
        print("OutputFormatTests: \(label): PSNR per frame \(values.map { String(format: "%.1f", $0) }.joined(separator: " ")) dB (lowest \(String(format: "%.2f", worst)))")
        XCTAssertGreaterThanOrEqual(worst, Self.minimumPSNR, "\(label): lowest PSNR \(worst) dB", file: file, line: line)
    }

    func testMP4() throws {
        let root = VideoTestSupport.movingScene()
        let url = try export("out.mp4", root: root)
        let (stream, format) = try checkStream(url, codec: "h264", frames: 6, fps: 30)
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual(stream["color_space"] as? String, "bt709")
        XCTAssertEqual(stream["color_range"] as? String, "tv")
        XCTAssertEqual((format["tags"] as? [String: Any])?["major_brand"] as? String, "isom", "an MP4, not a QuickTime file")
        XCTAssertEqual(stream["avg_frame_rate"] as? String, "30/1")
        try checkPSNR(url, root: root, background: .black, frames: 6, label: "H.264 MP4 (qp 20)")
    }

    func testMOV() throws {
        let root = VideoTestSupport.movingScene()
        let url = try export("out.mov", root: root)
        let (stream, format) = try checkStream(url, codec: "h264", frames: 6, fps: 30)
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv420p")
        XCTAssertEqual((format["tags"] as? [String: Any])?["major_brand"] as? String, "qt  ", "a QuickTime file")
        try checkPSNR(url, root: root, background: .black, frames: 6, label: "H.264 MOV (qp 20)")
    }

    func testWebMOpaque() throws {
        let root = VideoTestSupport.movingScene()
        let url = try export("out.webm", root: root)
        let (stream, format) = try checkStream(url, codec: "vp9", frames: 6, fps: 30)
        XCTAssertEqual(stream["pix_fmt"] as? String, "yuv420p")
        XCTAssertTrue((format["format_name"] as? String)?.contains("webm") == true)
        XCTAssertNil((stream["tags"] as? [String: Any])?["alpha_mode"], "no alpha without a transparent background")
        try checkPSNR(url, root: root, background: .black, frames: 6, label: "VP9 WebM (quantizer 28)")
    }

    func testWebMWithAlpha() throws {
        let root = VideoTestSupport.movingScene(opaque: false)
        let url = try export("alpha.webm", background: nil, root: root)
        let (stream, _) = try checkStream(url, codec: "vp9", frames: 6, fps: 30)
        XCTAssertEqual((stream["tags"] as? [String: Any])?["alpha_mode"] as? String, "1", "the alpha plane is stored")
        try checkPSNR(url, root: root, background: nil, alpha: true, vp9Alpha: true, frames: 6, label: "VP9 WebM with alpha (quantizer 28)")
    }

    func testProResWithAlpha() throws {
        let root = VideoTestSupport.movingScene(opaque: false)
        let url = try export("alpha.mov", background: nil, codec: "prores", root: root)
        let (stream, format) = try checkStream(url, codec: "prores", frames: 6, fps: 30)
        // ProRes 4444 holds up to 12 bits; ffmpeg's decoder reports its own output format.
        XCTAssertTrue((stream["pix_fmt"] as? String)?.hasPrefix("yuva444p") == true, "an alpha plane: \(stream["pix_fmt"] ?? "none")")
        XCTAssertEqual(stream["profile"] as? String, "4444")
        XCTAssertEqual(stream["color_space"] as? String, "bt709", "tagged, so decoders use the BT.709 matrix")
        XCTAssertEqual((format["tags"] as? [String: Any])?["major_brand"] as? String, "qt  ")
        try checkPSNR(url, root: root, background: nil, alpha: true, frames: 6, label: "ProRes 4444 with alpha")
    }

    func testProResOpaque() throws {
        let root = VideoTestSupport.movingScene()
        let url = try export("opaque.mov", codec: "prores", root: root)
        let (stream, _) = try checkStream(url, codec: "prores", frames: 6, fps: 30)
        XCTAssertTrue((stream["pix_fmt"] as? String)?.hasPrefix("yuv444p") == true, "no alpha plane over an opaque background")
        XCTAssertEqual(stream["color_space"] as? String, "bt709")
        XCTAssertEqual(stream["color_range"] as? String, "tv")
        try checkPSNR(url, root: root, background: .black, frames: 6, label: "ProRes 4444 opaque")
    }

    func testGIF() throws {
        let root = VideoTestSupport.movingScene()
        // 10 fps: GIF frame delays are whole hundredths of a second.
        let url = try export("out.gif", frames: 0...4, fps: 10, root: root)
        let (stream, _) = try checkStream(url, codec: "gif", frames: 5, fps: 10)
        XCTAssertEqual(stream["pix_fmt"] as? String, "bgra")
        try checkPSNR(url, root: root, fps: 10, background: .black, frames: 5, label: "GIF (palette over every frame)")
    }

    // MARK: - Segments

    /// Renders frames 0…29 in one run and as three segments of 10 (keyframes every 10 frames),
    /// joins the segments; returns (single, joined).
    func singleAndJoined(_ ext: String, codec: String? = nil) throws -> (URL, URL) {
        let folder = try VideoTestSupport.folder(self)
        func render(_ name: String, _ frames: ClosedRange<Int>) throws -> URL {
            let url = folder.appendingPathComponent(name)
            var o = VideoExportOptions(output: url, width: 64, height: 48, framesPerSecond: 30, frames: frames)
            o.backend = .cpu
            o.background = .black
            o.codec = codec
            o.keyframeInterval = 10
            try VideoExporter(root: VideoTestSupport.movingScene(), options: o).run()
            return url
        }
        let single = try render("single.\(ext)", 0...29)
        let segments = try [render("a.\(ext)", 0...9), render("b.\(ext)", 10...19), render("c.\(ext)", 20...29)]
        let joined = folder.appendingPathComponent("joined.\(ext)")
        try SegmentJoiner.join(segments, into: joined)
        return (single, joined)
    }

    /// VP9 segments decode to the frames of the single run (as H.264's do:
    /// `VideoExportTests.testSegmentsJoinIntoTheSingleRun`). Their coded bytes differ: the encoder
    /// state at a segment's start is not the single run's state there.
    func testWebMSegmentsJoinIntoTheSingleRun() throws {
        let (single, joined) = try singleAndJoined("webm")
        let expected = try VideoTestSupport.frameHashes(single)
        XCTAssertEqual(expected.count, 30)
        XCTAssertEqual(try VideoTestSupport.frameHashes(joined), expected)
    }

    /// ProRes is intra-only and deterministic per frame: the joined file holds byte-identical coded
    /// frames to the single run (the files themselves differ in the container's index).
    func testProResSegmentsJoinIntoIdenticalCodedFrames() throws {
        let (single, joined) = try singleAndJoined("mov", codec: "prores")
        let expected = try VideoTestSupport.packetHashes(single)
        XCTAssertEqual(expected.count, 30)
        XCTAssertEqual(try VideoTestSupport.packetHashes(joined), expected, "identical coded bytes, frame by frame")
        XCTAssertEqual(try VideoTestSupport.frameHashes(joined), try VideoTestSupport.frameHashes(single))
    }

    // MARK: - PNG sequences (lamina render … -o f%03d.png)

    /// 64×48, transparent background: a gradient, a translucent antialiased ellipse moving right,
    /// a half-transparent card; 10 fps.
    let pngScene = """
    {"format": 1, "size": [64, 48], "fps": 10, "duration": 0.6,
     "root": {"sublayers": [
       {"type": "gradient", "frame": [0, 0, 64, 24], "colors": ["#ff000080", "#0000ffff"], "startPoint": [0, 0], "endPoint": [1, 1]},
       {"type": "shape", "frame": [4, 20, 24, 24], "path": {"ellipse": [0, 0, 24, 24]}, "fillColor": "#20c040c0",
        "animations": [{"type": "basic", "keyPath": "position.x", "fromValue": 16, "toValue": 48.3, "duration": 0.6}]},
       {"frame": [30, 6, 20, 10], "backgroundColor": [1, 1, 1, 0.5], "cornerRadius": 3}
     ]}}
    """

    func testPNGSequenceIsExactlyTheRenderedFrames() throws {
        let folder = try VideoTestSupport.folder(self)
        let sceneURL = folder.appendingPathComponent("scene.json")
        try Data(pngScene.utf8).write(to: sceneURL)
        let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "f%03d.png", "--frames", "0..5", "--backend", "cpu", "--quiet"],
                                              in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(VideoTestSupport.leftovers(folder, keep: ["scene.json"]).sorted(), (0...5).map { String(format: "f%03d.png", $0) })

        let (stream, _) = try VideoTestSupport.probeFile(folder.appendingPathComponent("f%03d.png"), inputFormat: "image2")
        XCTAssertEqual(stream["codec_name"] as? String, "png")
        XCTAssertEqual(stream["pix_fmt"] as? String, "rgba", "alpha is kept")
        XCTAssertEqual(stream["width"] as? Int, 64)
        XCTAssertEqual(stream["height"] as? Int, 48)
        XCTAssertEqual(stream["nb_read_frames"] as? String, "6")

        let scene = try SceneLoader.load(contentsOf: sceneURL)
        let renderer = try FrameRenderer(width: scene.width, height: scene.height, scale: CGFloat(scene.scale),
                                         background: scene.background, backend: .cpu)
        var translucent = 0
        for index in 0...5 {
            let file = try ImageFile.read(contentsOf: folder.appendingPathComponent(String(format: "f%03d.png", index)))
            let reference = try XCTUnwrap(renderer.render(scene.root, at: Double(index) / scene.framesPerSecond))
            XCTAssertEqual(file.pixels, reference.pixels, "frame \(index) is byte-identical RGBA")
            translucent += stride(from: 3, to: reference.pixels.count, by: 4).filter { reference.pixels[$0] > 0 && reference.pixels[$0] < 255 }.count
        }
        XCTAssertGreaterThan(translucent, 1000, "the frames exercise translucent pixels (straight alpha in the file)")
    }

    /// Two ranges of a PNG sequence rendered apart give the same files, byte for byte, as one run.
    func testPNGSequenceSegmentsAreIdenticalFiles() throws {
        let folder = try VideoTestSupport.folder(self)
        try Data(pngScene.utf8).write(to: folder.appendingPathComponent("scene.json"))
        for sub in ["one", "two"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: false)
        }
        for (output, frames) in [("one/f%03d.png", "0..5"), ("two/f%03d.png", "0..2"), ("two/f%03d.png", "3..5")] {
            let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", output, "--frames", frames, "--backend", "cpu", "--quiet"],
                                                  in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let names = (0...5).map { String(format: "f%03d.png", $0) }
        XCTAssertEqual(VideoTestSupport.leftovers(folder.appendingPathComponent("one")).sorted(), names)
        XCTAssertEqual(VideoTestSupport.leftovers(folder.appendingPathComponent("two")).sorted(), names)
        for name in names {
            let single = try Data(contentsOf: folder.appendingPathComponent("one/" + name))
            let split = try Data(contentsOf: folder.appendingPathComponent("two/" + name))
            XCTAssertEqual(single, split, "\(name): identical bytes")
        }
    }
}
