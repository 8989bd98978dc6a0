import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import Animation
import Timing
import GLRenderer
import CPURenderer
import ImageIO
import TestSupport

/// Pixel tests of the GL backend on llvmpipe (or a GPU), checked against analytic geometry; every
/// frame is drawn by the CPU reference renderer too, which must agree with it (PSNR ≥ 40 dB and
/// 99.5 % of pixels within 2/255, the reftests' cross-backend rule).
final class GLRendererTests: XCTestCase {
    nonisolated(unsafe) private static let reference = CPURenderer()

    /// The process's one GL renderer (skips where there is no EGL; CI has Mesa).
    private func renderer() throws -> GLRenderer { try TestBackends.gpu() }

    private func render(_ root: CALayer, width: Int, height: Int, at time: Double = 0,
                        background: CGColor? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Image {
        let tree = PresentationTree.evaluate(root, at: time)
        let plan = RenderPlanBuilder(width: width, height: height, background: background).plan(for: tree)
        let gpu = try XCTUnwrap(try renderer().render(plan, images: FileImageProvider()), file: file, line: line)
        let cpu = try XCTUnwrap(Self.reference.render(plan, images: FileImageProvider()), file: file, line: line)
        let difference = try XCTUnwrap(ImageComparison.compare(gpu, cpu, tolerance: 2), file: file, line: line)
        XCTAssertGreaterThanOrEqual(difference.psnr, 40, "GPU vs CPU", file: file, line: line)
        XCTAssertLessThanOrEqual(difference.pixelsOverTolerance, difference.pixelCount / 200, "GPU vs CPU", file: file, line: line)
        return gpu
    }

    private func root(_ width: CGFloat, _ height: CGFloat) -> CALayer { rootLayer(width: width, height: height) }

    private func pixel(_ image: Image, _ x: Int, _ y: Int) -> [Int] {
        guard (0..<image.width).contains(x), (0..<image.height).contains(y) else { return [-1, -1, -1, -1] }
        let p = image[x, y]
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    /// A run plans ahead once frames take 0.2 ms to plan on Mesa's software rasterizers, which
    /// shade on the program's own cores, and from its first frame on a GPU.
    func testPlanningAheadWaitsOnlyOnSoftwareRasterizers() throws {
        XCTAssertTrue(GLContext.rendersOnTheCPU("llvmpipe (LLVM 15.0.6, 256 bits)"))
        XCTAssertTrue(GLContext.rendersOnTheCPU("softpipe"))
        XCTAssertFalse(GLContext.rendersOnTheCPU("NVIDIA H200/PCIe/SSE2"))
        let gl = try renderer()
        XCTAssertEqual(gl.planningAheadThreshold, gl.context.rendersOnTheCPU ? 0.2e-3 : 0)
    }

    func testBackgroundFillsItsFrameAndNothingElse() throws {
        let r = root(64, 48)
        let square = CALayer()
        square.frame = CGRect(x: 10, y: 8, width: 20, height: 16)
        square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        r.addSublayer(square)
        let image = try render(r, width: 64, height: 48, background: CGColor(gray: 0, alpha: 1))
        XCTAssertEqual(pixel(image, 10, 8), [255, 0, 0, 255], "top-left pixel inside")
        XCTAssertEqual(pixel(image, 29, 23), [255, 0, 0, 255], "bottom-right pixel inside")
        XCTAssertEqual(pixel(image, 9, 8), [0, 0, 0, 255], "left of the frame")
        XCTAssertEqual(pixel(image, 30, 23), [0, 0, 0, 255], "right of the frame")
        XCTAssertEqual(pixel(image, 10, 24), [0, 0, 0, 255], "below the frame (y grows downward)")
    }

    func testRotatedSquareCornersLandWhereTheMatrixSays() throws {
        // A 40×40 square rotated 45° about its centre (50, 50): its corners sit on the axes at
        // distance 20√2 ≈ 28.28 from the centre.
        let r = root(100, 100)
        let square = CALayer()
        square.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        square.position = CGPoint(x: 50, y: 50)
        square.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        square.backgroundColor = CGColor(gray: 1, alpha: 1)
        r.addSublayer(square)
        let image = try render(r, width: 100, height: 100)
        let reach = 20 * 2.0.squareRoot()
        for (dx, dy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
            let inside = (50 + dx * (reach - 2), 50 + dy * (reach - 2))
            let outside = (50 + dx * (reach + 2), 50 + dy * (reach + 2))
            XCTAssertEqual(pixel(image, Int(inside.0), Int(inside.1))[3], 255, "just inside corner \(dx),\(dy)")
            XCTAssertEqual(pixel(image, Int(outside.0), Int(outside.1))[3], 0, "just outside corner \(dx),\(dy)")
        }
        // Edge midpoints sit 20 from the centre along the diagonals, at (50 ± 14.14, 50 ± 14.14).
        XCTAssertEqual(pixel(image, 50 + 12, 50 + 12)[3], 255, "inside the edge along the diagonal")
        XCTAssertEqual(pixel(image, 50 + 16, 50 + 16)[3], 0, "outside the edge along the diagonal")
        XCTAssertEqual(pixel(image, 50 - 16, 50 - 16)[3], 0, "outside the opposite edge")
    }

    func testPerspectiveShrinksTheFarEdgeByTheM34Factor() throws {
        // The swinging door: hinge on the left at x = 50, rotated 60° about y (away from the
        // viewer) under m34 = −1/500 on its parent, whose anchor is (150, 150).
        let r = root(300, 300)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        r.sublayerTransform = perspective
        let door = CALayer()
        door.bounds = CGRect(x: 0, y: 0, width: 128, height: 256)
        door.anchorPoint = CGPoint(x: 0, y: 0.5)
        door.position = CGPoint(x: 50, y: 150)
        door.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        door.backgroundColor = CGColor(gray: 1, alpha: 1)
        r.addSublayer(door)
        let image = try render(r, width: 300, height: 300)
        // Far edge: x' = 128·cos60° = 64 past the hinge, z' = −128·sin60° ≈ −110.85; about the
        // parent's anchor a point (x, y, z) projects to 150 + (x − 150)/w with w = 1 − z/500.
        let w = 1 + 128 * sin(Double.pi / 3) / 500
        let farX = 150 + (50 + 64 - 150) / w
        let farHalfHeight = 128 / w
        XCTAssertEqual(pixel(image, 51, 150)[3], 255, "the hinge edge stays at x = 50")
        XCTAssertEqual(pixel(image, 48, 150)[3], 0, "nothing left of the hinge")
        XCTAssertEqual(pixel(image, 51, 150 - 126)[3], 255, "the hinge edge keeps its full height")
        XCTAssertEqual(pixel(image, Int(farX) - 2, 150)[3], 255, "inside the far edge")
        XCTAssertEqual(pixel(image, Int(farX) + 2, 150)[3], 0, "outside the far edge")
        // The far edge is shorter by the factor 1/w.
        XCTAssertEqual(pixel(image, Int(farX) - 2, Int(150 - farHalfHeight) + 3)[3], 255, "far edge top, inside")
        XCTAssertEqual(pixel(image, Int(farX) - 2, Int(150 - farHalfHeight) - 3)[3], 0, "far edge top, outside")
    }

    func testEdgeAntialiasingSoftensRotatedEdgesOnlyWhenAllowed() throws {
        func edgeAlphas(_ antialiased: Bool) throws -> Set<Int> {
            let r = root(100, 100)
            let square = CALayer()
            square.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
            square.position = CGPoint(x: 50, y: 50)
            square.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            square.backgroundColor = CGColor(gray: 1, alpha: 1)
            square.allowsEdgeAntialiasing = antialiased
            r.addSublayer(square)
            let image = try render(r, width: 100, height: 100)
            var alphas = Set<Int>()
            for y in 0..<100 { for x in 0..<100 { alphas.insert(Int(image[x, y].a)) } }
            return alphas
        }
        XCTAssertEqual(try edgeAlphas(false), [0, 255], "aliased: every pixel is in or out")
        let soft = try edgeAlphas(true)
        XCTAssertGreaterThan(soft.count, 20, "anti-aliased: edge pixels take intermediate coverage")
        XCTAssertTrue(soft.contains(0) && soft.contains(255))
    }

    func testGeometryBehindTheEyeIsClippedNotSmeared() throws {
        // Eye at z = +100 (m34 = −1/100). A layer pushed to z = 150 is behind it: nothing shows.
        let r = root(100, 100)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 100
        r.sublayerTransform = perspective
        let behind = CALayer()
        behind.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
        behind.position = CGPoint(x: 50, y: 50)
        behind.zPosition = 150
        behind.backgroundColor = CGColor(gray: 1, alpha: 1)
        r.addSublayer(behind)
        var image = try render(r, width: 100, height: 100)
        XCTAssertTrue(image.pixels.allSatisfy { $0 == 0 }, "a layer behind the eye draws nothing")

        // A long floor tilted toward the eye crosses w = 0: only the part in front is drawn, and
        // its far side stays in the lower half (no wrap-around to the top of the frame).
        behind.zPosition = 0
        behind.bounds = CGRect(x: 0, y: 0, width: 60, height: 400)
        behind.transform = CATransform3DMakeRotation(-.pi / 2.2, 1, 0, 0)
        image = try render(r, width: 100, height: 100)
        let covered = (0..<100).map { y in (0..<100).contains { x in image[x, y].a > 0 } }
        XCTAssertTrue(covered.contains(true), "the part in front of the eye is drawn")
        XCTAssertTrue(covered.contains(false), "the frame is not smeared over entirely")
    }

    func testIntersectingPlanesAreSplitSoEachShowsWhereItIsNearer() throws {
        // Two cards crossing in an X inside a transform layer: on the left the red card is nearer,
        // on the right the green one (a depth sort alone would put one card wholly on top).
        let r = root(120, 90)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 300
        r.sublayerTransform = perspective
        let space = CATransformLayer()
        space.frame = r.bounds
        let red = CALayer(), green = CALayer()
        for (card, angle, color) in [(red, CGFloat.pi / 6, CGColor(red: 1, green: 0, blue: 0, alpha: 1)),
                                     (green, -CGFloat.pi / 6, CGColor(red: 0, green: 1, blue: 0, alpha: 1))] {
            card.frame = CGRect(x: 30, y: 20, width: 60, height: 50)
            card.backgroundColor = color
            card.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
            space.addSublayer(card)
        }
        r.addSublayer(space)
        let image = try render(r, width: 120, height: 90)
        // Rotation +30° about y brings the red card's left edge toward the viewer (+z).
        XCTAssertEqual(pixel(image, 40, 45), [255, 0, 0, 255], "left: red in front")
        XCTAssertEqual(pixel(image, 80, 45), [0, 255, 0, 255], "right: green in front")
    }

    private func transitionScene(_ type: CATransitionType, _ subtype: CATransitionSubtype?) -> (CALayer, CALayer) {
        let r = root(100, 60)
        let panel = CALayer()
        panel.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
        panel.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)   // the old state
        r.addSublayer(panel)
        let transition = CATransition()
        transition.type = type
        transition.subtype = subtype
        transition.duration = 1
        transition.beginTime = AVCoreAnimationBeginTimeAtZero
        panel.add(transition, forKey: kCATransition)
        panel.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)   // the new state
        return (r, panel)
    }

