import XCTest
import Lamina
@_exported import TestSupport

/// Clips, waiting for export sessions, and pixel reading for the ported export programs.
enum AVTestSupport {
    static func folder(_ test: XCTestCase) throws -> URL { try TemporaryFolder(for: test, prefix: "lamina-av-tests").url }

    /// Lets `UIImage(named:)` find the examples' images, as an app's asset catalog would.
    static func useExampleAssets() {
        let assets = Repository.examples.appendingPathComponent("assets")
        if !UIImage.assetDirectories.contains(assets) { UIImage.assetDirectories.append(assets) }
    }

    /// A clip of `seconds` from a lavfi source, with a 440 Hz tone unless `audio` is false.
    static func clip(_ folder: URL, _ name: String, _ filter: String, seconds: Double, audio: Bool = true, extra: [String] = []) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try MediaFiles.clip(url, video: filter, seconds: seconds, audio: audio, extra: extra)
        return url
    }

    /// Runs `start` (which starts an export and calls its argument when the export is done) and waits.
    static func wait(_ test: XCTestCase, timeout: Double = 120, _ start: (@escaping @Sendable () -> Void) throws -> Void) rethrows {
        let done = test.expectation(description: "export finished")
        try start { done.fulfill() }
        test.wait(for: [done], timeout: timeout)
    }

    /// Marks the first track of an MP4/MOV file as shown turned 90° clockwise, as a phone marks
    /// portrait video: its `tkhd` matrix becomes (0, 1, −1, 0, height, 0). (ffmpeg 5.1 no longer
    /// writes `-metadata:s:v rotate=`, and `-display_rotation` came in 6.0.)
    static func markRotatedClockwise(_ url: URL, codedHeight: Int) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        let tag: [UInt8] = Array("tkhd".utf8)
        guard let at = (0..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == tag }) else {
            throw XCTSkip("no tkhd box in \(url.lastPathComponent)")
        }
        let version = bytes[at + 4]
        // version, flags; times and IDs (32- or 64-bit); reserved; layer, group, volume, reserved.
        let matrix = at + 8 + (version == 0 ? 20 : 32) + 8 + 8
        let values: [Int32] = [0, 1 << 16, 0, -(1 << 16), 0, 0, Int32(codedHeight) << 16, 0, 1 << 30]
        for (i, value) in values.enumerated() {
            let v = UInt32(bitPattern: value)
            bytes.replaceSubrange((matrix + 4 * i)..<(matrix + 4 * i + 4), with: [UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)])
        }
        try Data(bytes).write(to: url)
    }

    /// Every file in `folder` (temporary exports must not survive).
    static func files(in folder: URL) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] }

    /// Decoded frame `index` of `url`.
    static func frame(_ url: URL, _ index: Int, width: Int, height: Int) throws -> Image {
        try MediaFiles.frame(url, index: index, width: width, height: height)
    }

    /// The PSNR (dB) of rows `rows` of `a` against the same rows of `b`.
    static func psnr(_ a: Image, _ b: Image, rows: Range<Int>) throws -> Double {
        func crop(_ image: Image) throws -> Image {
            let bytes = Array(image.pixels[(rows.lowerBound * image.width * 4)..<(rows.upperBound * image.width * 4)])
            return try XCTUnwrap(Image(width: image.width, height: rows.count, pixels: bytes))
        }
        return try XCTUnwrap(ImageComparison.compare(try crop(a), try crop(b))).psnr
    }

    /// The mean colour of the rectangle (0…255 per channel).
    static func mean(_ image: Image, x: Range<Int>, y: Range<Int>) -> (r: Double, g: Double, b: Double) {
        var sum = (0.0, 0.0, 0.0)
        for row in y { for column in x { let p = image[column, row]; sum.0 += Double(p.r); sum.1 += Double(p.g); sum.2 += Double(p.b) } }
        let n = Double(x.count * y.count)
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }

    /// Whether pixel (x, y) is within `tolerance` of `rgb`.
    static func near(_ image: Image, _ x: Int, _ y: Int, _ rgb: (Int, Int, Int), tolerance: Int = 24) -> Bool {
        let p = image[x, y]
        return abs(Int(p.r) - rgb.0) <= tolerance && abs(Int(p.g) - rgb.1) <= tolerance && abs(Int(p.b) - rgb.2) <= tolerance
    }

    /// Mono float samples of the first audio stream at 48 kHz.
    static func audioSamples(_ url: URL) throws -> [Float] {
        let bytes = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-i", url.path, "-map", "0:a:0", "-ac", "1", "-ar", "48000",
                                                      "-f", "f32le", "pipe:1"])
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The RMS of `samples` from `start` to `end` seconds (48 kHz).
    static func rms(_ samples: [Float], from start: Double, to end: Double) -> Double {
        let a = Int(start * 48000), b = min(samples.count, Int(end * 48000))
        guard b > a else { return 0 }
        return (samples[a..<b].reduce(0.0) { $0 + Double($1 * $1) } / Double(b - a)).squareRoot()
    }

    /// The top-level box types of an MP4/MOV file in order (`ftyp`, `moov`, `mdat` …).
    static func topLevelBoxes(_ url: URL) throws -> [String] {
        let data = try [UInt8](Data(contentsOf: url))
        var boxes: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            boxes.append(String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self))
            if size == 1, offset + 16 <= data.count {
                size = data[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
            }
            guard size >= 8 else { break }
            offset += size
        }
        return boxes
    }
}
