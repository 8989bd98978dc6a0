import XCTest
import Geometry
import Layers

// `estimatedPresentedLayerCount` is kept between evaluations until the hierarchy changes: every
// change that can change the count (sublayers, masks, a replicator's instanceCount) must make
// the kept counts of the layer and all its ancestors stale. Each test counts once (filling the
// caches), changes a layer deep in the tree, and checks the root's count against a fresh tree
// built the same way (exact integers).

final class PresentedLayerEstimateTests: XCTestCase {
    /// root → a → b → c, with `extra` leaves under c.
    private func chain(extra: Int) -> (root: CALayer, a: CALayer, b: CALayer, c: CALayer) {
        let root = CALayer(), a = CALayer(), b = CALayer(), c = CALayer()
        root.addSublayer(a); a.addSublayer(b); b.addSublayer(c)
        for _ in 0..<extra { c.addSublayer(CALayer()) }
        return (root, a, b, c)
    }

    func testCountFollowsSublayerChangesDeepInTheTree() {
        let t = chain(extra: 2)
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 6)
        XCTAssertEqual(t.b.estimatedPresentedLayerCount, 4)
        let leaf = CALayer()
        t.c.addSublayer(leaf)
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 7, "addSublayer three levels down")
        t.c.insertSublayer(CALayer(), at: 0)
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 8, "insertSublayer")
        leaf.removeFromSuperlayer()
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 7, "removeFromSuperlayer")
        t.c.replaceSublayer(t.c.sublayers![0], with: chain(extra: 1).root)
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 11, "replaceSublayer with a 5-layer tree")
        t.b.sublayers = nil
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 3, "sublayers = nil")
        XCTAssertEqual(t.c.estimatedPresentedLayerCount, 8, "the detached subtree counts on its own (c, the 5-layer tree, 2 leaves)")
    }

    func testCountFollowsMasks() {
        let t = chain(extra: 0)
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 4)
        let mask = CALayer()
        mask.addSublayer(CALayer())
        t.c.mask = mask
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 6, "a mask of two layers")
        mask.addSublayer(CALayer())
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 7, "a sublayer added to the mask")
        t.c.mask = nil
        XCTAssertEqual(t.root.estimatedPresentedLayerCount, 4, "mask removed")
    }

    func testCountFollowsInstanceCount() {
        let root = CALayer(), replicator = CAReplicatorLayer()
        root.addSublayer(replicator)
        replicator.addSublayer(CALayer())
        replicator.addSublayer(CALayer())
        XCTAssertEqual(root.estimatedPresentedLayerCount, 4)
        replicator.instanceCount = 3
        XCTAssertEqual(root.estimatedPresentedLayerCount, 8, "three copies of two sublayers")
        replicator.setValue(5, forKey: "instanceCount")
        XCTAssertEqual(root.estimatedPresentedLayerCount, 12, "set by key-value coding")
        replicator.instanceCount = 0
        XCTAssertEqual(root.estimatedPresentedLayerCount, 2, "no copies")
    }

    func testEqualTreesCountEquallyWhateverWasCountedBefore() {
        // Counting one tree must not make another tree's count stale or wrong.
        let first = chain(extra: 3), second = chain(extra: 3)
        XCTAssertEqual(first.root.estimatedPresentedLayerCount, 7)
        second.c.addSublayer(CALayer())
        XCTAssertEqual(first.root.estimatedPresentedLayerCount, 7)
        XCTAssertEqual(second.root.estimatedPresentedLayerCount, 8)
    }
}
