import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster
import ImageIO
import CPURenderer
import TestSupport

/// A shape layer that can paint nothing is left out of the plan (lottie-ios's stroke overlay on
/// a gradient fill): no raster, no item, and the frame's pixels as with the layer removed.
final class UnpaintedShapeTests: XCTestCase {
    private func tree(overlay configure: ((CAShapeLayer) -> Void)?) -> CALayer {
        let root = rootLayer(width: 80, height: 60)
        let gradient = diagonalGradient(frame: CGRect(x: 5, y: 5, width: 70, height: 50))
        root.addSublayer(gradient)
        if let configure {
            let overlay = CAShapeLayer()
            overlay.frame = root.bounds
            overlay.path = CGPath(ellipseIn: CGRect(x: 10, y: 8, width: 60, height: 44), transform: nil)
            configure(overlay)
            root.addSublayer(overlay)
        }
        return root
    }

    private func render(_ root: CALayer, cache: ContentCache) throws -> (RenderPlan, Image) {
        let plan = RenderPlanBuilder(width: 80, height: 60, contentRasterizer: cache).plan(for: PresentationTree.evaluate(root, at: 0))
        return (plan, try XCTUnwrap(CPURenderer(threads: 1).render(plan, images: FileImageProvider())))
    }

    func testAShapeThatCanPaintNothingIsLeftOut() throws {
        let (_, without) = try render(tree(overlay: nil), cache: ContentCache())
        let unpainted: [(String, (CAShapeLayer) -> Void)] = [
            ("no fill, no stroke", { $0.fillColor = nil; $0.strokeColor = nil }),
            ("clear fill, zero-width stroke", { $0.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0); $0.strokeColor = .black; $0.lineWidth = 0 }),
            ("no fill, clear stroke", { $0.fillColor = nil; $0.strokeColor = CGColor(gray: 0, alpha: 0); $0.lineWidth = 4 }),
        ]
        for (name, configure) in unpainted {
            let cache = ContentCache()
            let (plan, image) = try render(tree(overlay: configure), cache: cache)
            XCTAssertFalse(plan.passes.flatMap(\.items).contains { $0.role == "path" }, name)
            XCTAssertEqual(cache.statistics.misses, 0, "\(name): nothing rasterized")
            XCTAssertEqual(image.pixels, without.pixels, name)
        }
        // Any visible paint keeps it: a stroke alone, a fill alone.
        for (name, configure) in [("stroke", { (s: CAShapeLayer) in s.fillColor = nil; s.strokeColor = .black; s.lineWidth = 2 }),
                                  ("fill", { (s: CAShapeLayer) in s.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5); s.strokeColor = nil })] {
            let (plan, image) = try render(tree(overlay: configure), cache: ContentCache())
            XCTAssertEqual(plan.passes.flatMap(\.items).filter { $0.role == "path" }.count, 1, name)
            XCTAssertNotEqual(image.pixels, without.pixels, name)
        }
        let (_, stroked) = try render(tree(overlay: { $0.fillColor = nil; $0.strokeColor = .black; $0.lineWidth = 2 }), cache: ContentCache())
        XCTAssertTrue(stroked[40, 8] == (0, 0, 0, 255), "the stroke's top: \(stroked[40, 8])")
    }
}
