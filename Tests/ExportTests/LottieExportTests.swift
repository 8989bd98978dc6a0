import XCTest
import Lamina

/// Lottie files through `lamina render` as a user runs it: video with alpha (VP9, ProRes 4444),
/// H.264 and GIF decoded against PNG renders of the same times, a Lottie layer composited over a
/// scene's video, and `.lottie` archives with their images (all on the CPU backend, 64×48).
final class LottieExportTests: XCTestCase {
    /// 64×48 at 10 fps, frames 0 … 5, on a transparent background: a 20×20 orange square at 80 %
    /// opacity moving right 4 points a frame (centre x 16 → 36), and a 16×8 half-white card at
    /// (44…60, 36…44). Every edge lies on the 2-pixel chroma grid, so 4:2:0 keeps it.
    static let animation = """
    {"v": "5.7.0", "fr": 10, "ip": 0, "op": 6, "w": 64, "h": 48, "nm": "export",
     "layers": [
      {"ty": 4, "ind": 1, "nm": "card", "ip": 0, "op": 6, "st": 0, "sr": 1,
       "ks": {"p": {"a": 0, "k": [52, 40, 0]}, "a": {"a": 0, "k": [0, 0, 0]}, "o": {"a": 0, "k": 100}},
       "shapes": [{"ty": "rc", "d": 1, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [16, 8]}, "r": {"a": 0, "k": 0}},
                  {"ty": "fl", "c": {"a": 0, "k": [1, 1, 1, 1]}, "o": {"a": 0, "k": 50}, "r": 1}]},
      {"ty": 4, "ind": 2, "nm": "square", "ip": 0, "op": 6, "st": 0, "sr": 1,
       "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [16, 24, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 5, "s": [36, 24, 0]}]},
              "a": {"a": 0, "k": [0, 0, 0]}, "o": {"a": 0, "k": 80}},
       "shapes": [{"ty": "rc", "d": 1, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [20, 20]}, "r": {"a": 0, "k": 0}},
                  {"ty": "fl", "c": {"a": 0, "k": [1, 0.5, 0, 1]}, "o": {"a": 0, "k": 100}, "r": 1}]}
     ]}
    """

    func folderWithAnimation() throws -> URL {
        let folder = try VideoTestSupport.folder(self)
        try Data(Self.animation.utf8).write(to: folder.appendingPathComponent("anim.json"))
        return folder
    }

    func lamina(_ arguments: [String], in folder: URL) throws {
        let run = try LaminaProcess.run(arguments + ["--backend", "cpu", "--quiet"], in: folder)
        XCTAssertEqual(run.status, 0, "lamina \(arguments.joined(separator: " ")): \(run.stderr)")
    }

    /// Straight RGBA (as ffmpeg decodes it) premultiplied, as an image to compare.
    func image(_ straight: [UInt8]) throws -> Image {
        var pixels = straight
        PremultipliedAlpha.premultiply(&pixels)
        return try XCTUnwrap(Image(width: 64, height: 48, pixels: pixels))
    }

    /// PNG renders of frames `frames` (`--time` = frame / 10), straight RGBA.
    func pngFrames(_ frames: [Int], in folder: URL) throws -> [Int: [UInt8]] {
        var result: [Int: [UInt8]] = [:]
        for frame in frames {
            let name = "frame\(frame).png"
            try lamina(["render", "anim.json", "-o", name, "--time", String(Double(frame) / 10)], in: folder)
            result[frame] = try XCTUnwrap(VideoTestSupport.decode(folder.appendingPathComponent(name), width: 64, height: 48).first)
        }
        return result
    }

    /// Each chosen decoded video frame against the PNG of the same time: the lowest PSNR (dB).
    func lowestPSNR(_ decoded: [[UInt8]], _ png: [Int: [UInt8]], alpha: Bool = true) throws -> Double {
        try png.keys.sorted().map { frame in
            var expected = png[frame]!
            // Without alpha in the video, the encoder composites over black: premultiplied
            // colours, opaque.
            if !alpha {
                PremultipliedAlpha.premultiply(&expected)
                for i in stride(from: 3, to: expected.count, by: 4) { expected[i] = 255 }
            }
            return try XCTUnwrap(ImageComparison.compare(image(decoded[frame]), image(expected))).psnr
        }.min() ?? 0
    }

