import XCTest
import Geometry
import Animation
import Layers
@testable import Presentation
import Timing

/// A big tree evaluated on several threads is the tree one thread builds, value for value:
/// in place when the layer estimate is exact, moved together when particles or an animated
/// `instanceCount` make it wrong.
final class ParallelEvaluationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
    }

    /// 41 groups of 60 leaves under a masked root; groups and leaves move, fade and change depth.
    private func makeTree(withInexactParts: Bool) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 800, height: 600)
        root.position = CGPoint(x: 400, y: 300)
        let mask = CALayer()
        mask.bounds = root.bounds
        mask.addSublayer(CALayer())
        root.mask = mask
        for g in 0..<41 {
            let group: CALayer = switch g % 4 {
            case 0: CATransformLayer()
            case 1 where withInexactParts:
                { let r = CAReplicatorLayer(); r.instanceCount = 2; return r }()
            default: CALayer()
            }
            group.name = g % 3 == 0 ? "group\(g)" : nil
            group.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
            group.position = CGPoint(x: Double(g) * 7, y: 200)
            group.zPosition = g % 5 == 0 ? Double(g % 3) - 1 : 0
            if g % 6 == 0 { group.sublayerTransform = CATransform3DMakeScale(0.9, 0.9, 1) }
            if g % 7 == 0 { group.isGeometryFlipped = true }
            if g % 9 == 0 { group.isHidden = true }
            group.add(repeatingBasic("position.x", from: 0.0, to: 50.0 + Double(g)), forKey: "x")
            if let replicator = group as? CAReplicatorLayer {
                // The estimate reads the model's 2 copies; the presentation has 2…5.
                replicator.add(repeatingBasic("instanceCount", from: 2, to: 5, duration: 2), forKey: "count")
                replicator.instanceDelay = 0.1
                replicator.instanceTransform = CATransform3DMakeTranslation(5, 0, 0)
            }
            for i in 0..<60 {
                let leaf = i % 10 == 0 ? CAShapeLayer() : CALayer()
                leaf.bounds = CGRect(x: 0, y: 0, width: 10 + Double(i % 7), height: 12)
                leaf.position = CGPoint(x: Double(i) * 3, y: Double(g))
                leaf.backgroundColor = CGColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 1)
                if i % 11 == 0 { leaf.zPosition = Double(i % 4) - 2 }
                if i % 13 == 0 { leaf.mask = CALayer() }
                leaf.add(repeatingBasic("opacity", from: 1.0, to: 0.25), forKey: "fade")
                if i % 4 == 0 { leaf.add(repeatingBasic("zPosition", from: -2.0, to: 2.0), forKey: "z") }
                group.addSublayer(leaf)
            }
            root.addSublayer(group)
        }
        if withInexactParts {
            let emitter = CAEmitterLayer()
            emitter.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            let cell = CAEmitterCell()
            cell.birthRate = 20
            cell.lifetime = 2
            cell.velocity = 30
            cell.contents = CGImage(width: 4, height: 4, source: nil)
            emitter.emitterCells = [cell]
            root.insertSublayer(emitter, at: 7)
        }
        return root
    }

    private func assertSameTree(_ a: PresentationTree, _ b: PresentationTree, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.layers.count, b.layers.count, file: file, line: line)
        for (x, y) in zip(a.layers, b.layers) {
            XCTAssertEqual(x.index, y.index, file: file, line: line)
            XCTAssertEqual(x.parent, y.parent, "layer \(x.index)", file: file, line: line)
            XCTAssertEqual(x.depth, y.depth, file: file, line: line)
            XCTAssertEqual(x.siblingIndex, y.siblingIndex, file: file, line: line)
            XCTAssertEqual(x.typeName, y.typeName, file: file, line: line)
            XCTAssertTrue(x.properties == y.properties, "properties of layer \(x.index)", file: file, line: line)
            XCTAssertEqual(x.localTime, y.localTime, file: file, line: line)
            XCTAssertEqual(x.transformToParent, y.transformToParent, file: file, line: line)
            XCTAssertEqual(x.transformToRoot, y.transformToRoot, file: file, line: line)
            XCTAssertEqual(x.renderingContext, y.renderingContext, "layer \(x.index)", file: file, line: line)
            XCTAssertEqual(x.mask, y.mask, file: file, line: line)
            XCTAssertEqual(x.isMask, y.isMask, file: file, line: line)
            XCTAssertEqual(x.sublayersInDrawingOrder, y.sublayersInDrawingOrder, "layer \(x.index)", file: file, line: line)
            XCTAssertEqual(x.isEffectivelyHidden, y.isEffectivelyHidden, file: file, line: line)
            XCTAssertEqual(x.layerID, y.layerID, file: file, line: line)
            XCTAssertEqual(x.tint, y.tint, file: file, line: line)
            XCTAssertEqual(x.replicaInstance, y.replicaInstance, file: file, line: line)
            XCTAssertEqual(x.replicaKey, y.replicaKey, file: file, line: line)
            XCTAssertEqual(x.particle, y.particle, file: file, line: line)
            XCTAssertEqual(x.preservesDepth, y.preservesDepth, file: file, line: line)
        }
        XCTAssertEqual((0..<a.layers.count).map(a.path(of:)), (0..<b.layers.count).map(b.path(of:)), file: file, line: line)
    }

    func testATreeWithExactEstimatesIsBuiltInPlaceAsOneThreadBuildsIt() throws {
        let root = makeTree(withInexactParts: false)
        let split = try XCTUnwrap(PresentationTree.ParallelSplit.choose(for: root, threads: 2).split, "a tree this size is split")
        for t in [0.0, 0.35, 1.7] {
            let serial = PresentationTree.evaluate(root, at: t, maximumThreads: 1)
            XCTAssertEqual(serial.layers.count, root.estimatedPresentedLayerCount, "the estimate is exact here")
            assertSameTree(PresentationTree(time: t, layers: split.evaluate(at: t, drawableOnly: false)), serial)
            assertSameTree(PresentationTree.evaluate(root, at: t, maximumThreads: 3), serial)
        }
    }

    func testATreeWhoseEstimateIsWrongIsMovedTogetherAsOneThreadBuildsIt() throws {
        let root = makeTree(withInexactParts: true)
        XCTAssertNotNil(PresentationTree.ParallelSplit.choose(for: root, threads: 2).split)
        for t in [0.9, 1.3, 2.9] {
            let serial = PresentationTree.evaluate(root, at: t, maximumThreads: 1)
            XCTAssertNotEqual(serial.layers.count, root.estimatedPresentedLayerCount, "copies and particles change the count")
            XCTAssertTrue(serial.layers.contains { $0.particle != nil })
            XCTAssertTrue(serial.layers.contains { $0.replicaInstance > 1 }, "more copies than the model's 2")
            assertSameTree(PresentationTree.evaluate(root, at: t, maximumThreads: 2), serial)
        }
    }

    func testAChainOfOnlyChildrenAboveTheSplitLayerIsEvaluatedFirst() throws {
        // A scene's root usually holds one container: the split goes down to the first layer
        // with several sublayers (here two levels down, past a masked, moving container).
        let tree = makeTree(withInexactParts: false)
        let root = CALayer(), container = CALayer()
        container.position = CGPoint(x: 30, y: 40)
        container.sublayerTransform = CATransform3DMakeScale(0.5, 0.5, 1)
        container.mask = CALayer()
        container.add(repeatingBasic("position.y", from: 0.0, to: 90.0), forKey: "y")
        root.addSublayer(container)
        container.addSublayer(tree)
        let chain = try XCTUnwrap(PresentationTree.ParallelSplit.chain(below: root))
        XCTAssertTrue(chain.last === tree)
        XCTAssertEqual(chain.count, 3)
        XCTAssertNotNil(PresentationTree.ParallelSplit.choose(for: root, threads: 2).split)
        for t in [0.2, 1.1] {
            let serial = PresentationTree.evaluate(root, at: t, maximumThreads: 1)
            assertSameTree(PresentationTree.evaluate(root, at: t, maximumThreads: 2), serial)
        }
        // A replicator on the way copies what is below it: no split.
        let replicator = CAReplicatorLayer()
        replicator.addSublayer(makeTree(withInexactParts: false))
        XCTAssertNil(PresentationTree.ParallelSplit.chain(below: replicator))
    }

    func testSmallTreesAndCopyingRootsAreEvaluatedOnOneThread() {
        let small = CALayer()
        for _ in 0..<100 { small.addSublayer(CALayer()) }
        XCTAssertNil(PresentationTree.ParallelSplit.choose(for: small, threads: 2).split)
        let replicator = CAReplicatorLayer()
        for _ in 0..<3000 { replicator.addSublayer(CALayer()) }
        XCTAssertNil(PresentationTree.ParallelSplit.choose(for: replicator, threads: 2).split)
        let big = CALayer()
        for _ in 0..<3000 { big.addSublayer(CALayer()) }
        XCTAssertNotNil(PresentationTree.ParallelSplit.choose(for: big, threads: 2).split)
        XCTAssertNil(PresentationTree.ParallelSplit.choose(for: big, threads: 1).split)
        XCTAssertEqual(PresentationTree.ParallelSplit.choose(for: big, threads: 2).estimate, 3001)
    }
}
