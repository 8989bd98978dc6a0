import XCTest
import Foundation
import Timing

// Rules of semantics §1 (CAMediaTiming) and §2 (CAMediaTimingFunction) beyond the worked examples.
// Tolerance: 1e-9 for exact arithmetic on doubles, 1e-6 where a float property is involved or a
// value is printed to 6 digits in the spec.

/// Timing parameters with the fields a test cares about.
private func timing(begin: Double = 0, duration: Double = 1, speed: Double = 1, offset: Double = 0,
                    repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                    fill: CAMediaTimingFillMode = .removed) -> TimingParameters {
    var t = TimingParameters()
    t.beginTime = begin; t.duration = duration; t.speed = speed; t.timeOffset = offset
    t.repeatCount = repeatCount; t.repeatDuration = repeatDuration; t.autoreverses = autoreverses
    t.fillMode = fill
    return t
}

final class TimingRulesTests: XCTestCase {

    // MARK: - §1.1 defaults

    func testTimingParameterDefaults() {
        let t = TimingParameters()
        XCTAssertEqual(t.beginTime, 0)
        XCTAssertEqual(t.duration, 0)
        XCTAssertEqual(t.speed, 1)
        XCTAssertEqual(t.timeOffset, 0)
        XCTAssertEqual(t.repeatCount, 0)
        XCTAssertEqual(t.repeatDuration, 0)
        XCTAssertFalse(t.autoreverses)
        XCTAssertEqual(t.fillMode, .removed)
    }

    func testFillModeRawStrings() {
        XCTAssertEqual(CAMediaTimingFillMode.removed.rawValue, "removed")
        XCTAssertEqual(CAMediaTimingFillMode.forwards.rawValue, "forwards")
        XCTAssertEqual(CAMediaTimingFillMode.backwards.rawValue, "backwards")
        XCTAssertEqual(CAMediaTimingFillMode.both.rawValue, "both")
    }

    /// A zero duration has not been substituted yet: there is nothing to resolve.
    func testZeroDurationResolvesToNothing() {
        XCTAssertNil(timing(duration: 0).resolve(parentTime: 0))
        XCTAssertNil(timing(duration: 0, fill: .both).resolve(parentTime: 5))
    }

    // MARK: - §1.2 / §1.6 fill modes at the window edges

    func testFillModesAtWindowEdges() {
        // begin 1, duration 2: the active window is parent time [1, 3]; both ends are active.
        struct Row { let fill: CAMediaTimingFillMode; let t: Double; let fraction: Double?; let phase: TimingPhase? }
        let rows: [Row] = [
            Row(fill: .removed, t: 0.999, fraction: nil, phase: nil),
            Row(fill: .removed, t: 1, fraction: 0, phase: .active),
            Row(fill: .removed, t: 2, fraction: 0.5, phase: .active),
            Row(fill: .removed, t: 3, fraction: 1, phase: .active),
            Row(fill: .removed, t: 3.001, fraction: nil, phase: nil),
            Row(fill: .backwards, t: 0, fraction: 0, phase: .before),
            Row(fill: .backwards, t: -100, fraction: 0, phase: .before),
            Row(fill: .backwards, t: 3.001, fraction: nil, phase: nil),
            Row(fill: .forwards, t: 0.999, fraction: nil, phase: nil),
            Row(fill: .forwards, t: 3.001, fraction: 1, phase: .after),
            Row(fill: .forwards, t: 1000, fraction: 1, phase: .after),
            Row(fill: .both, t: 0, fraction: 0, phase: .before),
            Row(fill: .both, t: 50, fraction: 1, phase: .after),
            // Unknown fill strings act like `removed` (§1.6 [inf]).
            Row(fill: CAMediaTimingFillMode(rawValue: "frozen"), t: 0, fraction: nil, phase: nil),
            Row(fill: CAMediaTimingFillMode(rawValue: "frozen"), t: 4, fraction: nil, phase: nil),
        ]
        for row in rows {
            let r = timing(begin: 1, duration: 2, fill: row.fill).resolve(parentTime: row.t)
            let label = "fill \(row.fill.rawValue) at t=\(row.t)"
            if let fraction = row.fraction {
                XCTAssertEqual(r?.fraction ?? .nan, fraction, accuracy: 1e-9, label)
                XCTAssertEqual(r?.phase, row.phase, label)
            } else {
                XCTAssertNil(r, label)
            }
        }
    }