    func testPushTransitionSlidesOldOutAndNewInWithinTheBounds() throws {
        let (r, _) = transitionScene(.push, .fromRight)
        // Half-way (linear pacing): the old content has moved 50 left, the new one sits 50 right.
        let image = try render(r, width: 100, height: 60, at: 0.5)
        XCTAssertEqual(pixel(image, 25, 30), [255, 0, 0, 255], "old state on the left half")
        XCTAssertEqual(pixel(image, 75, 30), [0, 0, 255, 255], "new state on the right half")
        let done = try render(r, width: 100, height: 60, at: 1.5)
        XCTAssertEqual(pixel(image, 75, 30), pixel(done, 75, 30))
        XCTAssertEqual(pixel(done, 25, 30), [0, 0, 255, 255], "after the transition only the new state")
    }

    func testFadeTransitionCrossFades() throws {
        let (r, _) = transitionScene(.fade, nil)
        let image = try render(r, width: 100, height: 60, at: 0.5)
        let p = pixel(image, 50, 30)
        // A cross-dissolve: old red · 0.5 + new blue · 0.5, still opaque (nothing below shows).
        XCTAssertEqual(Double(p[0]), 127.5, accuracy: 2)
        XCTAssertEqual(Double(p[2]), 127.5, accuracy: 2)
        XCTAssertEqual(Double(p[3]), 255, accuracy: 1)
    }

