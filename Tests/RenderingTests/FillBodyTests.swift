import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import CPURenderer
import TestSupport
import ImageIO
import ContentRaster

/// A rounded background with its border merged into one body (`DrawItem.body`) draws the same
/// pixels as the band pieces it replaces, on both backends, and is only used where its cuts
/// cannot disagree with the corner squares' rasterization.
final class FillBodyTests: XCTestCase {
    /// Translucent cards with borders, every corner mask, circular and continuous corners, on
    /// integer positions (bodies) and on half pixels (band pieces).
    private func cards(offset: CGFloat) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 160, height: 96)
        root.position = CGPoint(x: 80, y: 48)
        let masks: [CACornerMask] = [.all, [.layerMinXMinYCorner, .layerMaxXMaxYCorner], [.layerMaxXMinYCorner], []]
        for (i, mask) in masks.enumerated() {
            let card = CALayer()
            card.frame = CGRect(x: 6 + CGFloat(i) * 38 + offset, y: 8 + offset, width: 34, height: 36 + CGFloat(i) * 10)
            card.backgroundColor = CGColor(red: 0.9, green: 0.3 + 0.1 * CGFloat(i), blue: 0.2, alpha: i % 2 == 0 ? 1 : 0.6)
            card.cornerRadius = 9
            card.cornerCurve = i == 1 ? .continuous : .circular
            card.maskedCorners = mask
            card.borderWidth = 3
            card.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: i < 2 ? 1 : 0.5)
            root.addSublayer(card)
        }
        return root
    }

    private func plan(_ root: CALayer, masks: ContentCache? = nil) -> RenderPlan {
        RenderPlanBuilder(width: 160, height: 96, background: CGColor(gray: 0.1, alpha: 1), contentRasterizer: masks)
            .plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testCardsOnWholePixelsBecomeBodiesAndOnHalfPixelsStayInPieces() {
        let whole = plan(cards(offset: 0)).passes.last!.items
        let half = plan(cards(offset: 0.5)).passes.last!.items
        XCTAssertEqual(whole.filter { $0.body != nil }.count, 3, "one body per rounded card (not the square one)")
        XCTAssertEqual(half.filter { $0.body != nil }.count, 0, "cuts through pixel centres keep the pieces")
        // A card with every corner rounded: one body, four fill corners, four border corners.
        let first = whole.filter { $0.layer == whole.first { $0.body != nil }!.layer }
        XCTAssertEqual(first.count, 9)
        XCTAssertEqual(first.filter { $0.shape != nil }.count, 8)
    }

    func testBodiesDrawWhatTheirPiecesDrewOnBothBackends() throws {
        let bodies = plan(cards(offset: 0))
        // The reference: each card's border moved onto a layer of its own over it, so fill and
        // border are split into their pieces separately (what drawing was before bodies).
        let separate = cards(offset: 0)
        for card in separate.sublayers ?? [] {
            let border = CALayer()
            border.frame = card.bounds
            border.cornerRadius = card.cornerRadius
            border.cornerCurve = card.cornerCurve
            border.maskedCorners = card.maskedCorners
            border.borderWidth = card.borderWidth
            border.borderColor = card.borderColor
            card.borderWidth = 0
            card.addSublayer(border)
            card.allowsGroupOpacity = false
        }
        let pieces = plan(separate)
        XCTAssertEqual(bodies.passes.count, 1)
        XCTAssertEqual(pieces.passes.count, 1)
        XCTAssertFalse(pieces.passes[0].items.contains { $0.body != nil })
        let reference = try XCTUnwrap(CPURenderer().render(pieces, images: FileImageProvider()))
        let cpu = try XCTUnwrap(CPURenderer().render(bodies, images: FileImageProvider()))
        let cpuDifference = try XCTUnwrap(ImageComparison.compare(cpu, reference))
        // Equal but at the inner corner pixel of a border's square corners (9 here), which the
        // ring's corner square shaded by its distance's derivative (partial coverage) and the
        // body's band covers exactly.
        XCTAssertLessThanOrEqual(cpuDifference.pixelsOverTolerance, 9, "cpu: body vs pieces")
        XCTAssertGreaterThanOrEqual(cpuDifference.psnr, 40, "cpu: body vs pieces")
        let gpu = try XCTUnwrap(try TestBackends.gpu().render(bodies, images: FileImageProvider()))
        // The backends agree on bodies as they do on pieces.
        let gpuDifference = try XCTUnwrap(ImageComparison.compare(gpu, cpu))
        XCTAssertGreaterThanOrEqual(gpuDifference.psnr, 40, "gpu vs cpu bodies")
        XCTAssertLessThanOrEqual(gpuDifference.pixelsOverTolerance, gpuDifference.pixelCount / 200)
        XCTAssertGreaterThan(Set(cpu.pixels).count, 10, "a frame with real content")
    }

    /// With corner masks (as frames are drawn), each corner of a body's fill and its border's
    /// corner are one corner the body carries, sampling one mask pair (red the fill's coverage,
    /// green the ring's); the frame is what the distance math draws, on both backends.
    func testMergedCornersAreOneItemFromOneMaskPair() throws {
        let masks = ContentCache()
        let root = cards(offset: 0)
        let masked = plan(root, masks: masks)
        var corners: [DrawItem] = []
        for item in masked.passes[0].items { item.forEachBodyCorner { corners.append($0) } }
        XCTAssertFalse(masked.passes[0].items.contains { $0.tint != nil }, "no corner items of their own")
        var images: [ObjectIdentifier: Int] = [:]
        for item in corners {
            guard case .image(let image, let source, _, _) = item.paint else { return XCTFail("\(item)") }
            images[ObjectIdentifier(image), default: 0] += 1
            XCTAssertEqual(source.width, 0.5, "a quadrant")
            XCTAssertNotNil(item.borderTint, "the border's corner drawn with the fill's")
        }
        // Cards 0 and 2 (circular; card 1's continuous corners keep their math): 4 + 1 corners,
        // and no border corner left on its own.
        XCTAssertEqual(corners.count, 5)
        XCTAssertEqual(images.count, 1)
        XCTAssertFalse(masked.passes[0].items.contains { $0.role == "border" && $0.tint != nil })
        let withMasks = try XCTUnwrap(CPURenderer().render(masked, images: FileImageProvider()))
        let exact = try XCTUnwrap(CPURenderer().render(plan(root), images: FileImageProvider()))
        let difference = try XCTUnwrap(ImageComparison.compare(withMasks, exact))
        XCTAssertGreaterThanOrEqual(difference.psnr, 40, "masked corners vs the distance math")
        let gpu = try XCTUnwrap(try TestBackends.gpu().render(masked, images: FileImageProvider()))
        let agreement = try XCTUnwrap(ImageComparison.compare(gpu, withMasks))
        XCTAssertGreaterThanOrEqual(agreement.psnr, 40, "gpu vs cpu")
        XCTAssertLessThanOrEqual(agreement.pixelsOverTolerance, agreement.pixelCount / 200)
    }
}