    /// Backwards fill holds local time 0 + timeOffset, i.e. the first frame the animation shows.
    func testBackwardsFillHoldsTheOffsetStartFrame() {
        let r = timing(begin: 10, duration: 4, offset: 1, fill: .backwards).resolve(parentTime: 5)
        XCTAssertEqual(r?.fraction ?? .nan, 0.25, accuracy: 1e-9)
        XCTAssertEqual(r?.phase, .before)
    }

    /// Forward fill after a fractional repeat holds the fraction where the last cycle was cut.
    func testForwardsFillAfterFractionalRepeat() {
        let r = timing(duration: 2, repeatCount: 1.25, fill: .forwards).resolve(parentTime: 10)
        XCTAssertEqual(r?.iteration, 1)
        XCTAssertEqual(r?.fraction ?? .nan, 0.25, accuracy: 1e-9)
    }

    // MARK: - §1.2 speed

    func testNegativeSpeedActiveWindowIsBeforeBeginTime() {
        // speed −1: the window in parent time is [beginTime − AD/|speed|, beginTime] (§1.2 [inf]).
        let t = timing(begin: 10, duration: 2, speed: -1)
        XCTAssertNil(t.resolve(parentTime: 10.5), "after beginTime nothing shows")
        XCTAssertEqual(t.resolve(parentTime: 10)?.fraction ?? .nan, 0, accuracy: 1e-9)
        XCTAssertEqual(t.resolve(parentTime: 9.5)?.fraction ?? .nan, 0.25, accuracy: 1e-9)
        XCTAssertEqual(t.resolve(parentTime: 8.5)?.fraction ?? .nan, 0.75, accuracy: 1e-9)
        XCTAssertEqual(t.resolve(parentTime: 8)?.fraction ?? .nan, 1, accuracy: 1e-9)
        XCTAssertNil(t.resolve(parentTime: 7.9), "before beginTime − AD nothing shows")

        let fast = timing(begin: 10, duration: 2, speed: -2)
        XCTAssertEqual(fast.resolve(parentTime: 9.5)?.fraction ?? .nan, 0.5, accuracy: 1e-9)
        XCTAssertEqual(fast.resolve(parentTime: 9)?.fraction ?? .nan, 1, accuracy: 1e-9)
        XCTAssertNil(fast.resolve(parentTime: 8.9))
    }

    func testSpeedZeroFreezesAtTimeOffset() {
        for t in [-50.0, 0, 3, 1e6] {
            XCTAssertEqual(timing(begin: 5, duration: 4, speed: 0, offset: 1).resolve(parentTime: t)?.fraction ?? .nan,
                           0.25, accuracy: 1e-9, "speed 0 at t=\(t)")
            XCTAssertEqual(timing(duration: 4, speed: 0).resolve(parentTime: t)?.fraction ?? .nan,
                           0, accuracy: 1e-9, "speed 0 without offset at t=\(t)")
        }
    }

    func testSpeedScalesTheWallClockLength() {
        // Wall-clock length = AD / |speed|.
        let t = timing(begin: 1, duration: 3, speed: 1.5)
        XCTAssertEqual(t.resolve(parentTime: 3)?.fraction ?? .nan, 1, accuracy: 1e-9)
        XCTAssertNil(t.resolve(parentTime: 3.01))
        XCTAssertEqual(t.resolve(parentTime: 2)?.basicTime ?? .nan, 1.5, accuracy: 1e-9)
    }

