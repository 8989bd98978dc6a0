import ContentRaster
import Foundation
import Geometry
import Layers
import Rendering
import XCTest
import TestSupport

final class TextRasterizerTests: XCTestCase {
    private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    private let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// Plain DejaVu Sans text, black, in a `width`×`height` point layer at scale 1.
    private func input(_ text: String, width: CGFloat = 200, height: CGFloat = 40, size: CGFloat = 20,
                       alignment: CATextLayerAlignmentMode = .natural, wrapped: Bool = false,
                       truncation: CATextLayerTruncationMode = .none) -> TextRasterInput {
        TextRasterInput(content: .plain(text), font: "DejaVu Sans", fontSize: size, foregroundColor: .black,
                        alignmentMode: alignment, isWrapped: wrapped, truncationMode: truncation,
                        size: CGSize(width: width, height: height))
    }

    private func image(_ input: TextRasterInput, file: StaticString = #filePath, line: UInt = #line) throws -> Image {
        let result = TextRasterizer.rasterize(input)
        XCTAssertEqual(result.warnings, [], file: file, line: line)
        return try XCTUnwrap(result.image, file: file, line: line)
    }

    func testLeftAlignedInksTheLeftEdgeOnly() throws {
        let image = try image(input("Hello", alignment: .left))
        XCTAssertEqual(image.width, 200)
        XCTAssertEqual(image.height, 40)
        let ink = try XCTUnwrap(image.inkColumns())
        XCTAssertLessThan(ink.lowerBound, 5)
        XCTAssertLessThan(ink.upperBound, 100)
        XCTAssertFalse(image.hasInk(x: 150..<200, y: 0..<40))
        XCTAssertTrue(image.hasInk(x: 0..<20, y: 0..<30, threshold: 128))
    }

    func testRightAlignedInksTheRightEdgeOnly() throws {
        let image = try image(input("Hello", alignment: .right))
        let ink = try XCTUnwrap(image.inkColumns())
        XCTAssertGreaterThan(ink.upperBound, 194)
        XCTAssertGreaterThan(ink.lowerBound, 100)
        XCTAssertFalse(image.hasInk(x: 0..<50, y: 0..<40))
    }

    func testCentredInkIsSymmetric() throws {
        let image = try image(input("Hello", alignment: .center))
        let ink = try XCTUnwrap(image.inkColumns())
        let leftMargin = ink.lowerBound, rightMargin = 199 - ink.upperBound
        XCTAssertEqual(Double(leftMargin), Double(rightMargin), accuracy: 3)
        XCTAssertGreaterThan(leftMargin, 40)
    }

    func testFirstLineStartsAtTheTopEdge() throws {
        // "H" caps height ≈ 0.73 em under an ascent of ≈ 0.93 em: ink from about 4 pt down.
        let image = try image(input("H", alignment: .left))
        XCTAssertFalse(image.hasInk(x: 0..<200, y: 0..<2))
        XCTAssertTrue(image.hasInk(x: 0..<200, y: 2..<8, threshold: 128))
    }

    func testNaturalAlignmentFollowsTheParagraphDirection() throws {
        let latin = try image(input("Hello", alignment: .natural))
        XCTAssertLessThan(try XCTUnwrap(latin.inkColumns()).lowerBound, 5)
        let hebrew = try image(input("שלום עולם", alignment: .natural))  // right-to-left
        let ink = try XCTUnwrap(hebrew.inkColumns())
        XCTAssertGreaterThan(ink.upperBound, 194)
        XCTAssertGreaterThan(ink.lowerBound, 80)
        // An explicit left alignment keeps right-to-left text on the left.
        let leftHebrew = try image(input("שלום עולם", alignment: .left))
        XCTAssertLessThan(try XCTUnwrap(leftHebrew.inkColumns()).lowerBound, 5)
    }

    func testWrappingMakesMoreLines() throws {
        let text = "one two three four five six seven"
        let single = TextRasterizer.rasterize(input(text, width: 100, height: 120))
        let wrapped = TextRasterizer.rasterize(input(text, width: 100, height: 120, wrapped: true))
        XCTAssertEqual(single.lineCount, 1)
        XCTAssertGreaterThan(wrapped.lineCount, 2)
        let singleImage = try XCTUnwrap(single.image), wrappedImage = try XCTUnwrap(wrapped.image)
        XCTAssertLessThan(try XCTUnwrap(singleImage.lowestInkRow()), 30)
        XCTAssertGreaterThan(try XCTUnwrap(wrappedImage.lowestInkRow()), 60)
        XCTAssertTrue(singleImage.hasInk(x: 95..<100, y: 0..<30))  // the one line runs off the edge
        // Explicit breaks start new lines even without wrapping.
        XCTAssertEqual(TextRasterizer.rasterize(input("a\nb\nc", height: 120)).lineCount, 3)
    }

