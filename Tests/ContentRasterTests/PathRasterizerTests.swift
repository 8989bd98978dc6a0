import ContentRaster
import Foundation
import Geometry
import Layers
import Rendering
import XCTest
import TestSupport

final class PathRasterizerTests: XCTestCase {
    /// A stroke-only style (no fill), opaque black.
    private func stroke(width: CGFloat, cap: CAShapeLayerLineCap = .butt, join: CAShapeLayerLineJoin = .miter,
                        miterLimit: CGFloat = 10) -> ShapeStyle {
        ShapeStyle(fillColor: nil, strokeColor: .black, lineWidth: width, lineCap: cap, lineJoin: join,
                   miterLimit: miterLimit)
    }

    private func render(_ path: CGPath?, _ style: ShapeStyle, width: Int = 40, height: Int = 40,
                        file: StaticString = #filePath, line: UInt = #line) throws -> Image {
        try XCTUnwrap(PathRasterizer.rasterize(path, style: style, pixelWidth: width, pixelHeight: height,
                                               transform: .identity), file: file, line: line)
    }

    private func line(from a: CGPoint, to b: CGPoint) -> CGPath {
        let path = CGMutablePath()
        path.move(to: a)
        path.addLine(to: b)
        return path
    }

    func testFilledSquareHasTheExactFillColourInsideAndNothingOutside() throws {
        let colour = CGColor(red: 51.0 / 255, green: 102.0 / 255, blue: 153.0 / 255, alpha: 1)
        let image = try render(CGPath(rect: CGRect(x: 10, y: 10, width: 20, height: 20)), ShapeStyle(fillColor: colour))
        XCTAssertEqual(image.width, 40)
        XCTAssertEqual(image.height, 40)
        for (x, y) in [(10, 10), (20, 20), (29, 29), (10, 29), (29, 10)] {
            XCTAssertPixel(image, x, y, (51, 102, 153, 255))
        }
        for (x, y) in [(9, 10), (10, 9), (30, 20), (20, 30), (0, 0), (39, 39)] {
            XCTAssertPixel(image, x, y, (0, 0, 0, 0))
        }
    }

