import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import CPURenderer
import TestSupport
import ImageIO
import ContentRaster
@testable import GLRenderer

/// The GL backend draws a card's body as the pieces that tile it (`FillBody.pieces`) and leaves
/// out what a later opaque item wholly covers (`OpaqueCover`): the pieces tile exactly the body,
/// covered things are only skipped where they cannot show, and the frames are the ones drawing
/// everything gives, in agreement with the CPU backend.
final class BodyPiecesTests: XCTestCase {
    private static let background = CGColor(gray: 0.1, alpha: 1)

    func testPiecesTileTheRectLessItsCutSquares() {
        // A side below half of both sides, half the width (no strips), half the height (no middle).
        let tall = CGRect(x: 3, y: 5, width: 34, height: 50), wide = CGRect(x: 3, y: 5, width: 60, height: 34)
        for (rect, side) in [(tall, CGFloat(5)), (tall, 17), (wide, 17), (wide, 5)] {
            // Every set of cut corners, with every set of them covered (the pieces may reach over those).
            for raw in 0..<16 { for coveredRaw in 0..<16 where coveredRaw & ~raw == 0 {
                let corners = RoundedCorners(rawValue: UInt(raw)), covered = RoundedCorners(rawValue: UInt(coveredRaw))
                var pieces: [CGRect] = []
                FillBody(side: side, corners: corners).pieces(of: rect, covered: covered) { pieces.append($0) }
                let cut = corners.subtracting(covered)
                let squares = DrawItem.cornerSquares(of: rect, side: side).filter { cut.contains($0.0) }
                    .map { CGRect(origin: $0.1, size: CGSize(width: side, height: side)) }
                func area(_ r: CGRect) -> CGFloat { r.isNull ? 0 : r.width * r.height }
                XCTAssertLessThanOrEqual(pieces.count, 3)
                if raw == 15, coveredRaw == 0, rect.width > 2 * side, rect.height > 2 * side {
                    // Cut across the longer side: the middle piece spans the shorter one.
                    XCTAssertEqual(pieces.count, 3)
                    let middle = pieces[1]
                    if rect.width > rect.height {
                        XCTAssertEqual(middle, CGRect(x: rect.minX + side, y: rect.minY, width: rect.width - 2 * side, height: rect.height))
                    } else {
                        XCTAssertEqual(middle, CGRect(x: rect.minX, y: rect.minY + side, width: rect.width, height: rect.height - 2 * side))
                    }
                }
                if cut.isEmpty { XCTAssertEqual(pieces, [rect], "nothing cut: one piece") }
                XCTAssertEqual(pieces.reduce(0) { $0 + area($1) }, area(rect) - CGFloat(squares.count) * side * side,
                               accuracy: 1e-9, "side \(side), corners \(raw), covered \(coveredRaw)")
                for (i, piece) in pieces.enumerated() {
                    XCTAssertTrue(piece.width > 0 && piece.height > 0 && rect.contains(piece), "side \(side), corners \(raw)")
                    for other in pieces[(i + 1)...] { XCTAssertEqual(area(piece.intersection(other)), 0) }
                    for square in squares { XCTAssertEqual(area(piece.intersection(square)), 0) }
                }
            } }
        }
    }