    func testWebMAndProResKeepAlphaAndMatchThePNGRenders() throws {
        let folder = try folderWithAnimation()
        let png = try pngFrames([1, 4], in: folder)
        // The PNGs themselves: the square at frame 4 is centred at x 32 (80 % orange), the card
        // half-white, the rest transparent.
        let square = (24 * 64 + 32) * 4, card = (40 * 64 + 52) * 4, empty = (4 * 64 + 4) * 4
        XCTAssertTrue(zip(png[4]![square..<(square + 4)], [255, 128, 0, 204]).allSatisfy { abs(Int($0) - $1) <= 1 },
                      "orange at 80 %: \(Array(png[4]![square..<(square + 4)]))")
        XCTAssertEqual(Double(png[4]![card + 3]), 128, accuracy: 1)
        XCTAssertEqual(png[4]![empty + 3], 0)

        try lamina(["render", "anim.json", "-o", "anim.webm"], in: folder)
        let webm = folder.appendingPathComponent("anim.webm")
        let webmStream = try XCTUnwrap(VideoTestSupport.probe(webm))
        XCTAssertEqual(webmStream["codec_name"] as? String, "vp9")
        let webmFrames = try VideoTestSupport.decode(webm, width: 64, height: 48, vp9Alpha: true)
        XCTAssertEqual(webmFrames.count, 6, "frames ip … op − 1")
        XCTAssertGreaterThanOrEqual(try lowestPSNR(webmFrames, png), 32)
        XCTAssertLessThan(webmFrames[4][empty + 3], 6, "transparent where nothing is drawn")
        XCTAssertEqual(Double(webmFrames[4][square + 3]), 204, accuracy: 8, "the square's alpha is kept")

        try lamina(["render", "anim.json", "-o", "anim.mov", "--codec", "prores"], in: folder)
        let mov = folder.appendingPathComponent("anim.mov")
        let movStream = try XCTUnwrap(VideoTestSupport.probe(mov))
        XCTAssertEqual(movStream["codec_name"] as? String, "prores")
        XCTAssertTrue((movStream["pix_fmt"] as? String)?.hasPrefix("yuva444") == true, "\(movStream["pix_fmt"] ?? "none")")
        let movFrames = try VideoTestSupport.decode(mov, width: 64, height: 48)
        XCTAssertEqual(movFrames.count, 6)
        XCTAssertGreaterThanOrEqual(try lowestPSNR(movFrames, png), 40, "ProRes 4444 is near-lossless")
        XCTAssertEqual(Double(movFrames[1][(24 * 64 + 20) * 4 + 3]), 204, accuracy: 2, "frame 1: the square centred at x 20")
    }

    func testMP4AndGIFAreAccepted() throws {
        let folder = try folderWithAnimation()
        let png = try pngFrames([2], in: folder)
        try lamina(["render", "anim.json", "-o", "anim.mp4"], in: folder)
        let mp4 = folder.appendingPathComponent("anim.mp4")
        XCTAssertEqual(try VideoTestSupport.probe(mp4)?["codec_name"] as? String, "h264")
        let mp4Frames = try VideoTestSupport.decode(mp4, width: 64, height: 48)
        XCTAssertEqual(mp4Frames.count, 6)
        XCTAssertGreaterThanOrEqual(try lowestPSNR(mp4Frames, png, alpha: false), 32)

        try lamina(["render", "anim.json", "-o", "anim.gif"], in: folder)
        let gif = folder.appendingPathComponent("anim.gif")
        let gifStream = try XCTUnwrap(VideoTestSupport.probe(gif))
        XCTAssertEqual(gifStream["codec_name"] as? String, "gif")
        XCTAssertEqual(gifStream["nb_read_frames"] as? String, "6")
        // Frame 2: the square centred at x 24 (palette colours: a wide tolerance on the colour).
        let gifFrames = try VideoTestSupport.decode(gif, width: 64, height: 48)
        let inside = (24 * 64 + 24) * 4, outside = (24 * 64 + 40) * 4
        XCTAssertGreaterThan(gifFrames[2][inside], 180, "orange inside the square")
        XCTAssertLessThan(gifFrames[2][inside + 2], 60)
        XCTAssertLessThan(gifFrames[2][outside + 3], 128, "transparent right of it: \(Array(gifFrames[2][outside..<(outside + 4)]))")
        XCTAssertGreaterThan(gifFrames[2][inside + 3], 128, "opaque inside")
    }

