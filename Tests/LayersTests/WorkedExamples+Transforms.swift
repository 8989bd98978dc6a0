import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers

// Transforms (E25 rotation, E28–E30, E41, E54's helper, E55, E71, E72): an animated or computed
// CATransform3D → matrix entries, the rotation angle about z, or a whole matrix.

extension WorkedExamplesTests {
    enum MatrixEntry: String {
        case m11, m12, m21, m22, m34, m41, m42, m43

        func value(in m: CATransform3D) -> Double {
            switch self {
            case .m11: Double(m.m11)
            case .m12: Double(m.m12)
            case .m21: Double(m.m21)
            case .m22: Double(m.m22)
            case .m34: Double(m.m34)
            case .m41: Double(m.m41)
            case .m42: Double(m.m42)
            case .m43: Double(m.m43)
            }
        }
    }

    enum TransformReading {
        case entry(MatrixEntry, Double)
        /// atan2(m12, m11): the rotation about z.
        case angle(Double)
        /// Every entry within the row's accuracy.
        case matrix(CATransform3D)
    }

    enum TransformSource {
        /// The presented `transform` of a layer with model transform `model` and one animation.
        case presented(model: CATransform3D, Recipe, at: Double)
        case computed(() -> CATransform3D)

        func transform() -> CATransform3D {
            switch self {
            case let .presented(model, recipe, t):
                let layer = WorkedExamplesTests.layer([])
                layer.transform = model
                layer.add(recipe.make(), forKey: "row")
                return layer.presentationProperties(atLocalTime: t).transform
            case let .computed(make):
                return make()
            }
        }
    }

    struct TransformExample {
        let row: ExampleRow
        let source: TransformSource
        let readings: [TransformReading]
        /// Nil: compared exactly.
        let accuracy: Double?

        init(_ label: String, _ source: TransformSource, _ readings: [TransformReading],
             accuracy: Double? = WorkedExamplesTests.tolerance, file: StaticString = #filePath, line: UInt = #line) {
            row = ExampleRow(label, file: file, line: line)
            self.source = source; self.readings = readings; self.accuracy = accuracy
        }
    }

    static var transformExamples: [TransformExample] {
        let identity = CATransform3DIdentity
        let rotation = basic(0.0, Double.pi / 2, keyPath: "transform.rotation.z")
        let additiveRotation = basic(0.0, Double.pi / 2, keyPath: "transform.rotation.z", fill: .forwards, removedOnCompletion: false,
                                     additive: true)
        let translate = CATransform3DMakeTranslation(10, 0, 0), scale = CATransform3DMakeScale(2, 2, 2)
        return [
            // 225° = 5π/4 at t = 2.5 (degrees of the spec's example → radians).
            TransformExample("E25 cumulative rotation 0→π/2, repeatCount 3, t=2.5: 225°",
                             .presented(model: identity, basic(0.0, Double.pi / 2, keyPath: "transform.rotation.z", repeatCount: 3,
                                                               cumulative: true), at: 2.5),
                             [.entry(.m11, cos(5 * .pi / 4)), .entry(.m12, sin(5 * .pi / 4))]),
            TransformExample("E28 valueFunction rotateZ 0→π/2, fraction 0.5",
                             .presented(model: identity, valueFunction(.rotateZ, from: 0.0, to: Double.pi / 2), at: 0.5),
                             [.entry(.m11, 0.707107), .entry(.m12, 0.707107), .entry(.m21, -0.707107), .entry(.m22, 0.707107)]),
            TransformExample("E29 valueFunction scale [1,1,1]→[3,3,3], 0.5: diag(2,2,2,1)",
                             .presented(model: identity, valueFunction(.scale, from: [1.0, 1.0, 1.0], to: [3.0, 3.0, 3.0]), at: 0.5),
                             [.matrix(CATransform3DMakeScale(2, 2, 2))]),
            TransformExample("E30 valueFunction translate [0,0,0]→[100,40,0], 0.25",
                             .presented(model: identity, valueFunction(.translate, from: [0.0, 0.0, 0.0], to: [100.0, 40.0, 0.0]),
                                        at: 0.25),
                             [.entry(.m41, 25), .entry(.m42, 10), .entry(.m43, 0)]),
            TransformExample("E41 rotationMode auto: π/4", .presented(model: identity, path(diagonal, rotation: .rotateAuto), at: 0.5),
                             [.entry(.m11, cos(0.785398)), .entry(.m12, sin(0.785398))]),
            TransformExample("E41 autoReverse: 5π/4", .presented(model: identity, path(diagonal, rotation: .rotateAutoReverse), at: 0.5),
                             [.entry(.m11, cos(3.926991)), .entry(.m12, sin(3.926991))]),
            TransformExample("E54 CATransform3DMakePerspective(500) is m34 = −1/500",
                             .computed { CATransform3DMakePerspective(500) }, [.entry(.m34, -1.0 / 500)], accuracy: nil),
            TransformExample("E55 Concat(translate(10,0,0), scale 2): m41 = 20",
                             .computed { CATransform3DConcat(translate, scale) }, [.entry(.m41, 20)]),
            TransformExample("E55 Concat(scale 2, translate(10,0,0)): m41 = 10",
                             .computed { CATransform3DConcat(scale, translate) }, [.entry(.m41, 10)]),
            TransformExample("E71 model scale(2,2,1); transform.rotation.z 0→π/2, fraction 0.5",
                             .presented(model: CATransform3DMakeScale(2, 2, 1), rotation, at: 0.5),
                             [.entry(.m11, 1.414214), .entry(.m12, 1.414214), .entry(.m21, -1.414214), .entry(.m22, 1.414214)]),
            TransformExample("E72 additive rotation on model π/4, at the end: 3π/4",
                             .presented(model: CATransform3DMakeRotation(.pi / 4, 0, 0, 1), additiveRotation, at: 1.0), [.angle(2.356194)]),
            TransformExample("E72 additive rotation on model π/4, held after the end",
                             .presented(model: CATransform3DMakeRotation(.pi / 4, 0, 0, 1), additiveRotation, at: 2.0), [.angle(2.356194)]),
        ]
    }

    func testTransformExamples() {
        for example in Self.transformExamples {
            Self.resetTransactions()
            let m = example.source.transform()
            let row = example.row
            for reading in example.readings {
                switch reading {
                case let .entry(entry, expected):
                    row.check(entry.value(in: m), expected, accuracy: example.accuracy, entry.rawValue)
                case let .angle(expected):
                    row.check(atan2(Double(m.m12), Double(m.m11)), expected, accuracy: example.accuracy, "rotation angle")
                case let .matrix(expected):
                    row.checkTrue(m.isApproximatelyEqual(to: expected, tolerance: example.accuracy ?? 0), "matrix \(m)")
                }
            }
        }
    }
}
