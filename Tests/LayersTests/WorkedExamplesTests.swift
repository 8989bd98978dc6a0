import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers
import Presentation

// Every worked example of semantics §13 (E01–E72; E22 is about WebKit internals and E49 is folded
// into E43), written the way a user would: build a layer, add an animation, read the presentation.
//
// Tolerances: 1e-6 by default; 1e-5 where the spec says float math (E11, E17, E18); half a unit
// of the last printed digit where the spec prints fewer than 6 decimals (E20: 5e-6; E40, E43–E46:
// 5e-5; E43 peak: 5e-3); E42's Apple approximation: 0.15, as the spec states.

private let tolerance = 1e-6

final class WorkedExamplesTests: XCTestCase {

    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
        CATransaction.flush()
    }

    // MARK: - Helpers

    /// A standalone layer (no implicit animations) with the given model position.
    private func makeLayer(x: Double = 0, y: Double = 0) -> CALayer {
        let layer = CALayer()
        layer.position = CGPoint(x: x, y: y)
        return layer
    }

    private func positionX(from: Double? = nil, to: Double? = nil, by: Double? = nil, duration: Double = 1,
                           begin: Double = 0) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = from; a.toValue = to; a.byValue = by
        a.duration = duration
        a.beginTime = begin
        return a
    }

    /// `position.x` of `layer` at its local time `t`.
    private func x(_ layer: CALayer, _ t: Double) -> Double {
        Double(layer.presentationProperties(atLocalTime: t).position.x)
    }

    private func timing(duration: Double, begin: Double = 0, speed: Double = 1, offset: Double = 0,
                        repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                        fill: CAMediaTimingFillMode = .removed) -> TimingParameters {
        var t = TimingParameters()
        t.duration = duration; t.beginTime = begin; t.speed = speed; t.timeOffset = offset
        t.repeatCount = repeatCount; t.repeatDuration = repeatDuration; t.autoreverses = autoreverses; t.fillMode = fill
        return t
    }

    // MARK: - §1 timing (E01–E16)

    func testE01FractionalRepeatCount() {
        let t = timing(duration: 2, repeatCount: 3.5, fill: .forwards)
        XCTAssertEqual(t.activeDuration, 7, accuracy: tolerance, "E01 active duration")
        let mid = t.resolve(parentTime: 6.5)
        XCTAssertEqual(mid?.iteration, 3, "E01 iteration at 6.5")
        XCTAssertEqual(mid?.fraction ?? .nan, 0.25, accuracy: tolerance, "E01 fraction at 6.5")
        XCTAssertEqual(t.resolve(parentTime: 7)?.fraction ?? .nan, 0.5, accuracy: tolerance, "E01 fraction at 7")

        let layer = makeLayer()
        let a = positionX(from: 0, to: 100, duration: 2)
        a.repeatCount = 3.5; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        layer.add(a, forKey: "e01")
        XCTAssertEqual(x(layer, 6.5), 25, accuracy: tolerance, "E01 value at 6.5")
        XCTAssertEqual(x(layer, 7), 50, accuracy: tolerance, "E01 value at 7")
        XCTAssertEqual(x(layer, 9), 50, accuracy: tolerance, "E01 value held after the end")
    }

    func testE02Autoreverse() {
        let layer = makeLayer()
        let a = positionX(from: 0, to: 100)
        a.autoreverses = true; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        layer.add(a, forKey: "e02")
        XCTAssertEqual(TimingParameters(a).activeDuration, 2, "E02 AD")
        let rows: [(Double, Double)] = [(0.5, 50), (1.25, 75), (2.0, 0), (3.0, 0)]
        for (t, v) in rows { XCTAssertEqual(x(layer, t), v, accuracy: tolerance, "E02 t=\(t)") }
    }

    func testE03AutoreverseWithRepeats() {
        struct Row { let count: Float; let t: Double; let value: Double }
        let rows: [Row] = [Row(count: 2.5, t: 4.5, value: 50), Row(count: 2.5, t: 5.0, value: 100),
                           Row(count: 2.5, t: 6.0, value: 100), Row(count: 2, t: 4.0, value: 0)]
        for row in rows {
            let layer = makeLayer()
            let a = positionX(from: 0, to: 100)
            a.autoreverses = true; a.repeatCount = row.count; a.fillMode = .forwards; a.isRemovedOnCompletion = false
            layer.add(a, forKey: "e03")
            XCTAssertEqual(x(layer, row.t), row.value, accuracy: tolerance, "E03 repeatCount \(row.count) t=\(row.t)")
        }
        let t = timing(duration: 1, repeatCount: 2.5, autoreverses: true)
        XCTAssertEqual(t.activeDuration, 5, accuracy: tolerance, "E03 AD")
    }

    func testE04FillModes() {
        struct Row { let fill: CAMediaTimingFillMode; let at1: Double; let at4: Double }
        let rows: [Row] = [Row(fill: .removed, at1: 50, at4: 50), Row(fill: .backwards, at1: 10, at4: 50),
                           Row(fill: .forwards, at1: 50, at4: 20), Row(fill: .both, at1: 10, at4: 20)]
        for row in rows {
            let layer = makeLayer(x: 50)
            let a = positionX(from: 10, to: 20, begin: 2)
            a.fillMode = row.fill
            a.isRemovedOnCompletion = false
            layer.add(a, forKey: "e04")
            XCTAssertEqual(x(layer, 1), row.at1, accuracy: tolerance, "E04 \(row.fill.rawValue) t=1")
            XCTAssertEqual(x(layer, 4), row.at4, accuracy: tolerance, "E04 \(row.fill.rawValue) t=4")
        }
        // With the default removedOnCompletion, forwards has no lasting effect.
        let layer = makeLayer(x: 50)
        let a = positionX(from: 10, to: 20, begin: 2)
        a.fillMode = .forwards
        layer.add(a, forKey: "e04")
        XCTAssertEqual(x(layer, 4), 50, accuracy: tolerance, "E04 forwards with removedOnCompletion")
    }

    func testE05Speed() {
        let t = timing(duration: 2, speed: 2)
        XCTAssertEqual(t.resolve(parentTime: 0.5)?.fraction ?? .nan, 0.5, accuracy: tolerance, "E05 fraction at 0.5")
        XCTAssertEqual(t.resolve(parentTime: 1)?.fraction ?? .nan, 1, accuracy: tolerance, "E05 ends after 1 s")
        XCTAssertNil(t.resolve(parentTime: 1.001), "E05 over after 1 s of parent time")
        let layer = makeLayer()
        let a = positionX(from: 0, to: 100, duration: 2)
        a.speed = 2
        layer.add(a, forKey: "e05")
        XCTAssertEqual(x(layer, 0.5), 50, accuracy: tolerance, "E05 value")
    }

    func testE06SpeedZeroFreezes() {
        let layer = makeLayer()
        let a = positionX(from: 0, to: 100)
        a.speed = 0; a.timeOffset = 0.75
        layer.add(a, forKey: "e06")
        for t in [0.0, 5, 100] {
            XCTAssertEqual(timing(duration: 1, speed: 0, offset: 0.75).resolve(parentTime: t)?.fraction ?? .nan, 0.75,
                           accuracy: tolerance, "E06 fraction t=\(t)")
            XCTAssertEqual(x(layer, t), 75, accuracy: tolerance, "E06 value t=\(t)")
        }
    }

    func testE07TimeOffsetWraps() {
        let t = timing(duration: 3, offset: 1)
        let rows: [(Double, Double)] = [(0, 1), (1.5, 2.5), (2.5, 0.5)]
        for (parent, local) in rows {
            XCTAssertEqual(t.resolve(parentTime: parent)?.basicTime ?? .nan, local, accuracy: tolerance, "E07 t=\(parent)")
        }
        XCTAssertNil(t.resolve(parentTime: 3.01), "E07 no effect after 3 s")
        let layer = makeLayer(x: -7)
        let a = positionX(from: 0, to: 300, duration: 3)
        a.timeOffset = 1
        layer.add(a, forKey: "e07")
        XCTAssertEqual(x(layer, 0), 100, accuracy: tolerance, "E07 starts a third in")
        XCTAssertEqual(x(layer, 2.5), 50, accuracy: tolerance, "E07 wrapped")
        XCTAssertEqual(x(layer, 3.5), -7, accuracy: tolerance, "E07 over")
    }

    func testE08RepeatDuration() {
        let t = timing(duration: 1, repeatDuration: 2.5, fill: .forwards)
        XCTAssertEqual(t.activeDuration, 2.5, accuracy: tolerance, "E08 AD")
        XCTAssertEqual(t.resolve(parentTime: 2.25)?.basicTime ?? .nan, 0.25, accuracy: tolerance, "E08 local at 2.25")
        XCTAssertEqual(t.resolve(parentTime: 2.5)?.fraction ?? .nan, 0.5, accuracy: tolerance, "E08 fraction at the end")
        XCTAssertEqual(t.resolve(parentTime: 10)?.fraction ?? .nan, 0.5, accuracy: tolerance, "E08 fraction held")
    }

    func testE09InfiniteRepeat() {
        let layer = makeLayer()
        let a = positionX(from: 0, to: 100)
        a.repeatCount = .infinity
        layer.add(a, forKey: "e09")
        XCTAssertEqual(TimingParameters(a).activeDuration, .infinity, "E09 AD")
        XCTAssertEqual(x(layer, 1_000_000.3), 30, accuracy: 1e-4, "E09 value (1e6 + 0.3 carries 1e-10 s rounding)")
        XCTAssertEqual(timing(duration: 1, repeatCount: Double(Float.greatestFiniteMagnitude)).resolve(parentTime: 1_000_000.3)?.fraction ?? .nan,
                       0.3, accuracy: tolerance, "E09 fraction")
    }

    func testE10LayerSpeed() {
        let layer = makeLayer()
        layer.speed = 2
        layer.add(positionX(from: 0, to: 100, duration: 4, begin: 10), forKey: "e10")
        XCTAssertEqual(layer.convertTime(6, from: nil), 12, accuracy: tolerance, "E10 layer time at T=6")
        XCTAssertEqual(layer.convertTime(7, from: nil), 14, accuracy: tolerance, "E10 layer time at T=7")
        let at6 = PresentationTree.evaluate(layer, at: 6)
        XCTAssertEqual(at6.layers[0].localTime, 12, accuracy: tolerance, "E10 tree local time")
        XCTAssertEqual(Double(at6.layers[0].properties.position.x), 50, accuracy: tolerance, "E10 fraction 0.5 at T=6")
        let at7 = PresentationTree.evaluate(layer, at: 7)
        XCTAssertEqual(Double(at7.layers[0].properties.position.x), 100, accuracy: tolerance, "E10 fraction 1 at T=7")
    }

    func testE11ConvertTime() {
        let root = CALayer(), mid = CALayer(), leaf = CALayer()
        root.addSublayer(mid); mid.addSublayer(leaf)
        mid.beginTime = 2; mid.speed = 3; mid.timeOffset = 0.25
        leaf.beginTime = 1; leaf.speed = 2; leaf.timeOffset = 0.5
        let rows: [(String, Double, Double)] = [
            ("from mid", leaf.convertTime(10, from: mid), 18.5),
            ("from root", leaf.convertTime(10, from: root), 47),
            ("to mid", leaf.convertTime(10, to: mid), 5.75),
            ("to root", leaf.convertTime(10, to: root), 23.0 / 6),
            ("to nil", leaf.convertTime(10, to: nil), 23.0 / 6),
            ("from nil", leaf.convertTime(10, from: nil), 47),
        ]
        for (label, value, expected) in rows { XCTAssertEqual(value, expected, accuracy: 1e-5, "E11 \(label)") }
    }

    func testE12PauseResume() {
        let layer = makeLayer()
        // Pause at global 100.
        let paused = layer.convertTime(100, from: nil)
        layer.speed = 0
        layer.timeOffset = paused
        for t in [100.0, 102, 500] {
            XCTAssertEqual(layer.convertTime(t, from: nil), 100, accuracy: tolerance, "E12 paused at T=\(t)")
        }
        // Resume at 105.
        let pausedTime = layer.timeOffset
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
        layer.beginTime = layer.convertTime(105, from: nil) - pausedTime
        XCTAssertEqual(layer.beginTime, 5, accuracy: tolerance, "E12 beginTime after resume")
        XCTAssertEqual(layer.convertTime(105, from: nil), 100, accuracy: tolerance, "E12 T=105")
        XCTAssertEqual(layer.convertTime(106, from: nil), 101, accuracy: tolerance, "E12 T=106")
    }

    func testE13NegativeLayerSpeed() {
        let layer = makeLayer()
        layer.speed = -1
        layer.timeOffset = 10
        layer.add(positionX(from: 0, to: 100, duration: 4, begin: 5), forKey: "e13")
        let rows: [(Double, Double, Double)] = [(3, 7, 50), (4, 6, 25)]
        for (t, local, value) in rows {
            XCTAssertEqual(layer.convertTime(t, from: nil), local, accuracy: tolerance, "E13 layer time at T=\(t)")
            let tree = PresentationTree.evaluate(layer, at: t)
            XCTAssertEqual(tree.layers[0].localTime, local, accuracy: tolerance, "E13 tree local time at T=\(t)")
            XCTAssertEqual(Double(tree.layers[0].properties.position.x), value, accuracy: tolerance, "E13 value at T=\(t)")
        }
    }

    func testE14GroupClipsChildAndHoldsClock() {
        let layer = makeLayer()
        let group = CAAnimationGroup()
        group.duration = 5; group.fillMode = .forwards; group.isRemovedOnCompletion = false
        group.animations = [positionX(from: 0, to: 100, duration: 10)]
        group.beginTime = 0
        layer.add(group, forKey: "e14")
        XCTAssertEqual(x(layer, 4.9), 49, accuracy: tolerance, "E14 T=4.9")
        XCTAssertEqual(x(layer, 6), 50, accuracy: tolerance, "E14 T=6")
    }

    func testE15GroupChildWindow() {
        let layer = makeLayer(x: 7)
        let group = CAAnimationGroup()
        group.duration = 4
        group.animations = [positionX(from: 0, to: 100, duration: 2, begin: 1)]
        layer.add(group, forKey: "e15")
        XCTAssertEqual(x(layer, 0.5), 7, accuracy: tolerance, "E15 T=0.5 child before: no effect")
        XCTAssertEqual(x(layer, 2), 50, accuracy: tolerance, "E15 T=2 fraction 0.5")
        XCTAssertEqual(x(layer, 3.5), 7, accuracy: tolerance, "E15 T=3.5 child after: no effect")
    }

    func testE16GroupAndChildSpeed() {
        let layer = makeLayer()
        let child = positionX(from: 0, to: 100, duration: 4)
        child.speed = 0.5
        let group = CAAnimationGroup()
        group.duration = 4; group.speed = 2
        group.animations = [child]
        layer.add(group, forKey: "e16")
        XCTAssertEqual(timing(duration: 4, speed: 2).resolve(parentTime: 1)?.basicTime ?? .nan, 2, accuracy: tolerance,
                       "E16 group local time")
        XCTAssertEqual(x(layer, 1), 25, accuracy: tolerance, "E16 child fraction 0.25")
    }

    // MARK: - §2 timing functions (E17–E21)

    func testE17NamedCurves() {
        let rows: [(CAMediaTimingFunctionName, Double, Double)] = [
            (.easeIn, 0.25, 0.093465), (.easeIn, 0.5, 0.315357), (.easeIn, 0.75, 0.621861),
            (.easeOut, 0.25, 0.378140), (.easeOut, 0.5, 0.684643), (.easeOut, 0.75, 0.906535),
            (.easeInEaseOut, 0.25, 0.129162), (.easeInEaseOut, 0.5, 0.5), (.easeInEaseOut, 0.75, 0.870838),
        ]
        for (name, u, expected) in rows {
            XCTAssertEqual(CAMediaTimingFunction(name: name).solve(u), expected, accuracy: 1e-5, "E17 \(name.rawValue)(\(u))")
        }
    }

    func testE18CustomCurve() {
        let f = CAMediaTimingFunction(controlPoints: 0.5, 0, 0.5, 1)
        XCTAssertEqual(f.solve(0.25), 0.105889, accuracy: 1e-5, "E18 0.25")
        XCTAssertEqual(f.solve(0.75), 0.894111, accuracy: 1e-5, "E18 0.75")
    }

    func testE19DefaultCurve() {
        let f = CAMediaTimingFunction(name: .default)
        let rows: [(Double, Double)] = [(0.25, 0.408511), (0.5, 0.802403), (0.75, 0.960459)]
        for (u, expected) in rows { XCTAssertEqual(f.solve(u), expected, accuracy: tolerance, "E19 default(\(u))") }
    }

    func testE20EaseInEaseOutAnimation() {
        let layer = makeLayer()
        let a = positionX(from: 0, to: 100)
        a.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        layer.add(a, forKey: "e20")
        XCTAssertEqual(x(layer, 0.25), 12.91619, accuracy: 5e-6, "E20")
    }

    func testE21InputClamped() {
        let f = CAMediaTimingFunction(name: .linear)
        XCTAssertEqual(f.solve(-0.5), 0, "E21 −0.5")
        XCTAssertEqual(f.solve(1.5), 1, "E21 1.5")
    }

    // MARK: - §3 basic animations (E23–E30)

    func testE23EndpointResolution() {
        struct Row { let label: String; let from: Double?; let to: Double?; let by: Double?; let value: Double }
        let rows: [Row] = [
            Row(label: "from10 to30", from: 10, to: 30, by: nil, value: 20),
            Row(label: "from10 by5", from: 10, to: nil, by: 5, value: 12.5),
            Row(label: "by5 to30", from: nil, to: 30, by: 5, value: 27.5),
            Row(label: "from10", from: 10, to: nil, by: nil, value: 30),
            Row(label: "to30", from: nil, to: 30, by: nil, value: 40),
            Row(label: "by5", from: nil, to: nil, by: 5, value: 52.5),
        ]
        for row in rows {
            let layer = makeLayer(x: 50)
            layer.add(positionX(from: row.from, to: row.to, by: row.by), forKey: "e23")
            XCTAssertEqual(x(layer, 0.5), row.value, accuracy: tolerance, "E23 \(row.label)")
        }
    }

    func testE24Additive() {
        let layer = makeLayer(x: 100)
        let a = positionX(from: 0, to: 20)
        a.isAdditive = true
        layer.add(a, forKey: "e24")
        XCTAssertEqual(x(layer, 0.5), 110, accuracy: tolerance, "E24")
    }

    func testE25Cumulative() {
        let layer = makeLayer()
        let a = positionX(from: 0, to: 90)
        a.isCumulative = true; a.repeatCount = 3
        layer.add(a, forKey: "e25")
        XCTAssertEqual(x(layer, 2.5), 225, accuracy: tolerance, "E25 position.x")

        // The same with an actual rotation (degrees → radians): 225° at t = 2.5.
        let rotating = makeLayer()
        let r = CABasicAnimation(keyPath: "transform.rotation.z")
        r.fromValue = 0.0; r.toValue = Double.pi / 2
        r.duration = 1; r.beginTime = 0; r.isCumulative = true; r.repeatCount = 3
        rotating.add(r, forKey: "e25r")
        let m = rotating.presentationProperties(atLocalTime: 2.5).transform
        XCTAssertEqual(Double(m.m11), cos(5 * .pi / 4), accuracy: tolerance, "E25 rotation m11")
        XCTAssertEqual(Double(m.m12), sin(5 * .pi / 4), accuracy: tolerance, "E25 rotation m12")
    }

    func testE26CumulativeWithNonZeroFrom() {
        let layer = makeLayer()
        let a = positionX(from: 10, to: 20)
        a.isCumulative = true; a.repeatCount = 2
        layer.add(a, forKey: "e26")
        // Literal reading k·end + v (§3.3 [inf]; a device test is pending).
        XCTAssertEqual(x(layer, 1.5), 35, accuracy: tolerance, "E26 literal reading")
    }

    func testE27AdditiveOrder() {
        func build(additiveFirst: Bool) -> CALayer {
            let layer = makeLayer(x: 7)
            let a = positionX(from: 0, to: 100)
            let b = positionX(from: 0, to: 10)
            b.isAdditive = true
            if additiveFirst {
                layer.add(b, forKey: "B"); layer.add(a, forKey: "A")
            } else {
                layer.add(a, forKey: "A"); layer.add(b, forKey: "B")
            }
            return layer
        }
        XCTAssertEqual(x(build(additiveFirst: false), 0.5), 55, accuracy: tolerance, "E27 A then B")
        XCTAssertEqual(x(build(additiveFirst: true), 0.5), 50, accuracy: tolerance, "E27 B then A")
    }

    private func valueFunctionTransform(_ name: CAValueFunctionName, from: Any, to: Any, at t: Double) -> CATransform3D {
        let layer = makeLayer()
        let a = CABasicAnimation(keyPath: "transform")
        a.valueFunction = CAValueFunction(name: name)
        a.fromValue = from; a.toValue = to
        a.duration = 1; a.beginTime = 0
        layer.add(a, forKey: "vf")
        return layer.presentationProperties(atLocalTime: t).transform
    }

    func testE28ValueFunctionRotateZ() {
        let m = valueFunctionTransform(.rotateZ, from: 0.0, to: Double.pi / 2, at: 0.5)
        XCTAssertEqual(Double(m.m11), 0.707107, accuracy: tolerance, "E28 m11")
        XCTAssertEqual(Double(m.m12), 0.707107, accuracy: tolerance, "E28 m12")
        XCTAssertEqual(Double(m.m21), -0.707107, accuracy: tolerance, "E28 m21")
        XCTAssertEqual(Double(m.m22), 0.707107, accuracy: tolerance, "E28 m22")
    }

    func testE29ValueFunctionScale() {
        let m = valueFunctionTransform(.scale, from: [1.0, 1.0, 1.0], to: [3.0, 3.0, 3.0], at: 0.5)
        XCTAssertTrue(m.isApproximatelyEqual(to: CATransform3DMakeScale(2, 2, 2), tolerance: tolerance), "E29 diag(2,2,2,1): \(m)")
    }

    func testE30ValueFunctionTranslate() {
        let m = valueFunctionTransform(.translate, from: [0.0, 0.0, 0.0], to: [100.0, 40.0, 0.0], at: 0.25)
        XCTAssertEqual(Double(m.m41), 25, accuracy: tolerance, "E30 m41")
        XCTAssertEqual(Double(m.m42), 10, accuracy: tolerance, "E30 m42")
        XCTAssertEqual(Double(m.m43), 0, accuracy: tolerance, "E30 m43")
    }

    // MARK: - §4 keyframes (E31–E42)

    private func keyframeX(_ values: [Double], mode: CAAnimationCalculationMode = .linear, keyTimes: [Double]? = nil,
                           duration: Double = 1) -> CAKeyframeAnimation {
        let a = CAKeyframeAnimation(keyPath: "position.x")
        a.values = values
        a.calculationMode = mode
        a.keyTimes = keyTimes?.map { NSNumber(value: $0) }
        a.duration = duration
        a.beginTime = 0
        return a
    }

    private func keyframeLayer(_ a: CAAnimation) -> CALayer {
        let layer = makeLayer()
        layer.add(a, forKey: "kf")
        return layer
    }

    func testE31LinearKeyframes() {
        let layer = keyframeLayer(keyframeX([0, 10, 30], duration: 2))
        XCTAssertEqual(x(layer, 0.5), 5, accuracy: tolerance, "E31 t=0.5")
        XCTAssertEqual(x(layer, 1.5), 20, accuracy: tolerance, "E31 t=1.5")
    }

    func testE32KeyTimes() {
        let layer = keyframeLayer(keyframeX([0, 10, 30], keyTimes: [0, 0.25, 1]))
        XCTAssertEqual(x(layer, 0.5), 16.666667, accuracy: tolerance, "E32")
    }

    func testE33Discrete() {
        let plain = keyframeLayer(keyframeX([0, 10, 30], mode: .discrete))
        for (u, v) in [(0.2, 0.0), (0.5, 10), (0.9, 30)] {
            XCTAssertEqual(x(plain, u), v, accuracy: tolerance, "E33 no keyTimes u=\(u)")
        }
        let timed = keyframeLayer(keyframeX([0, 10, 30], mode: .discrete, keyTimes: [0, 0.5, 0.75, 1]))
        XCTAssertEqual(x(timed, 0.6), 10, accuracy: tolerance, "E33 keyTimes u=0.6")
        XCTAssertEqual(x(timed, 0.8), 30, accuracy: tolerance, "E33 keyTimes u=0.8")
    }

    func testE34PacedPoints() {
        let a = CAKeyframeAnimation(keyPath: "position")
        a.values = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 110, y: 0)]
        a.calculationMode = .paced
        a.duration = 2; a.beginTime = 0
        let layer = keyframeLayer(a)
        XCTAssertEqual(x(layer, 0.2), 11, accuracy: tolerance, "E34 t=0.2")
        XCTAssertEqual(x(layer, 1.0), 55, accuracy: tolerance, "E34 t=1.0")
        let linear = a.copy() as! CAKeyframeAnimation
        linear.calculationMode = .linear
        XCTAssertEqual(x(keyframeLayer(linear), 1.0), 10, accuracy: tolerance, "E34 linear mode t=1.0")
    }

    func testE35PacedPolyline() {
        let a = CAKeyframeAnimation(keyPath: "position")
        a.values = [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 100)]
        a.calculationMode = .paced
        a.duration = 1; a.beginTime = 0
        let layer = keyframeLayer(a)
        let half = layer.presentationProperties(atLocalTime: 0.5).position
        XCTAssertEqual(Double(half.x), 30, accuracy: tolerance, "E35 u=0.5 x")
        XCTAssertEqual(Double(half.y), 45, accuracy: tolerance, "E35 u=0.5 y")
        let quarter = layer.presentationProperties(atLocalTime: 0.25).position
        XCTAssertEqual(Double(quarter.x), 16.5, accuracy: tolerance, "E35 u=0.25 x")
        XCTAssertEqual(Double(quarter.y), 22, accuracy: tolerance, "E35 u=0.25 y")
    }

    func testE36PacedScalars() {
        XCTAssertEqual(x(keyframeLayer(keyframeX([0, 1, 101], mode: .paced)), 0.5), 50.5, accuracy: tolerance, "E36")
    }

    func testE37CubicCatmullRom() {
        XCTAssertEqual(x(keyframeLayer(keyframeX([0, 1, 0], mode: .cubic)), 0.25), 0.625, accuracy: tolerance, "E37")
    }

    func testE38Cubic() {
        XCTAssertEqual(x(keyframeLayer(keyframeX([0, 10, 20, 80], mode: .cubic)), 0.5), 11.875, accuracy: tolerance, "E38 cubic")
        XCTAssertEqual(x(keyframeLayer(keyframeX([0, 10, 20, 80], mode: .linear)), 0.5), 15, accuracy: tolerance, "E38 linear")
    }

    func testE39TensionAndContinuity() {
        let tension = keyframeX([0, 10, 20, 80], mode: .cubic)
        tension.tensionValues = [1, 1, 1, 1].map { NSNumber(value: $0) }
        XCTAssertEqual(x(keyframeLayer(tension), 0.5), 15, accuracy: tolerance, "E39 tension 1")
        let continuity = keyframeX([0, 10, 20, 80], mode: .cubic)
        continuity.continuityValues = [-1, -1, -1, -1].map { NSNumber(value: $0) }
        XCTAssertEqual(x(keyframeLayer(continuity), 0.5), 15, accuracy: tolerance, "E39 continuity −1")
    }

    func testE40TimingFunctions() {
        let perSegment = keyframeX([0, 100], keyTimes: [0, 1])
        perSegment.timingFunctions = [CAMediaTimingFunction(name: .easeIn)]
        XCTAssertEqual(x(keyframeLayer(perSegment), 0.5), 31.5357, accuracy: 5e-5, "E40 per-segment easeIn")
        let whole = keyframeX([0, 100, 0])
        whole.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        // Control points are stored as floats (§2.1): easeInEaseOut(0.25) moves by 8e-9, ×200 = 1.5e-6,
        // beyond the 5e-6 half-digit of the printed value; allow the float-math 1e-5 of E17.
        XCTAssertEqual(x(keyframeLayer(whole), 0.25), 25.83238, accuracy: 1e-5, "E40 animation-level easeInEaseOut")
    }

    private func rotationAngle(_ m: CATransform3D) -> Double { atan2(Double(m.m12), Double(m.m11)) }

    func testE41RotationMode() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 100, y: 100))
        for (mode, angle) in [(CAAnimationRotationMode.rotateAuto, 0.785398), (.rotateAutoReverse, 3.926991)] {
            let a = CAKeyframeAnimation(keyPath: "position")
            a.path = path; a.rotationMode = mode
            a.duration = 1; a.beginTime = 0
            let layer = keyframeLayer(a)
            let m = layer.presentationProperties(atLocalTime: 0.5).transform
            XCTAssertEqual(Double(m.m11), cos(angle), accuracy: tolerance, "E41 \(mode.rawValue) m11")
            XCTAssertEqual(Double(m.m12), sin(angle), accuracy: tolerance, "E41 \(mode.rawValue) m12")
            let prepared = PreparedPropertyAnimation(a, propertyKind: .point)!
            XCTAssertEqual(prepared.rotation(at: prepared.timing.resolve(parentTime: 0.5)!) ?? .nan, angle, accuracy: tolerance,
                           "E41 \(mode.rawValue) angle")
        }
    }

    func testE42PathCurve() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        XCTAssertEqual(Double(path.length), 200, accuracy: 1e-3, "E42 arc length")

        let linear = CAKeyframeAnimation(keyPath: "position")
        linear.path = path; linear.duration = 1; linear.beginTime = 0
        let p = keyframeLayer(linear).presentationProperties(atLocalTime: 0.25).position
        XCTAssertEqual(Double(p.x), 15.625, accuracy: tolerance, "E42 linear x")
        XCTAssertEqual(Double(p.y), 56.25, accuracy: tolerance, "E42 linear y")

        let paced = linear.copy() as! CAKeyframeAnimation
        paced.calculationMode = .paced
        let q = keyframeLayer(paced).presentationProperties(atLocalTime: 0.25).position
        // Exact arc length (printed to 4 decimals; our arc-length approximation is allowed 1e-3).
        XCTAssertEqual(Double(q.x), 10.5893, accuracy: 1e-3, "E42 paced x (exact)")
        XCTAssertEqual(Double(q.y), 48.3525, accuracy: 1e-3, "E42 paced y (exact)")
        XCTAssertEqual(Double(q.x), 10.6478, accuracy: 0.15, "E42 paced x (Apple)")
        XCTAssertEqual(Double(q.y), 48.4605, accuracy: 0.15, "E42 paced y (Apple)")
    }

    // MARK: - §5 springs (E43–E48)

    private func springX(_ configure: (CASpringAnimation) -> Void) -> CALayer {
        let s = CASpringAnimation(keyPath: "position.x")
        s.fromValue = 0.0; s.toValue = 100.0
        s.duration = 5; s.beginTime = 0
        configure(s)
        return keyframeLayer(s)
    }

    func testE43DefaultSpring() {
        let layer = springX { _ in }
        let rows: [(Double, Double)] = [(0.1, 34.0300), (0.25, 102.3360), (0.5, 107.4591), (1.0, 100.2170)]
        for (t, v) in rows { XCTAssertEqual(x(layer, t), v, accuracy: 5e-5, "E43 t=\(t)") }
        // E49 (folded into E43): the peak is 116.30 %.
        var peak = -Double.infinity
        for i in 0...4000 { peak = max(peak, x(layer, Double(i) / 4000)) }
        XCTAssertEqual(peak, 116.30, accuracy: 5e-3, "E43/E49 peak")
    }

    func testE44CriticalSpring() {
        let layer = springX { $0.damping = 20 }
        XCTAssertEqual(x(layer, 0.1), 26.4241, accuracy: 5e-5, "E44 t=0.1")
        XCTAssertEqual(x(layer, 0.3), 80.0852, accuracy: 5e-5, "E44 t=0.3")
    }

    func testE45OverdampedSpring() {
        let over = springX { $0.damping = 30; $0.allowsOverdamping = true }
        XCTAssertEqual(x(over, 0.1), 21.3354, accuracy: 5e-5, "E45 over-damped t=0.1")
        XCTAssertEqual(x(over, 0.3), 62.7818, accuracy: 5e-5, "E45 over-damped t=0.3")
        let clamped = springX { $0.damping = 30 }
        XCTAssertEqual(x(clamped, 0.1), 26.4241, accuracy: 5e-5, "E45 default allowsOverdamping = NO moves as critical, t=0.1")
        XCTAssertEqual(x(clamped, 0.3), 80.0852, accuracy: 5e-5, "E45 default allowsOverdamping = NO moves as critical, t=0.3")
    }

    func testE46InitialVelocity() {
        let layer = springX { $0.damping = 20; $0.initialVelocity = 5 }
        XCTAssertEqual(x(layer, 0.1), 44.8181, accuracy: 5e-5, "E46")
    }

    func testE47SettlingDuration() {
        let rows: [(CGFloat, Double)] = [(5, 2.854975), (10, 1.4727003346780927), (15, 1.022094), (20, 1.0)]
        for (damping, expected) in rows {
            let s = CASpringAnimation()
            s.mass = 1; s.stiffness = 100; s.damping = damping
            XCTAssertEqual(s.settlingDuration, expected, accuracy: tolerance, "E47 damping \(damping)")
        }
        XCTAssertEqual(CASpringAnimation().settlingDuration, 1.4727003346780927, accuracy: 1e-12, "E47 defaults to 15 digits")
    }

    func testE48PerceptualInit() {
        struct Row { let duration: Double; let bounce: CGFloat; let stiffness: Double; let damping: Double; let ratio: Double }
        let rows = [Row(duration: 0.5, bounce: 0.3, stiffness: 157.913670, damping: 17.592919, ratio: 0.7),
                    Row(duration: 1.0, bounce: -0.5, stiffness: 39.478418, damping: 25.132741, ratio: 2)]
        for row in rows {
            let s = CASpringAnimation(perceptualDuration: row.duration, bounce: row.bounce)
            let label = "E48 duration \(row.duration) bounce \(row.bounce)"
            XCTAssertEqual(Double(s.mass), 1, accuracy: tolerance, label)
            XCTAssertEqual(Double(s.stiffness), row.stiffness, accuracy: tolerance, label)
            XCTAssertEqual(Double(s.damping), row.damping, accuracy: tolerance, label)
            XCTAssertEqual(Double(s.damping) / (2 * (Double(s.stiffness) * Double(s.mass)).squareRoot()), row.ratio,
                           accuracy: tolerance, label)
        }
    }

    // MARK: - §11 geometry (E50–E56, E69, E70)

    private func assertRect(_ r: CGRect, _ expected: [Double], _ label: String, accuracy: Double = tolerance,
                            file: StaticString = #filePath, line: UInt = #line) {
        let actual = [r.origin.x, r.origin.y, r.size.width, r.size.height].map { Double($0) }
        for (i, name) in ["x", "y", "width", "height"].enumerated() {
            XCTAssertEqual(actual[i], expected[i], accuracy: accuracy, "\(label) \(name)", file: file, line: line)
        }
    }

    func testE50Frame() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 200, y: 300)
        assertRect(layer.frame, [150, 275, 100, 50], "E50 default anchor")
        layer.anchorPoint = .zero
        assertRect(layer.frame, [200, 300, 100, 50], "E50 anchor (0,0)")
        layer.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        layer.transform = CATransform3DMakeScale(2, 4, 1)
        assertRect(layer.frame, [100, 200, 200, 200], "E50 scale(2,4)")
    }

    func testE51RotatedFrameAndConvertRect() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.position = .zero
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let box = [-70.710678, -70.710678, 141.421356, 141.421356]
        assertRect(layer.frame, box, "E51 frame")
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        parent.anchorPoint = .zero
        parent.addSublayer(layer)
        layer.position = CGPoint(x: 100, y: 100)
        assertRect(layer.convert(layer.bounds, to: parent), [29.289322, 29.289322, 141.421356, 141.421356], "E51 convertRect")
        assertRect(parent.convert(layer.bounds, from: layer), [29.289322, 29.289322, 141.421356, 141.421356], "E51 convertRect from")
    }

    func testE52SublayerTransform() {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        parent.position = CGPoint(x: 100, y: 100)
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        child.position = CGPoint(x: 100, y: 50)
        parent.addSublayer(child)
        let plain0 = child.convert(CGPoint.zero, to: parent)
        XCTAssertEqual(Double(plain0.x), 75, accuracy: tolerance, "E52 plain (0,0) x")
        XCTAssertEqual(Double(plain0.y), 25, accuracy: tolerance, "E52 plain (0,0) y")
        let plain50 = child.convert(CGPoint(x: 50, y: 50), to: parent)
        XCTAssertEqual(Double(plain50.x), 125, accuracy: tolerance, "E52 plain (50,50) x")
        XCTAssertEqual(Double(plain50.y), 75, accuracy: tolerance, "E52 plain (50,50) y")

        parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        child.transform = CATransform3DMakeTranslation(5, 6, 0)
        let p = child.convert(CGPoint.zero, to: parent)
        XCTAssertEqual(Double(p.x), 60, accuracy: tolerance, "E52 transformed x")
        XCTAssertEqual(Double(p.y), -38, accuracy: tolerance, "E52 transformed y")
        let back = child.convert(CGPoint(x: 60, y: -38), from: parent)
        XCTAssertEqual(Double(back.x), 0, accuracy: tolerance, "E52 inverse x")
        XCTAssertEqual(Double(back.y), 0, accuracy: tolerance, "E52 inverse y")
    }

    func testE53Rotation() {
        let z = CATransform3DMakeRotation(.pi / 2, 0, 0, 1).transform(x: 1, y: 0, z: 0)
        XCTAssertEqual(Double(z.x), 0, accuracy: tolerance, "E53 z-axis x")
        XCTAssertEqual(Double(z.y), 1, accuracy: tolerance, "E53 z-axis y")
        let x = CATransform3DMakeRotation(.pi / 2, 1, 0, 0).transform(x: 0, y: 1, z: 0)
        XCTAssertEqual(Double(x.x), 0, accuracy: tolerance, "E53 x-axis x")
        XCTAssertEqual(Double(x.y), 0, accuracy: tolerance, "E53 x-axis y")
        XCTAssertEqual(Double(x.z), 1, accuracy: tolerance, "E53 x-axis z")
    }

    func testE54Perspective() {
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        for (z, expected) in [(100.0, 125.0), (-500.0, 50.0)] {
            let p = t.transform(x: 100, y: 0, z: CGFloat(z))
            XCTAssertEqual(Double(p.x / p.w), expected, accuracy: tolerance, "E54 z=\(z)")
        }
        XCTAssertEqual(CATransform3DMakePerspective(500).m34, t.m34, "E54 helper")
    }

    func testE55Concat() {
        let translate = CATransform3DMakeTranslation(10, 0, 0), scale = CATransform3DMakeScale(2, 2, 2)
        XCTAssertEqual(Double(CATransform3DConcat(translate, scale).m41), 20, accuracy: tolerance, "E55 translate then scale")
        XCTAssertEqual(Double(CATransform3DConcat(scale, translate).m41), 10, accuracy: tolerance, "E55 scale then translate")
    }

    func testE56RotateYWithPerspective() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        layer.position = .zero
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        layer.transform = CATransform3DConcat(CATransform3DMakeRotation(.pi / 3, 0, 1, 0), perspective)
        let right = layer.convert(CGPoint(x: 200, y: 50), to: nil)
        let left = layer.convert(CGPoint(x: 0, y: 50), to: nil)
        XCTAssertEqual(Double(right.x), 42.618295, accuracy: tolerance, "E56 right edge")
        XCTAssertEqual(Double(left.x), -60.474489, accuracy: tolerance, "E56 left edge")
        let tree = PresentationTree.evaluate(layer, at: 0)
        let p = tree.layers[0].transformToRoot.transform(x: 200, y: 50)
        XCTAssertEqual(Double(p.x / p.w), 42.618295, accuracy: tolerance, "E56 right edge via the presentation tree")
    }

    // E57–E60 and the E62/E63 geometry are tested at the end of this file against
    // ContentsPlacement and TransitionGeometry; E61 (group opacity) is a compositing rule and is
    // checked by the renderers' pixel tests.

    // MARK: - §7 transitions (E62, E63)

    private func transitionProgress(_ configure: (CATransition) -> Void, at t: Double) -> TransitionState? {
        let layer = makeLayer()
        let transition = CATransition()
        transition.duration = 1; transition.beginTime = 0
        configure(transition)
        layer.add(transition, forKey: kCATransition)
        return layer.presentationProperties(atLocalTime: t).transition
    }

    func testE62PushProgress() {
        let rows: [(Double, Double)] = [(0, 0.25), (0.5, 0.5), (1, 0.75)]
        for (t, p) in rows {
            let state = transitionProgress({ $0.type = .push; $0.subtype = .fromRight; $0.startProgress = 0.25; $0.endProgress = 0.75 }, at: t)
            XCTAssertEqual(state?.type, .push, "E62 type")
            XCTAssertEqual(state?.subtype, .fromRight, "E62 subtype")
            XCTAssertEqual(state?.progress ?? .nan, p, accuracy: tolerance, "E62 progress at t=\(t)")
            // new x = W·(1−p), old x = −W·p with W = 100 are renderer geometry (no API yet).
        }
    }

    func testE63FadeProgress() {
        let state = transitionProgress({ $0.type = .fade }, at: 0.5)
        XCTAssertEqual(state?.type, .fade, "E63 type")
        XCTAssertEqual(state?.progress ?? .nan, 0.5, accuracy: tolerance, "E63 p = 0.5 → old alpha 1−p = 0.5, new alpha p = 0.5")
    }

    // MARK: - §12 export clock (E64)

    func testE64ExportBeginTimeAtZero() {
        CATransaction.mediaClock = ManualMediaClock(time: 5000)  // the host's media time
        let atZero = makeLayer(x: -1)
        atZero.add(positionX(from: 0, to: 100, duration: 2, begin: AVCoreAnimationBeginTimeAtZero), forKey: "e64")
        XCTAssertEqual(x(atZero, 1.0), 50, accuracy: tolerance, "E64 fraction 0.5 at video time 1.0")
        let zero = makeLayer(x: -1)
        zero.add(positionX(from: 0, to: 100, duration: 2, begin: 0), forKey: "e64")
        XCTAssertEqual(zero.animation(forKey: "e64")?.beginTime ?? .nan, 5000, accuracy: tolerance, "E64 beginTime 0 → host time")
        XCTAssertEqual(x(zero, 1.0), -1, accuracy: tolerance, "E64 not started at video time 1")
    }

    // MARK: - E65 end of an integral iteration count

    func testE65EndOfIterations() {
        let fractional = timing(duration: 2, repeatCount: 3.5).resolve(parentTime: 7)
        XCTAssertEqual(fractional?.fraction ?? .nan, 0.5, accuracy: tolerance, "E65 3.5 iterations at t=7")
        let integral = timing(duration: 2, repeatCount: 3).resolve(parentTime: 6)
        XCTAssertEqual(integral?.fraction ?? .nan, 1, accuracy: tolerance, "E65 3 iterations at t=6: fraction")
        XCTAssertEqual(integral?.iteration, 2, "E65 3 iterations at t=6: iteration")
    }

    // MARK: - §8 implicit animations (E66, E67)

    func testE66ImplicitAnimation() {
        let root = CALayer()
        let layer = CALayer()
        root.addSublayer(layer)
        let timeline = LayerTimeline(root: root)
        layer.position = CGPoint(x: 100, y: 0)
        XCTAssertEqual(x(layer, 0.125), 80.240339, accuracy: tolerance, "E66 0.25 s default curve at t=0.125")
        XCTAssertEqual(layer.animation(forKey: "position")?.duration ?? .nan, 0.25, accuracy: tolerance, "E66 duration")

        let other = CALayer()
        root.addSublayer(other)
        timeline.advance(to: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1.0)
        other.position = CGPoint(x: 100, y: 0)
        CATransaction.commit()
        XCTAssertEqual(x(other, 0.5), 80.240339, accuracy: tolerance, "E66 transaction duration 1.0 at t=0.5")
        withExtendedLifetime(timeline) {}
    }

    func testE67DurationSubstitution() {
        let layer = makeLayer()
        layer.add(positionX(from: 0, to: 100, duration: 0), forKey: "e67")
        XCTAssertEqual(layer.animation(forKey: "e67")?.duration ?? .nan, 0.25, accuracy: tolerance, "E67 default 0.25 s")
        XCTAssertEqual(x(layer, 0.125), 50, accuracy: tolerance, "E67 halfway at 0.125")
        CATransaction.begin()
        CATransaction.setAnimationDuration(1.5)
        layer.add(positionX(from: 0, to: 100, duration: 0), forKey: "e67b")
        CATransaction.commit()
        XCTAssertEqual(layer.animation(forKey: "e67b")?.duration ?? .nan, 1.5, accuracy: tolerance, "E67 transaction 1.5 s")
    }

    // MARK: - E68 invalid key times

    func testE68InvalidKeyTimesIgnored() {
        XCTAssertEqual(x(keyframeLayer(keyframeX([0, 10, 30], keyTimes: [0, 0.6, 0.5])), 0.25), 5, accuracy: tolerance,
                       "E68 non-monotonic")
        XCTAssertEqual(x(keyframeLayer(keyframeX([0, 10, 30], keyTimes: [0, 0.5])), 0.75), 20, accuracy: tolerance,
                       "E68 wrong count")
    }

    // MARK: - E69, E70

    func testE69SiblingConversion() {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        let first = CALayer(), second = CALayer()
        first.bounds = CGRect(x: 0, y: 0, width: 50, height: 50); first.position = CGPoint(x: 25, y: 25)
        second.bounds = CGRect(x: 0, y: 0, width: 50, height: 50); second.position = CGPoint(x: 125, y: 25)
        parent.addSublayer(first); parent.addSublayer(second)
        let p = first.convert(CGPoint.zero, to: second)
        XCTAssertEqual(Double(p.x), -100, accuracy: tolerance, "E69 x")
        XCTAssertEqual(Double(p.y), 0, accuracy: tolerance, "E69 y")
        let q = second.convert(CGPoint.zero, from: first)
        XCTAssertEqual(Double(q.x), -100, accuracy: tolerance, "E69 from x")
        XCTAssertEqual(Double(q.y), 0, accuracy: tolerance, "E69 from y")
    }

    func testE70DrawingOrder() {
        let parent = CALayer()
        let names = ["A", "B", "C", "D"], z: [CGFloat] = [0, 5, 0, -1]
        for (name, zPosition) in zip(names, z) {
            let layer = CALayer()
            layer.name = name
            layer.zPosition = zPosition
            parent.addSublayer(layer)
        }
        XCTAssertEqual(parent.sublayersInDrawingOrder.map { $0.name ?? "?" }, ["D", "A", "C", "B"], "E70 model")
        let tree = PresentationTree.evaluate(parent, at: 0)
        XCTAssertEqual(tree.layers[0].sublayersInDrawingOrder.map { tree.layers[$0].properties.name ?? "?" }, ["D", "A", "C", "B"],
                       "E70 presentation tree")
    }

    // MARK: - §10 key paths (E71, E72)

    func testE71RotationOnScaledModel() {
        let layer = makeLayer()
        layer.transform = CATransform3DMakeScale(2, 2, 1)
        let a = CABasicAnimation(keyPath: "transform.rotation.z")
        a.fromValue = 0.0; a.toValue = Double.pi / 2
        a.duration = 1; a.beginTime = 0
        layer.add(a, forKey: "e71")
        let m = layer.presentationProperties(atLocalTime: 0.5).transform
        XCTAssertEqual(Double(m.m11), 1.414214, accuracy: tolerance, "E71 m11")
        XCTAssertEqual(Double(m.m12), 1.414214, accuracy: tolerance, "E71 m12")
        XCTAssertEqual(Double(m.m21), -1.414214, accuracy: tolerance, "E71 m21")
        XCTAssertEqual(Double(m.m22), 1.414214, accuracy: tolerance, "E71 m22")
    }

    func testE72AdditiveRotationAndScaleRead() {
        let layer = makeLayer()
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let a = CABasicAnimation(keyPath: "transform.rotation.z")
        a.fromValue = 0.0; a.toValue = Double.pi / 2
        a.isAdditive = true
        a.duration = 1; a.beginTime = 0; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        layer.add(a, forKey: "e72")
        for t in [1.0, 2.0] {
            XCTAssertEqual(rotationAngle(layer.presentationProperties(atLocalTime: t).transform), 2.356194, accuracy: tolerance,
                           "E72 total angle at t=\(t)")
        }
        let scaled = CALayer()
        scaled.transform = CATransform3DMakeScale(2, 3, 4)
        XCTAssertEqual(Double(scaled.value(forKeyPath: "transform.scale") as? CGFloat ?? .nan), 3, accuracy: tolerance,
                       "E72 transform.scale reads the average")
    }
}