    /// timeOffset is in local units and is not multiplied by speed (§1.2).
    func testTimeOffsetIsNotScaledBySpeed() {
        let r = timing(duration: 10, speed: 2, offset: 1).resolve(parentTime: 1)
        XCTAssertEqual(r?.basicTime ?? .nan, 3, accuracy: 1e-9)
    }

    // MARK: - §1.1 / §1.3 repetition

    func testFractionalRepeatCounts() {
        let half = timing(duration: 2, repeatCount: 0.5)
        XCTAssertEqual(half.activeDuration, 1, accuracy: 1e-12)
        XCTAssertEqual(half.resolve(parentTime: 1)?.fraction ?? .nan, 0.5, accuracy: 1e-9)
        XCTAssertNil(half.resolve(parentTime: 1.01))

        let many = timing(duration: 1, repeatCount: 2.25)
        XCTAssertEqual(many.activeDuration, 2.25, accuracy: 1e-12)
        XCTAssertEqual(many.resolve(parentTime: 2.1)?.iteration, 2)
        XCTAssertEqual(many.resolve(parentTime: 2.1)?.fraction ?? .nan, 0.1, accuracy: 1e-9)
        XCTAssertEqual(many.resolve(parentTime: 1.5)?.iteration, 1)
    }

    func testRepeatDurationWinsOverRepeatCount() {
        let t = timing(duration: 1, repeatCount: 5, repeatDuration: 2.5)
        XCTAssertEqual(t.activeDuration, 2.5, accuracy: 1e-12)
        XCTAssertNil(t.resolve(parentTime: 3))
        XCTAssertEqual(t.resolve(parentTime: 2.5)?.fraction ?? .nan, 0.5, accuracy: 1e-9)
    }

    func testRepeatDurationWithAutoreverse() {
        // cycle 2 s; repeatDuration 3 ends half-way through the forward leg of cycle 2.
        let t = timing(duration: 1, repeatDuration: 3, autoreverses: true, fill: .forwards)
        XCTAssertEqual(t.activeDuration, 3, accuracy: 1e-12)
        XCTAssertEqual(t.resolve(parentTime: 1.5)?.fraction ?? .nan, 0.5, accuracy: 1e-9, "backward leg")
        XCTAssertEqual(t.resolve(parentTime: 10)?.fraction ?? .nan, 1, accuracy: 1e-9, "ends on the forward leg's end")
    }

    func testInfiniteRepeatCounts() {
        for count in [Double(Float.greatestFiniteMagnitude), Double(Float.infinity)] {
            let t = timing(duration: 1, repeatCount: count)
            XCTAssertEqual(t.activeDuration, .infinity, "repeatCount \(count)")
            let r = t.resolve(parentTime: 1_000_000_000.25)
            XCTAssertEqual(r?.fraction ?? .nan, 0.25, accuracy: 1e-6, "repeatCount \(count)")
            XCTAssertEqual(r?.iteration, 1_000_000_000, "repeatCount \(count)")
        }
        let reversing = timing(duration: 1, repeatCount: Double(Float.infinity), autoreverses: true)
        XCTAssertEqual(reversing.resolve(parentTime: 1001.25)?.fraction ?? .nan, 0.75, accuracy: 1e-6)
    }

    func testAutoreverseDoublesTheCycle() {
        let t = timing(duration: 2, autoreverses: true)
        XCTAssertEqual(t.cycleDuration, 4)
        XCTAssertEqual(t.activeDuration, 4)
        XCTAssertEqual(t.resolve(parentTime: 3)?.basicTime ?? .nan, 1, accuracy: 1e-9)
        XCTAssertEqual(t.resolve(parentTime: 4)?.basicTime ?? .nan, 0, accuracy: 1e-9)
        let twice = timing(duration: 2, repeatCount: 2, autoreverses: true)
        XCTAssertEqual(twice.activeDuration, 8)
    }

