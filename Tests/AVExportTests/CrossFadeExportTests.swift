import XCTest
import Lamina

/// The two-clip cross-fade (Ported/CrossFadeComposer.swift): red for 1 s, then blue for 1 s,
/// overlapping by 0.5 s, exported with `await session.export()`.
final class CrossFadeExportTests: XCTestCase {
    func testRedFadesIntoBlueAndTheVolumesFollow() async throws {
        let folder = try AVTestSupport.folder(self)
        let red = try AVTestSupport.clip(folder, "red.mp4", "color=c=red:s=64x48:r=30", seconds: 1)
        let blue = try AVTestSupport.clip(folder, "blue.mp4", "color=c=blue:s=64x48:r=30", seconds: 1)
        let output = folder.appendingPathComponent("crossfade.mp4")
        let session = try CrossFadeComposer(clips: [red, blue], transitionDuration: CMTimeMake(value: 1, timescale: 2)).makeExportSession(to: output)
        session.renderBackend = .cpu
        await session.export()
        XCTAssertEqual(session.status, .completed, "\(session.error.map { "\($0)" } ?? "")")

        let frames = try MediaFiles.decode(output, width: 64, height: 48).map { try XCTUnwrap(Image(width: 64, height: 48, pixels: $0)) }
        XCTAssertEqual(frames.count, 45, "1 s + 1 s − 0.5 s at 30 fps")
        // Before the fade: red; 0.733 s, 47 % into it: the red track at opacity 0.53 over blue; after it: blue.
        XCTAssertTrue(AVTestSupport.near(frames[5], 32, 24, (255, 0, 0), tolerance: 12), "\(frames[5][32, 24])")
        let mid = AVTestSupport.mean(frames[22], x: 8..<56, y: 8..<40)
        XCTAssertEqual(mid.r, 255 * (1 - 7.0 / 15), accuracy: 14, "red at opacity 1 − (22/30 − 0.5)/0.5")
        XCTAssertEqual(mid.b, 255 * (7.0 / 15), accuracy: 14)
        for i in [30, 44] {
            XCTAssertTrue(AVTestSupport.near(frames[i], 32, 24, (0, 0, 255), tolerance: 12), "frame \(i) is fully blue: \(frames[i][32, 24])")
        }

        // Both clips carry the same 440 Hz tone, in phase where they overlap (0.5 s is 220 cycles):
        // with the ramps the sum keeps the tone's level; without them it would double.
        let samples = try AVTestSupport.audioSamples(output)
        XCTAssertEqual(Double(samples.count) / 48000, 1.5, accuracy: 0.05)
        let alone = AVTestSupport.rms(samples, from: 0.1, to: 0.4), overlap = AVTestSupport.rms(samples, from: 0.6, to: 0.9)
        XCTAssertGreaterThan(alone, 0.05)
        XCTAssertEqual(overlap / alone, 1, accuracy: 0.12)
    }
}