// Content placement and transition geometry (E57–E60, E62/E63 geometry).
extension WorkedExamplesTests {
    func testE57ContentsGravity() {
        let bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let rows: [(CALayerContentsGravity, CGSize, [Double])] = [
            (.resizeAspect, CGSize(width: 200, height: 100), [0, 25, 100, 50]),
            (.resizeAspectFill, CGSize(width: 200, height: 100), [-50, 0, 200, 100]),
            (.center, CGSize(width: 50, height: 20), [25, 40, 50, 20]),
            (.top, CGSize(width: 50, height: 20), [25, 80, 50, 20]),
            (.bottomRight, CGSize(width: 50, height: 20), [50, 0, 50, 20]),
            (.resize, CGSize(width: 50, height: 20), [0, 0, 100, 100]),
        ]
        for (gravity, size, expected) in rows {
            let r = ContentsPlacement.rect(gravity: gravity, contentSize: size, in: bounds, flipped: false)
            XCTAssertEqual([r.minX, r.minY, r.width, r.height].map { Double($0) }, expected, "E57 \(gravity.rawValue)")
        }
    }

    func testE58ContentsScale() {
        let r = ContentsPlacement.rect(gravity: .center, contentSize: ContentsPlacement.logicalSize(pixels: CGSize(width: 200, height: 100), contentsScale: 2),
                                       in: CGRect(x: 0, y: 0, width: 100, height: 100), flipped: false)
        XCTAssertEqual([r.minX, r.minY, r.width, r.height].map { Double($0) }, [0, 25, 100, 50], "E58")
    }