    /// An integral repeat count ends on the end of the last cycle, not the start of the next.
    func testEndOfIntegralRepeatShowsEndOfLastCycle() {
        let r = timing(duration: 1, repeatCount: 4).resolve(parentTime: 4)
        XCTAssertEqual(r?.iteration, 3)
        XCTAssertEqual(r?.fraction ?? .nan, 1, accuracy: 1e-12)
        // Mid-way through, a cycle boundary shows the start of the next cycle.
        let boundary = timing(duration: 1, repeatCount: 4).resolve(parentTime: 2)
        XCTAssertEqual(boundary?.iteration, 2)
        XCTAssertEqual(boundary?.fraction ?? .nan, 0, accuracy: 1e-12)
    }

    // MARK: - §1.2 layer time

    func testLayerLocalTimeReadsZeroBeforeBeginTime() {
        var t = TimingParameters()
        t.duration = .infinity; t.beginTime = 8; t.speed = 0.5; t.timeOffset = 7
        XCTAssertEqual(t.layerLocalTime(parentTime: 7), 0, "before beginTime, without the offset")
        XCTAssertEqual(t.layerLocalTime(parentTime: 10), 8, accuracy: 1e-12)
        XCTAssertEqual(t.layerParentTime(localTime: 8), 10, accuracy: 1e-12)
        var paused = TimingParameters()
        paused.speed = 0; paused.timeOffset = 3
        XCTAssertEqual(paused.layerParentTime(localTime: 3), 0, "converting out of a speed-0 layer gives 0")
        XCTAssertEqual(paused.layerLocalTime(parentTime: 99), 3)
        XCTAssertTrue(TimingParameters().isIdentityForLayer)
        XCTAssertFalse(paused.isIdentityForLayer)
    }

    // MARK: - §2.1 named functions and control points

    func testNamedControlPoints() {
        struct Row { let name: CAMediaTimingFunctionName; let c1: (Float, Float); let c2: (Float, Float) }
        let rows: [Row] = [
            Row(name: .linear, c1: (0, 0), c2: (1, 1)),
            Row(name: .easeIn, c1: (0.42, 0), c2: (1, 1)),
            Row(name: .easeOut, c1: (0, 0), c2: (0.58, 1)),
            Row(name: .easeInEaseOut, c1: (0.42, 0), c2: (0.58, 1)),
            Row(name: .default, c1: (0.25, 0.1), c2: (0.25, 1)),
        ]
        for row in rows {
            let f = CAMediaTimingFunction(name: row.name)
            let label = row.name.rawValue
            XCTAssertEqual(f.controlPoint(at: 0).x, 0, label); XCTAssertEqual(f.controlPoint(at: 0).y, 0, label)
            XCTAssertEqual(f.controlPoint(at: 1).x, row.c1.0, label); XCTAssertEqual(f.controlPoint(at: 1).y, row.c1.1, label)
            XCTAssertEqual(f.controlPoint(at: 2).x, row.c2.0, label); XCTAssertEqual(f.controlPoint(at: 2).y, row.c2.1, label)
            XCTAssertEqual(f.controlPoint(at: 3).x, 1, label); XCTAssertEqual(f.controlPoint(at: 3).y, 1, label)
            var values: [Float] = [-1, -1]
            values.withUnsafeMutableBufferPointer { f.getControlPoint(at: 1, values: $0.baseAddress!) }
            XCTAssertEqual(values, [row.c1.0, row.c1.1], label)
            XCTAssertEqual(f.solve(0), 0, label)
            XCTAssertEqual(f.solve(1), 1, label)
        }
    }

    func testNameRawStrings() {
        XCTAssertEqual(CAMediaTimingFunctionName.linear.rawValue, "linear")
        XCTAssertEqual(CAMediaTimingFunctionName.easeIn.rawValue, "easeIn")
        XCTAssertEqual(CAMediaTimingFunctionName.easeOut.rawValue, "easeOut")
        XCTAssertEqual(CAMediaTimingFunctionName.easeInEaseOut.rawValue, "easeInEaseOut")
        XCTAssertEqual(CAMediaTimingFunctionName.default.rawValue, "default")
    }

