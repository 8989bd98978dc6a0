import XCTest
import Rendering
@testable import ImageIO

final class PNGCodecTests: XCTestCase {
    // MARK: Fixtures (written by hand with Python's zlib/struct; see Fixtures/README.md)

    func testDecodesEightBitGray() throws {
        let image = try PNGCodec.decode(Fixtures.bytes("gray8-3x2.png"))
        XCTAssertEqual(image.width, 3)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(image.pixelList, [[0, 0, 0, 255], [128, 128, 128, 255], [255, 255, 255, 255],
                                          [64, 64, 64, 255], [192, 192, 192, 255], [32, 32, 32, 255]])
    }

    func testDecodesTwoBitPaletteWithTransparencyAndPremultiplies() throws {
        let image = try PNGCodec.decode(Fixtures.bytes("palette2-4x1.png"))
        XCTAssertEqual(image.width, 4)
        XCTAssertEqual(image.height, 1)
        // Entry 2 is (200, 100, 50) at alpha 128: (c·128 + 127) / 255 = (100, 50, 25).
        // Entry 3 is (10, 20, 30) at alpha 0: premultiplied to zero.
        XCTAssertEqual(image.pixelList, [[255, 0, 0, 255], [0, 255, 0, 255], [100, 50, 25, 128], [0, 0, 0, 0]])
    }

    func testDecodesSixteenBitRGBAAsSRGB() throws {
        // Samples are 8-bit values × 257 and the file has no gAMA/sRGB chunk: read as sRGB,
        // 0x8080 must become 128 (a linear reading would give 188).
        let image = try PNGCodec.decode(Fixtures.bytes("rgba16-2x2.png"))
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(image.pixelList, [[255, 0, 0, 255], [128, 64, 32, 255],
                                          [128, 128, 128, 128], [0, 0, 0, 0]])
    }

    func testDecodesGrayWithAlpha() throws {
        // (200, alpha 51) premultiplies to (200·51 + 127) / 255 = 40.
        let image = try PNGCodec.decode(Fixtures.bytes("grayalpha8-2x1.png"))
        XCTAssertEqual(image.pixelList, [[100, 100, 100, 255], [40, 40, 40, 51]])
    }

    func testSizeReadsOnlyTheHeader() throws {
        let size = try PNGCodec.size(of: Fixtures.bytes("gray8-3x2.png"))
        XCTAssertEqual(size.width, 3)
        XCTAssertEqual(size.height, 2)
    }

    // MARK: Round trips

    func testOpaqueRoundTripIsExact() throws {
        let image = TestImages.opaque(width: 37, height: 23, seed: 1)
        for level in [0, 1, 6, 9] {
            let decoded = try PNGCodec.decode(PNGCodec.encode(image, compressionLevel: level))
            XCTAssertEqual(decoded, image, "level \(level)")
        }
    }

    func testFullyTransparentAndOpaqueRoundTripIsExact() throws {
        let image = TestImages.premultiplied(width: 19, height: 11, seed: 2, alphas: [0, 255])
        XCTAssertEqual(try PNGCodec.decode(PNGCodec.encode(image)), image)
    }

    func testTranslucentRoundTripIsWithinOnePerChannel() throws {
        let image = TestImages.premultiplied(width: 64, height: 16, seed: 3, alphas: Array(0...255))
        let decoded = try PNGCodec.decode(PNGCodec.encode(image))
        let difference = try XCTUnwrap(ImageComparison.compare(image, decoded, tolerance: 1))
        XCTAssertLessThanOrEqual(difference.maxChannelDifference, 1)
        XCTAssertEqual(difference.pixelsOverTolerance, 0)
        // The conversions round to nearest both ways, which makes this exact (see PremultiplyTests).
        XCTAssertEqual(decoded, image)
    }

    func testEncodedFileIsAnEightBitRGBAPNG() throws {
        let bytes = try PNGCodec.encode(TestImages.opaque(width: 5, height: 3, seed: 4))
        XCTAssertEqual(Array(bytes.prefix(8)), PNGBytes.signature)
        // IHDR: width 5, height 3, depth 8, colour type 6 (RGBA).
        XCTAssertEqual(Array(bytes[12..<16]), Array("IHDR".utf8))
        XCTAssertEqual(Array(bytes[16..<29]), [0, 0, 0, 5, 0, 0, 0, 3, 8, 6, 0, 0, 0])
    }

