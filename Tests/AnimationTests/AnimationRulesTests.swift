import XCTest
import Foundation
import Geometry
import Timing
import Animation

// Rules of semantics §3–§7 that need no layer: endpoint resolution, interpolation by type,
// cumulative, value functions, keyframes (key times, per-segment curves, cubic, paced, paths,
// rotationMode), springs and CATransition progress. Layer-level rules (additive stacking, groups,
// copy-on-add, one animation per key) are in LayersTests/LayerAnimationRulesTests.swift, because
// this test target depends on Animation only.
//
// Tolerance: 1e-9 for exact arithmetic; 1e-6 for spec values printed to 6 digits; as noted otherwise.

/// The animation's value at parent time `t` for a property of `kind` whose model value is `underlying`.
private func sample(_ animation: CAPropertyAnimation, _ kind: AnimatableValueKind, underlying: AnimatableValue,
                    at t: Double) -> AnimatableValue? {
    guard let prepared = PreparedPropertyAnimation(animation, propertyKind: kind),
          let time = prepared.timing.resolve(parentTime: t) else { return nil }
    return prepared.value(at: time, underlying: underlying)
}

private func number(_ v: AnimatableValue?) -> Double { v?.number ?? .nan }

private func point(_ v: AnimatableValue?) -> CGPoint {
    if case .point(let p)? = v { return p }
    return CGPoint(x: CGFloat.nan, y: CGFloat.nan)
}

private func transform(_ v: AnimatableValue?) -> CATransform3D {
    if case .transform(let t)? = v { return t }
    var nan = CATransform3D()
    nan.m11 = .nan
    return nan
}

private func color(_ v: AnimatableValue?) -> [Double] {
    if case .color(let c?)? = v { return [c.red, c.green, c.blue, c.alpha].map { Double($0) } }
    return [.nan, .nan, .nan, .nan]
}

private func basic(from: Any? = nil, to: Any? = nil, by: Any? = nil, duration: Double = 1) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: "test")
    a.fromValue = from; a.toValue = to; a.byValue = by
    a.duration = duration
    return a
}

private func keyframes(_ values: [Any], mode: CAAnimationCalculationMode = .linear, keyTimes: [Double]? = nil,
                       duration: Double = 1) -> CAKeyframeAnimation {
    let a = CAKeyframeAnimation(keyPath: "test")
    a.values = values
    a.calculationMode = mode
    a.keyTimes = keyTimes?.map { NSNumber(value: $0) }
    a.duration = duration
    return a
}

private func pathAnimation(_ path: CGPath, mode: CAAnimationCalculationMode) -> CAKeyframeAnimation {
    let a = CAKeyframeAnimation(keyPath: "position")
    a.path = path
    a.calculationMode = mode
    a.duration = 1
    return a
}

private func polyline(_ points: [CGPoint]) -> CGPath {
    let p = CGMutablePath()
    p.move(to: points[0])
    for q in points.dropFirst() { p.addLine(to: q) }
    return p
}

private func translation(_ x: CGFloat, _ y: CGFloat) -> CATransform3D { CATransform3DMakeTranslation(x, y, 0) }

private func assertPoint(_ p: CGPoint, _ x: Double, _ y: Double, accuracy: Double = 1e-6, _ label: String,
                         file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(Double(p.x), x, accuracy: accuracy, "\(label) x", file: file, line: line)
    XCTAssertEqual(Double(p.y), y, accuracy: accuracy, "\(label) y", file: file, line: line)
}

final class AnimationRulesTests: XCTestCase {

    // MARK: - Defaults (§1.1, §4.1, §5.1, §6, §7)

    func testAnimationDefaults() {
        let a = CABasicAnimation()
        XCTAssertEqual(a.beginTime, 0)
        XCTAssertEqual(a.duration, 0)
        XCTAssertEqual(a.speed, 1)
        XCTAssertEqual(a.timeOffset, 0)
        XCTAssertEqual(a.repeatCount, 0)
        XCTAssertEqual(a.repeatDuration, 0)
        XCTAssertFalse(a.autoreverses)
        XCTAssertEqual(a.fillMode, .removed)
        XCTAssertNil(a.timingFunction, "nil timing function means linear")
        XCTAssertTrue(a.isRemovedOnCompletion)
        XCTAssertNil(a.delegate)
        XCTAssertFalse(a.isAdditive)
        XCTAssertFalse(a.isCumulative)
        XCTAssertNil(a.valueFunction)
        XCTAssertNil(a.fromValue); XCTAssertNil(a.toValue); XCTAssertNil(a.byValue)

        let k = CAKeyframeAnimation()
        XCTAssertEqual(k.calculationMode, .linear)
        XCTAssertNil(k.keyTimes); XCTAssertNil(k.values); XCTAssertNil(k.path); XCTAssertNil(k.rotationMode)

        let s = CASpringAnimation()
        XCTAssertEqual(Double(s.mass), 1)
        XCTAssertEqual(Double(s.stiffness), 100)
        XCTAssertEqual(Double(s.damping), 10)
        XCTAssertEqual(Double(s.initialVelocity), 0)
        XCTAssertFalse(s.allowsOverdamping)
        XCTAssertEqual(s.settlingDuration, 1.4727003346780927, accuracy: 1e-12)

        let t = CATransition()
        XCTAssertEqual(t.type, .fade)
        XCTAssertNil(t.subtype)
        XCTAssertEqual(t.startProgress, 0)
        XCTAssertEqual(t.endProgress, 1)
        XCTAssertEqual(t.duration, 0)

        XCTAssertNil(CAAnimationGroup().animations)
    }

