import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers

// Single readings with a setup of their own (layer time conversion E11, pause/resume E12, path
// rotation and length E41/E42, the spring's peak E43/E49, the export clock E64, implicit actions
// and duration substitution E66/E67, a key-path read E72): a closure measures, the row holds the
// expected value.

extension WorkedExamplesTests {
    struct MeasuredExample {
        let row: ExampleRow
        let expected: Double
        /// Nil: compared exactly.
        let accuracy: Double?
        let measure: () -> Double?

        init(_ label: String, _ expected: Double, accuracy: Double? = WorkedExamplesTests.tolerance,
             file: StaticString = #filePath, line: UInt = #line, _ measure: @escaping () -> Double?) {
            row = ExampleRow(label, file: file, line: line)
            self.expected = expected; self.accuracy = accuracy; self.measure = measure
        }
    }

    static var measuredExamples: [MeasuredExample] {
        typealias Row = MeasuredExample
        return [
            Row("E11 leaf.convertTime(10, from: mid)", 18.5, accuracy: 1e-5) { e11 { $0.leaf.convertTime(10, from: $0.mid) } },
            Row("E11 leaf.convertTime(10, from: root)", 47, accuracy: 1e-5) { e11 { $0.leaf.convertTime(10, from: $0.root) } },
            Row("E11 leaf.convertTime(10, to: mid)", 5.75, accuracy: 1e-5) { e11 { $0.leaf.convertTime(10, to: $0.mid) } },
            Row("E11 leaf.convertTime(10, to: root)", 23.0 / 6, accuracy: 1e-5) { e11 { $0.leaf.convertTime(10, to: $0.root) } },
            Row("E11 leaf.convertTime(10, to: nil) = to root", 23.0 / 6, accuracy: 1e-5) { e11 { $0.leaf.convertTime(10, to: nil) } },
            Row("E11 leaf.convertTime(10, from: nil) = from root", 47, accuracy: 1e-5) { e11 { $0.leaf.convertTime(10, from: nil) } },
            Row("E12 paused at 100: layer time at T=100", 100) { pausedAt100().convertTime(100, from: nil) },
            Row("E12 paused at 100: layer time at T=102", 100) { pausedAt100().convertTime(102, from: nil) },
            Row("E12 paused at 100: layer time at T=500", 100) { pausedAt100().convertTime(500, from: nil) },
            Row("E12 resumed at 105: beginTime", 5) { resumedAt105().beginTime },
            Row("E12 resumed at 105: layer time at T=105", 100) { resumedAt105().convertTime(105, from: nil) },
            Row("E12 resumed at 105: layer time at T=106", 101) { resumedAt105().convertTime(106, from: nil) },
            Row("E41 rotationMode auto: the prepared angle", 0.785398) { preparedRotation(.rotateAuto) },
            Row("E41 autoReverse: the prepared angle", 3.926991) { preparedRotation(.rotateAutoReverse) },
            Row("E42 arc length", 200, accuracy: 1e-3) { Double(arch().length) },
            Row("E43 peak 116.30 % (E49, folded into E43)", 116.30, accuracy: 5e-3) {
                let layer = layer([spring()])
                return (0...4000).map { x(layer, Double($0) / 4000) }.max()
            },
            Row("E64 beginTime AVCoreAnimationBeginTimeAtZero: fraction 0.5 at video time 1.0", 50) {
                CATransaction.mediaClock = ManualMediaClock(time: 5000)  // the host's media time
                return x(layer(x: -1, [basic(0, 100, duration: 2, begin: AVCoreAnimationBeginTimeAtZero)]), 1.0)
            },
            Row("E64 beginTime 0 → replaced by host time 5000", 5000) {
                CATransaction.mediaClock = ManualMediaClock(time: 5000)
                return layer(x: -1, [basic(0, 100, duration: 2, begin: 0)]).animation(forKey: "row0")?.beginTime
            },
            Row("E64 beginTime 0: not started at video time 1", -1) {
                CATransaction.mediaClock = ManualMediaClock(time: 5000)
                return x(layer(x: -1, [basic(0, 100, duration: 2, begin: 0)]), 1.0)
            },
            Row("E66 implicit position.x 0→100 (0.25 s, default curve) at t=0.125", 80.240339) {
                implicitPositionChange { layer, _ in x(layer, 0.125) }
            },
            Row("E66 the implicit animation's duration", 0.25) {
                implicitPositionChange { layer, _ in layer.animation(forKey: "position")?.duration }
            },
            Row("E66 same change with transaction duration 1.0 at t=0.5", 80.240339) {
                implicitPositionChange { _, other in x(other, 0.5) }
            },
            Row("E67 explicit duration 0 → effective 0.25 s", 0.25) {
                layer([basic(0, 100, duration: 0)]).animation(forKey: "row0")?.duration
            },
            Row("E67 halfway at 0.125", 50) { x(layer([basic(0, 100, duration: 0)]), 0.125) },
            Row("E67 inside a transaction with animationDuration 1.5 → 1.5 s", 1.5) {
                CATransaction.begin()
                CATransaction.setAnimationDuration(1.5)
                let layer = layer([basic(0, 100, duration: 0)])
                CATransaction.commit()
                return layer.animation(forKey: "row0")?.duration
            },
            Row("E72 transform.scale read from scale(2,3,4) → 3 (the average)", 3) {
                let scaled = CALayer()
                scaled.transform = CATransform3DMakeScale(2, 3, 4)
                return (scaled.value(forKeyPath: "transform.scale") as? CGFloat).map { Double($0) }
            },
        ]
    }

