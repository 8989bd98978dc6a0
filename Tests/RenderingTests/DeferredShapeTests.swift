import XCTest
import Geometry
import Layers
import Presentation
@testable import Rendering
import ContentRaster
@testable import CPURenderer
import GLRenderer
import ImageIO
import TestSupport

/// Shapes the CPU backend rasterizes a band at a time as it draws them (`Paint.shape`): a plan
/// made with a shape drawer defers a shape the first time it is asked for and keeps a raster of
/// one asked for again, and the frame comes out byte for byte as compositing the raster gives —
/// on one thread and across bands, and on the GL backend, which rasterizes a deferred shape itself.
final class DeferredShapeTests: XCTestCase {
    private let width = 160, height = 120

    /// A backdrop, then a filled and stroked star moved by `offset` points and turned by `angle`
    /// (a rotated layer is placed on target pixels by its own map), faded by `opacity`, with
    /// an opaque card over part of it.
    private func tree(offset: CGFloat = 0, angle: CGFloat = 0, opacity: Float = 1, stroke: Bool = true,
                      card: Bool = true) -> CALayer {
        let root = rootLayer(width: CGFloat(width), height: CGFloat(height))
        root.backgroundColor = CGColor(red: 0.9, green: 0.85, blue: 0.7, alpha: 1)
        let shape = CAShapeLayer()
        shape.bounds = CGRect(x: 0, y: 0, width: 90, height: 80)
        shape.position = CGPoint(x: 70.3 + offset, y: 58.6)
        shape.transform = CATransform3DMakeRotation(angle, 0, 0, 1)
        shape.path = starPath(center: CGPoint(x: 45, y: 40))
        shape.fillColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.9)
        if stroke {
            shape.strokeColor = CGColor(red: 0.7, green: 0.1, blue: 0.2, alpha: 1)
            shape.lineWidth = 3.5
            shape.lineJoin = .round
        }
        shape.opacity = opacity
        root.addSublayer(shape)
        if card {
            let solid = CALayer()
            solid.frame = CGRect(x: 90, y: 40, width: 60, height: 60)
            solid.backgroundColor = CGColor(red: 0.1, green: 0.6, blue: 0.3, alpha: 1)
            root.addSublayer(solid)
        }
        return root
    }

    /// The plan of `root`, shapes deferred to `cache` when `defers`.
    private func plan(_ root: CALayer, cache: ContentCache, defers: Bool = true) -> RenderPlan {
        var builder = RenderPlanBuilder(width: width, height: height, contentRasterizer: cache)
        if defers { builder.shapeDrawer = cache }
        return builder.plan(for: PresentationTree.evaluate(root, at: 0))
    }

    private func pathPaint(_ plan: RenderPlan) throws -> Paint {
        try XCTUnwrap(plan.passes.last?.items.first { $0.role == "path" }).paint
    }

    private func isDeferred(_ paint: Paint) -> Bool { if case .shape = paint { true } else { false } }

    /// Drawn a band at a time, a shape comes out as its raster composited, byte for byte:
    /// upright and turned, faded (a fill and a stroke fade as one image), on one thread and two
    /// (bands cut the shape's raster into rows cairo draws alike).
    func testADeferredShapeDrawsTheBytesOfItsRaster() throws {
        for (angle, opacity): (CGFloat, Float) in [(0, 1), (0.35, 1), (0, 0.5), (1.1, 0.7)] {
            let deferred = plan(tree(angle: angle, opacity: opacity), cache: ContentCache())
            XCTAssertTrue(isDeferred(try pathPaint(deferred)), "angle \(angle): a new shape is deferred")
            let rasterized = plan(tree(angle: angle, opacity: opacity), cache: ContentCache(), defers: false)
            XCTAssertFalse(isDeferred(try pathPaint(rasterized)))
            let reference = try XCTUnwrap(CPURenderer(threads: 1).render(rasterized, images: FileImageProvider()))
            for threads in [1, 2] {
                let frame = try XCTUnwrap(CPURenderer(threads: threads).render(deferred, images: FileImageProvider()))
                XCTAssertEqual(frame.pixels, reference.pixels, "angle \(angle), opacity \(opacity), \(threads) threads")
            }
            // The shape is there: its blue fill at the star's centre.
            XCTAssertGreaterThan(reference[70, 58].b, 150)
        }
    }

    /// cairo draws any band of rows of a raster as those rows of the whole raster: a star with
    /// curves, dashes and a trimmed stroke, cut into bands of every height from 1 to 37 rows.
    func testEveryBandOfRowsIsTheRastersRows() throws {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 3.3, y: 7.1))
        path.addCurve(to: CGPoint(x: 61.7, y: 52.9), control1: CGPoint(x: 80, y: -10), control2: CGPoint(x: -20, y: 70))
        path.addQuadCurve(to: CGPoint(x: 10.2, y: 60.4), control: CGPoint(x: 40, y: 90))
        path.closeSubpath()
        path.addEllipse(in: CGRect(x: 20.5, y: 15.25, width: 30.1, height: 22.7))
        var style = ShapeStyle(fillColor: CGColor(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.8), fillRule: .evenOdd,
                               strokeColor: CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 0.9))
        style.lineWidth = 2.7
        style.lineDashPattern = [5, 3.5]
        style.strokeEnd = 0.83
        let input = ShapeRasterInput(path: path, style: style, pixelWidth: 71, pixelHeight: 73,
                                     transform: CGAffineTransform(a: 1.03, b: 0.21, c: -0.17, d: 0.98, tx: 4.4, ty: 3.9))
        let whole = try XCTUnwrap(PathRasterizer.rasterize(input))
        for band in 1...37 {
            var rows: [UInt8] = []
            var start = 0
            while start < input.pixelHeight {
                let end = min(start + band, input.pixelHeight)
                var part = [UInt8](repeating: 7, count: (end - start) * input.pixelWidth * 4)
                XCTAssertTrue(part.withUnsafeMutableBufferPointer { PathRasterizer.rasterize(input, rows: start..<end, into: $0.baseAddress!) })
                rows += part
                start = end
            }
            XCTAssertEqual(rows, whole.pixels, "bands of \(band) rows")
        }
    }

    /// The opaque card drawn after the shape hides it where they overlap: the card claims its
    /// pixels first (front to back) and the shape's bands leave them alone.
    func testALaterOpaqueLayerHidesADeferredShape() throws {
        let frame = try XCTUnwrap(CPURenderer(threads: 2).render(plan(tree(), cache: ContentCache()), images: FileImageProvider()))
        // (96, 50) lies in the star's upper right arm, and in the card.
        let uncovered = try XCTUnwrap(CPURenderer(threads: 2).render(plan(tree(card: false), cache: ContentCache()), images: FileImageProvider()))
        XCTAssertGreaterThan(uncovered[96, 50].b, 150, "the star is there without the card")
        XCTAssertPixel(frame, 96, 50, (26, 153, 77, 255))
        XCTAssertPixel(frame, 149, 99, (26, 153, 77, 255))
    }

    /// A shape asked for unchanged is drawn from a raster from the second frame on (the same
    /// image after that); one that changes every frame stays deferred, until a loop brings its
    /// requests back, when they are rasterized; a frame is the same bytes either way.
    func testAnUnchangedShapeKeepsARasterAndAMovingOneIsPaintedEachFrame() throws {
        let cache = ContentCache()
        let still = tree()
        let paints = try (0..<3).map { _ in try pathPaint(plan(still, cache: cache)) }
        XCTAssertTrue(isDeferred(paints[0]))
        guard case .image(let second, _, _, _) = paints[1], case .image(let third, _, _, _) = paints[2] else {
            return XCTFail("an unchanged shape is rasterized the second time: \(paints)")
        }
        XCTAssertTrue(second === third, "and kept")
        let moving = tree()
        let shape = try XCTUnwrap(moving.sublayers?.first as? CAShapeLayer)
        for step in 0..<3 {
            shape.lineWidth = 5 + CGFloat(step)
            XCTAssertTrue(isDeferred(try pathPaint(plan(moving, cache: cache))), "step \(step)")
        }
        // The second loop: each width seen lately is rasterized now, and kept.
        for step in 0..<3 {
            shape.lineWidth = 5 + CGFloat(step)
            XCTAssertFalse(isDeferred(try pathPaint(plan(moving, cache: cache))), "loop 2, step \(step)")
        }
        XCTAssertFalse(isDeferred(try pathPaint(plan(moving, cache: cache))), "loop 3: kept")
        // A window of capacity … 2 × capacity requests: a loop longer than that stays deferred.
        let small = ContentCache(capacity: 4)
        for loop in 0..<2 {
            for step in 0..<9 {
                shape.lineWidth = 5 + CGFloat(step)
                XCTAssertTrue(isDeferred(try pathPaint(plan(moving, cache: small))), "loop \(loop), step \(step)")
            }
        }
        let fromRaster = try XCTUnwrap(CPURenderer().render(plan(still, cache: cache), images: FileImageProvider()))
        let deferred = try XCTUnwrap(CPURenderer().render(plan(still, cache: ContentCache()), images: FileImageProvider()))
        XCTAssertEqual(fromRaster.pixels, deferred.pixels, "a frame is the same whichever way its shapes are drawn")
    }

    /// The GL backend draws shapes from rasters: given a plan made for the CPU backend, it
    /// rasterizes the deferred shapes itself and draws what the rasterized plan draws.
    func testTheGPUBackendRasterizesADeferredPlan() throws {
        let gpu = try TestBackends.gpu()
        XCTAssertFalse(gpu.drawsDeferredShapes)
        XCTAssertTrue(CPURenderer().drawsDeferredShapes)
        let deferred = plan(tree(angle: 0.35), cache: ContentCache())
        let rasterized = plan(tree(angle: 0.35), cache: ContentCache(), defers: false)
        XCTAssertTrue(deferred.rasterizingShapes().passes.allSatisfy { $0.items.allSatisfy { !isDeferred($0.paint) } })
        let a = try XCTUnwrap(gpu.render(deferred, images: FileImageProvider()))
        let b = try XCTUnwrap(gpu.render(rasterized, images: FileImageProvider()))
        XCTAssertEqual(a.pixels, b.pixels)
    }
}