    func testCalculationModeAndTransitionRawStrings() {
        XCTAssertEqual(CAAnimationCalculationMode.linear.rawValue, "linear")
        XCTAssertEqual(CAAnimationCalculationMode.discrete.rawValue, "discrete")
        XCTAssertEqual(CAAnimationCalculationMode.paced.rawValue, "paced")
        XCTAssertEqual(CAAnimationCalculationMode.cubic.rawValue, "cubic")
        XCTAssertEqual(CAAnimationCalculationMode.cubicPaced.rawValue, "cubicPaced")
        // An unknown mode string is stored as given (§4.1).
        let k = CAKeyframeAnimation()
        k.calculationMode = CAAnimationCalculationMode(rawValue: "wobbly")
        XCTAssertEqual(k.calculationMode.rawValue, "wobbly")
        XCTAssertEqual(CATransitionType.fade.rawValue, "fade")
        XCTAssertEqual(CATransitionType.moveIn.rawValue, "moveIn")
        XCTAssertEqual(CATransitionType.push.rawValue, "push")
        XCTAssertEqual(CATransitionType.reveal.rawValue, "reveal")
        XCTAssertEqual(CATransitionSubtype.fromLeft.rawValue, "fromLeft")
        XCTAssertEqual(CATransitionSubtype.fromRight.rawValue, "fromRight")
        XCTAssertEqual(CATransitionSubtype.fromTop.rawValue, "fromTop")
        XCTAssertEqual(CATransitionSubtype.fromBottom.rawValue, "fromBottom")
        XCTAssertEqual(kCATransition, "transition")
        XCTAssertEqual(kCAOnOrderIn, "onOrderIn")
        XCTAssertEqual(kCAOnOrderOut, "onOrderOut")
        XCTAssertEqual(CAAnimationRotationMode.rotateAuto.rawValue, "auto")
        XCTAssertEqual(CAAnimationRotationMode.rotateAutoReverse.rawValue, "autoReverse")
    }

    // MARK: - Copying (§6, §9)

    func testCopyIsIndependentAndGroupCopyIsDeep() {
        let a = basic(from: 1.0, to: 2.0, duration: 3)
        a.autoreverses = true
        a.timingFunction = CAMediaTimingFunction(name: .easeIn)
        a.setValue("tag", forKey: "name")
        let copy = a.copy() as! CABasicAnimation
        XCTAssertEqual(copy.duration, 3)
        XCTAssertTrue(copy.autoreverses)
        XCTAssertEqual(copy.keyPath, "test")
        XCTAssertEqual(copy.timingFunction, CAMediaTimingFunction(name: .easeIn))
        XCTAssertEqual(copy.value(forKey: "name") as? String, "tag")
        XCTAssertEqual(copy.toValue as? Double, 2)
        a.duration = 9
        a.toValue = 5.0
        XCTAssertEqual(copy.duration, 3, "copy unaffected by later edits")
        XCTAssertEqual(copy.toValue as? Double, 2)

        let child = basic(to: 1.0)
        let group = CAAnimationGroup()
        group.animations = [child]
        let groupCopy = group.copy() as! CAAnimationGroup
        // Apple deep-copies a group's children (OpenCoreAnimation's animationGroupDeepCopiesChildren,
        // values measured on QuartzCore): a later change to the child leaves the copy alone.
        XCTAssertFalse(groupCopy.animations?.first === child, "the children are copied")
        child.toValue = 9.0
        XCTAssertEqual((groupCopy.animations?.first as? CABasicAnimation)?.toValue as? Double, 1)
        group.animations = []
        XCTAssertEqual(groupCopy.animations?.count, 1, "the array itself is copied")

        let spring = CASpringAnimation()
        spring.damping = 3; spring.stiffness = 50; spring.mass = 2; spring.initialVelocity = 4; spring.allowsOverdamping = true
        let springCopy = spring.copy() as! CASpringAnimation
        XCTAssertEqual(Double(springCopy.damping), 3)
        XCTAssertEqual(Double(springCopy.stiffness), 50)
        XCTAssertEqual(Double(springCopy.mass), 2)
        XCTAssertEqual(Double(springCopy.initialVelocity), 4)
        XCTAssertTrue(springCopy.allowsOverdamping)
    }

    // MARK: - §3.1 endpoint resolution for every combination and type

    func testPointEndpointCombinations() {
        let u = AnimatableValue.point(CGPoint(x: 50, y: 60))
        let f = CGPoint(x: 10, y: 20), t = CGPoint(x: 30, y: 60), b = CGPoint(x: 4, y: 8)
        struct Row { let label: String; let from: Any?; let to: Any?; let by: Any?; let x: Double; let y: Double }
        let rows: [Row] = [
            Row(label: "from+to", from: f, to: t, by: nil, x: 20, y: 40),
            Row(label: "from+by", from: f, to: nil, by: b, x: 12, y: 24),
            Row(label: "by+to", from: nil, to: t, by: b, x: 28, y: 56),
            Row(label: "from", from: f, to: nil, by: nil, x: 30, y: 40),
            Row(label: "to", from: nil, to: t, by: nil, x: 40, y: 60),
            Row(label: "by", from: nil, to: nil, by: b, x: 52, y: 64),
            Row(label: "none", from: nil, to: nil, by: nil, x: 50, y: 60),
            Row(label: "all three (from, to win)", from: f, to: t, by: b, x: 20, y: 40),
        ]
        for row in rows {
            let v = sample(basic(from: row.from, to: row.to, by: row.by), .point, underlying: u, at: 0.5)
            assertPoint(point(v), row.x, row.y, "point \(row.label)")
        }
    }

