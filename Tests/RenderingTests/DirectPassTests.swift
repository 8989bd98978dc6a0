import XCTest
import Geometry
import Layers
import Presentation
import Rendering
import ContentRaster
import ImageIO
@testable import CPURenderer
import TestSupport

/// A pass the frame only copies as its first item (a Lottie composition's root clip) is drawn
/// straight into the frame (`DirectPass`), and the frame is drawn into the last frame's array,
/// clearing what was drawn: frames come out byte for byte as a renderer that draws every pass
/// into its own target and every frame into new memory gives them.
final class DirectPassTests: XCTestCase {
    /// A clipping composition 80×90 at the origin of a 96×96 frame (shapes reaching past its
    /// edges, a faded group and a masked gradient inside), then a translucent shape over it at
    /// the root. `fade` fades the composition (then the frame's copy is not plain); `shift`
    /// moves a shape inside it.
    private func plan(shift: CGFloat, fade: Float, cache: ContentCache) -> RenderPlan {
        let root = rootLayer(width: 96, height: 96)
        let composition = CALayer()
        composition.frame = CGRect(x: 0, y: 0, width: 80, height: 90)
        composition.masksToBounds = true
        composition.opacity = fade
        root.addSublayer(composition)
        for i in 0..<3 {
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: -12 + CGFloat(i) * 34 + (i == 1 ? shift : 0), y: CGFloat(i) * 20 - 8, width: 40, height: 44)
            shape.path = CGPath(ellipseIn: CGRect(x: 1, y: 2, width: 37, height: 40), transform: nil)
            shape.fillColor = CGColor(red: CGFloat(i) / 3, green: 0.5, blue: 0.8, alpha: i == 2 ? 1 : 0.7)
            shape.strokeColor = CGColor(red: 1, green: 0.9, blue: 0.1, alpha: 0.9)
            shape.lineWidth = 3
            composition.addSublayer(shape)
        }
        let group = CALayer()
        group.frame = CGRect(x: 30, y: 50, width: 60, height: 50)
        group.opacity = 0.6
        group.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 1)
        composition.addSublayer(group)
        let gradient = diagonalGradient(frame: CGRect(x: 5 + shift, y: 40, width: 50, height: 40))
        let mask = CAShapeLayer()
        mask.frame = gradient.bounds
        mask.path = CGPath(ellipseIn: CGRect(x: 3, y: 3, width: 44, height: 34), transform: nil)
        gradient.mask = mask
        gradient.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        composition.addSublayer(gradient)
        let over = CAShapeLayer()
        over.frame = CGRect(x: 50, y: 10, width: 40, height: 60)
        over.path = CGPath(rect: CGRect(x: 0, y: 0, width: 40, height: 60), transform: nil)
        over.fillColor = CGColor(red: 0.1, green: 0.8, blue: 0.3, alpha: 0.5)
        root.addSublayer(over)
        return RenderPlanBuilder(width: 96, height: 96, contentRasterizer: cache).plan(for: PresentationTree.evaluate(root, at: 0))
    }

    func testTheCopiedPassDrawnIntoTheFrameGivesTheSameFrames() throws {
        let cache = ContentCache()
        let images = FileImageProvider()
        let direct = CPURenderer(threads: 2)
        let drawing = CPURenderer(threads: 2)
        drawing.drawsCopiedPassesDirectly = false
        drawing.reusesPasses = false
        // (shift, fade): a clip changing is drawn into the frame; one drawn as the frame before
        // goes through its pass, kept from the frame after on; a faded one through its pass.
        let frames: [(CGFloat, Float)] = [(0, 1), (6, 1), (6, 1), (6, 1), (6, 0.5), (6, 1), (0, 1), (0, 0.5), (0, 0.5), (3, 1), (0, 1)]
        var kept: [Image] = []
        for (n, (shift, fade)) in frames.enumerated() {
            let plan = plan(shift: shift, fade: fade, cache: cache)
            let copied = DirectPass(plan)
            XCTAssertEqual(copied != nil, fade == 1, "frame \(n): the clip's pass is copied plainly only unfaded")
            if let copied {
                XCTAssertEqual(plan.passes[copied.index].purpose, "masksToBounds")
                XCTAssertGreaterThan(plan.passes.count, 3, "the clip, the group and the mask are passes")
            }
            let a = try XCTUnwrap(direct.render(plan, images: images)), b = try XCTUnwrap(drawing.render(plan, images: images))
            XCTAssertTrue(a.pixels == b.pixels, "frame \(n): \(zip(a.pixels, b.pixels).filter { $0 != $1 }.count) bytes differ")
            XCTAssertGreaterThan(a.pixels.lazy.filter { $0 != 0 }.count, 1000, "frame \(n) draws something")
            if n == 3, let copied { XCTAssertTrue(direct.keptPasses.contains(plan.passes[copied.index].id), "the third frame alike keeps the clip") }
            kept.append(a)
        }
        // Frames held by the caller are not drawn over by later ones.
        for (n, (shift, fade)) in frames.enumerated() {
            let fresh = CPURenderer(threads: 1)
            let again = try XCTUnwrap(fresh.render(plan(shift: shift, fade: fade, cache: cache), images: images))
            XCTAssertTrue(kept[n].pixels == again.pixels, "kept frame \(n) was drawn over")
        }
    }

    /// What the frame's first item must be for its pass to be drawn in its place.
    func testOnlyAPlainWholePixelCopyAtTheOriginQualifies() throws {
        let plain = plan(shift: 0, fade: 1, cache: ContentCache())
        let index = try XCTUnwrap(DirectPass(plain)).index
        let last = plain.passes.count - 1
        func changed(_ change: (inout DrawItem) -> Void) -> RenderPlan {
            var plan = plain
            change(&plan.passes[last].items[0])
            return plan
        }
        XCTAssertNil(DirectPass(changed { $0.transform = CATransform3DTranslate($0.transform, 1, 0, 0) }), "not at the origin")
        XCTAssertNil(DirectPass(changed { $0.rect.size.height += 1 }), "not one texel per pixel")
        XCTAssertNil(DirectPass(changed { $0.opacity = 0.99 }), "faded")
        XCTAssertNil(DirectPass(changed { $0.paint = .pass(plain.passes[index].id, source: CGRect(x: 0, y: 0, width: 0.5, height: 1)) }),
                     "a part of the pass")
        XCTAssertNil(DirectPass(changed { $0.maskPass = plain.passes[0].id }), "masked")
        var twice = plain
        twice.passes[last].items.append(plain.passes[last].items[0])
        XCTAssertNil(DirectPass(twice), "the pass read twice")
    }
}
