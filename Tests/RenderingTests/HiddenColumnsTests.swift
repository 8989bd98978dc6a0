import XCTest
import Geometry
import Layers
import Presentation
@testable import Rendering
import ContentRaster
@testable import CPURenderer
import ImageIO
import TestSupport

/// Pixels that a later shape's opaque inside replaces are left undrawn by the CPU backend
/// (`HiddenColumns`), and the frame comes out byte for byte as drawing everything gives.
final class HiddenColumnsTests: XCTestCase {
    private let width = 160, height = 120

    /// On a transparent root (no opaque item in the pass): a red disc, a green bar over it, a blue
    /// rounded card over both (its inside opaque), and a translucent star over the card; the card
    /// faded by `cardOpacity`, or left out.
    private func tree(cardOpacity: Float = 1, card: Bool = true) -> CALayer {
        let root = rootLayer(width: CGFloat(width), height: CGFloat(height))
        func shape(_ path: CGPath, _ color: CGColor, opacity: Float = 1) {
            let layer = CAShapeLayer()
            layer.frame = root.bounds
            layer.path = path
            layer.fillColor = color
            layer.opacity = opacity
            root.addSublayer(layer)
        }
        shape(CGPath(ellipseIn: CGRect(x: 10.5, y: 8.25, width: 100, height: 100), transform: nil), CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1))
        shape(CGPath(rect: CGRect(x: 0, y: 40.5, width: 160, height: 30), transform: nil), CGColor(red: 0.1, green: 0.8, blue: 0.2, alpha: 1))
        if card {
            shape(CGPath(roundedRect: CGRect(x: 30.3, y: 20.6, width: 110, height: 80), cornerWidth: 18, cornerHeight: 18, transform: nil),
                  CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1), opacity: cardOpacity)
        }
        shape(starPath(center: CGPoint(x: 85, y: 60)), CGColor(red: 1, green: 0.9, blue: 0.2, alpha: 0.6))
        return root
    }

    /// The plan of `root` with every shape rasterized (as kept rasters are from their second frame).
    private func plan(_ root: CALayer) -> RenderPlan {
        let builder = RenderPlanBuilder(width: width, height: height, contentRasterizer: ContentCache())
        return builder.plan(for: PresentationTree.evaluate(root, at: 0))
    }

    private func render(_ plan: RenderPlan, threads: Int, hides: Bool) throws -> (pixels: [UInt8], hidden: Int) {
        let renderer = CPURenderer(threads: threads)
        renderer.hidesCoveredTexels = hides
        renderer.prepare(plan)
        let frame = try XCTUnwrap(renderer.render(plan, images: FileImageProvider()))
        return (frame.pixels, renderer.hiddenPixels.value)
    }

    /// Under the card's opaque inside the disc and the bar are not drawn, on one thread and two,
    /// and the frame is the one drawing everything gives.
    func testPixelsUnderAShapesOpaqueInsideAreSkippedAndTheFrameIsUnchanged() throws {
        let plan = plan(tree())
        let reference = try render(plan, threads: 1, hides: false)
        XCTAssertEqual(reference.hidden, 0)
        for threads in [1, 2] {
            let hidden = try render(plan, threads: threads, hides: true)
            XCTAssertEqual(hidden.pixels, reference.pixels, "\(threads) threads")
            // The disc and the bar under the card's ~108×78 opaque inside: thousands of pixels.
            XCTAssertGreaterThan(hidden.hidden, 5_000, "\(threads) threads")
        }
    }

    /// A faded card blends with what is below it: it hides nothing (what is skipped is what the
    /// opaque bar hides of the disc, as without the card).
    func testAFadedShapeHidesNothing() throws {
        let plan = plan(tree(cardOpacity: 0.8))
        let hidden = try render(plan, threads: 1, hides: true)
        let withoutCard = try render(self.plan(tree(card: false)), threads: 1, hides: true)
        XCTAssertGreaterThan(withoutCard.hidden, 0, "the bar hides part of the disc")
        XCTAssertEqual(hidden.hidden, withoutCard.hidden)
        XCTAssertEqual(hidden.pixels, try render(plan, threads: 1, hides: false).pixels)
    }

    /// Each row's longest run of opaque pixels, (0, 0) for a row with none.
    func testOpaqueRunsAreEachRowsLongestRunOfOpaquePixels() {
        let o: UInt32 = 0xFF10_2030, t: UInt32 = 0x8008_1018, z: UInt32 = 0
        let pixels: [UInt32] = [o, o, t, o, o, o, z, o,
                                z, t, t, z, z, t, z, z,
                                o, o, o, o, o, o, o, o]
        var runs = [Int32](repeating: -1, count: 6)
        let extents: [Int32] = [0, 8, 1, 6, 0, 8]
        pixels.withUnsafeBufferPointer { OpaqueRuns.scan($0.baseAddress!, width: 8, height: 3, extents: extents, into: &runs) }
        XCTAssertEqual(runs, [3, 6, 0, 0, 0, 8])
        // Eight at a time: a run across blocks of eight, ended by a transparent block.
        let wide = [UInt32](repeating: o, count: 20) + [UInt32](repeating: z, count: 8) + [UInt32](repeating: o, count: 4)
        var run = [Int32](repeating: -1, count: 2)
        wide.withUnsafeBufferPointer { OpaqueRuns.scan($0.baseAddress!, width: 32, height: 1, extents: [0, 32], into: &run) }
        XCTAssertEqual(run, [0, 20])
    }
}
