import XCTest
import Geometry
import Filters
import Layers
import Presentation
import Rendering

/// The render plan of `compositingFilter`, `filters` and `backgroundFilters`, checked as text:
/// which passes exist, in which order, and what the composites carry.
final class FilterPlanTests: XCTestCase {
    private func root(_ w: CGFloat = 100, _ h: CGFloat = 100) -> CALayer { rootLayer(width: w, height: h, name: "root") }

    private func box(_ name: String, _ frame: CGRect, _ gray: CGFloat? = 0.5) -> CALayer {
        let layer = CALayer()
        layer.name = name
        layer.frame = frame
        layer.backgroundColor = gray.map { CGColor(gray: $0, alpha: 1) }
        return layer
    }

    private func plan(_ root: CALayer, at time: Double = 0) -> RenderPlan {
        RenderPlanBuilder(width: Int(root.bounds.width), height: Int(root.bounds.height))
            .plan(for: PresentationTree.evaluate(root, at: time))
    }

    private func lines(_ plan: RenderPlan) -> [String] { plan.description.split(separator: "\n").map(String.init) }

    func testABlendModeLayerDrawingOneItemBlendsThatItemWithoutAPass() {
        let r = root()
        r.addSublayer(box("back", r.bounds))
        let top = box("top", CGRect(x: 10, y: 10, width: 40, height: 40))
        top.compositingFilter = "multiplyBlendMode"
        r.addSublayer(top)
        let p = plan(r)
        XCTAssertEqual(p.passes.count, 1)
        XCTAssertEqual(lines(p).last, "  background root/top quad (10,10) (50,10) (50,50) (10,50) solid rgba(0.500, 0.500, 0.500, 1.000) blend multiply")
    }

    func testABlendModeLayerWithSublayersIsFlattenedIntoAPixelAlignedPass() {
        let r = root()
        let group = box("group", CGRect(x: 20, y: 30, width: 40, height: 40), nil)
        group.compositingFilter = CIFilter(name: "CIColorBurnBlendMode")
        group.addSublayer(box("a", CGRect(x: 0, y: 0, width: 20, height: 20)))
        group.addSublayer(box("b", CGRect(x: 10, y: 10, width: 20, height: 20)))
        r.addSublayer(group)
        let text = lines(plan(r))
        // The pass covers what the sublayers draw (plus a pixel), not the group's empty bounds.
        XCTAssertEqual(text[1], "pass 0 32x32 colorBurn blend of root/group clear rgba(0.000, 0.000, 0.000, 0.000)")
        XCTAssertEqual(text.last, "  group root/group quad (19,29) (51,29) (51,61) (19,61) pass 0 uv [0,0,1,1] blend colorBurn")
    }