    func testMeasuredExamples() {
        for example in Self.measuredExamples {
            Self.resetTransactions()
            example.row.check(example.measure(), example.expected, accuracy: example.accuracy, "")
        }
    }

    // MARK: - Setups

    /// E11: root default; mid begin 2, speed 3, offset 0.25; leaf begin 1, speed 2, offset 0.5.
    static func e11(_ read: (_ tree: (root: CALayer, mid: CALayer, leaf: CALayer)) -> Double) -> Double {
        let root = CALayer(), mid = CALayer(), leaf = CALayer()
        root.addSublayer(mid); mid.addSublayer(leaf)
        mid.beginTime = 2; mid.speed = 3; mid.timeOffset = 0.25
        leaf.beginTime = 1; leaf.speed = 2; leaf.timeOffset = 0.5
        return withExtendedLifetime(root) { read((root, mid, leaf)) }
    }

    /// E12: the guide's pause recipe at global 100.
    static func pausedAt100() -> CALayer {
        let layer = CALayer()
        let paused = layer.convertTime(100, from: nil)
        layer.speed = 0
        layer.timeOffset = paused
        return layer
    }

    /// E12: the guide's resume recipe at 105, after pausing at 100.
    static func resumedAt105() -> CALayer {
        let layer = pausedAt100()
        let pausedTime = layer.timeOffset
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
        layer.beginTime = layer.convertTime(105, from: nil) - pausedTime
        return layer
    }

    /// E41: the rotation the prepared path animation reports at t = 0.5 along (0,0)→(100,100).
    static func preparedRotation(_ mode: CAAnimationRotationMode) -> Double? {
        guard let a = path(diagonal, rotation: mode).make() as? CAPropertyAnimation,
              let prepared = PreparedPropertyAnimation(a, propertyKind: .point),
              let time = prepared.timing.resolve(parentTime: 0.5) else { return nil }
        return prepared.rotation(at: time)
    }

    /// E66: in a tree with a timeline, `layer` moves to x 100 (the default action), then, at
    /// timeline time 0, `other` moves to x 100 inside a transaction of duration 1.0.
    static func implicitPositionChange(_ read: (_ layer: CALayer, _ other: CALayer) -> Double?) -> Double? {
        let root = CALayer()
        let layer = CALayer()
        root.addSublayer(layer)
        let timeline = LayerTimeline(root: root)
        layer.position = CGPoint(x: 100, y: 0)
        let other = CALayer()
        root.addSublayer(other)
        timeline.advance(to: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1.0)
        other.position = CGPoint(x: 100, y: 0)
        CATransaction.commit()
        return withExtendedLifetime(timeline) { read(layer, other) }
    }
}
