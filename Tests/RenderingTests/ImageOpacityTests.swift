import XCTest
import Rendering

/// `Image.isOpaque` (which lets the CPU backend draw an image front to back, hiding what is
/// below): every pixel's alpha must be 255, wherever in its block of words the exception lies.
final class ImageOpacityTests: XCTestCase {
    func testOneTranslucentPixelAnywhereMakesTheImageTranslucent() throws {
        // 13 × 11 = 143 pixels: two whole blocks of 64 words and a partial one.
        let width = 13, height = 11
        let opaque = [UInt8](repeating: 255, count: width * height * 4)
        XCTAssertTrue(try XCTUnwrap(Image(width: width, height: height, pixels: opaque)).isOpaque)
        // Every pixel: the edges (looked at first) and the blocks of the inside.
        for pixel in 0..<(width * height) {
            for alpha: UInt8 in [0, 254] {
                var pixels = opaque
                pixels[pixel * 4 + 3] = alpha
                XCTAssertFalse(try XCTUnwrap(Image(width: width, height: height, pixels: pixels)).isOpaque, "pixel \(pixel) alpha \(alpha)")
            }
            // Colour channels do not count, only alpha.
            var pixels = opaque
            pixels[pixel * 4] = 0; pixels[pixel * 4 + 1] = 7; pixels[pixel * 4 + 2] = 0
            XCTAssertTrue(try XCTUnwrap(Image(width: width, height: height, pixels: pixels)).isOpaque, "pixel \(pixel)")
        }
        XCTAssertFalse(try XCTUnwrap(Image(width: 1, height: 1)).isOpaque)
        XCTAssertTrue(try XCTUnwrap(Image(width: 1, height: 1, pixels: [0, 0, 0, 255])).isOpaque)
        XCTAssertTrue(try XCTUnwrap(Image(width: 3, height: 1, pixels: [UInt8](repeating: 255, count: 12))).isOpaque)
    }
}
