import XCTest
import Geometry
import Drawing

/// `CGContext` drawing checked against references computed without cairo: exact area coverage
/// of rectangles and discs, closed-form gradients.
final class CGContextGoldenTests: XCTestCase {
    /// A transparent RGBA (premultiplied last) bitmap context, y up, over its own buffer.
    final class Bitmap {
        let width: Int, height: Int
        let bytes: UnsafeMutablePointer<UInt8>
        var context: CGContext!
        init(_ width: Int, _ height: Int) {
            self.width = width; self.height = height
            bytes = .allocate(capacity: width * height * 4)
            bytes.initialize(repeating: 0, count: width * height * 4)
            context = CGContext(data: bytes, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        }
        deinit {
            context = nil
            bytes.deallocate()
        }
        /// Memory pixel (x, y), row 0 being the top of the bitmap.
        subscript(x: Int, y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
            let i = (y * width + x) * 4
            return (Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]), Int(bytes[i + 3]))
        }
    }

    /// Worst and mean difference between the bitmap's alpha and 255 × `coverage(x, yUp)`, where
    /// the coverage function gets the pixel's lower-left corner in y-up device space.
    func alphaError(_ bitmap: Bitmap, _ coverage: (Double, Double) -> Double) -> (worst: Int, mean: Double) {
        var worst = 0, total = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let expected = Int((coverage(Double(x), Double(bitmap.height - 1 - y)) * 255).rounded())
                let error = abs(bitmap[x, y].a - expected)
                worst = max(worst, error)
                total += error
            }
        }
        return (worst, Double(total) / Double(bitmap.width * bitmap.height))
    }

    /// Exact overlap of the unit pixel at (x, y) with a rectangle.
    func overlap(_ x: Double, _ y: Double, _ r: CGRect) -> Double {
        let w = max(0, min(x + 1, Double(r.maxX)) - max(x, Double(r.minX)))
        let h = max(0, min(y + 1, Double(r.maxY)) - max(y, Double(r.minY)))
        return w * h
    }

    /// Tolerance: cairo computes exact area coverage for axis-aligned rectangles; ±1/255 rounding.
    func testFilledRectangleMatchesExactAreaCoverage() {
        let bitmap = Bitmap(24, 20)
        let rect = CGRect(x: 2.5, y: 3.25, width: 13.75, height: 9.5)
        bitmap.context.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        bitmap.context.fill(rect)
        let error = alphaError(bitmap) { overlap($0, $1, rect) }
        XCTAssertLessThanOrEqual(error.worst, 1)
        // y up: the rectangle's bottom edge (y 3.25) is 3.25 px above the bitmap's last row.
        XCTAssertEqual(bitmap[8, bitmap.height - 5].r, 255, "inside, counted from the bottom")
        XCTAssertEqual(bitmap[8, 2].a, 0, "the top rows are empty")
    }

    /// Tolerance: the reference integrates the disc's area over each pixel (midpoint rule, 512
    /// columns, error < 1e-4). cairo samples 15 sub-rows per pixel row for curved edges, so an
    /// edge pixel may be off by up to 1/15 of full coverage: worst 17/255; mean 0.7/255.
    func testFilledCircleMatchesAnalyticCoverage() {
        let bitmap = Bitmap(32, 32)
        let center = CGPoint(x: 15.3, y: 16.7), radius: CGFloat = 11.2
        bitmap.context.setFillColor(CGColor(gray: 0, alpha: 1))
        bitmap.context.fillEllipse(in: CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
        let r = Double(radius)
        let error = alphaError(bitmap) { x, y in
            // ∫ over the pixel's columns of the disc's vertical extent clipped to the pixel.
            let y0 = y - Double(center.y), y1 = y0 + 1
            var area = 0.0
            for i in 0..<512 {
                let u = x + (Double(i) + 0.5) / 512 - Double(center.x)
                let half = max(0, r * r - u * u).squareRoot()
                area += max(0, min(y1, half) - max(y0, -half)) / 512
            }
            return area
        }
        XCTAssertLessThanOrEqual(error.worst, 17)
        XCTAssertLessThanOrEqual(error.mean, 0.7)
    }

    /// A stroked rectangle: a ring of width `lineWidth` × the CTM's scale, centred on the edge.
    func testStrokeWidthIsInUserSpace() {
        let bitmap = Bitmap(40, 40)
        bitmap.context.scaleBy(x: 2, y: 2)
        bitmap.context.setStrokeColor(CGColor(gray: 0, alpha: 1))
        bitmap.context.setLineWidth(2)
        bitmap.context.stroke(CGRect(x: 5, y: 5, width: 10, height: 10))
        // Device: outer 8…32, inner 12…28 (2 user units = 4 px).
        let outer = CGRect(x: 8, y: 8, width: 24, height: 24), inner = CGRect(x: 12, y: 12, width: 16, height: 16)
        let error = alphaError(bitmap) { overlap($0, $1, outer) - overlap($0, $1, inner) }
        XCTAssertLessThanOrEqual(error.worst, 1)
    }

    /// Linear gradient: pixel centre x + ½ of 256 gives (x + ½)/256 of the way, ±1/255.
    func testLinearGradientMatchesClosedForm() {
        let bitmap = Bitmap(256, 2)
        var locations: [CGFloat] = [0, 1]
        let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                                  colors: [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)] as CFArray, locations: &locations)!
        bitmap.context.drawLinearGradient(gradient, start: .zero, end: CGPoint(x: 256, y: 0), options: [])
        for x in [0, 37, 128, 200, 255] {
            XCTAssertEqual(Double(bitmap[x, 0].r), (Double(x) + 0.5) / 256 * 255, accuracy: 1.5, "x \(x)")
            XCTAssertEqual(bitmap[x, 0].a, 255)
        }
    }

    /// Radial gradient between concentric circles r 0 → 20: the colour at distance d is d/20 of
    /// the way (±2/255); without options nothing is drawn outside the end circle, with
    /// `drawsAfterEndLocation` the end colour fills it.
    func testRadialGradientMatchesClosedFormAndOptions() {
        for padded in [false, true] {
            let bitmap = Bitmap(64, 64)
            let gradient = CGGradient(colorsSpace: nil, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                                                 CGColor(red: 0, green: 0, blue: 1, alpha: 1)] as CFArray, locations: nil)!
            let c = CGPoint(x: 32, y: 32)
            bitmap.context.drawRadialGradient(gradient, startCenter: c, startRadius: 0, endCenter: c, endRadius: 20,
                                              options: padded ? [.drawsAfterEndLocation] : [])
            for (x, d) in [(32, 0.5), (42, 10.5), (47, 15.5)] {
                let p = bitmap[x, 31]  // device row y 32…33: the pixel centre is 0.5 above the centre line
                let t = (d * d + 0.25).squareRoot() / 20
                XCTAssertEqual(Double(p.b), t * 255, accuracy: 2, "distance \(d)")
                XCTAssertEqual(Double(p.r), (1 - t) * 255, accuracy: 2)
            }
            XCTAssertEqual(bitmap[60, 31].a, padded ? 255 : 0, "outside the end circle")
            if padded { XCTAssertEqual(bitmap[60, 31].b, 255) }
        }
    }

    /// Core Graphics' flipped-image trap, both ways: in a y-up context an image is upright; in a
    /// context flipped to y down (as UIKit's are) the same call draws it upside down.
    func testDrawImageIsUprightInYUpAndFlippedInYDownContexts() {
        // 1×2 image: red on top (first row), blue below.
        let image = CGImage(width: 1, height: 2, premultipliedRGBA: [255, 0, 0, 255, 0, 0, 255, 255])!
        let up = Bitmap(1, 2)
        up.context.draw(image, in: CGRect(x: 0, y: 0, width: 1, height: 2))
        XCTAssertEqual(up[0, 0].r, 255, "y up: the first row at the top")
        XCTAssertEqual(up[0, 1].b, 255)

        let down = Bitmap(1, 2)
        down.context.translateBy(x: 0, y: 2)
        down.context.scaleBy(x: 1, y: -1)
        down.context.draw(image, in: CGRect(x: 0, y: 0, width: 1, height: 2))
        XCTAssertEqual(down[0, 0].b, 255, "y down: upside down")
        XCTAssertEqual(down[0, 1].r, 255)
    }

    func testStateStackClipClearAndMakeImage() {
        let bitmap = Bitmap(10, 10)
        let ctx = bitmap.context!
        ctx.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        ctx.saveGState()
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.translateBy(x: 5, y: 0)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 5, height: 5))
        ctx.fill(CGRect(x: -5, y: 0, width: 10, height: 10))
        ctx.restoreGState()
        XCTAssertEqual(ctx.ctm, .identity)
        XCTAssertEqual(bitmap[7, 7].r, 255, "the clip kept the bottom-right quarter (y up)")
        XCTAssertEqual(bitmap[2, 7].a, 0)
        XCTAssertEqual(bitmap[7, 2].a, 0)
        ctx.fill(CGRect(x: 0, y: 5, width: 5, height: 5))
        XCTAssertEqual(bitmap[2, 2].g, 255, "the fill colour came back")
        ctx.clear(CGRect(x: 0, y: 5, width: 2, height: 5))
        XCTAssertEqual(bitmap[0, 0].a, 0, "cleared")
        let image = ctx.makeImage()!
        XCTAssertEqual(image.pixels?[(2 * 10 + 2) * 4 + 1], 255, "makeImage rows run from the top")
    }

    func testArcDirectionAndPathQueries() {
        let bitmap = Bitmap(20, 20)
        let ctx = bitmap.context!
        ctx.move(to: CGPoint(x: 10, y: 10))
        // Counter-clockwise in y-up space from 0 to π/2: through the upper right quadrant.
        ctx.addArc(center: CGPoint(x: 10, y: 10), radius: 8, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        ctx.closePath()
        XCTAssertEqual(ctx.boundingBoxOfPath.minX, 10, accuracy: 1e-9)
        XCTAssertEqual(ctx.boundingBoxOfPath.maxY, 18, accuracy: 1e-9)
        ctx.setFillColor(CGColor(gray: 0, alpha: 1))
        ctx.fillPath()
        XCTAssertTrue(ctx.isPathEmpty, "filling consumes the path")
        XCTAssertEqual(bitmap[14, 5].a, 255, "upper right (memory rows count from the top)")
        XCTAssertEqual(bitmap[14, 14].a, 0)
        XCTAssertEqual(bitmap[5, 5].a, 0)
    }

    func testAlphaBlendModeShadowAndMask() {
        let bitmap = Bitmap(30, 10)
        let ctx = bitmap.context!
        ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 30, height: 10))
        ctx.setBlendMode(.multiply)
        ctx.setAlpha(0.5)
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(bitmap[5, 5].g, 128, accuracy: 1, "half-way from white to red by multiply")

        let shadowed = Bitmap(30, 10)
        shadowed.context.setShadow(offset: CGSize(width: 10, height: 0), blur: 0, color: CGColor(gray: 0, alpha: 1))
        shadowed.context.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        shadowed.context.fill(CGRect(x: 0, y: 0, width: 8, height: 10))
        XCTAssertEqual(shadowed[4, 5].r, 255, "the shape")
        XCTAssertEqual(shadowed[14, 5].a, 255, "its shadow, 10 px to the right")
        XCTAssertEqual(shadowed[14, 5].r, 0)
        XCTAssertEqual(shadowed[25, 5].a, 0)

        let masked = Bitmap(4, 1)
        // A grey mask image: white shows, black hides.
        let mask = CGImage(width: 4, height: 1, premultipliedRGBA: [255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255])!
        masked.context.clip(to: CGRect(x: 0, y: 0, width: 4, height: 1), mask: mask)
        masked.context.setFillColor(CGColor(gray: 0, alpha: 1))
        masked.context.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        XCTAssertEqual((0..<4).map { masked[$0, 0].a }, [255, 0, 255, 0])
    }

    func testBitmapLayoutsAndInvalidParameters() {
        var bgra = [UInt8](repeating: 0, count: 4)
        bgra.withUnsafeMutableBytes { buffer in
            let ctx = CGContext(data: buffer.baseAddress, width: 1, height: 1, bitsPerComponent: 8, bytesPerRow: 4,
                                space: CGColorSpaceCreateDeviceRGB(),
                                bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue)!
            ctx.setFillColor(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        XCTAssertEqual(bgra, [0, 128, 255, 255], "little-endian ARGB words are B, G, R, A bytes")
        var gray = [UInt8](repeating: 0, count: 2)
        gray.withUnsafeMutableBytes { buffer in
            let ctx = CGContext(data: buffer.baseAddress, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 2,
                                space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue)!
            ctx.setFillColor(CGColor(gray: 1, alpha: 1))
            ctx.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
        }
        XCTAssertEqual(gray, [0, 255])
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 0,
                               space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                               space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.last.rawValue),
                     "unpremultiplied alpha is refused, as by Core Graphics")
        XCTAssertNil(CGContext(data: nil, width: 0, height: 4, bitsPerComponent: 8, bytesPerRow: 0,
                               space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
    }

    func testGradientInitializersReadTheirInputs() {
        let components: [CGFloat] = [1, 0, 0, 1, 0, 0, 1, 0.5]
        let locations: [CGFloat] = [0.25, 0.75]
        let gradient = CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: components, locations: locations, count: 2)!
        XCTAssertEqual(gradient.colors, [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)])
        XCTAssertEqual(gradient.locations, [0.25, 0.75])
        XCTAssertNil(CGGradient(colorsSpace: nil, colors: ["red"] as CFArray, locations: nil), "not a colour")
        XCTAssertEqual(CGGradient(colorsSpace: nil, colors: [CGColor.black, CGColor.white, CGColor.black] as CFArray,
                                  locations: nil)?.locations, [0, 0.5, 1])
    }
}