    /// Worked example E61: two opaque overlapping sublayers under a parent at opacity 0.5 — the
    /// overlap has alpha 0.5 with group opacity and 0.75 without; elsewhere 0.5.
    func testE61GroupOpacityOfOverlappingSublayers() throws {
        func alphas(groupOpacity: Bool) throws -> (overlap: Int, single: Int) {
            let r = root(60, 40)
            let parent = CALayer()
            parent.frame = r.bounds
            parent.opacity = 0.5
            parent.allowsGroupOpacity = groupOpacity
            for x in [5.0, 25.0] {
                let square = CALayer()
                square.frame = CGRect(x: x, y: 5, width: 30, height: 30)
                square.backgroundColor = CGColor(gray: 1, alpha: 1)
                parent.addSublayer(square)
            }
            r.addSublayer(parent)
            let image = try render(r, width: 60, height: 40)
            return (Int(image[30, 20].a), Int(image[10, 20].a))
        }
        let grouped = try alphas(groupOpacity: true), separate = try alphas(groupOpacity: false)
        XCTAssertEqual(Double(grouped.overlap), 127.5, accuracy: 1, "E61 overlap with group opacity")
        XCTAssertEqual(Double(separate.overlap), 191.25, accuracy: 1, "E61 overlap without group opacity")
        XCTAssertEqual(Double(grouped.single), 127.5, accuracy: 1, "E61 elsewhere")
        XCTAssertEqual(Double(separate.single), 127.5, accuracy: 1, "E61 elsewhere")
    }
}
