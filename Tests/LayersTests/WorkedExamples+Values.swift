import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers

// Animated values (§1, §3): a layer's model `position.x`, the animations added to it in order,
// and the presented value at local times. The keyframe (§4) and spring (§5) tables in
// +Keyframes and +Springs have the same shape and the same driver.

extension WorkedExamplesTests {
    /// The presented position at local time `t`: `x`, and `y` where the row gives it.
    struct ValueSample {
        let t: Double
        let x: Double
        let y: Double?
    }

    struct ValueExample {
        let row: ExampleRow
        let modelX: Double
        let animations: [Recipe]
        /// `activeDuration` of the first animation's timing, compared exactly.
        let activeDuration: Double?
        let samples: [ValueSample]
        let accuracy: Double

        /// Rows reading `position.x`: `x` lists (local time, value).
        init(_ label: String, model: Double = 0, _ animations: Recipe..., activeDuration: Double? = nil,
             x: [(Double, Double)], accuracy: Double = WorkedExamplesTests.tolerance,
             file: StaticString = #filePath, line: UInt = #line) {
            self.init(label, model: model, animations, activeDuration: activeDuration,
                      samples: x.map { ValueSample(t: $0.0, x: $0.1, y: nil) }, accuracy: accuracy, file: file, line: line)
        }

        /// Rows reading the whole `position`: `position` lists (local time, x, y).
        init(_ label: String, _ animation: Recipe, position: [(Double, Double, Double)],
             accuracy: Double = WorkedExamplesTests.tolerance, file: StaticString = #filePath, line: UInt = #line) {
            self.init(label, model: 0, [animation], activeDuration: nil,
                      samples: position.map { ValueSample(t: $0.0, x: $0.1, y: $0.2) }, accuracy: accuracy, file: file, line: line)
        }

        private init(_ label: String, model: Double, _ animations: [Recipe], activeDuration: Double?,
                     samples: [ValueSample], accuracy: Double, file: StaticString, line: UInt) {
            row = ExampleRow(label, file: file, line: line)
            modelX = model; self.animations = animations; self.activeDuration = activeDuration
            self.samples = samples; self.accuracy = accuracy
        }
    }

    /// The driver of every value table.
    func run(_ examples: [ValueExample]) {
        for example in examples {
            Self.resetTransactions()
            let row = example.row
            if let expected = example.activeDuration, let first = example.animations.first {
                row.check(TimingParameters(first.make()).activeDuration, expected, accuracy: nil, "active duration")
            }
            let layer = Self.layer(x: example.modelX, example.animations)
            for sample in example.samples {
                let position = layer.presentationProperties(atLocalTime: sample.t).position
                let x = sample.y == nil ? "at t=\(sample.t)" : "x at t=\(sample.t)"
                row.check(Double(position.x), sample.x, accuracy: example.accuracy, x)
                if let y = sample.y { row.check(Double(position.y), y, accuracy: example.accuracy, "y at t=\(sample.t)") }
            }
        }
    }

