import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import CPURenderer
import TestSupport
import ImageIO
import ContentRaster

/// Rounded cards with borders on whole pixels: the plan gives one body per card carrying its
/// rounded corners as one mask pair (split and masked in one walk), the CPU draws those corners
/// texel by texel, and both backends draw the analytic shape.
final class PairedCornerTexelTests: XCTestCase {
    static let fill = CGColor(red: 0.2, green: 0.5, blue: 0.8, alpha: 1)
    static let background = CGColor(gray: 0.1, alpha: 1)

    /// Two cards with a plain layer between them in the drawing order; card 2 translucent with a
    /// translucent border (the pair's colour blended) and two rounded corners.
    private func scene() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 160, height: 100)
        root.position = CGPoint(x: 80, y: 50)
        for i in 0..<2 {
            let card = CALayer()
            card.frame = CGRect(x: 8 + 76 * CGFloat(i), y: 10, width: 68, height: 80)
            card.backgroundColor = i == 0 ? Self.fill : CGColor(red: 0.9, green: 0.4, blue: 0.1, alpha: 0.7)
            card.cornerRadius = 16
            card.borderWidth = 4
            card.borderColor = i == 0 ? CGColor(gray: 1, alpha: 1) : CGColor(red: 1, green: 1, blue: 0, alpha: 0.5)
            if i == 1 {
                card.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
            }
            root.addSublayer(card)
            if i == 0 {
                let plain = CALayer()
                plain.frame = CGRect(x: 60, y: 40, width: 40, height: 20)
                plain.backgroundColor = CGColor(red: 0, green: 0.8, blue: 0.2, alpha: 0.7)
                root.addSublayer(plain)
            }
        }
        return root
    }

    private func plan(_ root: CALayer) -> RenderPlan {
        RenderPlanBuilder(width: 160, height: 100, background: Self.background, contentRasterizer: ContentCache())
            .plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testEachCardIsOneItemCarryingItsRoundedCornersInDrawingOrder() {
        let items = plan(scene()).passes[0].items
        // Card 1's body with its 4 corners, the plain layer, card 2's body with 2 corners.
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(items.map { $0.body != nil }, [true, false, true])
        XCTAssertEqual(items.map { $0.body?.cornerPair != nil }, [true, false, true])
        XCTAssertNil(items[1].shape, "the plain layer between the cards stays as it was")
        func corners(_ item: DrawItem) -> [DrawItem] {
            var result: [DrawItem] = []
            item.forEachBodyCorner { result.append($0) }
            return result
        }
        XCTAssertEqual(corners(items[0]).count, 4)
        XCTAssertTrue(corners(items[0]).allSatisfy { $0.borderTint != nil && $0.tint != nil && $0.body == nil })
        // Card 2's corners are its minX-minY and maxX-maxY corners (layer space), in that order,
        // each sampling its quadrant of the pair.
        let second = corners(items[2])
        XCTAssertEqual(second.map(\.rect), [CGRect(x: 0, y: 0, width: 16, height: 16), CGRect(x: 68 - 16, y: 80 - 16, width: 16, height: 16)])
        let quadrants = second.compactMap { item -> CGRect? in
            if case .image(_, let source, _, _) = item.paint { return source }
            return nil
        }
        XCTAssertEqual(quadrants, [CGRect(x: 0, y: 0, width: 0.5, height: 0.5), CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)])
    }

    /// A body's corners drawn from the body (`BodyCornerTexels`) against the same corners as
    /// items of their own right after it (each through the per-item texel loop) and through the
    /// GPU: byte-identical on the CPU at any thread count, GPU vs CPU ≥ 40 dB.
    func testCornersCarriedByTheBodyDrawWhatCornerItemsDraw() throws {
        let carried = plan(scene())
        var separate = carried
        separate.passes[0].items = carried.passes[0].items.flatMap { item -> [DrawItem] in
            var body = item
            body.body?.cornerPair = nil
            var result = [body]
            item.forEachBodyCorner { result.append($0) }
            return result
        }
        XCTAssertEqual(separate.passes[0].items.count, 9)
        let fromBodies = try XCTUnwrap(CPURenderer(threads: 2).render(carried, images: FileImageProvider()))
        for threads in [1, 3] {
            let fromItems = try XCTUnwrap(CPURenderer(threads: threads).render(separate, images: FileImageProvider()))
            XCTAssertEqual(fromBodies.pixels, fromItems.pixels, "\(threads) threads")
        }
        // Moved by whole pixels so the cards hang off every edge of the frame (corners cut).
        for (dx, dy) in [(120.0, 70.0), (-50.0, -60.0), (40.0, -70.0)] {
            var moved = (carried, separate)
            let move = CATransform3DMakeTranslation(dx, dy, 0)
            for i in moved.0.passes[0].items.indices { moved.0.passes[0].items[i].transform = moved.0.passes[0].items[i].transform.concatenating(move) }
            for i in moved.1.passes[0].items.indices { moved.1.passes[0].items[i].transform = moved.1.passes[0].items[i].transform.concatenating(move) }
            let a = try XCTUnwrap(CPURenderer(threads: 2).render(moved.0, images: FileImageProvider()))
            let b = try XCTUnwrap(CPURenderer(threads: 1).render(moved.1, images: FileImageProvider()))
            XCTAssertEqual(a.pixels, b.pixels, "moved by (\(dx), \(dy))")
            XCTAssertGreaterThan(Set(a.pixels).count, 5, "part of a card shows")
        }
        let gpu = try XCTUnwrap(try TestBackends.gpu().render(carried, images: FileImageProvider()))
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(ImageComparison.compare(gpu, fromBodies)).psnr, 40)
        let gpuItems = try XCTUnwrap(try TestBackends.gpu().render(separate, images: FileImageProvider()))
        XCTAssertEqual(gpu.pixels, gpuItems.pixels, "the GPU draws the carried corners as it draws corner items")
    }

    /// Cards of different radii and borders in turn each carry their own pair (the walk keeps
    /// the last pair it asked for, which must not leak into the next card's), and cards that
    /// share radius and border share one image.
    func testEachCardCarriesThePairOfItsOwnRadiusAndBorder() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 60)
        root.position = CGPoint(x: 100, y: 30)
        let specs: [(radius: CGFloat, border: CGFloat)] = [(16, 4), (12, 4), (12, 2), (16, 4)]
        for (i, spec) in specs.enumerated() {
            let card = CALayer()
            card.frame = CGRect(x: 4 + 48 * CGFloat(i), y: 10, width: 44, height: 40)
            card.backgroundColor = Self.fill
            card.cornerRadius = spec.radius
            card.borderWidth = spec.border
            card.borderColor = CGColor(gray: 1, alpha: 1)
            root.addSublayer(card)
        }
        let items = RenderPlanBuilder(width: 200, height: 60, background: Self.background, contentRasterizer: ContentCache())
            .plan(for: PresentationTree.evaluate(root, at: 0)).passes[0].items
        let pairs = items.compactMap { $0.body?.cornerPair }
        XCTAssertEqual(pairs.count, 4)
        XCTAssertEqual(pairs.map { $0.mask.width }, [32, 24, 24, 32])
        XCTAssertTrue(pairs[0].mask === pairs[3].mask, "one image for equal cards")
        XCTAssertFalse(pairs[1].mask === pairs[2].mask, "another ring, another pair")
        // Each pair's ring (green) beside the top-left corner's end of the arc: full coverage in
        // the middle of the ring's rows (within 5/255 of the edge's anti-aliasing), none a pixel
        // inside it.
        for (pair, spec) in zip(pairs, specs) {
            let pixels = try XCTUnwrap(FileImageProvider().pixels(for: pair.mask))
            func green(_ x: Int, _ y: Int) -> UInt8 { pixels.pixels[(y * pixels.width + x) * 4 + 1] }
            let r = Int(spec.radius), border = Int(spec.border)
            XCTAssertGreaterThanOrEqual(green(r - 1, border / 2), 250, "ring of radius \(r), border \(border)")
            XCTAssertEqual(green(r - 1, border + 1), 0, "inside border \(border)")
        }
    }

    /// The texel loop (whole pixels) against the bilinear loop: the same plan with every item
    /// scaled by 1 + 2·10⁻⁵ about the origin (under 0.004 pixel anywhere), which no longer maps
    /// pixels onto whole texels. Tolerance: one step of 8 bits (the bilinear weights of a sample
    /// a few thousandths of a texel off its centre), on at most 2% of the pixels.
    func testTexelLoopDrawsWhatTheBilinearLoopDraws() throws {
        let exact = plan(scene())
        var nudged = exact
        let nudge = CATransform3DMakeScale(1.00002, 1.00002, 1)
        for i in nudged.passes[0].items.indices {
            nudged.passes[0].items[i].transform = nudged.passes[0].items[i].transform.concatenating(nudge)
        }
        let texels = try XCTUnwrap(CPURenderer(threads: 2).render(exact, images: FileImageProvider()))
        let bilinear = try XCTUnwrap(CPURenderer(threads: 1).render(nudged, images: FileImageProvider()))
        let difference = try XCTUnwrap(ImageComparison.compare(texels, bilinear, tolerance: 1))
        XCTAssertEqual(difference.pixelsOverTolerance, 0, "no channel more than 1/255 apart")
        let steps = try XCTUnwrap(ImageComparison.compare(texels, bilinear, tolerance: 0))
        XCTAssertLessThanOrEqual(steps.pixelsOverTolerance, steps.pixelCount / 50)
    }

    /// Pixels of card 1 against the analytic shape (radius 16, border 4, opaque on an opaque
    /// background): outside the curve the background exactly, inside the ring the border
    /// exactly, inside the fill the fill exactly, on the curve a blend of border and background
    /// (its coverage within 0.25 of the disc's area fraction in the pixel, estimated by 16×16
    /// samples); the same on both backends, which agree to 40 dB on the whole frame.
    func testCornersMatchTheAnalyticShapeOnBothBackends() throws {
        let frame = plan(scene())
        let cpu = try XCTUnwrap(CPURenderer().render(frame, images: FileImageProvider()))
        let gpu = try XCTUnwrap(try TestBackends.gpu().render(frame, images: FileImageProvider()))
        let agreement = try XCTUnwrap(ImageComparison.compare(gpu, cpu))
        XCTAssertGreaterThanOrEqual(agreement.psnr, 40)
        func pixel(_ image: Image, _ x: Int, _ y: Int) -> [Int] {
            (0..<4).map { Int(image.pixels[(y * image.width + x) * 4 + $0]) }
        }
        let background = [26, 26, 26, 255], white = [255, 255, 255, 255], fill = [51, 128, 204, 255]
        // Card 1 spans x 8..<76, y 10..<90; its top-left corner's centre is (24, 26).
        let centre = CGPoint(x: 24, y: 26)
        /// The share of pixel (x, y) inside the circle of radius `r` about the corner's centre.
        func discShare(_ x: Int, _ y: Int, _ r: CGFloat) -> CGFloat {
            var inside = 0
            for i in 0..<16 { for j in 0..<16 {
                let px = CGFloat(x) + (CGFloat(i) + 0.5) / 16, py = CGFloat(y) + (CGFloat(j) + 0.5) / 16
                if hypot(px - centre.x, py - centre.y) < r { inside += 1 }
            } }
            return CGFloat(inside) / 256
        }
        for (name, image) in [("cpu", cpu), ("gpu", gpu)] {
            XCTAssertEqual(pixel(image, 8, 10), background, "\(name): the very corner is outside")
            XCTAssertEqual(pixel(image, 11, 12), background, "\(name): outside the curve")
            XCTAssertEqual(pixel(image, 13, 15), white, "\(name): inside the ring")
            XCTAssertEqual(pixel(image, 20, 22), fill, "\(name): inside the fill, within the corner square")
            XCTAssertEqual(pixel(image, 40, 50), fill, "\(name): the body's fill")
            XCTAssertEqual(pixel(image, 40, 11), white, "\(name): the body's band")
            // Along the diagonal, the pixel the outer curve crosses.
            let d = Int((16 - 16 / 2.squareRoot()).rounded(.down))
            let (x, y) = (8 + d, 10 + d)
            let share = discShare(x, y, 16)
            XCTAssertGreaterThan(share, 0.05, "the curve crosses this pixel")
            XCTAssertLessThan(share, 0.95, "the curve crosses this pixel")
            let red = CGFloat(pixel(image, x, y)[0] - 26) / CGFloat(255 - 26)
            XCTAssertEqual(red, share, accuracy: 0.25, "\(name): coverage on the curve")
        }
    }
}