    func testTranslucentFillIsPremultiplied() throws {
        let image = try render(CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)),
                               ShapeStyle(fillColor: CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)))
        let p = image[5, 5]
        for channel in [p.r, p.g, p.b, p.a] { XCTAssertEqual(Int(channel), 128, accuracy: 1) }
    }

    func testRegionAndContentsScaleMapPointsToPixels() throws {
        // Bounds (100, 50, 20, 20) at scale 2: a 40×40 image, bounds origin at pixel (0, 0).
        let input = ShapeRasterInput(path: CGPath(rect: CGRect(x: 105, y: 55, width: 10, height: 10)),
                                     style: ShapeStyle(fillColor: .black),
                                     region: CGRect(x: 100, y: 50, width: 20, height: 20), scale: 2)
        let image = try XCTUnwrap(PathRasterizer.rasterize(input))
        XCTAssertEqual(image.width, 40)
        XCTAssertEqual(image.height, 40)
        XCTAssertEqual(image.alpha(10, 10), 255)
        XCTAssertEqual(image.alpha(29, 29), 255)
        XCTAssertEqual(image.alpha(9, 9), 0)
        XCTAssertEqual(image.alpha(30, 30), 0)
    }

    func testEvenOddLeavesTheOverlapEmptyWhereNonZeroFillsIt() throws {
        // Two overlapping squares wound the same way: winding 2 in the overlap.
        let path = CGMutablePath()
        path.addRect(CGRect(x: 5, y: 5, width: 20, height: 20))
        path.addRect(CGRect(x: 15, y: 15, width: 20, height: 20))
        let nonZero = try render(path, ShapeStyle(fillColor: .black, fillRule: .nonZero))
        let evenOdd = try render(path, ShapeStyle(fillColor: .black, fillRule: .evenOdd))
        XCTAssertEqual(nonZero.alpha(20, 20), 255)
        XCTAssertEqual(evenOdd.alpha(20, 20), 0)
        for image in [nonZero, evenOdd] {
            XCTAssertEqual(image.alpha(8, 8), 255)
            XCTAssertEqual(image.alpha(32, 32), 255)
        }
    }

    func testCapsExtendPastTheEndsByHalfTheLineWidthOrNot() throws {
        // Line (10,20)→(30,20), width 8: rows 16…23, caps reach x = 6 and x = 34 when they extend.
        let path = line(from: CGPoint(x: 10, y: 20), to: CGPoint(x: 30, y: 20))
        let butt = try render(path, stroke(width: 8, cap: .butt))
        let square = try render(path, stroke(width: 8, cap: .square))
        let round = try render(path, stroke(width: 8, cap: .round))
        for image in [butt, square, round] {
            XCTAssertEqual(image.alpha(20, 16), 255)
            XCTAssertEqual(image.alpha(20, 23), 255)
            XCTAssertEqual(image.alpha(20, 15), 0)
            XCTAssertEqual(image.alpha(29, 19), 255)
            XCTAssertEqual(image.alpha(35, 19), 0)  // nothing reaches past lineWidth/2
        }
        XCTAssertEqual(butt.alpha(30, 19), 0)
        XCTAssertEqual(butt.alpha(9, 19), 0)
        // Square: the full half-width box, corners included.
        XCTAssertEqual(square.alpha(33, 19), 255)
        XCTAssertEqual(square.alpha(33, 16), 255)
        XCTAssertEqual(square.alpha(6, 23), 255)
        // Round: the half-disc reaches 4 along the axis but not into the box's corners.
        XCTAssertEqual(round.alpha(32, 19), 255)
        XCTAssertEqual(round.alpha(7, 20), 255)
        XCTAssertLessThan(round.alpha(33, 16), 64)
    }

    func testMiterJoinFillsTheCornerBevelCutsIt() throws {
        // A right-angle corner at (30,30), width 8: the miter's outer corner is (34,34).
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 10, y: 30))
        path.addLine(to: CGPoint(x: 30, y: 30))
        path.addLine(to: CGPoint(x: 30, y: 10))
        let miter = try render(path, stroke(width: 8, join: .miter))
        let bevel = try render(path, stroke(width: 8, join: .bevel))
        let round = try render(path, stroke(width: 8, join: .round))
        // Ratio at 90° is √2 ≈ 1.41: a miter limit below that bevels.
        let limited = try render(path, stroke(width: 8, join: .miter, miterLimit: 1.2))
        XCTAssertEqual(miter.alpha(33, 33), 255)
        XCTAssertEqual(bevel.alpha(33, 33), 0)
        XCTAssertEqual(limited.alpha(33, 33), 0)
        XCTAssertLessThan(round.alpha(33, 33), 32)
        for image in [miter, bevel, round, limited] {
            XCTAssertEqual(image.alpha(31, 31), 255)  // inside every join
            XCTAssertEqual(image.alpha(20, 33), 255)  // along the first leg
        }
    }

    func testDashesWithPhaseInkTheExpectedIntervals() throws {
        // §15.6 C03: line (0,0)→(200,0), [30, 14], phase 15 → dashes [0,15] [29,59] [73,103] [117,147] [161,191].
        var style = stroke(width: 4)
        style.lineDashPattern = [30, 14]
        style.lineDashPhase = 15
        let image = try render(line(from: CGPoint(x: 0, y: 5), to: CGPoint(x: 200, y: 5)), style, width: 200, height: 10)
        for x in [1, 13, 30, 57, 75, 101, 119, 145, 163, 189] { XCTAssertEqual(image.alpha(x, 4), 255, "x = \(x)") }
        for x in [16, 27, 60, 71, 104, 115, 148, 159, 192, 199] { XCTAssertEqual(image.alpha(x, 4), 0, "x = \(x)") }
    }

    func testOddDashListIsUsedTwiceAndInvalidListsAreSolid() throws {
        var style = stroke(width: 2)
        style.lineDashPattern = [10]  // 10 on, 10 off
        let path = line(from: CGPoint(x: 0, y: 5), to: CGPoint(x: 40, y: 5))
        let dashed = try render(path, style, height: 10)
        XCTAssertEqual(dashed.alpha(5, 4), 255)
        XCTAssertEqual(dashed.alpha(15, 4), 0)
        XCTAssertEqual(dashed.alpha(25, 4), 255)
        for invalid: [CGFloat] in [[], [0, 0], [5, -1]] {
            style.lineDashPattern = invalid
            let solid = try render(path, style, height: 10)
            XCTAssertEqual(solid.alpha(15, 4), 255, "\(invalid)")
        }
    }

    func testStrokeEndHalfInksHalfThePathLength() throws {
        var style = stroke(width: 4)
        style.strokeEnd = 0.5
        let image = try render(line(from: CGPoint(x: 0, y: 10), to: CGPoint(x: 100, y: 10)), style, width: 100, height: 20)
        XCTAssertEqual(image.alpha(1, 9), 255)
        XCTAssertEqual(image.alpha(48, 9), 255)
        XCTAssertEqual(image.alpha(51, 9), 0)
        XCTAssertEqual(image.alpha(98, 9), 0)
    }

    func testTrimSpansSubpathsByTotalLength() throws {
        // §15.6 C01: (0,0)→(100,0) then (0,10)→(300,10), L = 400; drawn 5 points down and right.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.move(to: CGPoint(x: 0, y: 10))
        path.addLine(to: CGPoint(x: 300, y: 10))
        let offset = CGAffineTransform(translationX: 5, y: 5)
        var style = stroke(width: 2)
        style.strokeEnd = 0.5
        let half = try XCTUnwrap(PathRasterizer.rasterize(path, style: style, pixelWidth: 320, pixelHeight: 20, transform: offset))
        XCTAssertEqual(half.alpha(5 + 95, 5), 255)   // all of the first line
        XCTAssertEqual(half.alpha(5 + 95, 15), 255)  // second line up to x = 100
        XCTAssertEqual(half.alpha(5 + 105, 15), 0)
        style.strokeStart = 0.2
        style.strokeEnd = 0.3
        let slice = try XCTUnwrap(PathRasterizer.rasterize(path, style: style, pixelWidth: 320, pixelHeight: 20, transform: offset))
        XCTAssertEqual(slice.alpha(5 + 78, 5), 0)
        XCTAssertEqual(slice.alpha(5 + 82, 5), 255)
        XCTAssertEqual(slice.alpha(5 + 18, 15), 255)
        XCTAssertEqual(slice.alpha(5 + 22, 15), 0)
        style.strokeStart = 0.6
        style.strokeEnd = 0.4
        let none = try XCTUnwrap(PathRasterizer.rasterize(path, style: style, pixelWidth: 320, pixelHeight: 20, transform: offset))
        XCTAssertNil(none.inkColumns(threshold: 0))
    }

    func testDashesStayPutWhileStrokeStartMoves() throws {
        // Two subpaths; the trim starts inside the first, so its dashes continue the pattern
        // from the path start instead of restarting at the cut.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 5))
        path.addLine(to: CGPoint(x: 100, y: 5))
        path.move(to: CGPoint(x: 0, y: 15))
        path.addLine(to: CGPoint(x: 100, y: 15))
        var style = stroke(width: 4)
        style.lineDashPattern = [30, 14]   // dashes [0,30] [44,74] [88,100] on each line
        style.strokeStart = 0.1            // 20 points: cuts the first line's first dash
        let image = try render(path, style, width: 100, height: 20)
        XCTAssertEqual(image.alpha(15, 4), 0)    // trimmed away
        XCTAssertEqual(image.alpha(25, 4), 255)  // rest of the first dash
        XCTAssertEqual(image.alpha(35, 4), 0)    // gap, as before the trim
        XCTAssertEqual(image.alpha(50, 4), 255)
        XCTAssertEqual(image.alpha(5, 14), 255)  // second line untouched
        XCTAssertEqual(image.alpha(35, 14), 0)
    }

    func testFillIsWholeUnlessTrimsFill() throws {
        // Square (0,0)…(20,20) wound clockwise on screen; strokeEnd 0.5 keeps (0,0)→(20,0)→(20,20).
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20))
        var style = ShapeStyle(fillColor: .black, strokeEnd: 0.5)
        let whole = try render(square, style)
        XCTAssertEqual(whole.alpha(5, 15), 255)
        style.trimsFill = true
        let trimmed = try render(square, style)
        XCTAssertEqual(trimmed.alpha(15, 5), 255)  // inside the kept triangle
        XCTAssertEqual(trimmed.alpha(5, 15), 0)
    }

    func testFillThenStrokeOnTop() throws {
        let style = ShapeStyle(fillColor: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                               strokeColor: CGColor(red: 0, green: 0, blue: 1, alpha: 1), lineWidth: 4)
        let image = try render(CGPath(rect: CGRect(x: 10, y: 10, width: 20, height: 20)), style)
        XCTAssertPixel(image, 20, 20, (255, 0, 0, 255))
        XCTAssertPixel(image, 11, 20, (0, 0, 255, 255))  // stroke covers the fill's edge
        XCTAssertPixel(image, 9, 20, (0, 0, 255, 255))   // and overhangs it
        XCTAssertPixel(image, 7, 20, (0, 0, 0, 0))
    }

    func testShapeLayerPropertiesAndEmptyInputs() throws {
        var shape = ShapeProperties()
        shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 20))
        let input = ShapeRasterInput(shape: shape, region: CGRect(x: 0, y: 0, width: 20, height: 20), scale: 1)
        let image = try XCTUnwrap(PathRasterizer.rasterize(input))
        XCTAssertPixel(image, 10, 10, (0, 0, 0, 255))  // default fill: opaque black
        XCTAssertPixel(image, 0, 0, (0, 0, 0, 0))
        shape.path = nil
        let empty = try XCTUnwrap(PathRasterizer.rasterize(ShapeRasterInput(shape: shape, region: input.regionRect, scale: 1)))
        XCTAssertNil(empty.inkColumns(threshold: 0))
        XCTAssertNil(PathRasterizer.rasterize(ShapeRasterInput(shape: shape, region: .zero, scale: 1)))
    }

    /// cairo drawing straight into the image's bytes with red and blue exchanged in the colours
    /// gives the bytes of drawing into a surface of its own and repacking them: fills and
    /// strokes, translucent and opaque, even-odd, dashes split by a trim (a mask group), under a
    /// rotation, with colours whose red and blue differ.
    func testDrawingInPlaceGivesTheRepackedBytes() throws {
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 3, y: 4, width: 27, height: 19))
        path.addRect(CGRect(x: 12, y: 8, width: 20, height: 25))
        path.move(to: CGPoint(x: 2, y: 36))
        path.addCurve(to: CGPoint(x: 37, y: 30), control1: CGPoint(x: 12, y: 20), control2: CGPoint(x: 28, y: 44))
        let orange = CGColor(red: 0.93, green: 0.41, blue: 0.07, alpha: 0.62)
        let teal = CGColor(red: 0.05, green: 0.55, blue: 0.81, alpha: 0.8)
        // Translucent colours with red and blue far apart, both ways round.
        let colours = (0..<10).map { k -> CGColor in
            let t = CGFloat(k) / 9
            return CGColor(red: 0.97 - 0.9 * t, green: 0.3 + 0.05 * CGFloat(k % 3), blue: 0.04 + 0.9 * t, alpha: 0.15 + 0.085 * CGFloat(k))
        }
        let styles = colours.map { ShapeStyle(fillColor: $0) } + colours.map { ShapeStyle(fillColor: nil, strokeColor: $0, lineWidth: 1.7) } + [
            ShapeStyle(fillColor: orange),
            ShapeStyle(fillColor: CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1), fillRule: .evenOdd),
            ShapeStyle(fillColor: orange, strokeColor: teal, lineWidth: 3.5, lineCap: .round, lineJoin: .bevel),
            ShapeStyle(fillColor: nil, strokeColor: teal, lineWidth: 2.25, lineDashPattern: [5, 2, 1], lineDashPhase: 1.5,
                       strokeStart: 0.3, strokeEnd: 0.95),
        ]
        for (i, style) in styles.enumerated() {
            for transform in [CGAffineTransform.identity, CGAffineTransform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 18, ty: -4)] {
                let input = ShapeRasterInput(path: path, style: style, pixelWidth: 41, pixelHeight: 39, transform: transform)
                let inPlace = try XCTUnwrap(PathRasterizer.rasterizeInPlace(input))
                let converted = try XCTUnwrap(PathRasterizer.rasterizeConverting(input))
                XCTAssertGreaterThan(inPlace.pixels.filter { $0 != 0 }.count, 200, "style \(i) paints")
                let differing = zip(inPlace.pixels, converted.pixels).enumerated().filter { $0.element.0 != $0.element.1 }
                XCTAssertTrue(differing.isEmpty, "style \(i), \(transform): \(differing.count) bytes differ, first \(differing.prefix(8).map { "\($0.offset % 4)@\($0.offset / 4): \($0.element.0) vs \($0.element.1)" })")
                XCTAssertTrue(try XCTUnwrap(PathRasterizer.rasterize(input)).pixels == converted.pixels)
            }
        }
        let orangeSquare = try render(CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)), ShapeStyle(fillColor: orange))
        XCTAssertPixel(orangeSquare, 5, 5, (147, 65, 11, 158))  // premultiplied R, G, B, A in that order
    }

    func testPaintedBoundsCoverTheStroke() {
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let style = ShapeStyle(strokeColor: .black, lineWidth: 4, lineJoin: .round)
        XCTAssertEqual(PathRasterizer.paintedBounds(of: path, style: style), CGRect(x: -2, y: -2, width: 14, height: 14))
        XCTAssertEqual(PathRasterizer.paintedBounds(of: path, style: ShapeStyle()), CGRect(x: 0, y: 0, width: 10, height: 10))
    }
}

private extension ShapeRasterInput {
    var regionRect: CGRect { CGRect(x: 0, y: 0, width: CGFloat(pixelWidth), height: CGFloat(pixelHeight)) }
}
