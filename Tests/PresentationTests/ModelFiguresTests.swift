import XCTest
import Geometry
import Animation
import Layers
import Presentation
import TestSupport

/// The budget figures of a model tree (`ModelFigures`): upper bounds over all times, worked out
/// without expanding anything; the presentation never holds more layers than the figure.
final class ModelFiguresTests: XCTestCase {
    let image = CGImage(width: 4, height: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 64))!

    func replicator(_ count: Int, _ sublayers: [CALayer]) -> CAReplicatorLayer {
        let r = CAReplicatorLayer()
        r.instanceCount = count
        r.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        r.instanceTransform = CATransform3DMakeTranslation(1, 0, 0)
        for s in sublayers { r.addSublayer(s) }
        return r
    }

    func emitter(birthRate: Float, lifetime: Float) -> CAEmitterLayer {
        let e = CAEmitterLayer()
        let cell = CAEmitterCell()
        cell.birthRate = birthRate
        cell.lifetime = lifetime
        cell.contents = image
        cell.velocity = 10
        e.emitterCells = [cell]
        return e
    }

    func testLayersMasksAndNestedReplicatorsMultiply() {
        let root = CALayer()
        let masked = CALayer()
        masked.mask = CALayer()
        root.addSublayer(masked)
        root.addSublayer(replicator(4, [CALayer(), replicator(3, [CALayer()])]))
        let figures = ModelFigures.measure(root)
        // root, masked, its mask, the outer replicator; 4 × (leaf + inner replicator + 3 leaves).
        XCTAssertEqual(figures.presentedLayers, 4 + 4 * (1 + 1 + 3))
        XCTAssertEqual(figures.largest, ModelFigures.Contributor(layer: "root.sublayers[1].sublayers[1].sublayers[0]", count: 12,
                                                                 reason: "4 × 3 replicator copies"))
        XCTAssertEqual(PresentationTree.evaluate(root, at: 0).layers.count, figures.presentedLayers)
    }

    func testAnimatedInstanceCountsAreBoundedByTheirLargestValue() {
        let r = replicator(2, [CALayer()])
        let grow = CABasicAnimation(keyPath: "instanceCount")
        grow.fromValue = 2
        grow.toValue = 50
        grow.duration = 1
        r.add(grow, forKey: "grow", atMediaTime: 0)
        XCTAssertEqual(ModelFigures.measure(r).presentedLayers, 1 + 50)
        // A by-value (or additive, cumulative) animation can grow without end: the per-replicator cap.
        let by = CABasicAnimation(keyPath: "instanceCount")
        by.byValue = 10
        by.duration = 1
        r.add(by, forKey: "by", atMediaTime: 0)
        XCTAssertEqual(ModelFigures.measure(r).presentedLayers, 1 + SceneLimits.maximumPresentedInstances)
    }

    func testEmittersCountRateTimesLifetimeAndTheirCopies() {
        let e = emitter(birthRate: 10, lifetime: 2)
        XCTAssertEqual(ModelFigures.measure(e).presentedLayers, 1 + 21)
        let faster = CABasicAnimation(keyPath: "birthRate")
        faster.toValue = 3
        faster.duration = 1
        e.add(faster, forKey: "faster", atMediaTime: 0)
        XCTAssertEqual(ModelFigures.measure(e).presentedLayers, 1 + 61)
        // In 5 replicator copies: each emitter copy has its particles.
        let copies = replicator(5, [emitter(birthRate: 100_000, lifetime: 100)])
        let figures = ModelFigures.measure(copies)
        XCTAssertEqual(figures.presentedLayers, 1 + 5 + 5 * SceneLimits.maximumLiveParticles)
        XCTAssertEqual(figures.largest?.reason, "up to 100,000 particles × 5 copies")
    }

    func testATransitionPresentsItsSubtreeTwice() {
        let root = CALayer()
        root.addSublayer(CALayer())
        let fade = CATransition()
        fade.duration = 1
        root.add(fade, forKey: "fade", atMediaTime: 0)
        XCTAssertEqual(ModelFigures.measure(root).presentedLayers, 1 + 2)
    }

    func testKeyframesPathsAndImagesAreCounted() {
        let shape = CAShapeLayer()
        let path = CGMutablePath()
        path.move(to: .zero)
        for i in 1...9 { path.addLine(to: CGPoint(x: i, y: i)) }
        shape.path = path
        shape.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)
        shape.contents = image
        let move = CAKeyframeAnimation(keyPath: "position")
        move.values = (0..<7).map { CGPoint(x: $0, y: 0) }
        let along = CAKeyframeAnimation(keyPath: "position")
        along.path = path
        let group = CAAnimationGroup()
        group.animations = [move, along]
        group.duration = 1
        shape.add(group, forKey: "group", atMediaTime: 0)
        let figures = ModelFigures.measure(shape)
        XCTAssertEqual(figures.keyframeValues, 7)
        XCTAssertEqual(figures.pathElements, 10 + 5 + 10)  // the path, the rect (move, 3 lines, close), the keyframe path
        XCTAssertEqual(figures.imagePixels, 16)
        XCTAssertEqual(figures.largestPath?.count, 25)
    }

    /// Random trees of replicators (animated counts too) and emitters: at any time the
    /// presentation holds no more layers than the figure says.
    func testThePresentationNeverExceedsTheFigure() {
        var random = SeededGenerator(seed: 17)
        for _ in 0..<40 {
            let root = CALayer()
            var parents: [CALayer] = [root]
            for _ in 0..<Int.random(in: 2...8, using: &random) {
                let parent = parents.randomElement(using: &random)!
                let child: CALayer
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let r = replicator(Int.random(in: 0...4, using: &random), [])
                    if Bool.random(using: &random) {
                        let a = CABasicAnimation(keyPath: "instanceCount")
                        a.fromValue = 1
                        a.toValue = Int.random(in: 0...6, using: &random)
                        a.duration = 2
                        r.add(a, forKey: nil, atMediaTime: 0)
                    }
                    child = r
                case 1: child = emitter(birthRate: Float.random(in: 0...20, using: &random), lifetime: Float.random(in: 0...3, using: &random))
                default: child = CALayer()
                }
                parent.addSublayer(child)
                parents.append(child)
            }
            let figure = ModelFigures.measure(root).presentedLayers
            for t in [0, 0.5, 1, 1.7, 3, 10.0] {
                XCTAssertLessThanOrEqual(PresentationTree.evaluate(root, at: t).layers.count, figure)
            }
        }
    }

    func testGroupedNumbers() {
        XCTAssertEqual(ModelFigures.grouped(0), "0")
        XCTAssertEqual(ModelFigures.grouped(999), "999")
        XCTAssertEqual(ModelFigures.grouped(1_000), "1,000")
        XCTAssertEqual(ModelFigures.grouped(1_001_001_002), "1,001,001,002")
    }
}
