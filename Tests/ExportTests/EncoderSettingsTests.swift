import XCTest
import Lamina

/// Argument building per output kind: pure, no process runs.
final class EncoderSettingsTests: XCTestCase {
    func testKindFromExtensionAndCodec() throws {
        XCTAssertEqual(try OutputKind.forPath("a.mp4"), .h264MP4)
        XCTAssertEqual(try OutputKind.forPath("a.MOV"), .h264MOV)
        XCTAssertEqual(try OutputKind.forPath("a.mov", codec: "prores"), .prores4444)
        XCTAssertEqual(try OutputKind.forPath("a.webm"), .vp9WebM)
        XCTAssertEqual(try OutputKind.forPath("a.gif"), .gif)
        XCTAssertThrowsError(try OutputKind.forPath("a.avi"))
        XCTAssertThrowsError(try OutputKind.forPath("a.mp4", codec: "prores")) { error in
            XCTAssertTrue("\(error)".contains("a.mp4"), "\(error)")
        }
    }

    func testH264Arguments() {
        let s = EncoderSettings(kind: .h264MP4, width: 64, height: 48, framesPerSecond: 30, quality: 18, frameCount: 10)
        let a = s.arguments(output: "out.mp4")
        XCTAssertTrue(a.contains(sequence: ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "64x48", "-r", "30", "-i", "pipe:0"]))
        XCTAssertTrue(a.contains(sequence: ["-c:v", "libx264"]))
        XCTAssertTrue(a.contains(sequence: ["-qp", "18"]))
        XCTAssertTrue(a.contains(sequence: ["-colorspace", "bt709"]))
        XCTAssertTrue(a.contains(sequence: ["-color_range", "tv"]))
        XCTAssertTrue(a.contains(sequence: ["-g", "60", "-keyint_min", "60", "-sc_threshold", "0"]))
        XCTAssertTrue(a.contains("expr:eq(n,0)+eq(mod(n+0,60),0)"))
        XCTAssertTrue(a.contains { $0.contains("format=yuv420p") && $0.contains("out_color_matrix=bt709") })
        XCTAssertTrue(a.contains(sequence: ["-frames:v", "10"]))
        XCTAssertEqual(a.suffix(3), ["-f", "mp4", "out.mp4"])
        XCTAssertFalse(a.contains("-map") && a.contains("1:a:0?"))
        XCTAssertFalse(s.wantsStraightAlpha)
    }

    func testSegmentKeyframesCountFromTheWholeVideo() {
        let s = EncoderSettings(kind: .h264MOV, width: 64, height: 48, framesPerSecond: 25, firstFrame: 50, frameCount: 25,
                                keyframeInterval: 25)
        XCTAssertTrue(s.arguments(output: "o.mov").contains("expr:eq(n,0)+eq(mod(n+50,25),0)"))
    }

    func testOddSizesArePadded() {
        let s = EncoderSettings(kind: .h264MP4, width: 63, height: 47, framesPerSecond: 30, frameCount: 1)
        XCTAssertTrue(s.arguments(output: "o.mp4").contains { $0.hasPrefix("pad=ceil(iw/2)*2:ceil(ih/2)*2,") })
    }

    func testWebMAlpha() {
        let alpha = EncoderSettings(kind: .vp9WebM, width: 64, height: 48, framesPerSecond: 30, keepsAlpha: true, frameCount: 3)
        XCTAssertTrue(alpha.arguments(output: "o.webm").contains { $0.hasSuffix("format=yuva420p") })
        XCTAssertTrue(alpha.wantsStraightAlpha)
        let opaque = EncoderSettings(kind: .vp9WebM, width: 64, height: 48, framesPerSecond: 30, keepsAlpha: false, frameCount: 3)
        XCTAssertTrue(opaque.arguments(output: "o.webm").contains { $0.hasSuffix("format=yuv420p") })
        XCTAssertTrue(opaque.arguments(output: "o.webm").contains(sequence: ["-crf", "28", "-b:v", "0", "-qmin", "28", "-qmax", "28"]))
    }

    func testProRes4444() {
        let s = EncoderSettings(kind: .prores4444, width: 64, height: 48, framesPerSecond: 24, keepsAlpha: true, frameCount: 3)
        let a = s.arguments(output: "o.mov")
        XCTAssertTrue(a.contains(sequence: ["-c:v", "prores_ks", "-profile:v", "4444"]))
        XCTAssertTrue(a.contains { $0.contains("format=yuva444p10le,setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=tv") })
        XCTAssertEqual(a.suffix(3), ["-f", "mov", "o.mov"])
    }

    func testGIFTwoPasses() {
        let s = EncoderSettings(kind: .gif, width: 64, height: 48, framesPerSecond: 10, frameCount: 5,
                                audio: AudioPassthrough(url: URL(fileURLWithPath: "/in.mp4"), codec: "aac"))
        XCTAssertNil(s.audio, "GIF has no audio")
        let first = s.paletteArguments(palette: "p.png")
        XCTAssertTrue(first.contains { $0.hasPrefix("palettegen") })
        let second = s.arguments(output: "o.gif", palette: "p.png")
        XCTAssertTrue(second.contains(sequence: ["-i", "p.png"]))
        XCTAssertTrue(second.contains { $0.contains("paletteuse") })
    }

    /// Audio mixed by a graph (an AVFoundation composition's tracks): its inputs after the
    /// frames, its output mapped and encoded, the length a time for both streams.
    func testAudioGraphIsMixedIntoTheOutput() {
        var settings = EncoderSettings(kind: .h264MOV, width: 64, height: 48, framesPerSecond: 5, frameCount: 2)
        settings.audioGraph = AudioGraph(inputs: [["-ss", "1.000000", "-i", "/a.mp4"]], filter: "[1:1]anull[aout]")
        let a = settings.arguments(output: "o.mov")
        XCTAssertTrue(a.contains(sequence: ["-i", "pipe:0", "-ss", "1.000000", "-i", "/a.mp4", "-filter_complex", "[1:1]anull[aout]"]), "\(a)")
        XCTAssertTrue(a.contains(sequence: ["-map", "0:v", "-map", "[aout]"]), "\(a)")
        XCTAssertTrue(a.contains(sequence: ["-c:a", "aac"]), "\(a)")
        XCTAssertTrue(a.contains(sequence: ["-t", "0.400000"]), "\(a)")
        XCTAssertFalse(a.contains("-frames:v"), "\(a)")
        XCTAssertTrue(EncoderSettings(kind: .h264MP4, width: 64, height: 48, framesPerSecond: 5, frameCount: 2).arguments(output: "o.mp4")
            .contains(sequence: ["-movflags", "+faststart"]), "MP4 is fast-start by default")
        var plain = EncoderSettings(kind: .h264MP4, width: 64, height: 48, framesPerSecond: 5, frameCount: 2)
        plain.fastStart = false
        XCTAssertFalse(plain.arguments(output: "o.mp4").contains("-movflags"))
    }

    func testAudioIsCopiedWhereTheContainerTakesIt() {
        let aac = AudioPassthrough(url: URL(fileURLWithPath: "/in.mov"), codec: "aac", start: 2)
        let mp4 = EncoderSettings(kind: .h264MP4, width: 64, height: 48, framesPerSecond: 30, frameCount: 30, audio: aac)
        let a = mp4.arguments(output: "o.mp4")
        // The input is opened as its probed container only, its name never read as a protocol.
        XCTAssertTrue(a.contains(sequence: ["-f", "mov", "-protocol_whitelist", "file,pipe", "-ss", "2.000000", "-i", "file:/in.mov"]))
        XCTAssertTrue(a.contains(sequence: ["-map", "0:v", "-map", "1:a:0?"]))
        XCTAssertTrue(a.contains(sequence: ["-c:a", "copy"]))
        XCTAssertTrue(a.contains(sequence: ["-t", "1.000000"]))
        let pcm = AudioPassthrough(url: URL(fileURLWithPath: "/in.mov"), codec: "pcm_s16le")
        XCTAssertTrue(EncoderSettings(kind: .h264MP4, width: 64, height: 48, framesPerSecond: 30, frameCount: 1, audio: pcm)
            .arguments(output: "o.mp4").contains(sequence: ["-c:a", "aac"]))
        XCTAssertTrue(EncoderSettings(kind: .vp9WebM, width: 64, height: 48, framesPerSecond: 30, frameCount: 1, audio: aac)
            .arguments(output: "o.webm").contains(sequence: ["-c:a", "libopus"]))
    }
}

extension Array where Element: Equatable {
    /// Whether `sequence` occurs in the array as consecutive elements.
    func contains(sequence: [Element]) -> Bool {
        guard sequence.count <= count else { return false }
        for start in 0...(count - sequence.count) where Array(self[start..<(start + sequence.count)]) == sequence { return true }
        return false
    }
}