    func testE59ContentsRect() {
        let source = ContentsPlacement.sourceRect(contentsRect: CGRect(x: 0.5, y: 0, width: 0.5, height: 1),
                                                  imagePixels: CGSize(width: 200, height: 100))
        XCTAssertEqual(Double(source.minX), 100, "E59 minX")
        XCTAssertEqual(Double(source.maxX), 200, "E59 maxX")
    }

    func testE60NineSlice() {
        let wide = ContentsPlacement.nineSlice(imagePixels: CGSize(width: 30, height: 30), contentsCenter: CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3),
                                               bounds: CGSize(width: 90, height: 60))
        XCTAssertEqual(Double(wide.leftCap), 10, "E60 caps"); XCTAssertEqual(Double(wide.centerWidth), 70, "E60 centre width")
        XCTAssertEqual(Double(wide.centerHeight), 40, "E60 centre height")
        let narrow = ContentsPlacement.nineSlice(imagePixels: CGSize(width: 30, height: 30), contentsCenter: CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3),
                                                 bounds: CGSize(width: 15, height: 60))
        XCTAssertEqual(Double(narrow.leftCap), 7.5, accuracy: 1e-9, "E60 scaled caps"); XCTAssertEqual(Double(narrow.centerWidth), 0, accuracy: 1e-9, "E60 no centre")
    }

    func testE62PushGeometry() {
        for (p, newX, oldX) in [(0.25, 75.0, -25.0), (0.5, 50, -50), (0.75, 25, -75)] {
            let o = TransitionGeometry.offsets(type: .push, subtype: .fromRight, progress: p, extent: 100)
            XCTAssertEqual(Double(o.new.x), newX, "E62 new x at p=\(p)"); XCTAssertEqual(Double(o.old.x), oldX, "E62 old x at p=\(p)")
        }
        let fade = TransitionGeometry.alphas(type: .fade, progress: 0.5)
        XCTAssertEqual(fade.old, 0.5, "E63 old alpha"); XCTAssertEqual(fade.new, 0.5, "E63 new alpha")
    }
}
