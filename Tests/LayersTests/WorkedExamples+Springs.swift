import XCTest
import Foundation
import Geometry
import Timing
import Animation

// §5 springs: the motion (E43–E46, position.x 0→100, same driver as +Values) and the parameters
// a spring derives (E47 settlingDuration, E48 the perceptual initializer). E43's peak (E49) is a
// measured row in +Measured.

extension WorkedExamplesTests {
    static var springValueExamples: [ValueExample] {
        [
            ValueExample("E43 m1 k100 c10 v0 0", spring(), x: [(0.1, 34.0300), (0.25, 102.3360), (0.5, 107.4591), (1.0, 100.2170)],
                         accuracy: 5e-5),
            ValueExample("E44 critically damped c20", spring(damping: 20), x: [(0.1, 26.4241), (0.3, 80.0852)], accuracy: 5e-5),
            ValueExample("E45 over-damped c30 with allowsOverdamping = YES", spring(damping: 30, allowsOverdamping: true),
                         x: [(0.1, 21.3354), (0.3, 62.7818)], accuracy: 5e-5),
            ValueExample("E45 c30 with the default allowsOverdamping = NO moves as critically damped", spring(damping: 30),
                         x: [(0.1, 26.4241), (0.3, 80.0852)], accuracy: 5e-5),
            ValueExample("E46 critical c20, initialVelocity 5", spring(damping: 20, initialVelocity: 5), x: [(0.1, 44.8181)],
                         accuracy: 5e-5),
        ]
    }

    func testSpringValueExamples() { run(Self.springValueExamples) }

    // MARK: - Derived parameters (E47, E48)

    enum SpringSetup {
        /// `CASpringAnimation()` as it comes.
        case defaults
        case parameters(mass: CGFloat, stiffness: CGFloat, damping: CGFloat)
        case perceptual(duration: Double, bounce: CGFloat)

        func make() -> CASpringAnimation {
            switch self {
            case .defaults:
                return CASpringAnimation()
            case let .parameters(mass, stiffness, damping):
                let s = CASpringAnimation()
                s.mass = mass; s.stiffness = stiffness; s.damping = damping
                return s
            case let .perceptual(duration, bounce):
                return CASpringAnimation(perceptualDuration: duration, bounce: bounce)
            }
        }
    }

    enum SpringQuantity: String {
        case mass, stiffness, damping, dampingRatio = "damping ratio", settlingDuration

        func value(of s: CASpringAnimation) -> Double {
            switch self {
            case .mass: Double(s.mass)
            case .stiffness: Double(s.stiffness)
            case .damping: Double(s.damping)
            case .dampingRatio: Double(s.damping) / (2 * (Double(s.stiffness) * Double(s.mass)).squareRoot())
            case .settlingDuration: s.settlingDuration
            }
        }
    }

    struct SpringParameterExample {
        let row: ExampleRow
        let spring: SpringSetup
        let expected: [(SpringQuantity, Double)]
        let accuracy: Double

        init(_ label: String, _ spring: SpringSetup, _ expected: [(SpringQuantity, Double)],
             accuracy: Double = WorkedExamplesTests.tolerance, file: StaticString = #filePath, line: UInt = #line) {
            row = ExampleRow(label, file: file, line: line)
            self.spring = spring; self.expected = expected; self.accuracy = accuracy
        }
    }

    static var springParameterExamples: [SpringParameterExample] {
        let k100 = { (damping: CGFloat) in SpringSetup.parameters(mass: 1, stiffness: 100, damping: damping) }
        return [
            SpringParameterExample("E47 c5 → 2.854975 (Apple ≈2.85)", k100(5), [(.settlingDuration, 2.854975)]),
            SpringParameterExample("E47 c10 → 1.4727003346780927 (Apple, measured)", k100(10), [(.settlingDuration, 1.4727003346780927)]),
            SpringParameterExample("E47 c15 → 1.022094 (Apple \"just over 1\")", k100(15), [(.settlingDuration, 1.022094)]),
            SpringParameterExample("E47 c20 → 1.0 (Apple, measured)", k100(20), [(.settlingDuration, 1.0)]),
            SpringParameterExample("E47 the defaults (m1 k100 c10), to 15 digits", .defaults, [(.settlingDuration, 1.4727003346780927)],
                                   accuracy: 1e-12),
            SpringParameterExample("E48 perceptualDuration 0.5, bounce 0.3", .perceptual(duration: 0.5, bounce: 0.3),
                                   [(.mass, 1), (.stiffness, 157.913670), (.damping, 17.592919), (.dampingRatio, 0.7)]),
            SpringParameterExample("E48 duration 1.0, bounce −0.5", .perceptual(duration: 1.0, bounce: -0.5),
                                   [(.mass, 1), (.stiffness, 39.478418), (.damping, 25.132741), (.dampingRatio, 2)]),
        ]
    }

    func testSpringParameterExamples() {
        for example in Self.springParameterExamples {
            let spring = example.spring.make()
            for (quantity, expected) in example.expected {
                example.row.check(quantity.value(of: spring), expected, accuracy: example.accuracy, quantity.rawValue)
            }
        }
    }
}
