import XCTest
import Geometry
import Filters
import Layers
import Presentation
import Rendering
import Animation
import Timing

/// The render plan checked as text: drawing order, offscreen passes, quads, paints and shapes
/// (§11.3–§11.5), without pixels.
final class RenderPlanTests: XCTestCase {
    private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    private let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    private func root(_ w: CGFloat = 100, _ h: CGFloat = 100) -> CALayer { rootLayer(width: w, height: h, name: "root") }

    private func box(_ name: String, _ frame: CGRect, _ color: CGColor? = nil) -> CALayer {
        let layer = CALayer()
        layer.name = name
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    private func plan(_ root: CALayer, scale: CGFloat = 1, at time: Double = 0) -> String {
        let w = Int(root.bounds.width * scale), h = Int(root.bounds.height * scale)
        return RenderPlanBuilder(width: w, height: h, scale: scale).plan(for: PresentationTree.evaluate(root, at: time)).description
    }

    private func assertPlan(_ root: CALayer, scale: CGFloat = 1, at time: Double = 0, _ expected: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(plan(root, scale: scale, at: time), expected, file: file, line: line)
    }

    func test01EmptyRootDrawsNothing() {
        assertPlan(root(), "plan 100x100\npass 0 100x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)")
    }

    func test02BackgroundQuadCoversTheFrame() {
        let r = root()
        r.addSublayer(box("a", CGRect(x: 10, y: 20, width: 30, height: 40), red))
        assertPlan(r, """
        plan 100x100
        pass 0 100x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)
          background root/a quad (10,20) (40,20) (40,60) (10,60) solid rgba(1.000, 0.000, 0.000, 1.000)
        """)
    }

    func test03SublayersDrawInArrayOrderThenByZPosition() {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 10, height: 10), red)
        let b = box("b", CGRect(x: 0, y: 0, width: 10, height: 10), blue)
        let c = box("c", CGRect(x: 0, y: 0, width: 10, height: 10), red)
        b.zPosition = 5
        [a, b, c].forEach(r.addSublayer)
        let text = plan(r)
        let order = text.split(separator: "\n").compactMap { $0.contains("background") ? $0.split(separator: " ")[1] : nil }
        XCTAssertEqual(order, ["root/a", "root/c", "root/b"])
    }

    func test04HiddenLayersAndTheirSublayersAreSkipped() {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 50, height: 50), red)
        a.addSublayer(box("child", CGRect(x: 0, y: 0, width: 10, height: 10), blue))
        a.isHidden = true
        r.addSublayer(a)
        r.addSublayer(box("b", CGRect(x: 60, y: 0, width: 10, height: 10), blue))
        XCTAssertFalse(plan(r).contains("root/a"))
        XCTAssertTrue(plan(r).contains("background root/b"))
    }

    func test05ZeroOpacitySkipsTheSubtree() {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 50, height: 50), red)
        a.opacity = 0
        r.addSublayer(a)
        assertPlan(r, "plan 100x100\npass 0 100x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)")
    }

    func test06OpacityOfASingleLayerNeedsNoOffscreenPass() {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 50, height: 50), red)
        a.opacity = 0.5
        r.addSublayer(a)
        XCTAssertEqual(plan(r).split(separator: "\n").filter { $0.hasPrefix("pass ") }.count, 1, "only the frame pass")
        XCTAssertTrue(plan(r).contains("background root/a quad (0,0) (50,0) (50,50) (0,50) solid rgba(1.000, 0.000, 0.000, 1.000) opacity 0.5"))
    }

    func test07GroupOpacityCompositesTheSubtreeOnce() {
        let r = root()
        let a = box("a", CGRect(x: 10, y: 10, width: 40, height: 40), red)
        a.addSublayer(box("child", CGRect(x: 10, y: 10, width: 10, height: 10), blue))
        a.opacity = 0.5
        r.addSublayer(a)
        assertPlan(r, """
        plan 100x100
        pass 0 40x40 group opacity clear rgba(0.000, 0.000, 0.000, 0.000)
          background root/a quad (0,0) (40,0) (40,40) (0,40) solid rgba(1.000, 0.000, 0.000, 1.000)
          background root/a/child quad (10,10) (20,10) (20,20) (10,20) solid rgba(0.000, 0.000, 1.000, 1.000)
        pass 1 100x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)
          group root/a quad (10,10) (50,10) (50,50) (10,50) pass 0 uv [0,0,1,1] opacity 0.5
        """)
    }

    func test08WithoutGroupOpacityEachDescendantFadesAlone() {
        let r = root()
        let a = box("a", CGRect(x: 10, y: 10, width: 40, height: 40), red)
        a.addSublayer(box("child", CGRect(x: 10, y: 10, width: 10, height: 10), blue))
        a.opacity = 0.5
        a.allowsGroupOpacity = false
        r.addSublayer(a)
        let text = plan(r)
        XCTAssertFalse(text.contains("group"))
        XCTAssertTrue(text.contains("background root/a/child quad (20,20) (30,20) (30,30) (20,30) solid rgba(0.000, 0.000, 1.000, 1.000) opacity 0.5"))
    }

    func test09MasksToBoundsClipsThroughARoundedPass() {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 60, height: 60), red)
        a.cornerRadius = 10
        a.masksToBounds = true
        a.addSublayer(box("overflow", CGRect(x: 40, y: 40, width: 40, height: 40), blue))
        r.addSublayer(a)
        assertPlan(r, """
        plan 100x100
        pass 0 60x60 masksToBounds clear rgba(0.000, 0.000, 0.000, 0.000)
          background root/a quad (0,10) (60,10) (60,50) (0,50) solid rgba(1.000, 0.000, 0.000, 1.000)
          background root/a quad (10,0) (50,0) (50,10) (10,10) solid rgba(1.000, 0.000, 0.000, 1.000)
          background root/a quad (10,50) (50,50) (50,60) (10,60) solid rgba(1.000, 0.000, 0.000, 1.000)
          background root/a quad (0,0) (10,0) (10,10) (0,10) solid rgba(1.000, 0.000, 0.000, 1.000) rounded 10
          background root/a quad (50,0) (60,0) (60,10) (50,10) solid rgba(1.000, 0.000, 0.000, 1.000) rounded 10
          background root/a quad (0,50) (10,50) (10,60) (0,60) solid rgba(1.000, 0.000, 0.000, 1.000) rounded 10
          background root/a quad (50,50) (60,50) (60,60) (50,60) solid rgba(1.000, 0.000, 0.000, 1.000) rounded 10
          background root/a/overflow quad (40,40) (80,40) (80,80) (40,80) solid rgba(0.000, 0.000, 1.000, 1.000)
        pass 1 100x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)
          group root/a quad (0,0) (60,0) (60,60) (0,60) pass 0 uv [0,0,1,1] rounded 10
        """)
    }

    /// The passes cover only the mask's content (the left half): nothing shows outside it.
    func test10MaskLayerRendersIntoItsOwnPass() {
        let r = root()
        let a = box("a", CGRect(x: 20, y: 20, width: 40, height: 40), red)
        let mask = box("m", CGRect(x: 0, y: 0, width: 20, height: 40), CGColor(gray: 0, alpha: 1))
        a.mask = mask
        r.addSublayer(a)
        assertPlan(r, """
        plan 100x100
        pass 0 20x40 mask clear rgba(0.000, 0.000, 0.000, 0.000)
          background root/a quad (0,0) (40,0) (40,40) (0,40) solid rgba(1.000, 0.000, 0.000, 1.000)
        pass 1 20x40 mask of root/a clear rgba(0.000, 0.000, 0.000, 0.000)
          background root/a/m quad (0,0) (20,0) (20,40) (0,40) solid rgba(0.000, 0.000, 0.000, 1.000)
        pass 2 100x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)
          group root/a quad (20,20) (40,20) (40,60) (20,60) pass 0 uv [0,0,1,1] mask pass 1
        """)
    }

    func test11BorderDrawsAboveSublayersAndFollowsCorners() {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 50, height: 50), red)
        a.borderWidth = 4
        a.borderColor = blue
        a.cornerRadius = 8
        a.addSublayer(box("child", CGRect(x: 0, y: 0, width: 10, height: 10), blue))
        r.addSublayer(a)
        let roles = plan(r).split(separator: "\n").dropFirst(2).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        // Rounded pieces are split at the corners: straight bands plain, corner squares shaped.
        let order = roles.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        XCTAssertEqual(order, ["background root/a", "background root/a/child", "border root/a"])
        let border = plan(r).split(separator: "\n").filter { $0.contains("border root/a") }
        XCTAssertEqual(border.count, 8, "four straight strips and four corners")
        XCTAssertTrue(border.contains { $0.contains("quad (8,0) (42,0) (42,4) (8,4) solid rgba(0.000, 0.000, 1.000, 1.000)") }, "top strip, 4 thick")
        XCTAssertTrue(border.contains { $0.contains("quad (0,0) (8,0) (8,8) (0,8) solid rgba(0.000, 0.000, 1.000, 1.000) rounded 8 border 4") },
                      "top-left corner carries the ring math")
    }

    func test12CornerRadiusClampsToHalfTheShorterSide() {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 40, height: 20), red)
        a.cornerRadius = 50
        a.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        r.addSublayer(a)
        XCTAssertTrue(plan(r).contains("rounded 10 corners 9"), plan(r))
    }

    func test13ContentsGravityPlacesTheImage() throws {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 100, height: 100))
        a.contents = try XCTUnwrap(CGImage(width: 200, height: 100, premultipliedRGBA: [UInt8](repeating: 255, count: 200 * 100 * 4)))
        a.contentsGravity = .resizeAspect
        r.addSublayer(a)
        XCTAssertTrue(plan(r).contains("contents root/a quad (0,25) (100,25) (100,75) (0,75) image 200x100 uv [0,0,1,1] filter linear/linear"), plan(r))
    }

    func test14ContentsRectSelectsPartOfTheImage() throws {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 50, height: 100))
        a.contents = try XCTUnwrap(CGImage(width: 200, height: 100, premultipliedRGBA: [UInt8](repeating: 255, count: 200 * 100 * 4)))
        a.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 1)
        a.magnificationFilter = .nearest
        r.addSublayer(a)
        XCTAssertTrue(plan(r).contains("uv [0.5,0,0.5,1] filter linear/nearest"), plan(r))
    }

    func test15NineSliceDrawsNinePieces() throws {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 90, height: 60))
        a.contents = try XCTUnwrap(CGImage(width: 30, height: 30, premultipliedRGBA: [UInt8](repeating: 255, count: 30 * 30 * 4)))
        a.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
        r.addSublayer(a)
        let pieces = plan(r).split(separator: "\n").filter { $0.contains("contents root/a") }
        XCTAssertEqual(pieces.count, 9)
        XCTAssertTrue(pieces[0].contains("quad (0,0) (10,0) (10,10) (0,10)"), "top-left cap keeps 10×10")
        XCTAssertTrue(pieces[4].contains("quad (10,10) (80,10) (80,50) (10,50)"), "centre stretches to 70×40")
    }

    func test16ScaleMapsPointsToPixels() {
        let r = root(50, 50)
        r.addSublayer(box("a", CGRect(x: 10, y: 10, width: 10, height: 10), red))
        XCTAssertTrue(plan(r, scale: 2).hasPrefix("plan 100x100"))
        XCTAssertTrue(plan(r, scale: 2).contains("quad (20,20) (40,20) (40,40) (20,40)"))
    }

    func test17SublayerTransformAppliesAboutTheAnchor() {
        let r = root(200, 200)
        r.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        r.addSublayer(box("a", CGRect(x: 90, y: 90, width: 20, height: 20), red))
        XCTAssertTrue(plan(r).contains("quad (80,80) (120,80) (120,120) (80,120)"), plan(r))
    }

    func test18AnimatedPositionMovesTheQuad() {
        let r = root()
        let a = box("a", CGRect(x: 0, y: 0, width: 10, height: 10), red)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 5
        move.toValue = 85
        move.duration = 1
        move.beginTime = AVCoreAnimationBeginTimeAtZero
        a.add(move, forKey: nil)
        r.addSublayer(a)
        XCTAssertTrue(plan(r, at: 0.5).contains("quad (40,0) (50,0) (50,10) (40,10)"), plan(r, at: 0.5))
    }

    func test19SingleSidedLayersFacingAwayAreCulled() {
        let r = root()
        let front = box("front", CGRect(x: 0, y: 0, width: 40, height: 40), red)
        let back = box("back", CGRect(x: 50, y: 0, width: 40, height: 40), blue)
        back.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        back.isDoubleSided = false
        front.isDoubleSided = false
        r.addSublayer(front)
        r.addSublayer(back)
        XCTAssertTrue(plan(r).contains("root/front"))
        XCTAssertFalse(plan(r).contains("root/back"))
        back.isDoubleSided = true
        XCTAssertTrue(plan(r).contains("root/back"))
    }

    func test20TransformLayerSortsItsSublayersBackToFront() {
        let r = root()
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        r.sublayerTransform = perspective
        let space = CATransformLayer()
        space.name = "space"
        space.frame = r.bounds
        let near = box("near", CGRect(x: 20, y: 20, width: 20, height: 20), red)
        near.transform = CATransform3DMakeTranslation(0, 0, 50)
        let far = box("far", CGRect(x: 30, y: 30, width: 20, height: 20), blue)
        far.transform = CATransform3DMakeTranslation(0, 0, -50)
        space.addSublayer(near)
        space.addSublayer(far)  // later in the array, but farther away
        r.addSublayer(space)
        let order = plan(r).split(separator: "\n").compactMap { $0.contains("background") ? $0.split(separator: " ")[1] : nil }
        XCTAssertEqual(order, ["root/space/far", "root/space/near"])
    }

    func test21FlattenedSublayersIgnoreTheirZOrderInTheParentPlane() {
        let r = root()
        let plane = box("plane", r.bounds)
        let near = box("near", CGRect(x: 20, y: 20, width: 20, height: 20), red)
        near.transform = CATransform3DMakeTranslation(0, 0, 50)
        let later = box("later", CGRect(x: 30, y: 30, width: 20, height: 20), blue)
        later.transform = CATransform3DMakeTranslation(0, 0, -50)
        plane.addSublayer(near)
        plane.addSublayer(later)
        r.addSublayer(plane)
        // An ordinary layer draws in array order (zPosition only orders siblings, z translation does not).
        let order = plan(r).split(separator: "\n").compactMap { $0.contains("background") ? $0.split(separator: " ")[1] : nil }
        XCTAssertEqual(order, ["root/plane/near", "root/plane/later"])
    }

    func test22ShadowIsBlurredInTwoPassesAndDrawnFirst() {
        let r = root()
        let a = box("a", CGRect(x: 20, y: 20, width: 40, height: 40), red)
        a.shadowOpacity = 0.5
        a.shadowRadius = 2
        a.shadowOffset = CGSize(width: 0, height: 4)
        r.addSublayer(a)
        assertPlan(r, """
        plan 100x100
        pass 0 52x52 shadow of root/a clear rgba(0.000, 0.000, 0.000, 0.000)
          background root/a quad (6,6) (46,6) (46,46) (6,46) solid rgba(1.000, 0.000, 0.000, 1.000)
        pass 1 52x52 shadow blur of root/a clear rgba(0.000, 0.000, 0.000, 0.000)
          blur root/a quad (0,0) (52,0) (52,52) (0,52) blur pass 0 horizontally sigma 2
        pass 2 52x52 shadow blur of root/a clear rgba(0.000, 0.000, 0.000, 0.000)
          blur root/a quad (0,0) (52,0) (52,52) (0,52) blur pass 1 vertically sigma 2
        pass 3 100x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)
          shadow root/a quad (14,18) (66,18) (66,70) (14,70) alpha of pass 2 uv [0,0,1,1] tinted rgba(0.000, 0.000, 0.000, 1.000) opacity 0.5
          background root/a quad (20,20) (60,20) (60,60) (20,60) solid rgba(1.000, 0.000, 0.000, 1.000)
        """)
    }

    /// A square-cornered masksToBounds that cuts nothing away draws its subtree directly: when
    /// everything inside lies within its bounds, or when its bounds cover the whole target.
    func test09bMasksToBoundsThatClipsNothingNeedsNoPass() {
        let r = root()
        let a = box("a", CGRect(x: 10, y: 10, width: 60, height: 60), red)
        a.masksToBounds = true
        a.addSublayer(box("inside", CGRect(x: 10, y: 10, width: 20, height: 20), blue))
        r.addSublayer(a)
        assertPlan(r, """
        plan 100x100
        pass 0 100x100 frame clear rgba(0.000, 0.000, 0.000, 0.000)
          background root/a quad (10,10) (70,10) (70,70) (10,70) solid rgba(1.000, 0.000, 0.000, 1.000)
          background root/a/inside quad (20,20) (40,20) (40,40) (20,40) solid rgba(0.000, 0.000, 1.000, 1.000)
        """)
        // Reaching past the bounds: clipped through a pass.
        a.addSublayer(box("overflow", CGRect(x: 50, y: 50, width: 40, height: 40), blue))
        XCTAssertTrue(plan(r).contains("masksToBounds"))
        // ... unless the bounds cover all of the target: nothing past them can show.
        a.frame = CGRect(x: -10, y: -10, width: 120, height: 120)
        XCTAssertFalse(plan(r).contains("masksToBounds"), plan(r))
        // A filter inside may reach past what the extent counts: kept in the pass.
        a.frame = CGRect(x: 10, y: 10, width: 60, height: 60)
        a.sublayers?.last?.removeFromSuperlayer()
        a.sublayers?.first?.filters = [CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 4])!]
        XCTAssertTrue(plan(r).contains("masksToBounds"), plan(r))
    }

    /// A precomp clipping to the same bounds as the one around it, at a scale that puts their
    /// edge inside a pixel (1334 points × 0.32 = 426.88): the inner one's pass would be the
    /// outer pass's pixels, so it draws into it directly; the outer one still clips.
    func test09cNestedClipOfTheSameBoundsNeedsNoPass() {
        let r = root(512, 512)
        let outer = CALayer()
        outer.name = "outer"
        outer.bounds = CGRect(x: 0, y: 0, width: 1334, height: 1600)
        outer.anchorPoint = .zero
        outer.position = .zero
        outer.transform = CATransform3DMakeScale(0.32, 0.32, 1)
        outer.masksToBounds = true
        let inner = box("inner", outer.bounds)
        inner.masksToBounds = true
        inner.addSublayer(box("overflow", CGRect(x: 1200, y: 100, width: 400, height: 200), blue))
        outer.addSublayer(inner)
        r.addSublayer(outer)
        let text = plan(r)
        XCTAssertEqual(text.components(separatedBy: "masksToBounds").count - 1, 1, text)
        XCTAssertTrue(text.contains("pass 0 427x512 masksToBounds"), text)
        XCTAssertTrue(text.contains("background root/outer/inner/overflow quad (384,32) (512,32) (512,96) (384,96)"), text)
    }

    func test23MasksToBoundsHidesTheShadow() {
        let r = root()
        let a = box("a", CGRect(x: 20, y: 20, width: 40, height: 40), red)
        a.shadowOpacity = 1
        a.masksToBounds = true
        r.addSublayer(a)
        XCTAssertFalse(plan(r).contains("shadow"))
    }

    func test24CrossingPlanesInATransformLayerAreSplit() {
        let r = root()
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 300
        r.sublayerTransform = perspective
        let space = CATransformLayer()
        space.frame = r.bounds
        for (name, angle) in [("a", CGFloat.pi / 6), ("b", -CGFloat.pi / 6)] {
            let card = box(name, CGRect(x: 20, y: 20, width: 60, height: 60), red)
            card.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
            space.addSublayer(card)
        }
        r.addSublayer(space)
        let lines = plan(r).split(separator: "\n").filter { $0.contains("background") }
        XCTAssertEqual(lines.count, 3, "one card is cut in two where the other crosses it")
        XCTAssertEqual(lines.filter { $0.contains("piece") }.count, 2)
        // The cut runs along the line where the cards meet: x = 50, the centre.
        XCTAssertTrue(lines.filter { $0.contains("piece") }.allSatisfy { $0.contains("(30,") }, plan(r))
    }
}
