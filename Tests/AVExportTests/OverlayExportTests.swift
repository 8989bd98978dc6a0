import XCTest
import Lamina

/// The caption band and watermark recipe (Ported/OverlayVideoEditor.swift): the band placed at
/// the top with `videoSize.height − bandHeight`, the logo at the bottom-right with a plain
/// margin — where they land only if the export is y-up, as Apple's is.
final class OverlayExportTests: XCTestCase {
    func testCaptionBandAtTheTopWatermarkAtTheBottomRight() throws {
        let folder = try AVTestSupport.folder(self)
        let clip = try AVTestSupport.clip(folder, "clip.mp4", "gradients=s=160x120:r=30:speed=0.02", seconds: 1)
        let output = folder.appendingPathComponent("captioned.mov")
        let editor = OverlayVideoEditor()
        nonisolated(unsafe) var result: (URL?, (any Error)?) = (nil, nil)
        nonisolated(unsafe) var onMainThread = false
        AVTestSupport.wait(self) { done in
            editor.makeCaptionedVideo(fromVideoAt: clip, caption: "Lamina", to: output) { url, error in
                result = (url, error)
                onMainThread = Thread.isMainThread
                done()
            }
        }
        XCTAssertEqual(result.0, output, "\(result.1.map { "\($0)" } ?? "")")
        XCTAssertTrue(onMainThread, "the completion hopped to the main queue")
        XCTAssertEqual(try MediaFiles.probe(output, stream: "a")?["codec_name"] as? String, "aac", "the audio stream survives")
        XCTAssertEqual(try MediaFiles.probe(output)?["nb_read_frames"] as? String, "30")

        let band = 0..<24, middle = 26..<100
        // Frame 0: the band is still transparent (its fade starts at 0): the top rows are the input's.
        let first = try AVTestSupport.frame(output, 0, width: 160, height: 120), input0 = try AVTestSupport.frame(clip, 0, width: 160, height: 120)
        XCTAssertGreaterThan(try AVTestSupport.psnr(first, input0, rows: band), 40)

        // Frame 20 (0.67 s): fully faded in — the top 24 rows are 75 % black with white text.
        let frame = try AVTestSupport.frame(output, 20, width: 160, height: 120), input = try AVTestSupport.frame(clip, 20, width: 160, height: 120)
        let darkened = AVTestSupport.mean(frame, x: 0..<6, y: 2..<22), original = AVTestSupport.mean(input, x: 0..<6, y: 2..<22)
        for (got, was) in [(darkened.r, original.r), (darkened.g, original.g), (darkened.b, original.b)] {
            XCTAssertEqual(got, was * 0.25, accuracy: 10, "band pixels are the input under 75 % black")
        }
        XCTAssertTrue((2..<22).contains { y in (40..<120).contains { x in AVTestSupport.near(frame, x, y, (255, 255, 255), tolerance: 50) } },
                      "the caption's white text is in the band")
        XCTAssertFalse((100..<120).contains { y in (0..<120).contains { x in AVTestSupport.near(frame, x, y, (0, 0, 0), tolerance: 8) && !AVTestSupport.near(input, x, y, (0, 0, 0), tolerance: 30) } },
                       "no band at the bottom")
        // The logo, 20×14 at 4 points from the bottom-right corner.
        XCTAssertTrue(AVTestSupport.near(frame, 146, 109, (255, 255, 0), tolerance: 30), "\(frame[146, 109])")
        XCTAssertFalse(AVTestSupport.near(frame, 146, 10, (255, 255, 0), tolerance: 30), "not at the top-right")
        // Everything else is the input, within 40 dB (H.264 at the highest-quality preset's qp 18;
        // measured 44.9 dB; the band 2 rows lower would bring it under 20).
        XCTAssertGreaterThan(try AVTestSupport.psnr(frame, input, rows: middle), 40)
    }
}