    func testCoverHidesOnlyWhatLiesWhollyUnderALaterOpaqueItem() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 60)
        for (frame, alpha) in [(CGRect(x: 0, y: 0, width: 80, height: 60), 1.0), (CGRect(x: 12, y: 10, width: 40, height: 20), 1)] {
            let layer = CALayer()
            layer.frame = frame
            layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: alpha)
            root.addSublayer(layer)
        }
        let items = RenderPlanBuilder(width: 80, height: 60, background: Self.background)
            .plan(for: PresentationTree.evaluate(root, at: 0)).passes.last!.items
        XCTAssertEqual(items.count, 2)
        let cover = OpaqueCover(items, isOpaque: { _ in true })
        let identity = CATransform3DIdentity
        // On the target the front item covers x 12…52, y 10…30.
        XCTAssertTrue(cover.hides(CGRect(x: 12, y: 10, width: 40, height: 20), transform: identity, at: 0), "its own rectangle")
        XCTAssertTrue(cover.hides(CGRect(x: 20, y: 12, width: 8, height: 8), transform: identity, at: 0))
        XCTAssertTrue(cover.hides(CGRect(x: 10, y: 12, width: 8, height: 8), transform: CATransform3DMakeTranslation(2, 0, 0), at: 0))
        XCTAssertFalse(cover.hides(CGRect(x: 11, y: 12, width: 8, height: 8), transform: identity, at: 0), "a column sticks out")
        // An edge within 1/64 pixel of a pixel centre outside the cover counts as reaching it.
        XCTAssertFalse(cover.hides(CGRect(x: 11.51, y: 12, width: 8, height: 8), transform: identity, at: 0))
        XCTAssertTrue(cover.hides(CGRect(x: 11.6, y: 12, width: 8, height: 8), transform: identity, at: 0))
        XCTAssertFalse(cover.hides(CGRect(x: 20, y: 12, width: 8, height: 8), transform: identity, at: 1), "nothing after the front item")
        XCTAssertFalse(cover.hides(CGRect(x: 20, y: 12, width: 8, height: 8), transform: CATransform3DMakeRotation(0.1, 0, 0, 1), at: 0),
                       "rotated things are not looked at")
        let translucent = OpaqueCover(items, isOpaque: { $0 == 0 })
        XCTAssertFalse(translucent.hides(CGRect(x: 20, y: 12, width: 8, height: 8), transform: identity, at: 0), "only opaque items cover")
    }

    /// The cover's grid (a question looks only at its rectangle's first pixel centre's cell)
    /// answers as looking at every later opaque item does: many layers over a large target,
    /// rectangles of every size asked at every index, whole, fractional and empty ones.
    func testCoverGridAnswersAsScanningEveryLaterItem() {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func random(_ range: ClosedRange<Double>) -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Double(seed >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 2400, height: 1400)
        var frames: [CGRect] = []
        for i in 0..<150 {
            let layer = CALayer()
            layer.frame = CGRect(x: random(-100...2300).rounded(), y: random(-100...1300).rounded(),
                                 width: i % 10 == 0 ? 900 : random(8...260).rounded(), height: random(8...200).rounded())
            layer.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
            frames.append(layer.frame)
            root.addSublayer(layer)
        }
        let items = RenderPlanBuilder(width: 2400, height: 1400, background: Self.background)
            .plan(for: PresentationTree.evaluate(root, at: 0)).passes.last!.items
        XCTAssertEqual(items.count, frames.count)
        let cover = OpaqueCover(items, isOpaque: { $0 % 7 != 3 })
        // The rule: a later opaque item's pixel centres at least 1/64 inside it hold every centre
        // within 1/64 of the rectangle.
        func scan(_ r: CGRect, at index: Int) -> Bool {
            let e = 1.0 / 64
            let minX = Int((r.minX - 0.5 - e).rounded(.up)), minY = Int((r.minY - 0.5 - e).rounded(.up))
            let maxX = Int((r.maxX - 0.5 + e).rounded(.down)), maxY = Int((r.maxY - 0.5 + e).rounded(.down))
            return items.indices.contains { i in
                guard i > index, i % 7 != 3 else { return false }
                let o = items[i].rect.offsetBy(dx: items[i].transform.m41, dy: items[i].transform.m42)
                return Int((o.minX - 0.5 + e).rounded(.up)) <= minX && Int((o.minY - 0.5 + e).rounded(.up)) <= minY
                    && maxX <= Int((o.maxX - 0.5 - e).rounded(.down)) && maxY <= Int((o.maxY - 0.5 - e).rounded(.down))
            }
        }
        var hidden = 0
        for q in 0..<3000 {
            let rect = CGRect(x: random(-200...2500), y: random(-200...1500),
                              width: q % 50 == 0 ? 0 : random(0.2...120), height: q % 61 == 0 ? 0.3 : random(0.2...90))
            let index = Int(random(0...Double(frames.count - 1)))
            let expected = scan(rect, at: index)
            if expected { hidden += 1 }
            XCTAssertEqual(cover.hides(rect, transform: CATransform3DIdentity, at: index), expected, "\(rect) at \(index)")
        }
        XCTAssertGreaterThan(hidden, 100, "some rectangles are hidden")
    }

    /// Overlapping cards of every kind: opaque and translucent, borders thinner and wider than
    /// the corner cut, a radius past half the side, no border, some corners masked, flipped and
    /// scaled parents, a rotated card, plain layers covering corners wholly and in part.
    private func scene() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 140)
        root.position = CGPoint(x: 100, y: 70)
        func card(_ frame: CGRect, radius: CGFloat, border: CGFloat, alpha: CGFloat = 1, hue: CGFloat,
                  corners: CACornerMask = .all, in parent: CALayer? = nil) {
            let layer = CALayer()
            layer.frame = frame
            layer.backgroundColor = CGColor(red: hue, green: 0.5, blue: 1 - hue, alpha: alpha)
            layer.cornerRadius = radius
            layer.maskedCorners = corners
            layer.borderWidth = border
            layer.borderColor = CGColor(red: 1, green: 1, blue: hue, alpha: 1)
            (parent ?? root).addSublayer(layer)
        }
        card(CGRect(x: 4, y: 4, width: 70, height: 50), radius: 12, border: 3, hue: 0.1)
        card(CGRect(x: 40, y: 20, width: 70, height: 50), radius: 12, border: 3, hue: 0.3)
        card(CGRect(x: 30, y: 30, width: 60, height: 44), radius: 8, border: 2, alpha: 0.6, hue: 0.5)
        card(CGRect(x: 100, y: 6, width: 50, height: 30), radius: 40, border: 3, hue: 0.7)
        card(CGRect(x: 120, y: 20, width: 60, height: 40), radius: 4, border: 10, hue: 0.9)
        card(CGRect(x: 130, y: 50, width: 60, height: 50), radius: 14, border: 0, hue: 0.2)
        card(CGRect(x: 96, y: 60, width: 64, height: 46), radius: 10, border: 4, hue: 0.4,
             corners: [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
        // A plain opaque layer wholly over card 1's bottom-right corner and part of another's.
        let plain = CALayer()
        plain.frame = CGRect(x: 60, y: 40, width: 60, height: 34)
        plain.backgroundColor = CGColor(red: 0.9, green: 0.2, blue: 0.3, alpha: 1)
        root.addSublayer(plain)
        let flipped = CALayer()
        flipped.frame = CGRect(x: 0, y: 76, width: 100, height: 64)
        flipped.transform = CATransform3DMakeScale(-1, 1, 1)
        root.addSublayer(flipped)
        card(CGRect(x: 6, y: 4, width: 60, height: 40), radius: 10, border: 3, hue: 0.6, in: flipped)
        card(CGRect(x: 30, y: 14, width: 60, height: 44), radius: 10, border: 3, hue: 0.8, in: flipped)
        let scaled = CALayer()
        scaled.frame = CGRect(x: 100, y: 100, width: 100, height: 40)
        scaled.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        root.addSublayer(scaled)
        card(CGRect(x: 2.5, y: 1.5, width: 30, height: 16), radius: 5, border: 1.5, hue: 0.35, in: scaled)
        let rotated = CALayer()
        rotated.frame = CGRect(x: 150, y: 90, width: 40, height: 30)
        rotated.backgroundColor = CGColor(red: 0.2, green: 0.9, blue: 0.4, alpha: 1)
        rotated.cornerRadius = 8
        rotated.borderWidth = 2
        rotated.borderColor = CGColor(gray: 1, alpha: 1)
        rotated.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        root.addSublayer(rotated)
        return root
    }

    private func plan() -> RenderPlan {
        RenderPlanBuilder(width: 200, height: 140, background: Self.background, contentRasterizer: ContentCache())
            .plan(for: PresentationTree.evaluate(scene(), at: 0))
    }

    func testSkippingCoveredThingsChangesNoPixelAndAgreesWithTheCPU() throws {
        let plan = plan()
        let items = plan.passes.last!.items
        XCTAssertGreaterThanOrEqual(items.filter { $0.body?.cornerPair != nil }.count, 8, "the cards are bodies carrying their corners")
        XCTAssertTrue(items.contains { ($0.body?.band?.width ?? 0) > ($0.body?.side ?? .infinity) }, "a band wider than its cut")
        XCTAssertTrue(items.contains { $0.body != nil && $0.body?.corners != .all }, "a body with corners masked")
        // Some corners and body pieces lie wholly under later opaque cards and layers.
        let cover = OpaqueCover(items) { i in
            guard case .solid(let c) = items[i].paint else { return false }
            return c.alpha >= 1 && items[i].opacity >= 1 && items[i].shape == nil && items[i].borderWidth == nil
                && (items[i].body?.band?.color.alpha ?? 1) >= 1
        }
        var hidden = 0
        for (i, item) in items.enumerated() {
            item.forEachBodyCorner { if cover.hides($0.rect, transform: $0.transform, at: i) { hidden += 1 } }
            item.body?.pieces(of: item.rect) { if cover.hides($0, transform: item.transform, at: i) { hidden += 1 } }
        }
        XCTAssertGreaterThanOrEqual(hidden, 3)
        let renderer = try GLRenderer()
        let skipping = try XCTUnwrap(renderer.render(plan, images: FileImageProvider()))
        renderer.skipsCoveredItems = false
        let everything = try XCTUnwrap(renderer.render(plan, images: FileImageProvider()))
        XCTAssertEqual(skipping.pixels, everything.pixels, "covered things cannot show")
        let cpu = try XCTUnwrap(CPURenderer().render(plan, images: FileImageProvider()))
        let agreement = try XCTUnwrap(ImageComparison.compare(skipping, cpu))
        XCTAssertGreaterThanOrEqual(agreement.psnr, 40, "gpu vs cpu")
        XCTAssertLessThanOrEqual(agreement.pixelsOverTolerance, agreement.pixelCount / 200)
    }

    /// Pixels of the first card (4, 4, 70×50, radius 12, border 3) against their analytic colours.
    func testBodyPiecesPaintFillBandAndLeaveTheCornersToTheCorners() throws {
        let frame = try XCTUnwrap(try GLRenderer().render(plan(), images: FileImageProvider()))
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(frame.pixels[(y * frame.width + x) * 4..<(y * frame.width + x) * 4 + 4]) }
        func byte(_ v: CGFloat) -> UInt8 { UInt8((v * 255).rounded()) }
        let fill = [byte(0.1), byte(0.5), byte(0.9), 255], border = [255, 255, byte(0.1), 255]
        XCTAssertEqual(pixel(20, 28), fill, "the middle row")
        XCTAssertEqual(pixel(30, 10), fill, "the top strip under the band")
        XCTAssertEqual(pixel(30, 5), border, "the top band")
        XCTAssertEqual(pixel(5, 30), border, "the left band, beside the middle row")
        XCTAssertEqual(pixel(4, 4), [byte(0.1), byte(0.1), byte(0.1), 255], "outside the rounded corner: the background")
        XCTAssertEqual(pixel(12, 12), fill, "inside the corner's arc")
    }
}
