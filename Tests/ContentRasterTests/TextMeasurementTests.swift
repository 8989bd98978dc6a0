import ContentRaster
import Foundation
import Geometry
import Layers
import XCTest
import TestSupport

/// `size(withAttributes:)` and `NSAttributedString.size()` measure with the fonts Lamina draws.
final class TextMeasurementTests: XCTestCase {
    func testSizeGrowsWithFontSizeAndLineBreaks() throws {
        let small = "Core Animation".size(withAttributes: [.font: try XCTUnwrap(UIFont(name: "DejaVu Sans", size: 12))])
        let large = "Core Animation".size(withAttributes: [.font: try XCTUnwrap(UIFont(name: "DejaVu Sans", size: 48))])
        XCTAssertGreaterThan(small.width, 60)
        // Unhinted layout scales linearly with the size, up to rounding to whole points.
        XCTAssertEqual(large.width / small.width, 4, accuracy: 0.1)
        XCTAssertEqual(large.height / small.height, 4, accuracy: 0.25)
        let twoLines = "Core\nAnimation".size(withAttributes: [.font: "DejaVu Sans"])
        let oneLine = "Core".size(withAttributes: [.font: "DejaVu Sans"])
        XCTAssertEqual(twoLines.height, 2 * oneLine.height, accuracy: 1)
    }

    func testBoldIsWiderAndAttributedStringsMeasureTheirRuns() throws {
        let regular = "Lamina".size(withAttributes: [.font: "DejaVu Sans"])
        let bold = "Lamina".size(withAttributes: [.font: "DejaVu Sans Bold"])
        XCTAssertGreaterThan(bold.width, regular.width)
        let font = try XCTUnwrap(UIFont(name: "DejaVu Sans Bold", size: 20))
        let attributed = NSAttributedString(string: "Lamina", attributes: [.font: font])
        XCTAssertEqual(attributed.size(), "Lamina".size(withAttributes: [.font: font]))
    }

    func testTextThatFitsItsMeasuredBoundsIsNotCut() throws {
        // A text layer sized to its measured text shows every glyph: ink reaches near the right
        // edge and the last column is not cut mid-glyph (text past the bounds is cut off).
        let font = try XCTUnwrap(UIFont(name: "DejaVu Sans Bold", size: 30))
        let size = "Animation".size(withAttributes: [.font: font])
        var text = TextProperties()
        text.string = "Animation"
        text.font = "DejaVu Sans Bold"
        text.fontSize = 30
        let raster = TextRasterizer.rasterize(TextRasterInput(text: text, size: CGSize(width: size.width + 20, height: size.height), scale: 1))
        let image = try XCTUnwrap(raster.image)
        var rightmostInk = 0
        for y in 0..<image.height { for x in 0..<image.width where image[x, y].a > 0 { rightmostInk = max(rightmostInk, x) } }
        XCTAssertLessThanOrEqual(CGFloat(rightmostInk), size.width, "the measured width holds all the ink")
        XCTAssertGreaterThan(CGFloat(rightmostInk), size.width - 8, "and not much more")
    }
}
