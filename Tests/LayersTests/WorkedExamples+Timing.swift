import XCTest
import Geometry
import Timing
import Animation
import Layers
import Presentation

// §1 timing (E01–E16, E65): timing parameters + parent times → iteration, fraction, local time;
// and the layer clock (E10, E13): layer timing + global times → layer time and the animated value.

extension WorkedExamplesTests {
    /// One reading of `TimingParameters.resolve(parentTime:)`.
    struct TimingProbe {
        let parentTime: Double
        var iteration: Int?
        var fraction: Double?
        var localTime: Double?
        var inactive = false

        static func at(_ t: Double, iteration: Int? = nil, fraction: Double? = nil, local: Double? = nil) -> Self {
            Self(parentTime: t, iteration: iteration, fraction: fraction, localTime: local)
        }

        /// The animation has no effect at `t` (`resolve` answers nil).
        static func inactive(at t: Double) -> Self { Self(parentTime: t, inactive: true) }
    }

    struct TimingExample {
        let row: ExampleRow
        let timing: TimingParameters
        let activeDuration: Double?
        let probes: [TimingProbe]

        init(_ label: String, _ timing: TimingParameters, activeDuration: Double? = nil,
             _ probes: [TimingProbe], file: StaticString = #filePath, line: UInt = #line) {
            row = ExampleRow(label, file: file, line: line)
            self.timing = timing; self.activeDuration = activeDuration; self.probes = probes
        }
    }

    static func timing(duration: Double, speed: Double = 1, offset: Double = 0, repeatCount: Double = 0,
                       repeatDuration: Double = 0, autoreverses: Bool = false,
                       fill: CAMediaTimingFillMode = .removed) -> TimingParameters {
        var t = TimingParameters()
        t.duration = duration; t.speed = speed; t.timeOffset = offset
        t.repeatCount = repeatCount; t.repeatDuration = repeatDuration; t.autoreverses = autoreverses; t.fillMode = fill
        return t
    }

    static var timingExamples: [TimingExample] {
        [
            TimingExample("E01", timing(duration: 2, repeatCount: 3.5, fill: .forwards), activeDuration: 7,
                          [.at(6.5, iteration: 3, fraction: 0.25), .at(7, fraction: 0.5)]),
            TimingExample("E03 AD 5 s", timing(duration: 1, repeatCount: 2.5, autoreverses: true), activeDuration: 5, []),
            TimingExample("E05 lasts 1 s of parent time", timing(duration: 2, speed: 2),
                          [.at(0.5, fraction: 0.5), .at(1, fraction: 1), .inactive(at: 1.001)]),
            TimingExample("E06 frozen", timing(duration: 1, speed: 0, offset: 0.75),
                          [.at(0, fraction: 0.75), .at(5, fraction: 0.75), .at(100, fraction: 0.75)]),
            TimingExample("E07 wraps; after t=3 no effect", timing(duration: 3, offset: 1),
                          [.at(0, local: 1), .at(1.5, local: 2.5), .at(2.5, local: 0.5), .inactive(at: 3.01)]),
            TimingExample("E08", timing(duration: 1, repeatDuration: 2.5, fill: .forwards), activeDuration: 2.5,
                          [.at(2.25, local: 0.25), .at(2.5, fraction: 0.5), .at(10, fraction: 0.5)]),
            // repeatCount ∞ is stored as Float's greatest finite magnitude by CAMediaTiming.
            TimingExample("E09", timing(duration: 1, repeatCount: Double(Float.greatestFiniteMagnitude)),
                          [.at(1_000_000.3, fraction: 0.3)]),
            TimingExample("E16 group local time", timing(duration: 4, speed: 2), [.at(1, local: 2)]),
            TimingExample("E65 CA, 3.5 iterations at t=7", timing(duration: 2, repeatCount: 3.5), [.at(7, fraction: 0.5)]),
            TimingExample("E65 CA, 3 iterations at t=6", timing(duration: 2, repeatCount: 3),
                          [.at(6, iteration: 2, fraction: 1)]),
        ]
    }

    func testTimingExamples() {
        for example in Self.timingExamples {
            let row = example.row
            if let expected = example.activeDuration {
                row.check(example.timing.activeDuration, expected, accuracy: Self.tolerance, "active duration")
            }
            for probe in example.probes {
                let t = probe.parentTime
                let resolved = example.timing.resolve(parentTime: t)
                if probe.inactive { row.checkNil(resolved, "no effect at t=\(t)") }
                if let iteration = probe.iteration { row.checkEqual(resolved?.iteration, iteration, "iteration at t=\(t)") }
                if let fraction = probe.fraction {
                    row.check(resolved?.fraction, fraction, accuracy: Self.tolerance, "fraction at t=\(t)")
                }
                if let local = probe.localTime {
                    row.check(resolved?.basicTime, local, accuracy: Self.tolerance, "local time at t=\(t)")
                }
            }
        }
    }

    // MARK: - The layer clock (E10, E13)

    /// At global time `T`: the layer's `convertTime(T, from: nil)` and the presentation tree's
    /// local time (both `layerTime`), and `position.x` in the tree.
    struct ClockProbe {
        let globalTime: Double
        let layerTime: Double
        let x: Double
    }

    struct LayerClockExample {
        let row: ExampleRow
        let speed: Float
        let timeOffset: Double
        let animation: Recipe
        let probes: [ClockProbe]

        init(_ label: String, speed: Float, timeOffset: Double = 0, _ animation: Recipe,
             _ probes: [ClockProbe], file: StaticString = #filePath, line: UInt = #line) {
            row = ExampleRow(label, file: file, line: line)
            self.speed = speed; self.timeOffset = timeOffset; self.animation = animation; self.probes = probes
        }
    }

    static var layerClockExamples: [LayerClockExample] {
        [
            LayerClockExample("E10 animation in layer time", speed: 2, basic(0, 100, duration: 4, begin: 10),
                              [ClockProbe(globalTime: 6, layerTime: 12, x: 50), ClockProbe(globalTime: 7, layerTime: 14, x: 100)]),
            LayerClockExample("E13 plays backward", speed: -1, timeOffset: 10, basic(0, 100, duration: 4, begin: 5),
                              [ClockProbe(globalTime: 3, layerTime: 7, x: 50), ClockProbe(globalTime: 4, layerTime: 6, x: 25)]),
        ]
    }

    func testLayerClockExamples() {
        for example in Self.layerClockExamples {
            Self.resetTransactions()
            let row = example.row
            let layer = Self.layer([])
            layer.speed = example.speed
            layer.timeOffset = example.timeOffset
            layer.add(example.animation.make(), forKey: "row")
            for probe in example.probes {
                let T = probe.globalTime
                row.check(layer.convertTime(T, from: nil), probe.layerTime, accuracy: Self.tolerance, "layer time at T=\(T)")
                let tree = PresentationTree.evaluate(layer, at: T)
                row.check(tree.layers[0].localTime, probe.layerTime, accuracy: Self.tolerance, "tree local time at T=\(T)")
                row.check(Double(tree.layers[0].properties.position.x), probe.x, accuracy: Self.tolerance, "value at T=\(T)")
            }
        }
    }
}
