import XCTest
import Geometry
import Layers
import Animation
import Timing

/// More golden PNGs (the helpers and the recording workflow are in `GoldenImageTests.swift`):
/// opacity and hidden, file-decoded contents, every gravity, contentsScale, sampling filters,
/// edge anti-aliasing, transitions, clipping under rotation, image masks, zPosition and
/// doubleSided, and perspective on a flattening layer. All use the suite's tolerance
/// (2/255 per channel on all but 0.5 % of pixels) unless a test says otherwise.
extension GoldenImageTests {
    private static let red = CGColor(red: 0.9, green: 0.15, blue: 0.15, alpha: 1)
    private static let green = CGColor(red: 0.2, green: 0.75, blue: 0.3, alpha: 1)
    private static let blue = CGColor(red: 0.2, green: 0.35, blue: 0.95, alpha: 1)
    private static let yellow = CGColor(red: 1, green: 0.85, blue: 0.1, alpha: 1)
    private static let white = CGColor(gray: 1, alpha: 1)

    private func layer(_ frame: CGRect, _ color: CGColor? = nil) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = color
        return layer
    }

    /// The PNG fixture (24×16, alpha): red bar on top, white column on the left, blue fading right.
    private func alphaPNG() -> CGImage { fixture("alpha-24x16.png", width: 24, height: 16) }

    // MARK: - Opacity and hidden

    /// Columns over a white band: background alpha 0.5; opaque background at opacity 0.5 (the
    /// same colour as the first); alpha 0.5 at opacity 0.5. Right: a hidden layer whose visible
    /// sublayer vanishes with it (nothing at the top right), and a blue layer whose hidden
    /// sublayer takes its own visible sublayer along (plain blue at the bottom right).
    func testBackgroundAlphaOpacityAndHidden() throws {
        let root = stage()
        root.addSublayer(layer(CGRect(x: 0, y: 32, width: 120, height: 26), Self.white))
        root.addSublayer(layer(CGRect(x: 6, y: 8, width: 22, height: 74), CGColor(red: 0.9, green: 0.15, blue: 0.15, alpha: 0.5)))
        let faded = layer(CGRect(x: 34, y: 8, width: 22, height: 74), Self.red)
        faded.opacity = 0.5
        let both = layer(CGRect(x: 62, y: 8, width: 22, height: 74), CGColor(red: 0.9, green: 0.15, blue: 0.15, alpha: 0.5))
        both.opacity = 0.5
        let hidden = layer(CGRect(x: 90, y: 8, width: 24, height: 34), Self.green)
        hidden.isHidden = true
        hidden.addSublayer(layer(CGRect(x: 4, y: 4, width: 16, height: 16), Self.yellow))
        let shown = layer(CGRect(x: 90, y: 48, width: 24, height: 34), Self.blue)
        let hiddenChild = layer(CGRect(x: 4, y: 4, width: 16, height: 26), Self.yellow)
        hiddenChild.isHidden = true
        hiddenChild.addSublayer(layer(CGRect(x: 2, y: 2, width: 12, height: 12), Self.green))
        shown.addSublayer(hiddenChild)
        [faded, both, hidden, shown].forEach(root.addSublayer)
        try assertGolden("opacity-hidden", root)
    }

    // MARK: - Contents

    /// Contents decoded by the renderer from files: the PNG (straight alpha, over grey) stretched
    /// 3× with nearest sampling and at its own size; the JPEG (4:4:4 quadrants) stretched 3×.
    func testContentsDecodedFromPNGAndJPEGFiles() throws {
        let root = stage()
        let png = layer(CGRect(x: 4, y: 6, width: 72, height: 48), CGColor(gray: 0.55, alpha: 1))
        png.contents = alphaPNG()
        png.magnificationFilter = .nearest
        let pngSmall = layer(CGRect(x: 4, y: 62, width: 24, height: 16), CGColor(gray: 0.55, alpha: 1))
        pngSmall.contents = alphaPNG()
        let jpeg = layer(CGRect(x: 80, y: 6, width: 36, height: 36))
        jpeg.contents = fixture("quadrants444-16x16.jpg", width: 16, height: 16)
        jpeg.magnificationFilter = .nearest
        [png, pngSmall, jpeg].forEach(root.addSublayer)
        try assertGolden("contents-png-jpeg", root)
    }

    /// All twelve gravities of the 24×16 PNG in 34×30 cells (grey, masksToBounds):
    ///
    ///     topLeft     top     topRight     resize
    ///     left        center  right        resizeAspect
    ///     bottomLeft  bottom  bottomRight  resizeAspectFill
    ///
    /// `top` is the max-y edge (§11.4), which in Lamina's y-down tree (as on iOS, for layers
    /// that do not back views) is the bottom of the frame: the top row of cells shows its
    /// images at the bottom, the bottom row at the top.
    func testAllTwelveContentsGravities() throws {
        let root = stage(160, 120)
        let grid: [[CALayerContentsGravity]] = [[.topLeft, .top, .topRight, .resize],
                                                [.left, .center, .right, .resizeAspect],
                                                [.bottomLeft, .bottom, .bottomRight, .resizeAspectFill]]
        let image = alphaPNG()
        for (row, gravities) in grid.enumerated() {
            for (column, gravity) in gravities.enumerated() {
                let cell = layer(CGRect(x: 3 + CGFloat(column) * 40, y: 5 + CGFloat(row) * 40, width: 34, height: 30),
                                 CGColor(gray: 0.45, alpha: 1))
                cell.contents = image
                cell.contentsGravity = gravity
                cell.magnificationFilter = .nearest
                cell.masksToBounds = true
                root.addSublayer(cell)
            }
        }
        XCTAssertEqual(Set(grid.joined()).count, CALayerContentsGravity.allCases.count)
        try assertGolden("contents-gravity-grid", root)
    }

    /// A 32×32 image centred in 50×50 layers: at contentsScale 1 it covers 32×32 points, at
    /// contentsScale 2 (right) 16×16.
    func testContentsScaleHalvesTheLogicalSize() throws {
        let root = stage()
        let picture = image(32, 32) { x, y in
            if x < 2 || y < 2 || x >= 30 || y >= 30 { return [255, 255, 255, 255] }
            return x < 16 ? (y < 16 ? [230, 60, 60, 255] : [60, 200, 90, 255]) : (y < 16 ? [60, 90, 230, 255] : [240, 200, 40, 255])
        }
        for (i, scale) in [CGFloat(1), 2].enumerated() {
            let holder = layer(CGRect(x: 8 + CGFloat(i) * 56, y: 20, width: 50, height: 50), CGColor(gray: 0.4, alpha: 1))
            holder.contents = picture
            holder.contentsGravity = .center
            holder.contentsScale = scale
            root.addSublayer(holder)
        }
        try assertGolden("contents-scale", root)
    }

    // MARK: - Sampling filters

    /// A 4×4 two-colour checker magnified 12×: nearest (left) keeps hard blocks, linear
    /// (right) blends neighbouring texels into gradients.
    func testNearestAndLinearMagnification() throws {
        let root = stage()
        let tiny = image(4, 4) { x, y in
            if x == 3 && y == 0 { return [255, 255, 255, 255] }
            return (x + y) % 2 == 0 ? [230, 60, 60, 255] : [40, 40, 200, 255]
        }
        for (i, filter) in [CALayerContentsFilter.nearest, .linear].enumerated() {
            let l = layer(CGRect(x: 8 + CGFloat(i) * 56, y: 21, width: 48, height: 48))
            l.contents = tiny
            l.magnificationFilter = filter
            root.addSublayer(l)
        }
        try assertGolden("magnification-filters", root)
    }

    /// Vertical stripes of period 3 (one white texel, two black) in a 192×192 image shrunk 8×
    /// into 24×24 layers: linear (left) and nearest (right) alias into coarse stripes of full
    /// contrast; trilinear (middle) samples the third mipmap, whose texels average 8 source texels,
    /// and shows an even dark grey (a quarter to three eighths white, no stripe brighter than that).
    func testLinearTrilinearAndNearestMinification() throws {
        let root = stage()
        let stripes = image(192, 192) { x, _ in x % 3 == 0 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        for (i, filter) in [CALayerContentsFilter.linear, .trilinear, .nearest].enumerated() {
            // Placed 0.2 pt off the pixel grid so no sample falls exactly between two texels,
            // where nearest would be a coin toss.
            let l = layer(CGRect(x: 12.2 + CGFloat(i) * 36, y: 33, width: 24, height: 24))
            l.contents = stripes
            l.minificationFilter = filter
            root.addSublayer(l)
        }
        try assertGolden("minification-filters", root)
    }

    // MARK: - Edges

    /// A square rotated 0.3 rad: aliased stair steps with allowsEdgeAntialiasing off (left),
    /// smooth edges with it on (right).
    func testEdgeAntialiasingOffAndOn() throws {
        let root = stage()
        for (i, antialiased) in [false, true].enumerated() {
            let square = CALayer()
            square.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            square.position = CGPoint(x: 30 + CGFloat(i) * 60, y: 45)
            square.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            square.backgroundColor = Self.white
            square.allowsEdgeAntialiasing = antialiased
            root.addSublayer(square)
        }
        try assertGolden("edge-antialiasing", root)
    }

    // MARK: - Transitions

    /// Four 70×50 panels, one per subtype (fromLeft, fromRight / fromTop, fromBottom), half-way
    /// through a one-second linear transition of `type`. Old state: red with a white marker near
    /// the top left; new state: blue with a yellow marker near the top right. Horizontal
    /// subtypes name the edge the new state enters from (push/moveIn) or the side the old one
    /// leaves from (reveal: fromLeft moves it right). Vertical subtypes are in the layer's own
    /// y-up sense (§7), so in this y-down frame fromTop enters from the bottom edge and
    /// fromBottom from the top, as on iOS.
    private func assertTransitionGolden(_ name: String, _ type: CATransitionType,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let root = stage(160, 120)
        let subtypes: [CATransitionSubtype] = [.fromLeft, .fromRight, .fromTop, .fromBottom]
        for (i, subtype) in subtypes.enumerated() {
            let panel = layer(CGRect(x: 6 + CGFloat(i % 2) * 78, y: 6 + CGFloat(i / 2) * 58, width: 70, height: 50), Self.red)
            let marker = layer(CGRect(x: 8, y: 8, width: 22, height: 14), Self.white)
            panel.addSublayer(marker)
            root.addSublayer(panel)
            let transition = CATransition()
            transition.type = type
            transition.subtype = subtype
            transition.duration = 1
            transition.timingFunction = CAMediaTimingFunction(name: .linear)
            transition.beginTime = AVCoreAnimationBeginTimeAtZero
            panel.add(transition, forKey: kCATransition)
            panel.backgroundColor = Self.blue
            marker.frame = CGRect(x: 40, y: 8, width: 22, height: 14)
            marker.backgroundColor = Self.yellow
        }
        try assertGolden(name, root, at: 0.5, file: file, line: line)
    }

    /// Cross-fade: every panel the same mix of old and new (fade ignores the subtype).
    func testFadeTransitionHalfWay() throws { try assertTransitionGolden("transition-fade", .fade) }

    /// The new state slides in over the old one from the subtype's side, half-way in.
    func testMoveInTransitionHalfWay() throws { try assertTransitionGolden("transition-movein", .moveIn) }

    /// Old and new states move together, each half visible.
    func testPushTransitionHalfWay() throws { try assertTransitionGolden("transition-push", .push) }

    /// The old state slides away toward the opposite side, uncovering the new one in place.
    func testRevealTransitionHalfWay() throws { try assertTransitionGolden("transition-reveal", .reveal) }

    // MARK: - Clipping and masks

    /// masksToBounds with cornerRadius 14 on parents that are not axis-aligned: rotated 0.35 rad
    /// about z (left) and tilted 45° about x under perspective (right). Contents and an
    /// overflowing blue sublayer are clipped to the rounded outline; the border follows it.
    func testMasksToBoundsOnRotatedRoundedParent() throws {
        let root = stage(160, 90)
        func clipped() -> CALayer {
            let parent = CALayer()
            parent.bounds = CGRect(x: 0, y: 0, width: 60, height: 44)
            parent.backgroundColor = CGColor(gray: 0.75, alpha: 1)
            parent.contents = checker()
            parent.contentsGravity = .resizeAspect
            parent.magnificationFilter = .nearest
            parent.cornerRadius = 14
            parent.masksToBounds = true
            parent.borderWidth = 2
            parent.borderColor = Self.white
            parent.addSublayer(layer(CGRect(x: 30, y: 22, width: 60, height: 40), Self.blue))
            return parent
        }
        let flat = clipped()
        flat.position = CGPoint(x: 40, y: 45)
        flat.transform = CATransform3DMakeRotation(0.35, 0, 0, 1)
        let space = layer(CGRect(x: 80, y: 0, width: 80, height: 90))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 150
        space.sublayerTransform = perspective
        let tilted = clipped()
        tilted.position = CGPoint(x: 40, y: 45)
        tilted.transform = CATransform3DMakeRotation(.pi / 4, 1, 0, 0)
        space.addSublayer(tilted)
        root.addSublayer(flat)
        root.addSublayer(space)
        try assertGolden("rotated-rounded-clip", root)
    }

    /// Masks whose layer has image contents with graded alpha: a radial falloff (opaque centre,
    /// transparent from radius 16 of 32) over the checker contents and an overflowing green
    /// sublayer (left); a left-to-right alpha ramp over an orange layer, the mask inset 6 from
    /// its edges so the uncovered margin vanishes too (right).
    func testImageMaskWithGradedAlpha() throws {
        let root = stage()
        let radial = image(32, 32) { x, y in
            let dx = Double(x) + 0.5 - 16, dy = Double(y) + 0.5 - 16
            let a = UInt8(max(0, min(1, 1.4 - (dx * dx + dy * dy).squareRoot() / 16 * 1.4)) * 255)
            return [a, a, a, a]
        }
        let ramp = image(32, 4) { x, _ in
            let a = UInt8(Double(x) / 31 * 255)
            return [a, a, a, a]
        }
        let vignetted = layer(CGRect(x: 6, y: 19, width: 52, height: 52), CGColor(gray: 0.9, alpha: 1))
        vignetted.contents = checker()
        vignetted.magnificationFilter = .nearest
        vignetted.addSublayer(layer(CGRect(x: 30, y: 30, width: 40, height: 12), Self.green))
        let radialMask = layer(CGRect(x: 0, y: 0, width: 52, height: 52))
        radialMask.contents = radial
        vignetted.mask = radialMask
        let ramped = layer(CGRect(x: 62, y: 19, width: 52, height: 52), CGColor(red: 1, green: 0.55, blue: 0.1, alpha: 1))
        let rampMask = layer(CGRect(x: 6, y: 6, width: 40, height: 40))
        rampMask.contents = ramp
        ramped.mask = rampMask
        root.addSublayer(vignetted)
        root.addSublayer(ramped)
        try assertGolden("gradient-image-mask", root)
    }

    // MARK: - Order, culling, perspective

    /// Left: red, green, blue squares added in that order with zPosition 10, −10, 0 — drawn
    /// green, blue, red (red on top, blue over green). Right: 26×44 cards with the JPEG
    /// quadrants: turned 180° about y with doubleSided on (mirrored: green/red on top, gray/blue
    /// below), turned with doubleSided off (culled with its yellow sublayer: nothing), and
    /// unturned with doubleSided off (drawn as is).
    func testZPositionOrderAndDoubleSidedCulling() throws {
        let root = stage(160, 90)
        for (i, (color, z)) in [(Self.red, CGFloat(10)), (Self.green, -10), (Self.blue, 0)].enumerated() {
            let square = layer(CGRect(x: 6 + CGFloat(i) * 12, y: 8 + CGFloat(i) * 12, width: 34, height: 34), color)
            square.zPosition = z
            root.addSublayer(square)
        }
        let quadrants = fixture("quadrants444-16x16.jpg", width: 16, height: 16)
        for (i, (turned, doubleSided)) in [(true, true), (true, false), (false, false)].enumerated() {
            let card = layer(CGRect(x: 72 + CGFloat(i) * 29, y: 23, width: 26, height: 44), CGColor(gray: 0.9, alpha: 1))
            card.contents = quadrants
            card.contentsGravity = .resizeAspect
            card.magnificationFilter = .nearest
            card.isDoubleSided = doubleSided
            if turned { card.transform = CATransform3DMakeRotation(.pi, 0, 1, 0) }
            card.addSublayer(layer(CGRect(x: 2, y: 36, width: 10, height: 6), Self.yellow))
            root.addSublayer(card)
        }
        try assertGolden("zposition-doublesided", root)
    }

    /// A plain (flattening) layer with sublayerTransform m34 = −1/250 about its centre: a white
    /// door hinged on the left turned 60° away (far edge shorter), and two cards crossing in an
    /// X (±30° about y) — a plain layer does not sort or split its sublayers in depth, so the
    /// later green card covers the red one wholly.
    func testSublayerTransformPerspectiveOnPlainLayer() throws {
        let root = stage(160, 90)
        let plain = layer(root.bounds)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 250
        plain.sublayerTransform = perspective
        let door = CALayer()
        door.bounds = CGRect(x: 0, y: 0, width: 50, height: 64)
        door.anchorPoint = CGPoint(x: 0, y: 0.5)
        door.position = CGPoint(x: 10, y: 45)
        door.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        door.backgroundColor = Self.white
        plain.addSublayer(door)
        for (angle, color) in [(CGFloat.pi / 6, Self.red), (-CGFloat.pi / 6, Self.green)] {
            let card = layer(CGRect(x: 80, y: 20, width: 60, height: 50), color)
            card.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
            plain.addSublayer(card)
        }
        root.addSublayer(plain)
        try assertGolden("sublayer-perspective-flat", root)
    }
}