    func testJustifiedStretchesAllButTheLastLine() throws {
        let text = "aa bb cc dd ee ff gg hh ii jj kk"
        let justified = TextRasterizer.rasterize(input(text, width: 100, height: 120, alignment: .justified, wrapped: true))
        let image = try XCTUnwrap(justified.image)
        // The first line reaches (nearly) the right edge; the last line does not.
        XCTAssertTrue(image.hasInk(x: 92..<100, y: 0..<24))
        let lastRowTop = (justified.lineCount - 1) * 23 + 2
        XCTAssertFalse(image.hasInk(x: 60..<100, y: lastRowTop..<(lastRowTop + 18)))
    }

    /// Red "AAAA…" then blue "BBBB…", much wider than 100 points.
    private var twoColourRuns: TextRasterInput.Content {
        .runs([TextRasterRun(text: String(repeating: "A", count: 12), font: "DejaVu Sans", fontSize: 20, color: red),
               TextRasterRun(text: String(repeating: "B", count: 12), font: "DejaVu Sans", fontSize: 20, color: blue)])
    }

    func testTruncationEndKeepsTheStart() throws {
        var input = input("", width: 100, truncation: .end)
        input.content = twoColourRuns
        let result = TextRasterizer.rasterize(input)
        XCTAssertTrue(result.isTruncated)
        XCTAssertEqual(result.lineCount, 1)
        let image = try XCTUnwrap(result.image)
        XCTAssertTrue(image.hasRed(x: 0..<30, y: 0..<40))
        XCTAssertFalse(image.hasBlue(x: 0..<100, y: 0..<40))
        // The ellipsis: low dots in the last glyph cell, nothing at cap height there.
        let ink = try XCTUnwrap(image.inkColumns())
        XCTAssertTrue(image.hasInk(x: (ink.upperBound - 3)..<(ink.upperBound + 1), y: 18..<23))
        XCTAssertFalse(image.hasInk(x: (ink.upperBound - 3)..<(ink.upperBound + 1), y: 4..<14))
    }

    func testTruncationStartKeepsTheEnd() throws {
        var input = input("", width: 100, truncation: .start)
        input.content = twoColourRuns
        let result = TextRasterizer.rasterize(input)
        XCTAssertTrue(result.isTruncated)
        let image = try XCTUnwrap(result.image)
        XCTAssertTrue(image.hasBlue(x: 70..<100, y: 0..<40))
        XCTAssertFalse(image.hasRed(x: 25..<100, y: 0..<40))
        // The ellipsis comes first: dots low in the first glyph cell.
        let ink = try XCTUnwrap(image.inkColumns())
        XCTAssertTrue(image.hasInk(x: ink.lowerBound..<(ink.lowerBound + 4), y: 18..<23))
        XCTAssertFalse(image.hasInk(x: ink.lowerBound..<(ink.lowerBound + 4), y: 4..<14))
    }

    func testNoTruncationWithoutAMode() throws {
        var input = input("", width: 100)
        input.content = twoColourRuns
        let result = TextRasterizer.rasterize(input)
        XCTAssertFalse(result.isTruncated)
        XCTAssertFalse(try XCTUnwrap(result.image).hasBlue(x: 0..<100, y: 0..<40))  // blue starts past 100 pt
    }

    func testAttributedRunsKeepTheirColours() throws {
        let runs: TextRasterInput.Content = .runs([
            TextRasterRun(text: "Red ", font: "DejaVuSans-Bold", fontSize: 20, color: red),
            TextRasterRun(text: "Blue", font: "DejaVu Serif", italic: true, fontSize: 20, color: blue),
        ])
        let result = TextRasterizer.rasterize(TextRasterInput(content: runs, size: CGSize(width: 200, height: 40)))
        XCTAssertEqual(result.warnings, [])
        let image = try XCTUnwrap(result.image)
        XCTAssertTrue(image.hasRed(x: 0..<45, y: 0..<40))
        XCTAssertTrue(image.hasBlue(x: 45..<120, y: 0..<40))
        XCTAssertFalse(image.hasBlue(x: 0..<35, y: 0..<40))
        XCTAssertFalse(image.hasRed(x: 55..<200, y: 0..<40))
    }

