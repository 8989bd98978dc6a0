import XCTest
import Geometry
import Animation
import Layers
import Presentation
import Timing

/// `evaluateDrawable` presents what can draw: a layer hidden or fully transparent at the time
/// keeps its place (and its mask) but presents no sublayers; every other layer is presented as
/// `evaluate` presents it.
final class DrawableTreeTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
    }

    /// A root with three groups of two leaves: one hidden until t = 1 (a Lottie layer's in
    /// point), one fading out to opacity 0 at t = 1, one always shown.
    private func tree() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        for g in 0..<3 {
            let group = CALayer()
            group.name = "group\(g)"
            group.frame = CGRect(x: Double(g) * 60, y: 0, width: 50, height: 50)
            let mask = CALayer()
            mask.frame = group.bounds
            group.mask = mask
            for i in 0..<2 {
                let leaf = CALayer()
                leaf.name = "leaf\(g)\(i)"
                leaf.frame = CGRect(x: Double(i) * 20, y: 10, width: 10, height: 10)
                leaf.add(basic("position.y", from: 10.0, to: 30.0, duration: 2), forKey: "move", atMediaTime: 0)
                group.addSublayer(leaf)
            }
            switch g {
            case 0:
                let shown = CAKeyframeAnimation(keyPath: "hidden")
                shown.values = [true, false]
                shown.keyTimes = [0, 0.5]
                shown.calculationMode = .discrete
                shown.duration = 2
                group.add(shown, forKey: "in", atMediaTime: 0)
            case 1:
                group.add(basic("opacity", from: 1.0, to: 0.0, duration: 1), forKey: "out", atMediaTime: 0)
            default: break
            }
            root.addSublayer(group)
        }
        return root
    }

    private func basic(_ keyPath: String, from: Double, to: Double, duration: Double) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.duration = duration
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        return animation
    }

    private func paths(_ tree: PresentationTree) -> [String] { tree.layers.indices.map(tree.path(of:)) }

    func testHiddenAndTransparentLayersPresentNoSublayers() {
        let root = tree()
        // t = 0.5: group0 hidden, group1 at opacity 0.5.
        let early = PresentationTree.evaluateDrawable(root, at: 0.5)
        XCTAssertEqual(paths(early), ["#0", "#0/group0", "#0/group0/#mask",
                                      "#0/group1", "#0/group1/#mask", "#0/group1/leaf10", "#0/group1/leaf11",
                                      "#0/group2", "#0/group2/#mask", "#0/group2/leaf20", "#0/group2/leaf21"])
        XCTAssertEqual(early.layers[1].sublayersInDrawingOrder, [])
        // t = 1.5: group0 shown, group1 at opacity 0.
        let late = PresentationTree.evaluateDrawable(root, at: 1.5)
        XCTAssertEqual(paths(late), ["#0", "#0/group0", "#0/group0/#mask", "#0/group0/leaf00", "#0/group0/leaf01",
                                     "#0/group1", "#0/group1/#mask",
                                     "#0/group2", "#0/group2/#mask", "#0/group2/leaf20", "#0/group2/leaf21"])
        // The whole tree still has every layer.
        XCTAssertEqual(PresentationTree.evaluate(root, at: 0.5).layers.count, 13)
    }

    /// Every layer the drawable tree keeps has the values the whole tree gives it.
    func testWhatIsKeptIsPresentedAsInTheWholeTree() {
        let root = tree()
        for t in [0.0, 0.5, 1.0, 1.5, 2.5] {
            assertKeptLayersAreAsInTheWholeTree(PresentationTree.evaluateDrawable(root, at: t), PresentationTree.evaluate(root, at: t))
        }
    }

    /// A tree big enough to be evaluated on several threads (`parallelMinimumLayerCount`) leaves
    /// out the same subtrees, and keeps every other layer as the whole tree presents it.
    func testABigTreeEvaluatedOnSeveralThreadsLeavesOutTheSame() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 800, height: 600)
        for g in 0..<41 {
            let group = CALayer()
            group.name = "group\(g)"
            group.frame = CGRect(x: Double(g) * 7, y: 0, width: 400, height: 300)
            if g % 3 == 0 { group.isHidden = true }
            if g % 5 == 0 { group.opacity = 0 }
            for i in 0..<60 {
                let leaf = CALayer()
                leaf.name = "leaf\(i)"
                leaf.frame = CGRect(x: Double(i) * 3, y: 0, width: 10, height: 12)
                leaf.add(basic("position.y", from: 0, to: 50, duration: 2), forKey: "move", atMediaTime: 0)
                group.addSublayer(leaf)
            }
            root.addSublayer(group)
        }
        XCTAssertGreaterThanOrEqual(41 * 61, PresentationTree.parallelMinimumLayerCount)
        let drawable = PresentationTree.evaluateDrawable(root, at: 0.7)
        let shownGroups = (0..<41).filter { $0 % 3 != 0 && $0 % 5 != 0 }
        XCTAssertEqual(drawable.layers.count, 1 + 41 + 60 * shownGroups.count)
        assertKeptLayersAreAsInTheWholeTree(drawable, PresentationTree.evaluate(root, at: 0.7))
    }

    /// Each layer of `drawable` has the values, placement and hiddenness of the layer at its path in `whole`.
    private func assertKeptLayersAreAsInTheWholeTree(_ drawable: PresentationTree, _ whole: PresentationTree,
                                                     file: StaticString = #filePath, line: UInt = #line) {
        let wholeByPath = Dictionary(uniqueKeysWithValues: whole.layers.indices.map { (whole.path(of: $0), whole.layers[$0]) })
        for i in drawable.layers.indices {
            let kept = drawable.layers[i], same = wholeByPath[drawable.path(of: i)]
            let at = "\(drawable.path(of: i)) at t = \(drawable.time)"
            XCTAssertEqual(kept.properties, same?.properties, at, file: file, line: line)
            XCTAssertEqual(kept.transformToRoot, same?.transformToRoot, at, file: file, line: line)
            XCTAssertEqual(kept.isEffectivelyHidden, same?.isEffectivelyHidden, at, file: file, line: line)
        }
    }
}
