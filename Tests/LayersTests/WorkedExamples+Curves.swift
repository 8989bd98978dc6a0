import XCTest
import Geometry
import Timing
import Animation

// §2 timing functions (E17–E19, E21): a curve + inputs → outputs of `solve`. E20 (the curve
// through an animation) is a row of +Values.

extension WorkedExamplesTests {
    struct CurveExample {
        let row: ExampleRow
        let curve: String
        let function: CAMediaTimingFunction
        let points: [(input: Double, output: Double)]
        /// Nil: outputs compared exactly.
        let accuracy: Double?

        /// A named curve: `label` is the E-number.
        init(_ label: String, _ name: CAMediaTimingFunctionName, _ points: [(Double, Double)], accuracy: Double?,
             file: StaticString = #filePath, line: UInt = #line) {
            self.init(label, CAMediaTimingFunction(name: name), curve: name.rawValue, points, accuracy: accuracy, file: file, line: line)
        }

        /// A curve from control points: `label` is the E-number and the curve's description.
        init(_ label: String, _ function: CAMediaTimingFunction, curve: String? = nil, _ points: [(Double, Double)], accuracy: Double?,
             file: StaticString = #filePath, line: UInt = #line) {
            row = ExampleRow(label, file: file, line: line)
            self.curve = curve ?? row.note; self.function = function; self.points = points.map { (input: $0.0, output: $0.1) }
            self.accuracy = accuracy
        }
    }

    static var curveExamples: [CurveExample] {
        [
            CurveExample("E17", .easeIn, [(0.25, 0.093465), (0.5, 0.315357), (0.75, 0.621861)], accuracy: 1e-5),
            CurveExample("E17", .easeOut, [(0.25, 0.378140), (0.5, 0.684643), (0.75, 0.906535)], accuracy: 1e-5),
            CurveExample("E17", .easeInEaseOut, [(0.25, 0.129162), (0.5, 0.5), (0.75, 0.870838)], accuracy: 1e-5),
            CurveExample("E18 custom (0.5,0,0.5,1)", CAMediaTimingFunction(controlPoints: 0.5, 0, 0.5, 1),
                         [(0.25, 0.105889), (0.75, 0.894111)], accuracy: 1e-5),
            CurveExample("E19", .default, [(0.25, 0.408511), (0.5, 0.802403), (0.75, 0.960459)], accuracy: tolerance),
            // Clamped: Chromium would give −0.5 / 1.5.
            CurveExample("E21", .linear, [(-0.5, 0), (1.5, 1)], accuracy: nil),
        ]
    }

    func testCurveExamples() {
        for example in Self.curveExamples {
            for (input, output) in example.points {
                example.row.check(example.function.solve(input), output, accuracy: example.accuracy, "\(example.curve)(\(input))")
            }
        }
    }
}
