import XCTest
@testable import Geometry
import Export
import ImageIO
import Layers
import Rendering
@testable import CPURenderer

/// A content texture's row extents (the columns outside which a row is transparent zero) are
/// found on creation, eight words at a time over empty runs: they match a pixel-by-pixel scan
/// wherever in a row its first and last non-zero word lie. An in-memory `CGImage` finds them
/// once and keeps them; the CPU backend finds them for a plan's images in `prepare`, on the
/// thread that plans, and a texture made from such an image takes them as they are.
final class TextureExtentsTests: XCTestCase {
    private let width = 37, height = 60

    func testRowExtentsMatchAPixelByPixelScan() throws {
        let pixels = patternPixels()
        let texture = Texture(try XCTUnwrap(Image(width: width, height: height, pixels: pixels)))
        assertExtents(try XCTUnwrap(texture.rowExtents), scanOf: pixels)
    }

    func testAnImageFindsItsRowExtentsOnceAndATextureTakesThem() throws {
        let pixels = patternPixels()
        let image = try XCTUnwrap(CGImage(width: width, height: height, premultipliedRGBA: pixels))
        XCTAssertFalse(image.rowExtentsAreFound)
        let found = try XCTUnwrap(image.rowExtents)
        XCTAssertTrue(image.rowExtentsAreFound)
        found.withUnsafeBufferPointer { first in
            image.rowExtents!.withUnsafeBufferPointer { again in XCTAssertEqual(first.baseAddress, again.baseAddress, "kept, not scanned again") }
        }
        let texture = Texture(try XCTUnwrap(Image(width: width, height: height, pixels: pixels)), knownRowExtents: found)
        assertExtents(try XCTUnwrap(texture.rowExtents), scanOf: pixels)
        XCTAssertNil(CGImage(width: width, height: height, source: "/nonexistent.png").rowExtents, "a file's pixels are not the image's")
    }

    func testTheCPUBackendFindsAPlansRowExtentsWhenThePlanIsMade() throws {
        let pixels = patternPixels()
        let image = try XCTUnwrap(CGImage(width: width, height: height, premultipliedRGBA: pixels))
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.position = CGPoint(x: CGFloat(width) / 2, y: CGFloat(height) / 2)
        root.contents = image
        let renderer = FrameRenderer(width: width, height: height, backend: CPURenderer(threads: 1))
        let plan = renderer.plan(root, at: 0)
        XCTAssertTrue(image.rowExtentsAreFound, "found with the plan, before it is drawn")
        let drawn = try XCTUnwrap(renderer.backend.render(plan, images: FileImageProvider()))
        XCTAssertEqual(drawn.pixels, pixels, "drawn one to one, every texel where it was")
    }

    private func patternPixels() -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        // Row y holds non-zero words at columns a and b (a pattern covering every column pair
        // position relative to the eight-word blocks); some rows stay empty, some hold one word.
        for y in 0..<height where y % 7 != 3 {
            let a = (y * 5) % width, b = y % 4 == 0 ? a : (a + y * 3 + 1) % width
            for x in [a, b] { pixels[(y * width + x) * 4 + (y % 4)] = UInt8(1 + y) }
        }
        return pixels
    }

    private func assertExtents(_ extents: UnsafeMutablePointer<Int32>, scanOf pixels: [UInt8], line: UInt = #line) {
        for y in 0..<height {
            let words = (0..<width).map { x in (0..<4).contains { pixels[(y * width + x) * 4 + $0] != 0 } }
            let expected: (Int32, Int32) = words.firstIndex(of: true).map { (Int32($0), Int32(words.lastIndex(of: true)! + 1)) } ?? (0, 0)
            XCTAssertEqual(extents[2 * y], expected.0, "row \(y) first", line: line)
            XCTAssertEqual(extents[2 * y + 1], expected.1, "row \(y) end", line: line)
        }
    }
}
