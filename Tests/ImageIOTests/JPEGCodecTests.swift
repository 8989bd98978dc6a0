import XCTest
import Rendering
@testable import ImageIO

final class JPEGCodecTests: XCTestCase {
    /// quadrants444-16x16.jpg: four solid 8×8 blocks, red / green (top), blue / gray 128 (bottom),
    /// written by TurboJPEG at quality 95 with 4:4:4 sampling.
    func testDecodesFixtureWithinTolerance() throws {
        let image = try JPEGCodec.decode(Fixtures.bytes("quadrants444-16x16.jpg"))
        XCTAssertEqual(image.width, 16)
        XCTAssertEqual(image.height, 16)
        let expected: [[Int]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [128, 128, 128]]
        // Tolerance 4: JPEG quantization of solid blocks plus YCbCr rounding.
        for y in 0..<16 {
            for x in 0..<16 {
                let p = image[x, y]
                let e = expected[(y / 8) * 2 + x / 8]
                XCTAssertEqual(p.a, 255)
                XCTAssertEqual(Double(p.r), Double(e[0]), accuracy: 4, "(\(x), \(y))")
                XCTAssertEqual(Double(p.g), Double(e[1]), accuracy: 4, "(\(x), \(y))")
                XCTAssertEqual(Double(p.b), Double(e[2]), accuracy: 4, "(\(x), \(y))")
            }
        }
    }

    func testTruncatedJPEGIsCorrupt() throws {
        let bytes = try Fixtures.bytes("quadrants444-16x16.jpg")
        let truncated = Array(bytes.prefix(bytes.count - 40))
        let error = assertThrowsImageIOError { () throws(ImageIOError) in try JPEGCodec.decode(truncated) }
        guard case .corrupt(_, "JPEG", let reason) = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertFalse(reason.isEmpty)
    }

    func testGarbageAfterSignatureIsCorrupt() {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF] + Array(repeating: 0x42, count: 64)
        guard case .corrupt(_, "JPEG", _) = assertThrowsImageIOError({ () throws(ImageIOError) in try JPEGCodec.decode(bytes) }) else {
            return XCTFail("expected corrupt")
        }
        guard case .corrupt = assertThrowsImageIOError({ () throws(ImageIOError) in try JPEGCodec.decode([]) }) else {
            return XCTFail("expected corrupt for empty data")
        }
    }

    func testHeaderOverTheLimitIsRefused() throws {
        // Patch the frame header (SOFn: FF C0 … height, width) of the fixture to 10 × 20000.
        var bytes = try Fixtures.bytes("quadrants444-16x16.jpg")
        let sof = try XCTUnwrap((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0; bytes[sof + 6] = 10          // height 10
        bytes[sof + 7] = 0x4E; bytes[sof + 8] = 0x20     // width 20000
        XCTAssertEqual(assertThrowsImageIOError { () throws(ImageIOError) in try JPEGCodec.decode(bytes) },
                       .tooLarge(path: ImageIOError.inMemory, width: 20000, height: 10, limit: 16384))
    }
}
