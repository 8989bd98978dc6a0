import XCTest
import Geometry
import Animation
import Layers
import Presentation
import Timing

/// Replicator copies in the presentation tree (§15.4, examples C08–C10).
final class ReplicatorExpansionTests: XCTestCase {
    /// Animations added with `beginTime` 0 start at the media clock's "now": start every test at
    /// 0, whatever timelines earlier tests drove.
    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
    }

    private func centre(_ layer: PresentedLayer) -> CGPoint {
        let b = layer.properties.bounds
        let p = layer.transformToRoot.transform(x: b.midX, y: b.midY)
        return CGPoint(x: p.x / p.w, y: p.y / p.w)
    }

    private func makeScene(count: Int, dots: Int = 1) -> (root: CALayer, replicator: CAReplicatorLayer, dots: [CALayer]) {
        let root = CALayer()
        root.name = "root"
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        root.position = CGPoint(x: 200, y: 200)
        let replicator = CAReplicatorLayer()
        replicator.name = "rep"
        replicator.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        replicator.position = CGPoint(x: 50, y: 50)
        replicator.instanceCount = count
        root.addSublayer(replicator)
        let layers = (0..<dots).map { i -> CALayer in
            let dot = CALayer()
            dot.name = "dot\(i)"
            dot.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            dot.position = CGPoint(x: 50, y: 10)
            replicator.addSublayer(dot)
            return dot
        }
        return (root, replicator, layers)
    }

    func testEachSublayerIsPresentedOncePerInstanceCopyMajor() {
        let (root, _, _) = makeScene(count: 3, dots: 2)
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.layers.count, 2 + 6)
        let rep = tree.layer(atPath: "root/rep")!
        let order = rep.sublayersInDrawingOrder.map { tree.path(of: $0) }
        XCTAssertEqual(order, ["root/rep/dot0", "root/rep/dot1", "root/rep/dot0~1", "root/rep/dot1~1",
                               "root/rep/dot0~2", "root/rep/dot1~2"])
        XCTAssertEqual(rep.sublayersInDrawingOrder.map { tree.layers[$0].replicaInstance }, [0, 0, 1, 1, 2, 2])
        // Copies keep the model layer's identity; the replica key tells them apart.
        let dot0 = rep.sublayersInDrawingOrder.filter { tree.layers[$0].properties.name == "dot0" }.map { tree.layers[$0] }
        XCTAssertEqual(Set(dot0.map(\.layerID)).count, 1)
        XCTAssertEqual(Set(dot0.map(\.replicaKey)).count, 3)
        XCTAssertEqual(dot0[0].replicaKey, 0)
        // Stable across frames.
        let again = PresentationTree.evaluate(root, at: 1)
        XCTAssertEqual(again.layers.map(\.replicaKey), tree.layers.map(\.replicaKey))
    }

    func testInstanceCountOfZeroOrLessPresentsNoSublayers() {
        for count in [0, -2] {
            let (root, _, _) = makeScene(count: count)
            let tree = PresentationTree.evaluate(root, at: 0)
            XCTAssertEqual(tree.layers.count, 2, "count \(count)")
            XCTAssertEqual(tree.layers[1].sublayersInDrawingOrder, [])
        }
    }

    func testTranslationAccumulatesPerInstance() {
        let (root, replicator, _) = makeScene(count: 4)
        replicator.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        let tree = PresentationTree.evaluate(root, at: 0)
        let copies = tree.layers[1].sublayersInDrawingOrder.map { centre(tree.layers[$0]) }
        for (k, c) in copies.enumerated() {
            XCTAssertEqual(c.x, 50 + 20 * CGFloat(k), accuracy: 1e-9)
            XCTAssertEqual(c.y, 10, accuracy: 1e-9)
        }
    }

    func testRotationTurnsAboutTheBoundsCentre() {
        // C09: bounds 100×100, sublayer at (50,10), rotation π/2, count 3.
        let (root, replicator, _) = makeScene(count: 3)
        replicator.instanceTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let tree = PresentationTree.evaluate(root, at: 0)
        let copies = tree.layers[1].sublayersInDrawingOrder.map { centre(tree.layers[$0]) }
        let expected = [CGPoint(x: 50, y: 10), CGPoint(x: 90, y: 50), CGPoint(x: 50, y: 90)]
        for (c, e) in zip(copies, expected) {
            XCTAssertEqual(c.x, e.x, accuracy: 1e-9)
            XCTAssertEqual(c.y, e.y, accuracy: 1e-9)
        }
    }

    func testInstanceDelayShiftsEachCopysTime() {
        // C08: translate(110), delay 0.1, opacity 1 → 0 over 1 s, fill removed.
        let (root, replicator, dots) = makeScene(count: 3)
        replicator.instanceTransform = CATransform3DMakeTranslation(110, 0, 0)
        replicator.instanceDelay = 0.1
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        fade.duration = 1
        dots[0].add(fade, forKey: "fade")
        func opacities(_ t: Double) -> [Float] {
            let tree = PresentationTree.evaluate(root, at: t)
            return tree.layers[1].sublayersInDrawingOrder.map { tree.layers[$0].properties.opacity }
        }
        for (value, expected) in zip(opacities(0.5), [Float(0.5), 0.6, 0.7]) { XCTAssertEqual(value, expected, accuracy: 1e-6) }
        for (value, expected) in zip(opacities(0.05), [Float(0.95), 1, 1]) { XCTAssertEqual(value, expected, accuracy: 1e-6) }
        let tree = PresentationTree.evaluate(root, at: 0.5)
        XCTAssertEqual(tree.layers[1].sublayersInDrawingOrder.map { tree.layers[$0].localTime }, [0.5, 0.4, 0.3])
        // Before a copy's animation starts it shows the model value, not the animation's first one.
        dots[0].opacity = 0.2
        for (value, expected) in zip(opacities(0.05), [Float(0.95), 0.2, 0.2]) { XCTAssertEqual(value, expected, accuracy: 1e-6) }
        XCTAssertEqual(PresentationTree.evaluate(root, at: 0.05).layers[3].localTime, 0.05 - 0.1, accuracy: 1e-12)
    }

    func testAnimatedPositionDiffersPerCopyByTheDelayedValue() {
        let (root, replicator, dots) = makeScene(count: 4)
        replicator.instanceDelay = 0.25
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0
        move.toValue = 200
        move.duration = 2
        move.fillMode = .both
        dots[0].add(move, forKey: "move")
        let t = 1.3
        let tree = PresentationTree.evaluate(root, at: t)
        for (k, i) in tree.layers[1].sublayersInDrawingOrder.enumerated() {
            let expected = 100 * max(0, t - 0.25 * Double(k))   // 200 over 2 s at the copy's time
            XCTAssertEqual(tree.layers[i].properties.position.x, CGFloat(expected), accuracy: 1e-9, "copy \(k)")
        }
    }

    func testColourOffsetsAccumulateAndClamp() {
        // C10: white, green offset −0.3, count 5 → 1, 0.7, 0.4, 0.1, 0.
        let (root, replicator, _) = makeScene(count: 5)
        replicator.instanceGreenOffset = -0.3
        let tree = PresentationTree.evaluate(root, at: 0)
        let tints = tree.layers[1].sublayersInDrawingOrder.map { tree.layers[$0].tint }
        XCTAssertNil(tints[0], "copy 0 under opaque white is untinted")
        for (tint, green) in zip(tints.dropFirst(), [Float(0.7), 0.4, 0.1, 0]) {
            XCTAssertEqual(tint?.y ?? -1, green, accuracy: 1e-6)
            XCTAssertEqual(tint?.x, 1)
            XCTAssertEqual(tint?.w, 1)
        }
        XCTAssertNil(tree.layers[0].tint)
        XCTAssertNil(tree.layers[1].tint, "the replicator itself is not tinted")
    }

    func testInstanceColourTintsCopyZeroAndDescendants() {
        let (root, replicator, dots) = makeScene(count: 2)
        replicator.instanceColor = CGColor(red: 1, green: 0.5, blue: 0.25, alpha: 1)
        let child = CALayer()
        dots[0].addSublayer(child)
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.layer(atPath: "root/rep/dot0")?.tint, SIMD4(1, 0.5, 0.25, 1))
        XCTAssertEqual(tree.layer(atPath: "root/rep/dot0/#0")?.tint, SIMD4(1, 0.5, 0.25, 1))
        XCTAssertEqual(tree.layer(atPath: "root/rep/dot0~1/#0")?.tint, SIMD4(1, 0.5, 0.25, 1))
        XCTAssertEqual(tree.layer(atPath: "root/rep/dot0~1/#0")?.replicaInstance, 1)
    }

    func testNestedReplicatorsMultiplyTintsAndComposeTransforms() {
        let (root, outer, dots) = makeScene(count: 2)
        outer.instanceAlphaOffset = -0.5
        outer.instanceTransform = CATransform3DMakeTranslation(0, 30, 0)
        dots[0].removeFromSuperlayer()
        let inner = CAReplicatorLayer()
        inner.name = "inner"
        inner.bounds = outer.bounds
        inner.position = CGPoint(x: 50, y: 50)
        inner.instanceCount = 2
        inner.instanceRedOffset = -0.5
        inner.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        inner.addSublayer(dots[0])
        outer.addSublayer(inner)
        let tree = PresentationTree.evaluate(root, at: 0)
        let paths = ["root/rep/inner/dot0", "root/rep/inner/dot0~1", "root/rep/inner~1/dot0", "root/rep/inner~1/dot0~1"]
        let leaves = paths.map { tree.layer(atPath: $0) }
        XCTAssertTrue(leaves.allSatisfy { $0 != nil })
        XCTAssertEqual(leaves.map { $0?.tint }, [nil, SIMD4(0.5, 1, 1, 1), SIMD4(1, 1, 1, 0.5), SIMD4(0.5, 1, 1, 0.5)])
        XCTAssertEqual(Set(leaves.compactMap { $0?.replicaKey }).count, 4, "every copy of the leaf has its own key")
        let centres = leaves.compactMap { $0 }.map(centre)
        XCTAssertEqual(centres.map(\.x), [50, 70, 50, 70])
        XCTAssertEqual(centres.map(\.y), [10, 10, 40, 40])
    }

    func testHiddenReplicatorHidesEveryCopy() {
        let (root, replicator, _) = makeScene(count: 3)
        replicator.isHidden = true
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.layers.count, 5)
        XCTAssertTrue(tree.layers.dropFirst().allSatisfy(\.isEffectivelyHidden))
    }

    func testMasksAreCopiedWithTheirLayers() {
        let (root, replicator, dots) = makeScene(count: 3)
        replicator.instanceAlphaOffset = -0.25
        let mask = CALayer()
        mask.bounds = dots[0].bounds
        dots[0].mask = mask
        let tree = PresentationTree.evaluate(root, at: 0)
        let copies = tree.layers[1].sublayersInDrawingOrder
        XCTAssertEqual(copies.count, 3)
        let masks = copies.compactMap { tree.layers[$0].mask }
        XCTAssertEqual(Set(masks).count, 3)
        for (copy, m) in zip(copies, masks) {
            XCTAssertTrue(tree.layers[m].isMask)
            XCTAssertEqual(tree.layers[m].parent, copy)
            XCTAssertNil(tree.layers[m].tint, "the owner is tinted, its mask is not")
        }
        XCTAssertEqual(tree.path(of: masks[2]), "root/rep/dot0~2/#mask")
    }

    func testPreservesDepthKeepsCopiesInTheSuperlayersThreeDSpace() {
        func build(preservesDepth: Bool) -> PresentationTree {
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            root.position = CGPoint(x: 100, y: 100)
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 500
            root.sublayerTransform = perspective
            let replicator = CAReplicatorLayer()
            replicator.bounds = root.bounds
            replicator.position = root.position
            replicator.preservesDepth = preservesDepth
            replicator.instanceCount = 2
            replicator.instanceTransform = CATransform3DMakeTranslation(0, 0, 100)
            root.addSublayer(replicator)
            let child = CALayer()
            child.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
            child.position = CGPoint(x: 150, y: 100)
            replicator.addSublayer(child)
            return PresentationTree.evaluate(root, at: 0)
        }
        let flat = build(preservesDepth: false), deep = build(preservesDepth: true)
        XCTAssertFalse(flat.layers[1].preservesDepth)
        XCTAssertTrue(deep.layers[1].preservesDepth)
        // Copy 1 is pushed 100 toward the viewer: dropped when flattened, kept in depth.
        XCTAssertEqual(centre(flat.layers[3]).x, 150, accuracy: 1e-9)
        XCTAssertEqual(centre(deep.layers[3]).x, 162.5, accuracy: 1e-9)
        XCTAssertEqual(flat.layers[3].renderingContext, 1)
        XCTAssertEqual(deep.layers[3].renderingContext, 0)
    }

    func testOrdinaryTreesAreUnchanged() {
        let root = CALayer()
        root.addSublayer(CALayer())
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertTrue(tree.layers.allSatisfy { $0.tint == nil && $0.replicaInstance == 0 && $0.replicaKey == 0 && $0.particle == nil })
        XCTAssertFalse(tree.layers[0].preservesDepth)
    }
}