    func testABlurHalvesTheImageUntilItIsAtMostSixTexelsWide() {
        for (radius, halvings) in [(5.0, 0), (10.0, 1), (30.0, 3)] {
            let r = root(200, 200)
            let b = box("b", CGRect(x: 50, y: 50, width: 40, height: 40))
            b.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: radius])!]
            r.addSublayer(b)
            let p = plan(r)
            let purposes = p.passes.map(\.purpose)
            XCTAssertEqual(purposes.filter { $0.hasPrefix("downsample") }.count, halvings, "radius \(radius)")
            XCTAssertEqual(purposes.filter { $0.hasPrefix("blur") }.count, 2, "radius \(radius)")
            // σ in the last level's texels, less the variance the 2×2 averages added.
            var variance = 0.0, level = 1.0
            for _ in 0..<halvings { variance += 0.25 * level * level; level *= 2 }
            let sigma = (radius * radius - variance).squareRoot() / level
            XCTAssertTrue(p.description.contains("sigma \(String(format: "%g", (sigma * 1000).rounded() / 1000))"), p.description)
            // The first pass reaches 3σ past the layer on every side, sized for exact halvings.
            let first = p.passes[0]
            XCTAssertGreaterThanOrEqual(CGFloat(first.width), 40 + 6 * radius)
            XCTAssertEqual(first.width % (1 << halvings), 0)
            XCTAssertLessThanOrEqual(sigma, 6)
        }
    }

    func testColourFiltersBecomeOneMatrixOnTheCompositeOrAPassBeforeABlur() {
        let r = root()
        let a = box("a", CGRect(x: 10, y: 10, width: 30, height: 30))
        a.filters = [CIFilter(name: "CIColorInvert")!, CIFilter(name: "CIColorInvert")!, CIFilter(name: "CISepiaTone")!]
        let b = box("b", CGRect(x: 50, y: 50, width: 30, height: 30))
        b.filters = [CIFilter(name: "CIColorInvert")!, CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 2])!]
        r.addSublayer(a)
        r.addSublayer(b)
        let p = plan(r)
        // Two inversions compose to the identity, followed by the sepia matrix: one matrix.
        let composite = lines(p).first { $0.contains("filtered root/a") } ?? ""
        XCTAssertTrue(composite.contains("color matrix (0.393,0.769,0.189,0) (0.349,0.686,0.168,0) (0.272,0.534,0.131,0) (0,0,0,1) + (0,0,0,0)"), composite)
        XCTAssertEqual(p.passes.map(\.purpose).filter { $0 == "color filter of root/b" }.count, 1, p.description)
        XCTAssertFalse(lines(p).contains { $0.contains("filtered root/b") && $0.contains("color") })
    }

    func testFiltersThatChangeNothingNeedNoPass() {
        let r = root()
        let a = box("a", CGRect(x: 10, y: 10, width: 30, height: 30))
        a.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 0])!, CIFilter(name: "CIColorControls")!]
        a.compositingFilter = "normalBlendMode"
        r.addSublayer(a)
        XCTAssertEqual(plan(r).passes.count, 1)
    }

    func testBackgroundFiltersSplitTheTargetWhereTheLayerDraws() {
        let r = root()
        r.addSublayer(box("back", r.bounds))
        let panel = box("panel", CGRect(x: 20, y: 20, width: 60, height: 30), nil)
        panel.cornerRadius = 8
        panel.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 4])!]
        panel.addSublayer(box("label", CGRect(x: 5, y: 5, width: 10, height: 10)))
        r.addSublayer(panel)
        r.addSublayer(box("top", CGRect(x: 0, y: 0, width: 10, height: 10)))
        let p = plan(r)
        let purposes = p.passes.map(\.purpose)
        XCTAssertEqual(purposes, ["frame under the backdrop of root/panel", "backdrop of root/panel", "blur of root/panel",
                                  "blur of root/panel", "frame"])
        XCTAssertEqual(p.passes[0].items.map(\.role), ["background"], "what was drawn before the panel")
        XCTAssertEqual(p.framePass.startsFrom, 0)
        XCTAssertEqual(p.framePass.items.map(\.role), ["backdrop", "background", "background"], "backdrop, then the panel's content, then the rest")
        let backdrop = p.framePass.items[0]
        XCTAssertEqual(backdrop.shape?.radius, 8)
        XCTAssertEqual(backdrop.rect, panel.bounds)
        // The copy covers the panel and 3σ around it, past the frame's edge where needed.
        XCTAssertEqual(p.passes[1].width, 60 + 24)
        XCTAssertEqual(p.passes[1].height, 30 + 24)

        // A mask clips the frosted backdrop too, sampled over the same area as the copy.
        panel.mask = box("mask", CGRect(x: 0, y: 0, width: 30, height: 30), 0)
        let masked = plan(r)
        let backdropItem = masked.passes.flatMap(\.items).first { $0.role == "backdrop" }
        let maskID = try? XCTUnwrap(backdropItem?.maskPass)
        let maskPass = masked.passes.first { $0.id == maskID }
        XCTAssertEqual(maskPass?.purpose, "mask of root/panel")
        XCTAssertEqual(maskPass?.width, 84)
    }

    func testTheBackdropOfALayerInsideAGroupIsTheGroupsOwnPass() {
        let r = root()
        r.addSublayer(box("back", r.bounds))
        let group = box("group", CGRect(x: 10, y: 10, width: 80, height: 80), 0.2)
        group.opacity = 0.5
        let panel = box("panel", CGRect(x: 10, y: 10, width: 40, height: 40), 0.9)
        panel.backgroundFilters = [CIFilter(name: "CIColorInvert")!]
        group.addSublayer(panel)
        r.addSublayer(group)
        let p = plan(r)
        XCTAssertEqual(p.passes.map(\.purpose), ["group opacity under the backdrop of root/group/panel", "backdrop of root/group/panel",
                                                 "group opacity", "frame"])
        XCTAssertEqual(p.passes[2].startsFrom, 0)
        XCTAssertNil(p.framePass.startsFrom)
    }

    func testMasksAndTransformLayersIgnoreTheirFilters() {
        let r = root()
        let masked = box("masked", CGRect(x: 10, y: 10, width: 40, height: 40))
        let mask = box("mask", CGRect(x: 0, y: 0, width: 20, height: 20), 0)
        mask.backgroundFilters = [CIFilter(name: "CIColorInvert")!]
        mask.compositingFilter = "screenBlendMode"
        masked.mask = mask
        let transform = CATransformLayer()
        transform.name = "transform"
        transform.frame = CGRect(x: 50, y: 50, width: 40, height: 40)
        transform.filters = [CIFilter(name: "CIColorInvert")!]
        transform.addSublayer(box("inside", CGRect(x: 0, y: 0, width: 10, height: 10)))
        r.addSublayer(masked)
        r.addSublayer(transform)
        let text = plan(r).description
        XCTAssertFalse(text.contains("backdrop"), text)
        XCTAssertFalse(text.contains("blend"), text)
        XCTAssertFalse(text.contains("filtered"), text)
    }

    func testAdditiveParticlesAreAdded() {
        var pixels = [UInt8](repeating: 255, count: 16)
        pixels[3] = 255
        let dot = CGImage(width: 2, height: 2, premultipliedRGBA: pixels)!
        for mode in [CAEmitterLayerRenderMode.additive, .oldestFirst] {
            let r = root()
            let emitter = CAEmitterLayer()
            emitter.frame = r.bounds
            emitter.renderMode = mode
            let cell = CAEmitterCell()
            cell.contents = dot
            cell.birthRate = 10
            cell.lifetime = 5
            emitter.emitterCells = [cell]
            r.addSublayer(emitter)
            let items = plan(r, at: 1).framePass.items
            XCTAssertGreaterThan(items.count, 5)
            XCTAssertTrue(items.allSatisfy { $0.blendMode == (mode == .additive ? .addition : .normal) })
        }
    }
}
