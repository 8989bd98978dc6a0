import XCTest
import Geometry
import Layers
import Rendering
import ImageIO
import Export
import CPURenderer
import RenderTesting
import TestSupport

/// Golden PNGs, one per appearance feature (§11.4–§11.5), each checked on both backends: the GL
/// compositor and the CPU reference renderer must each match it. Record with
/// `LAMINA_RECORD=1 swift test --disable-swift-testing --filter GoldenImageTests` (the GPU frame
/// is recorded; a recording run fails on purpose); look at every recorded file before committing it.
///
/// Tolerance: 2/255 per channel on all but 0.5 % of pixels — anti-aliased edges may round
/// differently between llvmpipe, a GPU driver and the CPU renderer; interiors must match.
final class GoldenImageTests: XCTestCase {
    // One renderer per frame size for the suite; XCTest runs these tests serially on one thread.
    nonisolated(unsafe) private static var renderers: [String: FrameRenderer] = [:]
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
    static let background = CGColor(red: 0.1, green: 0.1, blue: 0.15, alpha: 1)

    /// The suite's renderer of one size and backend (the GPU's shares the suite's one GL context);
    /// nil for the GPU where no EGL display exists (never on CI, which has Mesa).
    func renderer(width: Int, height: Int, backend: BackendKind) -> FrameRenderer? {
        let key = "\(width)x\(height) \(backend)"
        if let r = Self.renderers[key] { return r }
        let r: FrameRenderer
        switch backend {
        case .gpu:
            guard let gpu = try? TestBackends.gpu() else { return nil }
            r = FrameRenderer(width: width, height: height, scale: 1, background: Self.background, backend: gpu)
        case .cpu:
            r = FrameRenderer(width: width, height: height, scale: 1, background: Self.background, backend: CPURenderer())
        }
        Self.renderers[key] = r
        return r
    }

    /// Renders `root` (whose bounds give the frame size) at `time` and compares it with
    /// `Goldens/NAME.png`; the default tolerance is the suite's (see above).
    func assertGolden(_ name: String, _ root: CALayer, at time: Double = 0, maxChannelDifference: Int = 2,
                      allowedPixelFraction: Double = 0.005, file: StaticString = #filePath, line: UInt = #line) throws {
        let size = root.bounds.size
        let record = ProcessInfo.processInfo.environment["LAMINA_RECORD"] == "1"
        var missing: [BackendKind] = []
        for backend in record ? [.gpu] : BackendKind.allCases {
            guard let renderer = renderer(width: Int(size.width), height: Int(size.height), backend: backend) else {
                missing.append(backend)
                continue
            }
            let image = try XCTUnwrap(renderer.render(root, at: time), "\(backend) returned no frame", file: file, line: line)
            let result = Snapshot.compare(image, reference: Self.goldens.appendingPathComponent("\(name).png"),
                                          maxChannelDifference: maxChannelDifference, allowedPixelFraction: allowedPixelFraction,
                                          record: record)
            XCTAssertTrue(result.matches, "\(backend): \(result.message)", file: file, line: line)
        }
        // Checked on the backends there are; say that the others were not (no silent pass).
        if !missing.isEmpty { throw XCTSkip("no EGL display: \(name) not checked on \(missing.map(\.rawValue))") }
    }

