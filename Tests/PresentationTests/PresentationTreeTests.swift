import XCTest
import Geometry
import Animation
import Layers
import Presentation
import Timing

/// The flat presentation tree: order, paths, times, matrices and flattening (§11.3).
final class PresentationTreeTests: XCTestCase {
    /// Animations added with `beginTime` 0 start at the media clock's "now": start every test at
    /// 0, whatever timelines earlier tests drove.
    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
    }

    private func project(_ t: CATransform3D, _ x: CGFloat, _ y: CGFloat) -> CGPoint {
        let p = t.transform(x: x, y: y)
        return CGPoint(x: p.x / p.w, y: p.y / p.w)
    }

    private func makeTree() -> (root: CALayer, a: CALayer, b: CALayer, mask: CALayer) {
        let root = CALayer()
        root.name = "root"
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        let a = CALayer(), b = CALayer(), mask = CALayer()
        a.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        a.position = CGPoint(x: 25, y: 25)
        b.name = "b"
        b.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        b.position = CGPoint(x: 10, y: 10)
        b.zPosition = -1
        a.mask = mask
        root.addSublayer(a)
        root.addSublayer(b)
        return (root, a, b, mask)
    }

    func testPreOrderWithParentsPathsAndDrawingOrder() {
        let (root, _, _, _) = makeTree()
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.layers.count, 4)
        XCTAssertEqual((0..<4).map { tree.path(of: $0) }, ["root", "root/#0", "root/#0/#mask", "root/b"])
        XCTAssertEqual(tree.layers.map(\.parent), [nil, 0, 1, 0])
        XCTAssertEqual(tree.layers.map(\.depth), [0, 1, 2, 1])
        XCTAssertEqual(tree.layers[1].mask, 2)
        XCTAssertTrue(tree.layers[2].isMask)
        // b has zPosition −1, so it draws before #0 (§11.3 stable sort by zPosition).
        XCTAssertEqual(tree.layers[0].sublayersInDrawingOrder, [3, 1])
        XCTAssertEqual(tree.layer(atPath: "root/b")?.index, 3)
    }

    func testDrawingOrderIsAStableSortByZPositionAmongManySiblings() {
        // Enough siblings for every merge width, with ties, negatives and animated depths.
        let root = CALayer()
        var depths: [CGFloat] = []
        for i in 0..<77 {
            let child = CALayer()
            let z = CGFloat((i * 37) % 11 - 5) / 2
            child.zPosition = i % 4 == 0 ? 0 : z
            if i % 9 == 0 {
                let a = CABasicAnimation(keyPath: "zPosition")
                a.fromValue = -7.0; a.toValue = 7.0; a.duration = 2
                child.add(a, forKey: "z")
            }
            root.addSublayer(child)
        }
        for t in [0.25, 1.0, 1.75] {
            let tree = PresentationTree.evaluate(root, at: t)
            depths = (1...77).map { tree.layers[$0].properties.zPosition }
            let expected = (1...77).enumerated()
                .sorted { (depths[$0.offset], $0.offset) < (depths[$1.offset], $1.offset) }.map(\.element)
            XCTAssertEqual(tree.layers[0].sublayersInDrawingOrder, expected, "t = \(t)")
            XCTAssertNotEqual(expected, Array(1...77))
        }
    }

    func testHiddenPropagatesToDescendants() {
        let (root, a, _, _) = makeTree()
        a.isHidden = true
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.layers.map(\.isEffectivelyHidden), [false, true, true, false])
    }

    func testAnimatedPositionMovesTheWorldMatrix() {
        let (root, a, _, _) = makeTree()
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 25
        move.toValue = 125
        move.duration = 2
        move.beginTime = 1
        a.add(move, forKey: "move")
        for (time, expectedX) in [(0.5, 25.0), (2.0, 75.0), (3.0, 125.0), (3.5, 25.0)] {
            let tree = PresentationTree.evaluate(root, at: time)
            let origin = project(tree.layers[1].transformToRoot, 0, 0)
            // The layer's (0,0) sits at position − anchor·size = x − 25.
            XCTAssertEqual(origin.x, CGFloat(expectedX - 25), accuracy: 1e-9, "t=\(time)")
        }
    }

    func testLocalTimeFollowsLayerTiming() {
        let (root, a, b, _) = makeTree()
        a.speed = 2
        a.beginTime = 1
        b.timeOffset = 5
        let tree = PresentationTree.evaluate(root, at: 3)
        XCTAssertEqual(tree.layers[1].localTime, 4)   // (3 − 1)·2
        XCTAssertEqual(tree.layers[2].localTime, 4)   // the mask lives in a's time
        XCTAssertEqual(tree.layers[3].localTime, 8)   // 3 + 5
    }

    func testOrdinaryLayersFlattenButTransformLayersKeepDepth() {
        // A child pushed toward the viewer under perspective on the grandparent.
        func build(container: CALayer) -> CALayer {
            let root = CALayer()
            root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            root.position = CGPoint(x: 100, y: 100)
            var perspective = CATransform3DIdentity
            perspective.m34 = -1.0 / 500
            root.sublayerTransform = perspective
            container.bounds = root.bounds
            container.position = root.position
            root.addSublayer(container)
            let child = CALayer()
            child.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
            child.position = CGPoint(x: 150, y: 100)
            child.zPosition = 100
            container.addSublayer(child)
            return root
        }
        let flat = PresentationTree.evaluate(build(container: CALayer()), at: 0)
        let deep = PresentationTree.evaluate(build(container: CATransformLayer()), at: 0)
        // Flattened: z is dropped in the container's plane, so perspective sees z = 0 there.
        let flatCentre = project(flat.layers[2].transformToRoot, 10, 10)
        XCTAssertEqual(flatCentre.x, 150, accuracy: 1e-9)
        // In a transform layer's 3D space z = 100 survives: x' = 100 + 50 / (1 − 100/500) = 162.5.
        let deepCentre = project(deep.layers[2].transformToRoot, 10, 10)
        XCTAssertEqual(deepCentre.x, 162.5, accuracy: 1e-9)
        XCTAssertEqual(deep.layers[2].renderingContext, 0)
        XCTAssertEqual(flat.layers[2].renderingContext, 1)
    }

    func testEvaluationDoesNotChangeTheModel() {
        let (root, a, _, _) = makeTree()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0
        fade.toValue = 1
        fade.duration = 1
        a.add(fade, forKey: nil)
        let tree = PresentationTree.evaluate(root, at: 0.25)
        XCTAssertEqual(tree.layers[1].properties.opacity, 0.25, accuracy: 1e-6)
        XCTAssertEqual(a.opacity, 1)
        XCTAssertEqual(a.attachedAnimationCount, 1)
    }
}