    func testMissingFontIsSubstitutedWithAWarning() throws {
        let result = TextRasterizer.rasterize(TextRasterInput(content: .plain("Hi"), font: "GillSans-Bold",
                                                              fontSize: 20, size: CGSize(width: 100, height: 30)))
        XCTAssertEqual(result.warnings.count, 1)
        let warning = try XCTUnwrap(result.warnings.first)
        XCTAssertTrue(warning.hasPrefix("font \"GillSans-Bold\" is not installed; using \""), warning)
        XCTAssertTrue(warning.contains("DejaVu"), warning)  // the only fonts installed
        XCTAssertTrue(warning.hasSuffix(" Bold\""), warning)  // the weight survives the substitution
        XCTAssertNotNil(try XCTUnwrap(result.image).inkColumns())
    }

    func testInstalledFontsUnderAnyNamingGiveNoWarning() {
        for name in ["DejaVu Sans", "DejaVuSans", "DejaVuSans-Bold", "DejaVuSerif-BoldItalic", "DejaVu Sans Mono Bold", "sans-serif"] {
            let result = TextRasterizer.rasterize(TextRasterInput(content: .plain("x"), font: name,
                                                                  size: CGSize(width: 40, height: 40)))
            XCTAssertEqual(result.warnings, [], name)
        }
    }

    func testTextLayerDefaultsAndScale() throws {
        // §15.6 C13: Helvetica 36, opaque white; at scale 2 the image has twice the pixels.
        var text = TextProperties()
        text.string = "Hi"
        let result = TextRasterizer.rasterize(TextRasterInput(text: text, size: CGSize(width: 100, height: 50), scale: 2))
        let image = try XCTUnwrap(result.image)
        XCTAssertEqual(image.width, 200)
        XCTAssertEqual(image.height, 100)
        let white = (0..<image.height).contains { y in (0..<image.width).contains { x in image[x, y] == (255, 255, 255, 255) } }
        XCTAssertTrue(white)
        // 36 pt caps at scale 2: the "H" is about 52 pixels tall.
        XCTAssertGreaterThan(try XCTUnwrap(image.lowestInkRow()), 50)
        // Helvetica is not installed here; if it ever is, no warning is fine too.
        XCTAssertTrue(result.warnings.allSatisfy { $0.hasPrefix("font \"Helvetica\" is not installed; using ") })
    }

    func testEmptyBoundsGiveNoImage() {
        XCTAssertNil(TextRasterizer.rasterize(input("x", width: 0, height: 10)).image)
    }
}

final class FontNameTests: XCTestCase {
    func testPostScriptNames() {
        XCTAssertEqual(FontName(parsing: "Helvetica"), FontName(family: "Helvetica"))
        XCTAssertEqual(FontName(parsing: "GillSans-Bold"), FontName(family: "GillSans", weight: 700))
        XCTAssertEqual(FontName(parsing: "Helvetica-BoldOblique"), FontName(family: "Helvetica", weight: 700, italic: true))
        XCTAssertEqual(FontName(parsing: "AvenirNext-DemiBold"), FontName(family: "AvenirNext", weight: 600))
        XCTAssertEqual(FontName(parsing: "HelveticaNeue-CondensedBlack"),
                       FontName(family: "HelveticaNeue", weight: 900, stretch: -2))
        XCTAssertEqual(FontName(parsing: "Times-Roman"), FontName(family: "Times"))
        XCTAssertEqual(FontName(parsing: "ArialMT-BoldItalicMT"), FontName(family: "ArialMT", weight: 700, italic: true))
        XCTAssertEqual(FontName(parsing: "Futura-ExtraLight"), FontName(family: "Futura", weight: 200))
        XCTAssertEqual(FontName(parsing: "Futura-Demi"), FontName(family: "Futura", weight: 600))
        XCTAssertEqual(FontName(parsing: "Futura-Extra"), FontName(family: "Futura-Extra"))
    }

    func testFamilyNamesWithStyleWordsAndHyphens() {
        XCTAssertEqual(FontName(parsing: "DejaVu Sans Bold Oblique"), FontName(family: "DejaVu Sans", weight: 700, italic: true))
        XCTAssertEqual(FontName(parsing: "DejaVu Sans Mono"), FontName(family: "DejaVu Sans Mono"))
        XCTAssertEqual(FontName(parsing: "sans-serif"), FontName(family: "sans-serif"))
        XCTAssertEqual(FontName(parsing: "Noto-Sans"), FontName(family: "Noto-Sans"))
    }
}