    func testColorEndpointCombinations() {
        let u = AnimatableValue.color(CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1))
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let by = CGColor(red: 0, green: 0.2, blue: 0, alpha: 0)
        struct Row { let label: String; let from: Any?; let to: Any?; let by: Any?; let rgba: [Double] }
        let rows: [Row] = [
            Row(label: "from+to", from: red, to: blue, by: nil, rgba: [0.5, 0, 0.5, 1]),
            Row(label: "from+by", from: red, to: nil, by: by, rgba: [1, 0.1, 0, 1]),
            Row(label: "by+to", from: nil, to: blue, by: by, rgba: [0, -0.1, 1, 1]),
            Row(label: "from", from: red, to: nil, by: nil, rgba: [0.6, 0.2, 0.3, 1]),
            Row(label: "to", from: nil, to: blue, by: nil, rgba: [0.1, 0.2, 0.8, 1]),
            Row(label: "by", from: nil, to: nil, by: by, rgba: [0.2, 0.5, 0.6, 1]),
            Row(label: "none", from: nil, to: nil, by: nil, rgba: [0.2, 0.4, 0.6, 1]),
            Row(label: "UIColor from+to", from: UIColor.red, to: UIColor.blue, by: nil, rgba: [0.5, 0, 0.5, 1]),
        ]
        for row in rows {
            let c = color(sample(basic(from: row.from, to: row.to, by: row.by), .color, underlying: u, at: 0.5))
            for i in 0..<4 {
                XCTAssertEqual(c[i], row.rgba[i], accuracy: 1e-9, "colour \(row.label) component \(i)")
            }
        }
    }

    func testTransformEndpointCombinations() {
        let u = AnimatableValue.transform(translation(100, 200))
        let f = translation(10, 20), t = translation(30, 60), b = translation(4, 8)
        struct Row { let label: String; let from: Any?; let to: Any?; let by: Any?; let tx: Double; let ty: Double }
        let rows: [Row] = [
            Row(label: "from+to", from: f, to: t, by: nil, tx: 20, ty: 40),
            Row(label: "from+by", from: f, to: nil, by: b, tx: 12, ty: 24),
            Row(label: "by+to", from: nil, to: t, by: b, tx: 28, ty: 56),
            Row(label: "from", from: f, to: nil, by: nil, tx: 55, ty: 110),
            Row(label: "to", from: nil, to: t, by: nil, tx: 65, ty: 130),
            Row(label: "by", from: nil, to: nil, by: b, tx: 102, ty: 204),
            Row(label: "none", from: nil, to: nil, by: nil, tx: 100, ty: 200),
        ]
        for row in rows {
            let m = transform(sample(basic(from: row.from, to: row.to, by: row.by), .transform, underlying: u, at: 0.5))
            XCTAssertEqual(Double(m.m41), row.tx, accuracy: 1e-9, "transform \(row.label) m41")
            XCTAssertEqual(Double(m.m42), row.ty, accuracy: 1e-9, "transform \(row.label) m42")
            XCTAssertEqual(Double(m.m11), 1, accuracy: 1e-9, "transform \(row.label) m11")
        }
    }

    /// Transforms interpolate by decomposition: rotation is slerped, not matrix-lerped (§3.2).
    func testTransformInterpolationDecomposes() {
        let quarter = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let m = transform(sample(basic(from: CATransform3DIdentity, to: quarter), .transform,
                                 underlying: .transform(.identity), at: 0.5))
        XCTAssertEqual(Double(m.m11), cos(.pi / 4), accuracy: 1e-9, "slerped, a matrix lerp would give 0.5")
        XCTAssertEqual(Double(m.m12), sin(.pi / 4), accuracy: 1e-9)
        XCTAssertEqual(Double(m.m21), -sin(.pi / 4), accuracy: 1e-9)

        // Scale and translation interpolate linearly.
        let end = CATransform3DMakeScale(3, 3, 1).concatenating(translation(100, 0))
        let s = transform(sample(basic(from: CATransform3DIdentity, to: end), .transform,
                                 underlying: .transform(.identity), at: 0.5))
        XCTAssertEqual(Double(s.m11), 2, accuracy: 1e-9)
        XCTAssertEqual(Double(s.m22), 2, accuracy: 1e-9)
        XCTAssertEqual(Double(s.m33), 1, accuracy: 1e-9)
        XCTAssertEqual(Double(s.m41), 50, accuracy: 1e-9)
    }

    func testScalarSizeAndRectInterpolateComponentWise() {
        let size = sample(basic(from: CGSize(width: 10, height: 20), to: CGSize(width: 30, height: 60)), .size,
                          underlying: .size(.zero), at: 0.25)
        XCTAssertEqual(size, .size(CGSize(width: 15, height: 30)))
        let rect = sample(basic(from: CGRect(x: 0, y: 0, width: 10, height: 10), to: CGRect(x: 100, y: 40, width: 30, height: 50)),
                          .rect, underlying: .rect(.zero), at: 0.5)
        XCTAssertEqual(rect, .rect(CGRect(x: 50, y: 20, width: 20, height: 30)))
        // Numbers of other Swift types convert.
        XCTAssertEqual(number(sample(basic(from: 0 as Int, to: Float(10)), .number, underlying: .number(0), at: 0.5)), 5,
                       accuracy: 1e-9)
        XCTAssertEqual(number(sample(basic(from: NSNumber(value: 2), to: CGFloat(4)), .number, underlying: .number(0), at: 0.5)),
                       3, accuracy: 1e-9)
    }

    /// Booleans step; we switch at f(u) ≥ 0.5 (§3.2 [inf]).
    func testBooleansSwitchHalfWay() {
        let a = basic(from: false, to: true)
        XCTAssertEqual(sample(a, .bool, underlying: .bool(false), at: 0.49), .bool(false))
        XCTAssertEqual(sample(a, .bool, underlying: .bool(false), at: 0.5), .bool(true))
        XCTAssertEqual(sample(a, .bool, underlying: .bool(false), at: 0.9), .bool(true))
    }

    // MARK: - §2, §1.3 timing functions in animations

    func testTimingFunctionShapesTheFraction() {
        let a = basic(from: 0.0, to: 100.0)
        a.timingFunction = CAMediaTimingFunction(name: .easeIn)
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.5)), 31.535681, accuracy: 1e-6)
        // Autoreverse: the curve is applied to the mirrored fraction (ease-in forward looks like
        // ease-out on the way back) (§1.3 [inf]).
        a.autoreverses = true
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 1.25)), 62.186187, accuracy: 1e-6)
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 1.5)), 31.535681, accuracy: 1e-6)
    }

    // MARK: - §3.3 cumulative

    func testCumulativeBasicAnimationWithPoints() {
        let a = basic(from: CGPoint.zero, to: CGPoint(x: 10, y: 20))
        a.isCumulative = true
        a.repeatCount = 3
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.5)), 5, 10, "iteration 0")
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 2.5)), 25, 50, "iteration 2")
        // Without cumulative every iteration repeats the same values.
        a.isCumulative = false
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 2.5)), 5, 10, "not cumulative")
    }

    func testCumulativeKeyframes() {
        let a = keyframes([0.0, 10.0, 30.0])
        a.isCumulative = true
        a.repeatCount = 3
        let rows: [(Double, Double)] = [(0.5, 10), (1.5, 40), (2.25, 65), (3, 90)]
        for (t, expected) in rows {
            XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: t)), expected, accuracy: 1e-9,
                           "cumulative keyframes at t=\(t)")
        }
    }

    // MARK: - §3.4 value functions

    func testValueFunctionNames() {
        let names: [String] = ["rotateX", "rotateY", "rotateZ", "scale", "scaleX", "scaleY", "scaleZ",
                               "translate", "translateX", "translateY", "translateZ"]
        for name in names {
            let f = CAValueFunction(name: CAValueFunctionName(rawValue: name))
            XCTAssertNotNil(f, name)
            XCTAssertEqual(f?.name.rawValue, name)
            XCTAssertEqual(f, CAValueFunction(name: CAValueFunctionName(rawValue: name)), "same name, same function")
        }
        XCTAssertEqual(CAValueFunctionName.rotateX.rawValue, "rotateX")
        XCTAssertEqual(CAValueFunctionName.translateZ.rawValue, "translateZ")
        XCTAssertNil(CAValueFunction(name: CAValueFunctionName(rawValue: "rotate")), "unknown name")
        XCTAssertNil(CAValueFunction(name: CAValueFunctionName(rawValue: "")), "empty name")
        XCTAssertNil(CAValueFunction(name: CAValueFunctionName(rawValue: "RotateZ")), "names are case-sensitive")
    }

    func testValueFunctionTransforms() {
        let c = cos(0.5), s = sin(0.5)
        struct Row { let name: CAValueFunctionName; let input: AnimatableValue; let entries: [(Int, Int, Double)] }
        let rows: [Row] = [
            Row(name: .rotateX, input: .number(0.5), entries: [(0, 0, 1), (1, 1, c), (1, 2, s), (2, 1, -s), (2, 2, c)]),
            Row(name: .rotateY, input: .number(0.5), entries: [(0, 0, c), (0, 2, -s), (2, 0, s), (2, 2, c), (1, 1, 1)]),
            Row(name: .rotateZ, input: .number(0.5), entries: [(0, 0, c), (0, 1, s), (1, 0, -s), (1, 1, c), (2, 2, 1)]),
            Row(name: .scale, input: .numbers([2, 3, 4]), entries: [(0, 0, 2), (1, 1, 3), (2, 2, 4), (3, 3, 1)]),
            Row(name: .scaleX, input: .number(2), entries: [(0, 0, 2), (1, 1, 1), (2, 2, 1)]),
            Row(name: .scaleY, input: .number(2), entries: [(0, 0, 1), (1, 1, 2), (2, 2, 1)]),
            Row(name: .scaleZ, input: .number(2), entries: [(0, 0, 1), (1, 1, 1), (2, 2, 2)]),
            Row(name: .translate, input: .numbers([5, 6, 7]), entries: [(3, 0, 5), (3, 1, 6), (3, 2, 7), (0, 0, 1)]),
            Row(name: .translateX, input: .number(5), entries: [(3, 0, 5), (3, 1, 0), (3, 2, 0)]),
            Row(name: .translateY, input: .number(5), entries: [(3, 0, 0), (3, 1, 5), (3, 2, 0)]),
            Row(name: .translateZ, input: .number(5), entries: [(3, 0, 0), (3, 1, 0), (3, 2, 5)]),
        ]
        for row in rows {
            guard let f = CAValueFunction(name: row.name) else { XCTFail("\(row.name.rawValue) missing"); continue }
            let m = f.transform(for: row.input)
            for (r, col, expected) in row.entries {
                XCTAssertEqual(Double(m[r, col]), expected, accuracy: 1e-9, "\(row.name.rawValue) m\(r + 1)\(col + 1)")
            }
        }
    }

    /// The animation interpolates the numbers, so rotateZ 0 → 2π spins a full turn.
    func testValueFunctionInterpolatesNumbersNotMatrices() {
        let a = basic(from: 0.0, to: 2 * Double.pi)
        a.valueFunction = CAValueFunction(name: .rotateZ)
        let half = transform(sample(a, .transform, underlying: .transform(.identity), at: 0.5))
        XCTAssertEqual(Double(half.m11), -1, accuracy: 1e-9, "half a turn at the midpoint")
        let quarter = transform(sample(a, .transform, underlying: .transform(.identity), at: 0.25))
        XCTAssertEqual(Double(quarter.m11), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(quarter.m12), 1, accuracy: 1e-9)

        // by-only: the start is the function's identity input (0 for rotations, 1 for scales).
        let by = basic(by: 1.0)
        by.valueFunction = CAValueFunction(name: .scaleX)
        let scaled = transform(sample(by, .transform, underlying: .transform(.identity), at: 1))
        XCTAssertEqual(Double(scaled.m11), 2, accuracy: 1e-9, "scaleX by 1 from the identity input 1")
        XCTAssertEqual(Double(scaled.m22), 1, accuracy: 1e-9)
    }

    // MARK: - §4.1 key times per mode

    func testKeyTimesValidationForLinearAndCubic() {
        // values [0, 10, 30]: valid key times are used; invalid ones fall back to i/(n−1).
        struct Row { let label: String; let keyTimes: [Double]; let u: Double; let expected: Double }
        let rows: [Row] = [
            Row(label: "valid", keyTimes: [0, 0.25, 1], u: 0.5, expected: 16.666667),
            Row(label: "first not 0", keyTimes: [0.1, 0.5, 1], u: 0.25, expected: 5),
            Row(label: "last not 1", keyTimes: [0, 0.2, 0.9], u: 0.75, expected: 20),
            Row(label: "decreasing", keyTimes: [0, 0.6, 0.5], u: 0.25, expected: 5),
            Row(label: "out of range", keyTimes: [0, 1.5, 1], u: 0.25, expected: 5),
            Row(label: "too few", keyTimes: [0, 1], u: 0.75, expected: 20),
            Row(label: "too many", keyTimes: [0, 0.1, 0.2, 1], u: 0.75, expected: 20),
            Row(label: "equal times allowed", keyTimes: [0, 1, 1], u: 0.5, expected: 5),
        ]
        for row in rows {
            let a = keyframes([0.0, 10.0, 30.0], keyTimes: row.keyTimes)
            XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: row.u)), row.expected, accuracy: 1e-6,
                           "linear keyTimes \(row.label)")
        }
        // Cubic follows the same validation: [0, 10, 20] is a straight line, so the spline gives the
        // linear value at even spacing.
        let cubic = keyframes([0.0, 10.0, 20.0], mode: .cubic, keyTimes: [0, 0.6, 0.5])
        XCTAssertEqual(number(sample(cubic, .number, underlying: .number(0), at: 0.25)), 5, accuracy: 1e-9,
                       "cubic with invalid keyTimes uses even spacing")
    }

    func testKeyTimesValidationForDiscrete() {
        struct Row { let label: String; let keyTimes: [Double]?; let u: Double; let expected: Double }
        let rows: [Row] = [
            Row(label: "none → i/n", keyTimes: nil, u: 0.3, expected: 0),
            Row(label: "none → i/n", keyTimes: nil, u: 0.34, expected: 10),
            Row(label: "none → i/n", keyTimes: nil, u: 0.7, expected: 30),
            Row(label: "n+1 entries", keyTimes: [0, 0.5, 0.75, 1], u: 0.6, expected: 10),
            Row(label: "n+1 entries", keyTimes: [0, 0.5, 0.75, 1], u: 0.8, expected: 30),
            Row(label: "n entries (common form)", keyTimes: [0, 0.2, 0.4], u: 0.3, expected: 10),
            Row(label: "n entries (common form)", keyTimes: [0, 0.2, 0.4], u: 0.5, expected: 30),
            Row(label: "wrong count → i/n", keyTimes: [0, 0.9], u: 0.5, expected: 10),
            Row(label: "first not 0 → i/n", keyTimes: [0.1, 0.5, 0.75, 1], u: 0.4, expected: 10),
            Row(label: "last value at u = 1", keyTimes: nil, u: 1, expected: 30),
        ]
        for row in rows {
            let a = keyframes([0.0, 10.0, 30.0], mode: .discrete, keyTimes: row.keyTimes)
            XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: row.u)), row.expected, accuracy: 1e-9,
                           "discrete \(row.label) at u=\(row.u)")
        }
    }

    func testPacedIgnoresKeyTimes() {
        let a = keyframes([0.0, 1.0, 101.0], mode: .paced, keyTimes: [0, 0.9, 1])
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.5)), 50.5, accuracy: 1e-9)
    }

    func testOneValueIsConstantAndNoValuesHaveNoEffect() {
        let one = keyframes([42.0])
        XCTAssertEqual(number(sample(one, .number, underlying: .number(0), at: 0.3)), 42, accuracy: 1e-12)
        let none = keyframes([])
        XCTAssertNil(PreparedPropertyAnimation(none, propertyKind: .number))
    }

    // MARK: - §4.1 / §4.2 timing functions

    func testTimingFunctionsPerSegment() {
        let a = keyframes([0.0, 100.0, 200.0])
        a.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut)]
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.25)), 31.535681, accuracy: 1e-6, "segment 0 easeIn")
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.75)), 168.464319, accuracy: 1e-6, "segment 1 easeOut")
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.5)), 100, accuracy: 1e-9, "keyframe itself")
        // Missing entries are linear.
        a.timingFunctions = [CAMediaTimingFunction(name: .easeIn)]
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.75)), 150, accuracy: 1e-9, "missing → linear")
    }

    // MARK: - §4.3 cubic (Kochanek–Bartels)

    func testCubicTensionContinuityBias() {
        // values [0, 10, 20, 80], u = 0.5: the middle of segment 1 (10 → 20).
        struct Row { let label: String; let tension: [Double]?; let continuity: [Double]?; let bias: [Double]?; let expected: Double }
        let rows: [Row] = [
            Row(label: "Catmull–Rom", tension: nil, continuity: nil, bias: nil, expected: 11.875),
            Row(label: "tension 1", tension: [1, 1, 1, 1], continuity: nil, bias: nil, expected: 15),
            Row(label: "tension 0.5", tension: [0.5, 0.5, 0.5, 0.5], continuity: nil, bias: nil, expected: 13.4375),
            Row(label: "continuity −1", tension: nil, continuity: [-1, -1, -1, -1], bias: nil, expected: 15),
            Row(label: "continuity +1", tension: nil, continuity: [1, 1, 1, 1], bias: nil, expected: 8.75),
            Row(label: "bias −1 at key 2", tension: nil, continuity: nil, bias: [0, 0, -1, 0], expected: 8.75),
            Row(label: "bias +1 at keys 1, 2", tension: nil, continuity: nil, bias: [0, 1, 1, 0], expected: 15),
            Row(label: "short arrays: missing entries are 0", tension: [0], continuity: [0, 0], bias: [], expected: 11.875),
        ]
        for row in rows {
            let a = keyframes([0.0, 10.0, 20.0, 80.0], mode: .cubic)
            a.tensionValues = row.tension?.map { NSNumber(value: $0) }
            a.continuityValues = row.continuity?.map { NSNumber(value: $0) }
            a.biasValues = row.bias?.map { NSNumber(value: $0) }
            XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.5)), row.expected, accuracy: 1e-9,
                           "cubic \(row.label)")
        }
    }

    func testCubicPassesThroughKeyframesAndUsesExtrapolatedEnds() {
        let a = keyframes([0.0, 10.0, 20.0, 80.0], mode: .cubic)
        for (u, v) in [(0.0, 0.0), (1.0 / 3, 10.0), (2.0 / 3, 20.0), (1.0, 80.0)] {
            XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: u)), v, accuracy: 1e-9, "keyframe at u=\(u)")
        }
        // First segment: out_0 = v1 − v0 = 10, in_1 = 10 → Hermite(0, 10, 10, 10, 0.5) = 5.
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 1.0 / 6)), 5, accuracy: 1e-9)
        // Points: (0,0),(10,0),(10,30), u = 0.75 → (10.625, 13.125) (measured on Apple, §4.3).
        let p = keyframes([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 30)], mode: .cubic)
        assertPoint(point(sample(p, .point, underlying: .point(.zero), at: 0.75)), 10.625, 13.125, "cubic points")
    }

    // MARK: - §4.2 paced

    func testPacedPoints() {
        let a = keyframes([CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 10), CGPoint(x: 10, y: 10), CGPoint(x: 10, y: 30)], mode: .paced)
        let rows: [(Double, Double, Double)] = [(0.125, 0, 5), (0.5, 10, 10), (0.75, 10, 20), (1, 10, 30)]
        for (u, x, y) in rows {
            assertPoint(point(sample(a, .point, underlying: .point(.zero), at: u)), x, y, "paced points at u=\(u)")
        }
    }

    func testPacedIgnoresAnimationTimingFunction() {
        let a = keyframes([0.0, 1.0, 101.0], mode: .paced)
        a.timingFunction = CAMediaTimingFunction(name: .easeIn)
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.5)), 50.5, accuracy: 1e-9)
    }

    func testAnimationTimingFunctionWarpsKeyframeLookup() {
        let a = keyframes([0.0, 100.0])
        a.timingFunction = CAMediaTimingFunction(name: .easeIn)
        XCTAssertEqual(number(sample(a, .number, underlying: .number(0), at: 0.5)), 31.535681, accuracy: 1e-6)
    }

    // MARK: - §4.4 path animations

    func testPathLinearMode() {
        let path = polyline([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 300)])
        let a = pathAnimation(path, mode: .linear)
        // Equal time per segment.
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.25)), 50, 0, "linear path u=0.25")
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.5)), 100, 0, "linear path u=0.5")
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.75)), 100, 150, "linear path u=0.75")
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 1)), 100, 300, "linear path u=1")

        // A curve is evaluated at its Bézier parameter.
        let quad = CGMutablePath()
        quad.move(to: .zero)
        quad.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 0, y: 100))
        // B(0.5) = 0.25·(0,0) + 0.5·(0,100) + 0.25·(100,0) = (25, 50).
        assertPoint(point(sample(pathAnimation(quad, mode: .linear), .point, underlying: .point(.zero), at: 0.5)), 25, 50,
                    "quad curve at its parameter")

        // A path overrides values.
        let both = pathAnimation(path, mode: .linear)
        both.values = [CGPoint(x: -1, y: -1), CGPoint(x: -2, y: -2)]
        assertPoint(point(sample(both, .point, underlying: .point(.zero), at: 0.25)), 50, 0, "path wins over values")

        // closeSubpath is a segment of its own.
        let square = polyline([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100)]).mutableCopy()
        square.closeSubpath()
        assertPoint(point(sample(pathAnimation(square, mode: .linear), .point, underlying: .point(.zero), at: 5.0 / 6)),
                    50, 50, "close segment")
    }

    func testPathPacedMode() {
        let path = polyline([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 300)])
        let a = pathAnimation(path, mode: .paced)
        // Time proportional to length: 100 + 300.
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.125)), 50, 0, "paced path u=0.125")
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.25)), 100, 0, "paced path u=0.25")
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.5)), 100, 100, "paced path u=0.5")
        // cubicPaced on a path behaves as paced.
        assertPoint(point(sample(pathAnimation(path, mode: .cubicPaced), .point, underlying: .point(.zero), at: 0.5)), 100, 100,
                    "cubicPaced path u=0.5")
    }

    func testPathDiscreteMode() {
        // Each segment's start point is held for an equal share of the time (§4.4, measured on Apple).
        let spec = polyline([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 90)])
        let a = pathAnimation(spec, mode: .discrete)
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.25)), 0, 0, "discrete path u=0.25")
        assertPoint(point(sample(a, .point, underlying: .point(.zero), at: 0.75)), 10, 0, "discrete path u=0.75 (§4.4)")
    }

    func testRotationModeAngles() {
        let path = polyline([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100)])
        struct Row { let mode: CAAnimationRotationMode; let u: Double; let angle: Double }
        let rows: [Row] = [
            Row(mode: .rotateAuto, u: 0.25, angle: 0),
            Row(mode: .rotateAuto, u: 0.75, angle: .pi / 2),
            Row(mode: .rotateAutoReverse, u: 0.25, angle: .pi),
            Row(mode: .rotateAutoReverse, u: 0.75, angle: 3 * .pi / 2),
        ]
        for row in rows {
            let a = pathAnimation(path, mode: .linear)
            a.rotationMode = row.mode
            guard let p = PreparedPropertyAnimation(a, propertyKind: .point), let time = p.timing.resolve(parentTime: row.u)
            else { XCTFail("prepare"); continue }
            XCTAssertEqual(p.rotation(at: time) ?? .nan, row.angle, accuracy: 1e-9, "\(row.mode.rawValue) at u=\(row.u)")
        }
        // The tangent of a curve: C(0,100)(100,100) → (100,0) starts straight up (+y) and is level half-way.
        let curve = CGMutablePath()
        curve.move(to: .zero)
        curve.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        let c = pathAnimation(curve, mode: .linear)
        c.rotationMode = .rotateAuto
        let pc = PreparedPropertyAnimation(c, propertyKind: .point)!
        XCTAssertEqual(pc.rotation(at: pc.timing.resolve(parentTime: 0.5)!) ?? .nan, 0, accuracy: 1e-9, "curve mid tangent")
        XCTAssertEqual(pc.rotation(at: pc.timing.resolve(parentTime: 0.0)!) ?? .nan, .pi / 2, accuracy: 1e-9, "curve start tangent")
        // Without rotationMode, no rotation.
        let plain = PreparedPropertyAnimation(pathAnimation(path, mode: .linear), propertyKind: .point)!
        XCTAssertNil(plain.rotation(at: plain.timing.resolve(parentTime: 0.5)!))
    }

    // MARK: - §5 springs as animations

    func testSpringIgnoresTimingFunctionAndIsNotStretched() {
        func spring(duration: Double, function: CAMediaTimingFunction?) -> CASpringAnimation {
            let s = CASpringAnimation(keyPath: "test")
            s.fromValue = 0.0; s.toValue = 100.0
            s.duration = duration
            s.timingFunction = function
            return s
        }
        let plain = spring(duration: 2, function: nil)
        let eased = spring(duration: 2, function: CAMediaTimingFunction(name: .easeIn))
        let long = spring(duration: 10, function: nil)
        for t in [0.1, 0.25, 0.5, 1.0] {
            let v = number(sample(plain, .number, underlying: .number(0), at: t))
            XCTAssertEqual(number(sample(eased, .number, underlying: .number(0), at: t)), v, accuracy: 1e-12, "timingFunction ignored t=\(t)")
            XCTAssertEqual(number(sample(long, .number, underlying: .number(0), at: t)), v, accuracy: 1e-12, "duration does not stretch t=\(t)")
        }
        XCTAssertEqual(number(sample(plain, .number, underlying: .number(0), at: 0.1)), 34.0300, accuracy: 5e-5)
        // A duration shorter than the settling time cuts the motion off.
        let short = spring(duration: 0.1, function: nil)
        XCTAssertNil(sample(short, .number, underlying: .number(0), at: 0.2))
    }

    func testSpringResolvesEndpointsLikeABasicAnimation() {
        let s = CASpringAnimation(keyPath: "test")
        s.byValue = 10.0
        s.duration = 5
        // U = 50 → 60; at t = 0.25 the default spring is at 1.023360 of the way.
        XCTAssertEqual(number(sample(s, .number, underlying: .number(50), at: 0.25)), 60.233596, accuracy: 1e-6)
    }

    func testSpringPerceptualPropertiesReadBack() {
        let s = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
        XCTAssertEqual(s.perceptualDuration, 0.5, accuracy: 1e-9)
        XCTAssertEqual(Double(s.bounce), 0.3, accuracy: 1e-9)
        let over = CASpringAnimation(perceptualDuration: 1, bounce: -0.5)
        XCTAssertEqual(over.perceptualDuration, 1, accuracy: 1e-9)
        XCTAssertEqual(Double(over.bounce), -0.5, accuracy: 1e-9)
    }

    // MARK: - §7 CATransition progress

    func testTransitionProgress() {
        struct Row { let start: Float; let end: Float; let function: CAMediaTimingFunctionName?; let u: Double; let p: Double }
        let rows: [Row] = [
            Row(start: 0, end: 1, function: nil, u: 0, p: 0),
            Row(start: 0, end: 1, function: nil, u: 0.3, p: 0.3),
            Row(start: 0, end: 1, function: nil, u: 1, p: 1),
            Row(start: 0.25, end: 0.75, function: nil, u: 0, p: 0.25),
            Row(start: 0.25, end: 0.75, function: nil, u: 0.5, p: 0.5),
            Row(start: 0.25, end: 0.75, function: nil, u: 1, p: 0.75),
            Row(start: 0.2, end: 1, function: .easeIn, u: 0.5, p: 0.2 + 0.8 * 0.315357),
            Row(start: 0, end: 1, function: .easeInEaseOut, u: 0.25, p: 0.129162),
        ]
        for row in rows {
            let t = CATransition()
            t.type = .push; t.subtype = .fromRight
            t.startProgress = row.start; t.endProgress = row.end
            t.timingFunction = row.function.map { CAMediaTimingFunction(name: $0) }
            t.duration = 1
            guard let time = t.timing.resolve(parentTime: row.u) else { XCTFail("resolve"); continue }
            XCTAssertEqual(t.progress(at: time), row.p, accuracy: 1e-5, "transition \(row.start)…\(row.end) at u=\(row.u)")
        }
    }

    // MARK: - Value arithmetic used by additive / by (§3.3)

    func testAdditionIsTypeSpecific() {
        XCTAssertEqual(AnimatableValue.number(2).adding(.number(3)), .number(5))
        XCTAssertEqual(AnimatableValue.point(CGPoint(x: 1, y: 2)).adding(.point(CGPoint(x: 10, y: 20))), .point(CGPoint(x: 11, y: 22)))
        XCTAssertEqual(AnimatableValue.size(CGSize(width: 1, height: 2)).adding(.size(CGSize(width: 3, height: 4))),
                       .size(CGSize(width: 4, height: 6)))
        // Transforms concatenate as Concat(added, underlying): the added transform applies first.
        let underlying = CATransform3DMakeScale(2, 3, 1), added = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let sum = transform(AnimatableValue.transform(underlying).adding(.transform(added)))
        XCTAssertTrue(sum.isApproximatelyEqual(to: added.concatenating(underlying), tolerance: 1e-12))
        XCTAssertEqual(Double(sum.m12), 3, accuracy: 1e-12)
        XCTAssertEqual(Double(sum.m21), -2, accuracy: 1e-12)
    }
}