    /// A scene file with the animation as a `"lottie"` layer over the scene's video: rendered,
    /// decoded and checked at chosen points (the square and the card over a blue clip).
    func testLottieLayerOverVideo() throws {
        let folder = try folderWithAnimation()
        try VideoTestSupport.clip(folder.appendingPathComponent("clip.mp4"), video: "color=c=0x0000FF:s=64x48:r=10", seconds: 1, audio: false)
        let scene = """
        {"format": 1, "size": [64, 48], "fps": 10, "duration": 0.6, "background": "#000000",
         "assets": {"clip": "clip.mp4"}, "video": {"asset": "clip", "layer": "v"},
         "root": {"sublayers": [{"type": "video", "name": "v", "frame": [0, 0, 64, 48]},
                                {"type": "lottie", "source": "anim.json", "frame": [0, 0, 64, 48]}]}}
        """
        try Data(scene.utf8).write(to: folder.appendingPathComponent("scene.json"))
        try lamina(["render", "scene.json", "-o", "out.mp4"], in: folder)
        let frames = try VideoTestSupport.decode(folder.appendingPathComponent("out.mp4"), width: 64, height: 48)
        XCTAssertEqual(frames.count, 6)
        func pixel(_ frame: Int, _ x: Int, _ y: Int) -> [Int] { frames[frame][((y * 64 + x) * 4)..<((y * 64 + x) * 4 + 3)].map(Int.init) }
        func assertNear(_ actual: [Int], _ expected: [Int], _ what: String, line: UInt = #line) {
            XCTAssertTrue(zip(actual, expected).allSatisfy { abs($0 - $1) <= 14 }, "\(what): \(actual), expected \(expected)", line: line)
        }
        // Frame 3 (t = 0.3): the square spans x 18…38. 80 % orange over blue = (204, 102, 51).
        assertNear(pixel(3, 28, 24), [204, 102, 51], "square over the video")
        assertNear(pixel(3, 10, 24), [0, 0, 255], "video left of the square")
        assertNear(pixel(3, 44, 24), [0, 0, 255], "video right of the square")
        // The card: half white over blue = (128, 128, 255).
        assertNear(pixel(3, 52, 40), [128, 128, 255], "card over the video")
        // Frame 0: the square spans x 6…26.
        assertNear(pixel(0, 16, 24), [204, 102, 51], "square at frame 0")
        assertNear(pixel(0, 32, 24), [0, 0, 255], "video at frame 0")
    }

    /// A `.lottie` archive (zip: manifest.json, animations/NAME.json, images/…) built with Python's
    /// zipfile, deflated: the animation it names is imported with its image from inside the archive.
    func testDotLottieArchiveWithAnImage() throws {
        let folder = try VideoTestSupport.folder(self)
        let work = folder.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("images"), withIntermediateDirectories: true)
        // An 8×8 green PNG, drawn 4× (32×32) at (8, 8) by an image layer.
        _ = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "color=c=0x00FF00:s=8x8", "-frames:v", "1",
                                              work.appendingPathComponent("images/img_0.png").path])
        let json = """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 64, "h": 48,
         "assets": [{"id": "image_0", "w": 8, "h": 8, "u": "images/", "p": "img_0.png", "e": 0}],
         "layers": [{"ty": 2, "ind": 1, "refId": "image_0", "ip": 0, "op": 10, "st": 0, "sr": 1,
                     "ks": {"p": {"a": 0, "k": [8, 8, 0]}, "a": {"a": 0, "k": [0, 0, 0]}, "s": {"a": 0, "k": [400, 400, 100]}}}]}
        """
        // A decoy animation first in the archive: the manifest names the one to play.
        let decoy = #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 64, "h": 48, "layers": []}"#
        try Data(json.utf8).write(to: work.appendingPathComponent("real.json"))
        try Data(decoy.utf8).write(to: work.appendingPathComponent("decoy.json"))
        let manifest = #"{"version": "1", "generator": "test", "animations": [{"id": "real"}]}"#
        try Data(manifest.utf8).write(to: work.appendingPathComponent("manifest.json"))
        let script = """
        import sys, zipfile
        src, out = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(src + "/decoy.json", "animations/decoy.json")
            z.write(src + "/manifest.json", "manifest.json")
            z.write(src + "/real.json", "animations/real.json")
            z.write(src + "/images/img_0.png", "images/img_0.png")
        """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, work.path, folder.appendingPathComponent("anim.lottie").path]
        try python.run()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0, "python3 zipfile")
        try FileManager.default.removeItem(at: work)   // nothing outside the archive to find

        let imported = try LottieImporter.load(contentsOf: folder.appendingPathComponent("anim.lottie"))
        XCTAssertEqual(imported.animation.duration, 1, "the manifest's animation (10 frames), not the decoy")
        try lamina(["render", "anim.lottie", "-o", "frame.png"], in: folder)
        let pixels = try XCTUnwrap(VideoTestSupport.decode(folder.appendingPathComponent("frame.png"), width: 64, height: 48).first)
        func pixel(_ x: Int, _ y: Int) -> [Int] { pixels[((y * 64 + x) * 4)..<((y * 64 + x) * 4 + 4)].map(Int.init) }
        // ffmpeg's green is (0, 254, 0) after its YUV round trip.
        for (x, y) in [(20, 20), (38, 38), (10, 10)] {
            XCTAssertTrue(zip(pixel(x, y), [0, 255, 0, 255]).allSatisfy { abs($0 - $1) <= 2 }, "the archive's image, scaled 4×, at (\(x), \(y)): \(pixel(x, y))")
        }
        XCTAssertEqual(pixel(44, 20)[3], 0, "outside the image")
        XCTAssertEqual(pixel(4, 4)[3], 0)
    }
}