    func testLargestAllowedSideDecodes() throws {
        let image = try XCTUnwrap(Image(width: ImageLimits.maximumSide, height: 1))
        let decoded = try PNGCodec.decode(PNGCodec.encode(image))
        XCTAssertEqual(decoded.width, ImageLimits.maximumSide)
    }

    // MARK: Errors

    func testHeaderOverTheLimitIsRefusedBeforeDecoding() {
        // The file claims 20000 × 10 pixels but carries none: reaching the pixel data would
        // fail as corrupt, so `.tooLarge` shows the refusal came from the header alone.
        let header = PNGBytes.header(width: 20000, height: 10)
        XCTAssertEqual(assertThrowsImageIOError { () throws(ImageIOError) in try PNGCodec.decode(header) },
                       .tooLarge(path: ImageIOError.inMemory, width: 20000, height: 10, limit: 16384))
        XCTAssertEqual(try PNGCodec.size(of: header).width, 20000)

        // 16385 on the other side, and a header that would need 1.6 GB.
        let tall = PNGBytes.header(width: 1, height: 16385)
        XCTAssertEqual(assertThrowsImageIOError { () throws(ImageIOError) in try PNGCodec.decode(tall) },
                       .tooLarge(path: ImageIOError.inMemory, width: 1, height: 16385, limit: 16384))
        let huge = PNGBytes.header(width: 20000, height: 20000)
        guard case .tooLarge = assertThrowsImageIOError({ () throws(ImageIOError) in try PNGCodec.decode(huge) }) else {
            return XCTFail("expected tooLarge")
        }
    }

    func testCraftedHeaderWithinTheLimitFailsOnlyAtThePixels() {
        // The same crafted file at an allowed size gets past the header and fails as corrupt,
        // which is what makes the test above meaningful.
        let header = PNGBytes.header(width: 16, height: 10)
        guard case .corrupt(_, "PNG", _) = assertThrowsImageIOError({ () throws(ImageIOError) in try PNGCodec.decode(header) }) else {
            return XCTFail("expected corrupt")
        }
    }

    func testTruncatedPNGIsCorrupt() throws {
        let bytes = try PNGCodec.encode(TestImages.opaque(width: 40, height: 40, seed: 5))
        let truncated = Array(bytes.prefix(bytes.count / 2))
        let error = assertThrowsImageIOError { () throws(ImageIOError) in try PNGCodec.decode(truncated) }
        guard case .corrupt(let path, "PNG", let reason) = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(path, ImageIOError.inMemory)
        XCTAssertFalse(reason.isEmpty)
    }

    func testDamagedChecksumIsCorrupt() throws {
        var bytes = try Fixtures.bytes("gray8-3x2.png")
        bytes[bytes.count - 20] ^= 0xFF // inside IDAT: its CRC no longer matches
        guard case .corrupt(_, "PNG", _) = assertThrowsImageIOError({ () throws(ImageIOError) in try PNGCodec.decode(bytes) }) else {
            return XCTFail("expected corrupt")
        }
    }

    func testEncodingRefusesAPixelBufferThatDoesNotMatchTheSize() throws {
        var image = try XCTUnwrap(Image(width: 4, height: 4))
        image.pixels.removeLast(4)
        guard case .cannotEncode(ImageIOError.inMemory, _) = assertThrowsImageIOError({ () throws(ImageIOError) in
            try PNGCodec.encode(image)
        }) else { return XCTFail("expected cannotEncode") }
    }

    func testEmptyAndNonPNGBytesAreCorrupt() {
        for bytes in [[], Array("hello".utf8)] as [[UInt8]] {
            guard case .corrupt = assertThrowsImageIOError({ () throws(ImageIOError) in try PNGCodec.decode(bytes) }) else {
                return XCTFail("expected corrupt for \(bytes)")
            }
        }
    }
}