    func testNamedFunctionEqualsItsControlPoints() {
        XCTAssertEqual(CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(controlPoints: 0.42, 0, 1, 1))
        XCTAssertEqual(CAMediaTimingFunction(name: .default), CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1))
        XCTAssertNotEqual(CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut))
    }

    func testLinearIsIdentityAndEaseInOutIsSymmetric() {
        let linear = CAMediaTimingFunction(name: .linear)
        let easeInOut = CAMediaTimingFunction(name: .easeInEaseOut)
        let easeIn = CAMediaTimingFunction(name: .easeIn), easeOut = CAMediaTimingFunction(name: .easeOut)
        for u in stride(from: 0.05, to: 1, by: 0.1) {
            XCTAssertEqual(linear.solve(u), u, accuracy: 1e-7, "linear(\(u))")
            XCTAssertEqual(easeInOut.solve(u) + easeInOut.solve(1 - u), 1, accuracy: 1e-6, "easeInEaseOut symmetry at \(u)")
            // easeOut is easeIn rotated by 180°: easeOut(u) = 1 − easeIn(1 − u).
            XCTAssertEqual(easeOut.solve(u), 1 - easeIn.solve(1 - u), accuracy: 1e-6, "easeIn/easeOut at \(u)")
        }
    }

    func testSolveIsMonotonicForNamedCurves() {
        for name in [CAMediaTimingFunctionName.easeIn, .easeOut, .easeInEaseOut, .default] {
            let f = CAMediaTimingFunction(name: name)
            var previous = 0.0
            for i in 1...100 {
                let v = f.solve(Double(i) / 100)
                XCTAssertGreaterThanOrEqual(v, previous - 1e-12, "\(name.rawValue) at \(i)")
                previous = v
            }
        }
    }

    // MARK: - §2.3 outside [0,1]

    func testInputIsClamped() {
        for f in [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .default),
                  CAMediaTimingFunction(controlPoints: 0.3, -0.8, 0.7, 1.8)] {
            XCTAssertEqual(f.solve(-0.5), 0, "\(f) below 0")
            XCTAssertEqual(f.solve(-100), 0, "\(f) far below 0")
            XCTAssertEqual(f.solve(1.5), 1, "\(f) above 1")
            XCTAssertEqual(f.solve(100), 1, "\(f) far above 1")
        }
        XCTAssertEqual(CAMediaTimingFunction(name: .easeIn)._solve(forInput: 2), 1)
        XCTAssertEqual(CAMediaTimingFunction(name: .easeIn)._solve(forInput: 0.5), 0.315357, accuracy: 1e-5)
    }

    func testOutputOvershootsWithControlPointsOutsideUnitRange() {
        // Back-style curve: y(c1) < 0 undershoots, y(c2) > 1 overshoots. Output is not clamped.
        let f = CAMediaTimingFunction(controlPoints: 0.5, -1, 0.5, 2)
        // x(s) = 1.5s − 1.5s² + s³ … solved numerically; check the sign of the excursions.
        XCTAssertLessThan(f.solve(0.1), 0, "undershoot near the start")
        XCTAssertGreaterThan(f.solve(0.9), 1, "overshoot near the end")
        // x is symmetric, so f(0.5) = y(0.5) = 0.5.
        XCTAssertEqual(f.solve(0.5), 0.5, accuracy: 1e-7)
        // The stored control points are kept as given.
        XCTAssertEqual(f.controlPoint(at: 1).y, -1)
        XCTAssertEqual(f.controlPoint(at: 2).y, 2)
    }

    func testOvershootValueMatchesBezierFormula() {
        // c1 = (0, 0), c2 = (1, 2): x(s) = 3s² − 2s³ … y(s) = 6s²(1−s) + s³; at s = 0.5, x = 0.5, y = 0.875.
        let f = CAMediaTimingFunction(controlPoints: 0, 0, 1, 2)
        XCTAssertEqual(f.solve(0.5), 0.875, accuracy: 1e-7)
        // At s = 0.75: x = 0.84375, y = 6·0.5625·0.25 + 0.421875 = 1.265625.
        XCTAssertEqual(f.solve(0.84375), 1.265625, accuracy: 1e-7)
    }

    func testControlPointXIsClampedIntoUnitRange() {
        // c1x −0.5 → 0 and c2x 1.5 → 1 give the linear curve (y = x for (0,0),(1,1)).
        let f = CAMediaTimingFunction(controlPoints: -0.5, 0, 1.5, 1)
        for u in [0.1, 0.3, 0.5, 0.8] {
            XCTAssertEqual(f.solve(u), u, accuracy: 1e-7, "clamped curve at \(u)")
        }
        // Stored values are the given ones.
        XCTAssertEqual(f.controlPoint(at: 1).x, -0.5)
        XCTAssertEqual(f.controlPoint(at: 2).x, 1.5)
    }

    func testSolverPrecisionAgainstHighPrecisionValues() {
        // Reference values from a 200-step bisection in double precision.
        let rows: [(CAMediaTimingFunctionName, Double, Double)] = [
            (.easeIn, 0.75, 0.6218618691748903),
            (.easeOut, 0.5, 0.6846431874274607),
            (.default, 0.5, 0.802403387584857),
            (.default, 0.25, 0.4085105913553959),
        ]
        for (name, u, expected) in rows {
            XCTAssertEqual(CAMediaTimingFunction(name: name).solve(u), expected, accuracy: 1e-7, "\(name.rawValue)(\(u))")
        }
    }

    // MARK: - §5 springs: settling duration and perceptual initialiser

    func testSpringDefaults() {
        let s = SpringMotion()
        XCTAssertEqual(s.mass, 1)
        XCTAssertEqual(s.stiffness, 100)
        XCTAssertEqual(s.damping, 10)
        XCTAssertEqual(s.initialVelocity, 0)
        XCTAssertFalse(s.allowsOverdamping)
        XCTAssertEqual(s.naturalFrequency, 10, accuracy: 1e-12)
        XCTAssertEqual(s.dampingRatio, 0.5, accuracy: 1e-12)
    }

    func testSettlingDuration() {
        struct Row { let damping: Double; let expected: Double; let accuracy: Double; let note: String }
        let rows: [Row] = [
            Row(damping: 5, expected: 2.854975, accuracy: 1e-6, note: "Apple ≈ 2.85"),
            Row(damping: 10, expected: 1.4727003346780927, accuracy: 1e-12, note: "measured on Apple"),
            Row(damping: 15, expected: 1.022094, accuracy: 1e-6, note: "Apple: just over 1 s"),
            Row(damping: 20, expected: 1.0, accuracy: 1e-12, note: "critical, measured 1.0"),
            Row(damping: 100, expected: 1.0, accuracy: 1e-12, note: "over-damped, measured 1.0"),
        ]
        for row in rows {
            XCTAssertEqual(SpringMotion(damping: row.damping).settlingDuration, row.expected, accuracy: row.accuracy,
                           "settlingDuration m1 k100 c\(row.damping) (\(row.note))")
        }
    }

    /// The under-damped settling rule from §5.3, with an initial velocity and a heavier mass.
    func testSettlingDurationFormulaWithVelocityAndMass() {
        func rule(_ m: Double, _ k: Double, _ c: Double, _ v0: Double) -> Double {
            let w0 = (k / m).squareRoot(), zeta = c / (2 * (k * m).squareRoot())
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return log((1 + abs((zeta * w0 - v0) / wd)) / 0.001) / (zeta * w0)
        }
        let cases: [(Double, Double, Double, Double)] = [(1, 100, 10, 5), (2, 300, 8, -3), (0.5, 50, 2, 0)]
        for (m, k, c, v) in cases {
            XCTAssertEqual(SpringMotion(mass: m, stiffness: k, damping: c, initialVelocity: v).settlingDuration,
                           rule(m, k, c, v), accuracy: 1e-9, "m\(m) k\(k) c\(c) v\(v)")
        }
    }

    func testOverdampingClampsUnlessAllowed() {
        let clamped = SpringMotion(damping: 30)
        XCTAssertEqual(clamped.dampingRatio, 1, accuracy: 1e-12)
        let free = SpringMotion(damping: 30, allowsOverdamping: true)
        XCTAssertEqual(free.dampingRatio, 1.5, accuracy: 1e-12)
        // Clamped: moves exactly as the critically damped c20 spring.
        for t in [0.05, 0.1, 0.3, 0.7] {
            XCTAssertEqual(clamped.progress(at: t), SpringMotion(damping: 20).progress(at: t), accuracy: 1e-12, "t=\(t)")
        }
        XCTAssertEqual(free.progress(at: 0.1), 0.213354, accuracy: 1e-6)
    }

    func testSpringMotionBoundaryValues() {
        let s = SpringMotion()
        XCTAssertEqual(s.progress(at: 0), 0)
        XCTAssertEqual(s.displacement(at: 0), 1, accuracy: 1e-12)
        XCTAssertEqual(s.progress(at: 10), 1, accuracy: 1e-6, "at rest long after settling")
        // Not stretched to any duration: the curve depends on seconds only.
        XCTAssertEqual(s.progress(at: 0.1), 0.340300, accuracy: 1e-6)
    }

    func testPerceptualInitialiser() {
        struct Row { let duration: Double; let bounce: Double; let stiffness: Double; let damping: Double; let ratio: Double }
        let rows: [Row] = [
            Row(duration: 0.5, bounce: 0.3, stiffness: 157.913670, damping: 17.592919, ratio: 0.7),
            Row(duration: 1.0, bounce: -0.5, stiffness: 39.478418, damping: 25.132741, ratio: 2),
            Row(duration: 1.0, bounce: 0, stiffness: 39.478418, damping: 12.566371, ratio: 1),
            Row(duration: 2.0, bounce: 0.9, stiffness: 9.869604, damping: 0.628319, ratio: 0.1),
        ]
        for row in rows {
            let s = SpringMotion(perceptualDuration: row.duration, bounce: row.bounce)
            let label = "perceptualDuration \(row.duration) bounce \(row.bounce)"
            XCTAssertEqual(s.mass, 1, label)
            XCTAssertEqual(s.stiffness, row.stiffness, accuracy: 1e-6, label)
            XCTAssertEqual(s.damping, row.damping, accuracy: 1e-6, label)
            let zeta = s.damping / (2 * (s.stiffness * s.mass).squareRoot())
            XCTAssertEqual(zeta, row.ratio, accuracy: 1e-9, label)
        }
    }

    // MARK: - Media clock

    func testManualMediaClock() {
        let clock = ManualMediaClock()
        XCTAssertEqual(clock.currentTime, 0)
        clock.advance(by: 1.5)
        XCTAssertEqual(clock.currentTime, 1.5)
        clock.currentTime = 10
        clock.advance(by: -2)
        XCTAssertEqual(clock.currentTime, 8)
        XCTAssertEqual(ManualMediaClock(time: 42).currentTime, 42)
        XCTAssertEqual(AVCoreAnimationBeginTimeAtZero, 1e-100)
        XCTAssertGreaterThan(AVCoreAnimationBeginTimeAtZero, 0)
    }

    func testHostClockIsMonotonic() {
        let a = CACurrentMediaTime(), b = CACurrentMediaTime()
        XCTAssertGreaterThanOrEqual(b, a)
        XCTAssertGreaterThan(a, 0)
    }
}
