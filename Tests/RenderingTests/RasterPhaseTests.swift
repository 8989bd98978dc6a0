import XCTest
import Geometry
import Layers
import Presentation
@testable import Rendering
import ContentRaster

/// A shape layer under a plain move is rasterized at its origin's sub-pixel phase rounded to
/// 1/32 pixel and drawn moved by the rounding: moves within one step reuse the raster, and the
/// raster's pixels still land on the target's.
final class RasterPhaseTests: XCTestCase {
    private func item(x: CGFloat, y: CGFloat, cache: ContentCache) throws -> DrawItem {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
        root.position = CGPoint(x: 40, y: 30)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: x, y: y, width: 30, height: 20)
        shape.path = CGPath(ellipseIn: CGRect(x: 1, y: 2, width: 26, height: 15), transform: nil)
        shape.fillColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
        root.addSublayer(shape)
        let plan = RenderPlanBuilder(width: 80, height: 60, contentRasterizer: cache).plan(for: PresentationTree.evaluate(root, at: 0))
        return try XCTUnwrap(plan.passes.last?.items.first { $0.role == "path" })
    }

    private func image(_ item: DrawItem) -> CGImage? {
        if case .image(let image, _, _, _) = item.paint { image } else { nil }
    }

    /// Where the raster's top-left corner lands in the target.
    private func corner(_ item: DrawItem) -> CGPoint { item.transform.projecting(CGPoint(x: item.rect.minX, y: item.rect.minY)) }

    func testMovesWithinOneStepShareARasterOnWholePixels() throws {
        let cache = ContentCache()
        let a = try item(x: 10.30, y: 7.02, cache: cache), b = try item(x: 10.31, y: 7.025, cache: cache)
        XCTAssertTrue(try XCTUnwrap(image(a)) === XCTUnwrap(image(b)), "0.30 and 0.31 round to the same 1/32 pixel")
        for item in [a, b] {
            let p = corner(item)
            XCTAssertEqual(p.x, p.x.rounded(), accuracy: 1e-9)
            XCTAssertEqual(p.y, p.y.rounded(), accuracy: 1e-9)
        }
        // The drawn shape is where the layer is, to within half a step.
        let moved = try item(x: 10.30 + 3, y: 7.02, cache: cache)
        XCTAssertTrue(try XCTUnwrap(image(moved)) === XCTUnwrap(image(a)), "whole-pixel moves keep the raster")
        XCTAssertEqual(corner(moved).x - corner(a).x, 3, accuracy: 1e-9)
        let other = try item(x: 10.60, y: 7.02, cache: cache)
        XCTAssertFalse(try XCTUnwrap(image(other)) === XCTUnwrap(image(a)), "another phase, another raster")
    }

    func testThePhaseIsRoundedToAStepAndTheShiftMakesUpTheDifference() {
        for phase in [0.0, 0.01, 0.3, 0.5, 0.984, 0.99, 0.999] as [CGFloat] {
            let r = RenderPlanBuilder.Walk.rasterPhase(CGPoint(x: phase, y: 1 - phase == 1 ? 0 : 1 - phase))
            for (p, q, s) in [(phase, r.phase.x, r.shift.x), (1 - phase == 1 ? 0 : 1 - phase, r.phase.y, r.shift.y)] {
                XCTAssertTrue(q >= 0 && q < 1, "phase \(p)")
                XCTAssertEqual((q * 32).rounded(), q * 32, "a step of 1/32: \(p)")
                XCTAssertLessThanOrEqual(abs(s), 1.0 / 64 + 1e-12, "phase \(p)")
                // The raster at phase q drawn moved by s sits on the grid the layer's phase p needs.
                let offset = p + s - q
                XCTAssertEqual(offset, offset.rounded(), accuracy: 1e-12, "phase \(p)")
            }
        }
    }
}
