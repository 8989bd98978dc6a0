import XCTest
import Lamina

/// The programs of PortedPrograms.swift rendered on both backends (GPU: GLRenderer, llvmpipe on
/// CI; CPU: the reference renderer), checked pixel by pixel: each expected colour within 3/255
/// per channel at points away from edges, and the two backends within 2/255 on 99.5 % of pixels.
final class PortedProgramTests: XCTestCase {
    nonisolated(unsafe) private static var renderers: [String: FrameRenderer] = [:]

    func renderer(_ width: Int, _ height: Int, _ backend: BackendKind) -> FrameRenderer? {
        let key = "\(width)x\(height) \(backend)"
        if let r = Self.renderers[key] { return r }
        guard let r = try? FrameRenderer(width: width, height: height, backend: backend) else {
            print("PortedProgramTests: no EGL display; the \(backend) backend is skipped")
            return nil
        }
        Self.renderers[key] = r
        return r
    }

    /// `root` (its bounds give the frame) at each time on each backend; the backends' frames are
    /// compared with each other.
    func frames(_ root: CALayer, at time: Double = 0, file: StaticString = #filePath, line: UInt = #line) -> [(BackendKind, Image)] {
        let size = root.bounds.size
        var result: [(BackendKind, Image)] = []
        for backend in BackendKind.allCases {
            guard let r = renderer(Int(size.width), Int(size.height), backend) else { continue }
            guard let image = r.render(root, at: time) else {
                XCTFail("\(backend) returned no frame", file: file, line: line)
                continue
            }
            result.append((backend, image))
        }
        if result.count == 2, let difference = ImageComparison.compare(result[0].1, result[1].1, tolerance: 2) {
            XCTAssertLessThanOrEqual(Double(difference.pixelsOverTolerance) / Double(difference.pixelCount), 0.005,
                                     "GPU vs CPU: \(difference)", file: file, line: line)
        }
        return result
    }

