import XCTest
import Geometry
import Animation
import Layers
@testable import Presentation
import Timing

/// Copies of a replicator without `instanceDelay` take copy 0's presented values instead of
/// running its animations again. Whatever the nesting (replicators inside copies, masks, an
/// animated `instanceCount`, particles), every presented layer must still carry exactly the
/// values its model layer presents at its own local time, and only delayed copies may differ.
final class ReplicatorCopyValuesTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
    }

    /// An outer replicator of three undelayed copies holding a masked group, a delayed inner
    /// replicator whose count animates, a rotating leaf and an emitter.
    private func makeTree(outerDelay: Double) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        let outer = CAReplicatorLayer()
        outer.bounds = root.bounds
        outer.instanceCount = 3
        outer.instanceDelay = outerDelay
        outer.instanceTransform = CATransform3DMakeTranslation(30, 0, 0)
        outer.instanceRedOffset = -0.2
        root.addSublayer(outer)

        let group = CALayer()
        group.bounds = CGRect(x: 0, y: 0, width: 50, height: 40)
        group.add(repeatingBasic("opacity", from: 1.0, to: 0.2), forKey: "fade")
        let mask = CALayer()
        mask.bounds = group.bounds
        mask.add(repeatingBasic("bounds.size.width", from: 10.0, to: 50.0, duration: 0.7), forKey: "w")
        group.mask = mask
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        dot.add(repeatingBasic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 40, y: 30)), forKey: "move")
        group.addSublayer(dot)
        outer.addSublayer(group)

        let inner = CAReplicatorLayer()
        inner.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        inner.instanceDelay = 0.25
        inner.instanceTransform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        inner.add(repeatingBasic("instanceCount", from: 2, to: 4, duration: 2), forKey: "count")
        let spoke = CALayer()
        spoke.bounds = CGRect(x: 0, y: 0, width: 4, height: 20)
        let keyframes = CAKeyframeAnimation(keyPath: "backgroundColor")
        keyframes.values = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1),
                            CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)]
        keyframes.duration = 1.3
        keyframes.repeatCount = .infinity
        spoke.add(keyframes, forKey: "colour")
        spoke.add(repeatingBasic("zPosition", from: -1.0, to: 1.0), forKey: "z")
        inner.addSublayer(spoke)
        outer.addSublayer(inner)

        let spinner = CALayer()
        spinner.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        spinner.add(repeatingBasic("transform.rotation.z", from: 0.0, to: 3.0), forKey: "spin")
        spinner.add(repeatingBasic("transform.scale", from: 0.5, to: 1.5, duration: 0.9), forKey: "scale")
        outer.addSublayer(spinner)

        let emitter = CAEmitterLayer()
        emitter.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
        let cell = CAEmitterCell()
        cell.birthRate = 15
        cell.lifetime = 1
        cell.velocity = 20
        cell.contents = CGImage(width: 2, height: 2, source: nil)
        emitter.emitterCells = [cell]
        outer.addSublayer(emitter)
        return root
    }

    private func modelLayers(of root: CALayer) -> [ObjectIdentifier: CALayer] {
        var layers: [ObjectIdentifier: CALayer] = [:]
        root.forEachLayerInTree { layers[ObjectIdentifier($0)] = $0 }
        return layers
    }

    func testEveryCopyPresentsItsModelAtItsOwnTime() throws {
        for delay in [0.0, 0.2] {
            let root = makeTree(outerDelay: delay)
            let models = modelLayers(of: root)
            for time in [0.0, 0.3, 0.85, 1.6, 2.45] {
                let tree = PresentationTree.evaluate(root, at: time, maximumThreads: 1)
                var checked = 0
                for layer in tree.layers where layer.particle == nil {
                    let model = try XCTUnwrap(models[layer.layerID])
                    XCTAssertEqual(layer.properties, model.presentationProperties(atLocalTime: layer.localTime),
                                   "delay \(delay), t = \(time): \(tree.path(of: layer.index))")
                    checked += 1
                }
                // Three copies of the group, its mask, the dot, the inner replicator, 1…4 spokes
                // (1 where a delayed copy runs before the count animation starts), the spinner
                // and the emitter, under the root and the outer replicator.
                XCTAssertGreaterThanOrEqual(checked, 2 + 3 * 7, "delay \(delay), t = \(time)")
            }
        }
    }

    func testUndelayedCopiesShareValuesButNotPlacement() {
        let tree = PresentationTree.evaluate(makeTree(outerDelay: 0), at: 0.3, maximumThreads: 1)
        let groups = tree.layers.filter { $0.depth == 2 && $0.typeName == "layer" && $0.mask != nil }
        XCTAssertEqual(groups.map(\.replicaInstance), [0, 1, 2])
        for copy in groups.dropFirst() {
            XCTAssertEqual(copy.properties, groups[0].properties)
            XCTAssertNotEqual(copy.transformToRoot.m41, groups[0].transformToRoot.m41)
            XCTAssertNotNil(copy.tint)
        }
        XCTAssertEqual(Double(groups[0].properties.opacity), 1 - 0.8 * 0.3, accuracy: 1e-6)
    }

    func testDelayedCopiesRunBehind() {
        let tree = PresentationTree.evaluate(makeTree(outerDelay: 0.2), at: 0.5, maximumThreads: 1)
        let groups = tree.layers.filter { $0.depth == 2 && $0.typeName == "layer" && $0.mask != nil }
        XCTAssertEqual(groups.count, 3)
        // opacity 1 → 0.2 over 1 s: copy k is at t = 0.5 − 0.2k.
        for (k, group) in groups.enumerated() {
            XCTAssertEqual(Double(group.properties.opacity), 1 - 0.8 * (0.5 - 0.2 * Double(k)), accuracy: 1e-6, "copy \(k)")
        }
    }

    /// The parallel split keeps the shortcut inside its parts: the same tree as one thread.
    func testSplitTreeMatchesOneThread() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 800, height: 600)
        for _ in 0..<120 { root.addSublayer(makeTree(outerDelay: 0).sublayers![0]) }
        let one = PresentationTree.evaluate(root, at: 0.7, maximumThreads: 1)
        let split = PresentationTree.evaluate(root, at: 0.7, maximumThreads: 4)
        XCTAssertGreaterThanOrEqual(one.layers.count, PresentationTree.parallelMinimumLayerCount)
        XCTAssertEqual(split.layers.count, one.layers.count)
        for (a, b) in zip(one.layers, split.layers) {
            XCTAssertEqual(a.properties, b.properties)
            XCTAssertEqual(a.transformToRoot, b.transformToRoot)
            XCTAssertEqual(a.parent, b.parent)
            XCTAssertEqual(a.sublayersInDrawingOrder, b.sublayersInDrawingOrder)
        }
    }
}