    /// The root of a scene: a `width`×`height` frame (120×90 unless stated).
    func stage(_ width: CGFloat = 120, _ height: CGFloat = 90) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.position = CGPoint(x: width / 2, y: height / 2)
        return root
    }

    /// An image the renderer decodes from `Goldens/fixtures/NAME` (see the README there).
    func fixture(_ name: String, width: Int, height: Int) -> CGImage {
        CGImage(width: width, height: height, source: Self.goldens.appendingPathComponent("fixtures/\(name)").path)
    }

    /// An in-memory image whose premultiplied RGBA pixel at (x, y) (top row first) is `pixel(x, y)`.
    func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) -> CGImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        return CGImage(width: width, height: height, premultipliedRGBA: pixels)!
    }

    /// A 16×16 test image: four coloured quadrants with a white border pixel ring.
    func checker() -> CGImage {
        image(16, 16) { x, y in
            if x == 0 || y == 0 || x == 15 || y == 15 { return [255, 255, 255, 255] }
            return x < 8 ? (y < 8 ? [230, 60, 60, 255] : [60, 200, 90, 255]) : (y < 8 ? [60, 90, 230, 255] : [240, 200, 40, 255])
        }
    }

    func testRoundedCornersAndBorders() throws {
        let root = stage()
        let a = CALayer()
        a.frame = CGRect(x: 10, y: 10, width: 50, height: 40)
        a.backgroundColor = CGColor(red: 0.9, green: 0.4, blue: 0.2, alpha: 1)
        a.cornerRadius = 12
        a.borderWidth = 3
        a.borderColor = CGColor(gray: 1, alpha: 1)
        let b = CALayer()
        b.frame = CGRect(x: 65, y: 20, width: 45, height: 55)
        b.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.8)
        b.cornerRadius = 20
        b.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        root.addSublayer(a)
        root.addSublayer(b)
        try assertGolden("rounded-corners-borders", root)
    }

    func testContentsGravityAndNineSlice() throws {
        let root = stage()
        let fit = CALayer()
        fit.frame = CGRect(x: 5, y: 5, width: 50, height: 30)
        fit.backgroundColor = CGColor(gray: 0.3, alpha: 1)
        fit.contents = checker()
        fit.contentsGravity = .resizeAspect
        fit.magnificationFilter = .nearest
        let slice = CALayer()
        slice.frame = CGRect(x: 60, y: 5, width: 55, height: 80)
        slice.contents = checker()
        slice.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        slice.magnificationFilter = .nearest
        let part = CALayer()
        part.frame = CGRect(x: 5, y: 45, width: 40, height: 40)
        part.contents = checker()
        part.contentsRect = CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        part.magnificationFilter = .nearest
        [fit, slice, part].forEach(root.addSublayer)
        try assertGolden("contents-gravity-nine-slice", root)
    }

    func testGroupOpacityMasksToBoundsAndMask() throws {
        let root = stage()
        let group = CALayer()
        group.frame = CGRect(x: 5, y: 5, width: 50, height: 50)
        group.opacity = 0.5
        for (i, color) in [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1)].enumerated() {
            let square = CALayer()
            square.frame = CGRect(x: 5 + i * 15, y: 5 + i * 15, width: 30, height: 30)
            square.backgroundColor = color
            group.addSublayer(square)
        }
        let clip = CALayer()
        clip.frame = CGRect(x: 62, y: 5, width: 50, height: 40)
        clip.cornerRadius = 14
        clip.masksToBounds = true
        clip.backgroundColor = CGColor(gray: 0.8, alpha: 1)
        let overflow = CALayer()
        overflow.frame = CGRect(x: 25, y: 15, width: 50, height: 50)
        overflow.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 1, alpha: 1)
        clip.addSublayer(overflow)
        let masked = CALayer()
        masked.frame = CGRect(x: 62, y: 50, width: 50, height: 35)
        masked.backgroundColor = CGColor(red: 1, green: 0.8, blue: 0, alpha: 1)
        let mask = CALayer()
        mask.frame = CGRect(x: 10, y: 0, width: 30, height: 35)
        mask.cornerRadius = 15
        mask.backgroundColor = CGColor(gray: 0, alpha: 1)
        masked.mask = mask
        [group, clip, masked].forEach(root.addSublayer)
        try assertGolden("group-opacity-clip-mask", root)
    }

    func testPerspectiveAndTransformLayer() throws {
        let root = stage()
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 200
        root.sublayerTransform = perspective
        let space = CATransformLayer()
        space.frame = root.bounds
        let colors = [CGColor(red: 0.9, green: 0.3, blue: 0.3, alpha: 0.9), CGColor(red: 0.3, green: 0.8, blue: 0.4, alpha: 0.9)]
        // Two cards turned toward each other, apart so they do not intersect; the far one is
        // later in the array but must be drawn first.
        for (i, angle) in [CGFloat.pi / 4, -CGFloat.pi / 4].enumerated() {
            let card = CALayer()
            card.frame = CGRect(x: 8 + CGFloat(i) * 58, y: 20, width: 46, height: 50)
            card.backgroundColor = colors[i]
            card.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
            card.zPosition = i == 0 ? 20 : -20
            space.addSublayer(card)
        }
        root.addSublayer(space)
        try assertGolden("perspective-transform-layer", root)
    }

    func testShadows() throws {
        let root = stage()
        root.backgroundColor = CGColor(gray: 0.9, alpha: 1)
        let card = CALayer()
        card.frame = CGRect(x: 15, y: 15, width: 45, height: 35)
        card.backgroundColor = CGColor(gray: 1, alpha: 1)
        card.cornerRadius = 8
        card.shadowOpacity = 0.6
        card.shadowRadius = 4
        card.shadowOffset = CGSize(width: 3, height: 5)
        let dot = CALayer()
        dot.frame = CGRect(x: 75, y: 20, width: 30, height: 30)
        dot.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 1, alpha: 1)
        dot.cornerRadius = 15
        dot.shadowOpacity = 1
        dot.shadowRadius = 2
        dot.shadowColor = CGColor(red: 0.8, green: 0, blue: 0, alpha: 1)
        dot.shadowOffset = CGSize(width: 0, height: 8)
        root.addSublayer(card)
        root.addSublayer(dot)
        try assertGolden("shadows", root)
    }

    func testCircularAndContinuousCorners() throws {
        let root = stage()
        for (i, curve) in [CALayerCornerCurve.circular, .continuous].enumerated() {
            let card = CALayer()
            card.frame = CGRect(x: 8 + CGFloat(i) * 58, y: 15, width: 48, height: 60)
            card.backgroundColor = CGColor(red: 1, green: 0.55, blue: 0.1, alpha: 1)
            card.cornerRadius = 12
            card.cornerCurve = curve
            card.borderWidth = 2
            card.borderColor = CGColor(gray: 1, alpha: 1)
            root.addSublayer(card)
        }
        try assertGolden("corner-curves", root)
    }
}