    func stage(_ width: CGFloat, _ height: CGFloat) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.position = CGPoint(x: width / 2, y: height / 2)
        root.backgroundColor = UIColor.black.cgColor
        return root
    }

    func assertPixel(_ image: Image, _ x: Int, _ y: Int, _ rgb: (Int, Int, Int), tolerance: Int = 3, _ message: String = "",
                     file: StaticString = #filePath, line: UInt = #line) {
        let p = image[x, y]
        let ok = abs(Int(p.r) - rgb.0) <= tolerance && abs(Int(p.g) - rgb.1) <= tolerance && abs(Int(p.b) - rgb.2) <= tolerance
        XCTAssertTrue(ok, "pixel (\(x), \(y)) is \(p), expected \(rgb) \(message)", file: file, line: line)
    }

    func testSubclassDrawingFillsARoundedRectAndStrokesACircle() {
        let root = stage(120, 100)
        let card = CardLayer()
        card.frame = CGRect(x: 10, y: 10, width: 100, height: 80)
        root.addSublayer(card)
        for (backend, image) in frames(root) {
            let blue = (51, 128, 230)
            assertPixel(image, 25, 25, blue, "card body, \(backend)")
            assertPixel(image, 11, 11, (0, 0, 0), "the rounded corner leaves the background, \(backend)")
            assertPixel(image, 60, 30, (255, 255, 255), "top of the circle's stroke (radius 20 about 60, 50), \(backend)")
            assertPixel(image, 60, 50, blue, "inside the ring, \(backend)")
        }
    }

    func testDelegateDrawnLayer() {
        let root = stage(60, 60)
        let drawer = BadgeDrawer()
        let badge = CALayer()
        badge.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        badge.delegate = drawer
        badge.setNeedsDisplay()
        root.addSublayer(badge)
        for (backend, image) in frames(root) {
            assertPixel(image, 30, 30, (255, 128, 0), "the disc, \(backend)")
            assertPixel(image, 12, 12, (0, 0, 0), "outside the disc, \(backend)")
        }
        withExtendedLifetime(drawer) {}
    }

    func testPieChartRedrawsWithTheAnimatedProgress() {
        let root = stage(100, 100)
        let pie = PieChartLayer()
        pie.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
        root.addSublayer(pie)
        pie.animate(to: 1, duration: 1)
        let start = pie.animation(forKey: "progress")!.beginTime
        // Points 30 px from the centre (50, 50) at clock angles: 1:30, 4:30, 7:30, 10:30.
        let upperRight = (71, 29), lowerRight = (71, 71), lowerLeft = (29, 71), upperLeft = (29, 29)
        let red = (255, 0, 0), black = (0, 0, 0)
        let expectations: [(Double, [((Int, Int), (Int, Int, Int))])] = [
            (0.25, [(upperRight, red), (lowerRight, black), (upperLeft, black)]),
            (0.5, [(upperRight, red), (lowerRight, red), (lowerLeft, black)]),
            (1, [(upperRight, red), (lowerRight, red), (lowerLeft, red), (upperLeft, red)]),
        ]
        for (t, points) in expectations {
            for (backend, image) in frames(root, at: start + t) {
                for (p, colour) in points { assertPixel(image, p.0, p.1, colour, "t \(t), \(backend)") }
            }
        }
        // The presentation reads the animated value back, as Apple's presentation layer does.
        let tree = PresentationTree.evaluate(root, at: start + 0.25)
        XCTAssertEqual(tree.layers[1].properties.value(named: "progress"), .number(0.25))
    }

    func testPieChartFramesArePureFunctionsOfTime() {
        let root = stage(100, 100)
        let pie = PieChartLayer()
        pie.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
        root.addSublayer(pie)
        pie.animate(to: 1, duration: 1)
        let start = pie.animation(forKey: "progress")!.beginTime
        let times = [0.8, 0.1, 0.55, 0.1, 0.3, 0.8, 0.95, 0.3].map { start + $0 }
        guard let ordered = renderer(100, 100, .cpu) else { return }
        let expected = times.map { ordered.render(root, at: $0)!.pixels }
        // Another order, a fresh cache shared by several threads drawing at once.
        let trees = times.map { PresentationTree.evaluate(root, at: $0) }
        let cache = ContentCache()
        let results = Results(count: times.count)
        DispatchQueue.concurrentPerform(iterations: times.count) { i in
            let index = times.count - 1 - i
            let plan = RenderPlanBuilder(width: 100, height: 100, background: CGColor.black, contentRasterizer: cache)
                .plan(for: trees[index])
            results.set(index, CPURenderer(threads: 1).render(plan, images: FileImageProvider())?.pixels ?? [])
        }
        for i in times.indices { XCTAssertEqual(results.get(i), expected[i], "frame at \(times[i] - start)") }
        // Two threads missing one key at once may both draw it; the cache keeps one per key.
        XCTAssertEqual(cache.statistics.count, 5, "one drawing per distinct progress value")
    }

    func testRendererImageAsAnotherLayersContents() {
        let root = stage(60, 60)
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        layer.contents = makeBadgeImage().cgImage
        root.addSublayer(layer)
        XCTAssertEqual(makeBadgeImage().size, CGSize(width: 40, height: 40))
        for (backend, image) in frames(root) {
            assertPixel(image, 30, 15, (0, 0, 255), "blue on top (UIKit's y down), \(backend)")
            assertPixel(image, 30, 40, (255, 255, 0), "the yellow disc below, \(backend)")
            assertPixel(image, 12, 45, (0, 0, 0), "transparent beside the disc, \(backend)")
        }
    }

    func testLinearAndRadialGradientsDrawnWithCoreGraphics() {
        let root = stage(200, 100)
        let linear = GradientBackgroundLayer()
        linear.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        linear.setNeedsDisplay()
        let radial = SpotlightLayer()
        radial.frame = CGRect(x: 100, y: 0, width: 100, height: 100)
        radial.setNeedsDisplay()
        root.sublayers = [linear, radial]
        for (backend, image) in frames(root) {
            // Column x of the linear gradient is (x + ½)/100 of the way from red to blue.
            for x in [5, 50, 94] {
                let t = (Double(x) + 0.5) / 100
                assertPixel(image, x, 50, (Int((1 - t) * 255), 0, Int(t * 255)), tolerance: 4, "linear, \(backend)")
            }
            // The spotlight at distance d from its centre (150, 50) is 1 − d/50 white.
            for (x, d) in [(150, 0.71), (165, 15.5), (190, 40.5)] {
                let v = Int((1 - d / 50) * 255)
                assertPixel(image, x, 50, (v, v, v), tolerance: 4, "radial, \(backend)")
            }
            assertPixel(image, 101, 1, (0, 0, 0), "past the end circle, \(backend)")
        }
    }

    func testAttributedStringDrawnInALayer() {
        let root = stage(200, 60)
        let caption = CaptionLayer()
        caption.frame = CGRect(x: 0, y: 0, width: 200, height: 60)
        caption.setNeedsDisplay()
        root.addSublayer(caption)
        for (backend, image) in frames(root) {
            var whiteColumns: [Int] = []
            for x in 0..<200 where (0..<60).contains(where: { image[x, $0].r > 200 && image[x, $0].b > 200 }) { whiteColumns.append(x) }
            XCTAssertFalse(whiteColumns.isEmpty, "white text drawn, \(backend)")
            guard let first = whiteColumns.first, let last = whiteColumns.last else { continue }
            // "Lamina" in 24 pt bold is about 85 pt wide: centred, its margins match within 3 px.
            XCTAssertGreaterThan(last - first, 60, "\(backend)")
            XCTAssertEqual(Double(first), Double(199 - last), accuracy: 3, "centred by the paragraph style, \(backend)")
            let rows = (0..<60).filter { y in (0..<200).contains { image[$0, y].r > 200 } }
            XCTAssertLessThan(rows.first ?? 60, 12, "the first line starts at the top, \(backend)")
        }
    }

    func testFlippedImageTrapInUIKitContexts() {
        let (viaCoreGraphics, viaUIKit) = makeTrapImages()
        func pixel(_ image: UIImage, _ y: Int) -> (UInt8, UInt8) {
            let p = image.cgImage!.pixels!
            return (p[(y * 10 + 5) * 4], p[(y * 10 + 5) * 4 + 1])
        }
        XCTAssertEqual(pixel(viaUIKit, 1).0, 255, "UIImage.draw: red stays on top")
        XCTAssertEqual(pixel(viaUIKit, 8).1, 255)
        XCTAssertEqual(pixel(viaCoreGraphics, 1).1, 255, "CGContext.draw in a UIKit context: upside down")
        XCTAssertEqual(pixel(viaCoreGraphics, 8).0, 255)
    }

    func testDrawnLayersWorkAsMasksShadowsAndReplicas() {
        let root = stage(150, 60)
        // A drawn disc as the mask of a green square.
        let square = CALayer()
        square.frame = CGRect(x: 5, y: 10, width: 40, height: 40)
        square.backgroundColor = UIColor.green.cgColor
        let drawer = BadgeDrawer()
        let mask = CALayer()
        mask.frame = square.bounds
        mask.delegate = drawer
        mask.setNeedsDisplay()
        square.mask = mask
        // A drawn card with a shadow, and three replicas of a drawn badge.
        let card = CardLayer()
        card.frame = CGRect(x: 55, y: 10, width: 40, height: 40)
        card.shadowOpacity = 1
        card.shadowRadius = 0
        card.shadowOffset = CGSize(width: 0, height: 6)
        card.shadowColor = UIColor.white.cgColor
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 100, y: 0, width: 50, height: 60)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(0, 20, 0)
        let dot = CALayer()
        dot.frame = CGRect(x: 15, y: 0, width: 20, height: 20)
        dot.delegate = drawer
        dot.setNeedsDisplay()
        replicator.addSublayer(dot)
        root.sublayers = [square, card, replicator]
        for (backend, image) in frames(root) {
            assertPixel(image, 25, 30, (0, 255, 0), "masked square shows inside the disc, \(backend)")
            assertPixel(image, 7, 12, (0, 0, 0), "and not in its corner, \(backend)")
            assertPixel(image, 75, 50, (255, 255, 255), "the card's shadow below its inset body (y 14…46, offset 6), \(backend)")
            for row in [10, 30, 50] { assertPixel(image, 125, row, (255, 128, 0), "replica at \(row), \(backend)") }
        }
        withExtendedLifetime(drawer) {}
    }
}

/// Frames written by several threads.
private final class Results: @unchecked Sendable {
    private var frames: [[UInt8]]
    private let lock = NSLock()
    init(count: Int) { frames = Array(repeating: [], count: count) }
    func set(_ i: Int, _ pixels: [UInt8]) { lock.lock(); frames[i] = pixels; lock.unlock() }
    func get(_ i: Int) -> [UInt8] { lock.lock(); defer { lock.unlock() }; return frames[i] }
}