/// §4.1's keyTimes rule, in one place for the track and the loader's warnings (E68).
final class KeyTimesTests: XCTestCase {
    func testE68InvalidKeyTimesFallBackToEvenSpacing() {
        let notMonotonic = KeyTimes.resolve([0, 0.6, 0.5], mode: .linear, count: 3, alongPath: false)
        XCTAssertEqual(notMonotonic.times, [0, 0.5, 1])
        XCTAssertNotNil(notMonotonic.ignored)
        let wrongCount = KeyTimes.resolve([0, 0.5], mode: .linear, count: 3, alongPath: false)
        XCTAssertEqual(wrongCount.times, [0, 0.5, 1])
        XCTAssertEqual(wrongCount.ignored, "2 keyTimes for 3 key frames; Core Animation ignores them and spaces the keyframes evenly")
        XCTAssertEqual(KeyTimes.resolve([0, 0.25, 1], mode: .linear, count: 3, alongPath: false).times, [0, 0.25, 1])
        XCTAssertNil(KeyTimes.resolve([0, 0.25, 1], mode: .linear, count: 3, alongPath: false).ignored)
    }

    func testDiscreteTakesNPlusOneOrTheCommonNForm() {
        XCTAssertEqual(KeyTimes.resolve([0, 0.5, 0.75, 1], mode: .discrete, count: 3, alongPath: false).times, [0, 0.5, 0.75, 1])
        XCTAssertEqual(KeyTimes.resolve([0, 0.5, 0.75], mode: .discrete, count: 3, alongPath: false).times, [0, 0.5, 0.75, 1])
        XCTAssertEqual(KeyTimes.resolve([], mode: .discrete, count: 2, alongPath: false).times, [0, 0.5, 1])
        XCTAssertNotNil(KeyTimes.resolve([0, 0.5], mode: .discrete, count: 1, alongPath: true).ignored)
        XCTAssertNil(KeyTimes.resolve([0, 1], mode: .paced, count: 2, alongPath: false).times)
    }
}