    static var basicValueExamples: [ValueExample] {
        [
            // §1 timing, seen through position.x 0→100.
            ValueExample("E01 fraction 0.25 at 6.5, 0.5 at the end, held after it",
                         basic(0, 100, duration: 2, repeatCount: 3.5, fill: .forwards, removedOnCompletion: false),
                         x: [(6.5, 25), (7, 50), (9, 50)]),
            ValueExample("E02", basic(0, 100, autoreverses: true, fill: .forwards, removedOnCompletion: false),
                         activeDuration: 2, x: [(0.5, 50), (1.25, 75), (2.0, 0), (3.0, 0)]),
            ValueExample("E03 repeatCount 2.5 ends on the end value",
                         basic(0, 100, repeatCount: 2.5, autoreverses: true, fill: .forwards, removedOnCompletion: false),
                         x: [(4.5, 50), (5.0, 100), (6.0, 100)]),
            ValueExample("E03 repeatCount 2",
                         basic(0, 100, repeatCount: 2, autoreverses: true, fill: .forwards, removedOnCompletion: false),
                         x: [(4.0, 0)]),
            ValueExample("E04 removed: 50 / 50", model: 50, basic(10, 20, begin: 2, fill: .removed, removedOnCompletion: false),
                         x: [(1, 50), (4, 50)]),
            ValueExample("E04 backwards: 10 / 50", model: 50, basic(10, 20, begin: 2, fill: .backwards, removedOnCompletion: false),
                         x: [(1, 10), (4, 50)]),
            ValueExample("E04 forwards: 50 / 20", model: 50, basic(10, 20, begin: 2, fill: .forwards, removedOnCompletion: false),
                         x: [(1, 50), (4, 20)]),
            ValueExample("E04 both: 10 / 20", model: 50, basic(10, 20, begin: 2, fill: .both, removedOnCompletion: false),
                         x: [(1, 10), (4, 20)]),
            ValueExample("E04 forwards with the default removedOnCompletion: no lasting effect", model: 50,
                         basic(10, 20, begin: 2, fill: .forwards), x: [(4, 50)]),
            ValueExample("E05", basic(0, 100, duration: 2, speed: 2), x: [(0.5, 50)]),
            ValueExample("E06 frozen at 0.75", basic(0, 100, speed: 0, timeOffset: 0.75), x: [(0, 75), (5, 75), (100, 75)]),
            ValueExample("E07 starts a third in, wraps, then no effect", model: -7, basic(0, 300, duration: 3, timeOffset: 1),
                         x: [(0, 100), (2.5, 50), (3.5, -7)]),
            // 1e6 + 0.3 carries 1e-10 s of rounding, ×100 per second of position.
            ValueExample("E09", basic(0, 100, repeatCount: .infinity), activeDuration: .infinity,
                         x: [(1_000_000.3, 30)], accuracy: 1e-4),
            ValueExample("E14 child clipped, group clock held at 5",
                         group(duration: 5, fill: .forwards, removedOnCompletion: false, [basic(0, 100, duration: 10)]),
                         x: [(4.9, 49), (6, 50)]),
            ValueExample("E15 no effect before and after the child", model: 7,
                         group(duration: 4, [basic(0, 100, duration: 2, begin: 1)]), x: [(0.5, 7), (2, 50), (3.5, 7)]),
            ValueExample("E16 child fraction 0.25", group(duration: 4, speed: 2, [basic(0, 100, duration: 4, speed: 0.5)]),
                         x: [(1, 25)]),
            // §2 through an animation.
            ValueExample("E20", basic(0, 100, curve: .easeInEaseOut), x: [(0.25, 12.91619)], accuracy: 5e-6),
            // §3 endpoints, additive, cumulative (model 50 where the model matters).
            ValueExample("E23 from10 to30 → 20", model: 50, basic(10, 30), x: [(0.5, 20)]),
            ValueExample("E23 from10 by5 → 12.5 (10→15)", model: 50, basic(10, nil, by: 5), x: [(0.5, 12.5)]),
            ValueExample("E23 by5 to30 → 27.5 (25→30)", model: 50, basic(nil, 30, by: 5), x: [(0.5, 27.5)]),
            ValueExample("E23 from10 → 30 (10→50)", model: 50, basic(10, nil), x: [(0.5, 30)]),
            ValueExample("E23 to30 → 40 (50→30)", model: 50, basic(nil, 30), x: [(0.5, 40)]),
            ValueExample("E23 by5 → 52.5 (50→55)", model: 50, basic(nil, nil, by: 5), x: [(0.5, 52.5)]),
            ValueExample("E24", model: 100, basic(0, 20, additive: true), x: [(0.5, 110)]),
            ValueExample("E25 position.x", basic(0, 90, repeatCount: 3, cumulative: true), x: [(2.5, 225)]),
            // Literal reading k·end + v (§3.3 [inf]; a device test is pending).
            ValueExample("E26 literal reading", basic(10, 20, repeatCount: 2, cumulative: true), x: [(1.5, 35)]),
            ValueExample("E27 A then B → 55", model: 7, basic(0, 100), basic(0, 10, additive: true), x: [(0.5, 55)]),
            ValueExample("E27 B first, A second → 50", model: 7, basic(0, 10, additive: true), basic(0, 100), x: [(0.5, 50)]),
        ]
    }

    func testBasicValueExamples() { run(Self.basicValueExamples) }
}
