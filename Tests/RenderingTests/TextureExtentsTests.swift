import XCTest
import Rendering
@testable import CPURenderer

/// A content texture's row extents (the columns outside which a row is transparent zero) are
/// found on creation, eight words at a time over empty runs: they match a pixel-by-pixel scan
/// wherever in a row its first and last non-zero word lie.
final class TextureExtentsTests: XCTestCase {
    func testRowExtentsMatchAPixelByPixelScan() throws {
        let width = 37, height = 60
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        // Row y holds non-zero words at columns a and b (a pattern covering every column pair
        // position relative to the eight-word blocks); some rows stay empty, some hold one word.
        for y in 0..<height where y % 7 != 3 {
            let a = (y * 5) % width, b = y % 4 == 0 ? a : (a + y * 3 + 1) % width
            for x in [a, b] { pixels[(y * width + x) * 4 + (y % 4)] = UInt8(1 + y) }
        }
        let texture = Texture(try XCTUnwrap(Image(width: width, height: height, pixels: pixels)))
        let extents = try XCTUnwrap(texture.rowExtents)
        for y in 0..<height {
            let words = (0..<width).map { x in (0..<4).contains { pixels[(y * width + x) * 4 + $0] != 0 } }
            let expected: (Int32, Int32) = words.firstIndex(of: true).map { (Int32($0), Int32(words.lastIndex(of: true)! + 1)) } ?? (0, 0)
            XCTAssertEqual(extents[2 * y], expected.0, "row \(y) first")
            XCTAssertEqual(extents[2 * y + 1], expected.1, "row \(y) end")
        }
    }
}
