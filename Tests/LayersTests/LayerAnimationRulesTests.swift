import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers
import Presentation

// Rules of semantics §3–§7 and §9 that need a layer: additive stacking, groups (clipping, speed,
// fill, child duration, order), copy-on-add, one animation per key, animationKeys, removal,
// rotationMode composition and the §3.1 "underlying value read at evaluation time" rule.
// (AnimationTests depends on the Animation target only, so these live here.)
//
// Tolerance: 1e-9 for exact arithmetic; 1e-6 for values printed to 6 digits.


final class LayerAnimationRulesTests: XCTestCase {

    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
        CATransaction.flush()
    }

    private func positionX(from: Double? = nil, to: Double? = nil, by: Double? = nil, duration: Double = 1,
                           begin: Double = 0, additive: Bool = false) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = from; a.toValue = to; a.byValue = by
        a.duration = duration; a.beginTime = begin; a.isAdditive = additive
        return a
    }

    private func layer(x: Double = 0, y: Double = 0) -> CALayer {
        let l = CALayer()
        l.position = CGPoint(x: x, y: y)
        return l
    }

    private func x(_ layer: CALayer, _ t: Double) -> Double { Double(layer.presentationProperties(atLocalTime: t).position.x) }

    private func group(_ children: [CAAnimation], duration: Double, configure: (CAAnimationGroup) -> Void = { _ in }) -> CAAnimationGroup {
        let g = CAAnimationGroup()
        g.animations = children
        g.duration = duration
        g.beginTime = 0
        configure(g)
        return g
    }

    // MARK: - §3.3 / §9 additive stacking order

    func testAdditiveStackingOrder() {
        // model 7; A additive +20 over the animation (10 at t = 0.5), B replaces with 0→100 (50),
        // C additive +2 (1). Later non-additive animations override everything before them.
        struct Row { let order: [String]; let expected: Double }
        let rows: [Row] = [
            Row(order: ["A", "B"], expected: 50),
            Row(order: ["B", "A"], expected: 60),
            Row(order: ["A", "B", "C"], expected: 51),
            Row(order: ["B", "A", "C"], expected: 61),
            Row(order: ["A", "C"], expected: 18),
            Row(order: ["C", "A", "B"], expected: 50),
        ]
        for row in rows {
            let l = layer(x: 7)
            for key in row.order {
                switch key {
                case "A": l.add(positionX(from: 0, to: 20, additive: true), forKey: key)
                case "B": l.add(positionX(from: 0, to: 100), forKey: key)
                default: l.add(positionX(from: 0, to: 2, additive: true), forKey: key)
                }
            }
            XCTAssertEqual(x(l, 0.5), row.expected, accuracy: 1e-9, "order \(row.order)")
        }
    }

    func testAdditiveTransformConcatenatesBeforeTheModel() {
        // Concat(animValue, underlying): the animation's rotation applies first, in local space.
        let l = layer()
        l.transform = CATransform3DMakeScale(2, 3, 1)
        let a = CABasicAnimation(keyPath: "transform")
        a.fromValue = CATransform3DIdentity
        a.toValue = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        a.isAdditive = true
        a.duration = 1; a.beginTime = 0; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        l.add(a, forKey: "spin")
        let m = l.presentationProperties(atLocalTime: 1).transform
        XCTAssertEqual(Double(m.m11), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(m.m12), 3, accuracy: 1e-9, "R·S: the x axis turns onto y, then y is scaled by 3")
        XCTAssertEqual(Double(m.m21), -2, accuracy: 1e-9)
        XCTAssertEqual(Double(m.m22), 0, accuracy: 1e-9)
    }

    func testAnimationsNeverChangeTheModel() {
        let l = layer(x: 5)
        l.add(positionX(from: 0, to: 100), forKey: "a")
        XCTAssertEqual(x(l, 0.5), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(l.position.x), 5, "the model keeps its value")
        XCTAssertEqual(Double(l.properties.position.x), 5)
    }

    /// §3.1: U is the model value read at evaluation time, so setting the model to the target
    /// after adding a to-only animation makes from == to.
    func testUnderlyingValueIsReadWhenEvaluating() {
        let l = layer(x: 0)
        l.add(positionX(to: 100), forKey: "to")
        XCTAssertEqual(x(l, 0.5), 50, accuracy: 1e-9)
        l.position = CGPoint(x: 100, y: 0)
        XCTAssertEqual(x(l, 0.5), 100, accuracy: 1e-9, "model changed after add: start point follows")
        l.position = CGPoint(x: 50, y: 0)
        XCTAssertEqual(x(l, 0.5), 75, accuracy: 1e-9)
    }

    // MARK: - §6 groups

    func testGroupClipsChildrenWithoutScaling() {
        let l = layer(x: -1)
        l.add(group([positionX(from: 0, to: 100, duration: 4)], duration: 2), forKey: "g")
        XCTAssertEqual(x(l, 1), 25, accuracy: 1e-9, "child runs at its own pace")
        XCTAssertEqual(x(l, 2), 50, accuracy: 1e-9, "clipped at the group's end")
        XCTAssertEqual(x(l, 2.5), -1, accuracy: 1e-9, "group over (fill removed)")
    }

    func testGroupSpeedAndTimeOffsetApplyToChildren() {
        let l = layer()
        l.add(group([positionX(from: 0, to: 100, duration: 4)], duration: 4) { $0.speed = 2; $0.timeOffset = 1 }, forKey: "g")
        XCTAssertEqual(x(l, 0.5), 50, accuracy: 1e-9, "group local time 0.5·2 + 1 = 2")
    }

    func testGroupAutoreverseAndRepeatApplyToChildren() {
        let l = layer()
        l.add(group([positionX(from: 0, to: 100, duration: 2)], duration: 2) { $0.autoreverses = true; $0.repeatCount = 2 }, forKey: "g")
        let rows: [(Double, Double)] = [(1, 50), (2.5, 75), (3, 50), (5, 50), (7.5, 25)]
        for (t, v) in rows { XCTAssertEqual(x(l, t), v, accuracy: 1e-9, "group autoreverse t=\(t)") }
    }

    func testGroupFillModes() {
        // Backwards: before the group's window the clamped group time (0) keeps feeding children.
        let before = layer(x: -1)
        before.add(group([positionX(from: 10, to: 20, duration: 2)], duration: 2) { $0.beginTime = 3; $0.fillMode = .backwards }, forKey: "g")
        XCTAssertEqual(x(before, 1), 10, accuracy: 1e-9, "backwards fill")
        let removed = layer(x: -1)
        removed.add(group([positionX(from: 10, to: 20, duration: 2)], duration: 2) { $0.beginTime = 3 }, forKey: "g")
        XCTAssertEqual(x(removed, 1), -1, accuracy: 1e-9, "removed fill")
        // Forwards with a child that ended before the group: the child's own fill decides.
        let held = layer(x: -1)
        let child = positionX(from: 0, to: 100, duration: 1)
        held.add(group([child], duration: 3) { $0.fillMode = .forwards; $0.isRemovedOnCompletion = false }, forKey: "g")
        XCTAssertEqual(x(held, 2), -1, accuracy: 1e-9, "child (fill removed) has no effect after its own window")
        let heldChild = positionX(from: 0, to: 100, duration: 1)
        heldChild.fillMode = .forwards
        let held2 = layer(x: -1)
        held2.add(group([heldChild], duration: 3) { $0.fillMode = .forwards; $0.isRemovedOnCompletion = false }, forKey: "g")
        XCTAssertEqual(x(held2, 2), 100, accuracy: 1e-9, "child with fill forwards holds inside the group")
        XCTAssertEqual(x(held2, 10), 100, accuracy: 1e-9, "and after the group, with the group's forward fill")
    }

    func testGroupChildWithoutDurationTakesTheGroupDuration() {
        let l = layer()
        let child = CABasicAnimation(keyPath: "position.x")
        child.fromValue = 0.0; child.toValue = 100.0
        l.add(group([child], duration: 2), forKey: "g")
        XCTAssertEqual(x(l, 1), 50, accuracy: 1e-9)
        XCTAssertEqual(child.duration, 0, "the shared child object is not changed")
    }

    func testGroupChildBeginTimeIsRelativeToTheGroup() {
        CATransaction.mediaClock = ManualMediaClock(time: 100)
        let l = layer(x: -1)
        let late = positionX(from: 0, to: 100, duration: 1, begin: 0.5)
        let g = CAAnimationGroup()
        g.animations = [late]
        g.duration = 2  // beginTime 0 → "now" = 100 for the group only
        l.add(g, forKey: "g")
        XCTAssertEqual(l.animation(forKey: "g")?.beginTime ?? .nan, 100, accuracy: 1e-9)
        XCTAssertEqual(x(l, 100.25), -1, accuracy: 1e-9, "child not started yet")
        XCTAssertEqual(x(l, 100.75), 25, accuracy: 1e-9, "child begin 0.5 in group time")
        let zero = positionX(from: 0, to: 100, duration: 1, begin: 0)
        let l2 = layer(x: -1)
        let g2 = CAAnimationGroup()
        g2.animations = [zero]
        g2.duration = 2
        l2.add(g2, forKey: "g")
        XCTAssertEqual(x(l2, 100.5), 50, accuracy: 1e-9, "child beginTime 0 is the group's start, not 'now'")
    }

    func testGroupTimingFunctionWarpsChildTime() {
        let l = layer()
        l.add(group([positionX(from: 0, to: 100, duration: 1)], duration: 1) { $0.timingFunction = CAMediaTimingFunction(name: .easeIn) },
              forKey: "g")
        XCTAssertEqual(x(l, 0.5), 31.535681, accuracy: 1e-6)
    }

    func testGroupChildrenApplyInArrayOrder() {
        let a = positionX(from: 0, to: 100)
        let b = positionX(from: 0, to: 10, additive: true)
        let first = layer(x: 7)
        first.add(group([a, b], duration: 1), forKey: "g")
        XCTAssertEqual(x(first, 0.5), 55, accuracy: 1e-9)
        let second = layer(x: 7)
        second.add(group([b, a], duration: 1), forKey: "g")
        XCTAssertEqual(x(second, 0.5), 50, accuracy: 1e-9)
    }

    func testGroupDurationSubstitution() {
        let l = layer()
        let g = CAAnimationGroup()
        g.animations = [positionX(from: 0, to: 100, duration: 1)]
        l.add(g, forKey: "g")
        XCTAssertEqual(l.animation(forKey: "g")?.duration ?? .nan, 0.25, accuracy: 1e-12)
        XCTAssertEqual(x(l, 0.25), 25, accuracy: 1e-9, "child clipped at the substituted 0.25 s")
        XCTAssertEqual(x(l, 0.3), 0, accuracy: 1e-9, "group over")
    }

    // MARK: - §9 bookkeeping

    func testAddCopiesTheAnimation() {
        let l = layer()
        let a = positionX(from: 0, to: 100)
        l.add(a, forKey: "a")
        a.toValue = 1000.0
        a.duration = 10
        a.isAdditive = true
        XCTAssertEqual(x(l, 0.5), 50, accuracy: 1e-9, "edits after add have no effect")
        let copy = l.animation(forKey: "a")
        XCTAssertNotNil(copy)
        XCTAssertFalse(copy === a, "the layer holds its own copy")
        XCTAssertEqual(copy?.duration, 1)
        XCTAssertEqual((copy as? CABasicAnimation)?.toValue as? Double, 100)
    }

    func testOneAnimationPerKey() {
        let l = layer()
        let recorder = EventRecorder()
        let first = positionX(from: 0, to: 100)
        first.delegate = recorder
        l.add(first, forKey: "move")
        l.add(positionX(from: 0, to: 10), forKey: "move")
        XCTAssertEqual(l.animationKeys() ?? [], ["move"])
        XCTAssertEqual(l.attachedAnimationCount, 1)
        XCTAssertEqual(x(l, 0.5), 5, accuracy: 1e-9, "the new animation replaced the old one")
        XCTAssertEqual(recorder.events, ["stop(cancelled)"], "the replaced animation's delegate hears finished: false")

        // The replacement goes last in the order.
        let ordered = layer()
        for key in ["a", "b", "c", "a"] { ordered.add(positionX(from: 0, to: 1), forKey: key) }
        XCTAssertEqual(ordered.animationKeys() ?? [], ["b", "c", "a"])
    }

    func testNilKeyedAnimations() {
        let l = layer(x: 1)
        l.add(positionX(from: 0, to: 10, additive: true), forKey: nil)
        l.add(positionX(from: 0, to: 20, additive: true), forKey: nil)
        XCTAssertNil(l.animationKeys(), "nil-keyed animations are not listed")
        XCTAssertEqual(l.attachedAnimationCount, 2, "and never replace each other")
        XCTAssertEqual(x(l, 0.5), 16, accuracy: 1e-9)
        l.add(positionX(from: 0, to: 1), forKey: "k")
        XCTAssertEqual(l.animationKeys() ?? [], ["k"])
    }

    func testAnimationKeysAndRemoval() {
        let l = layer()
        let recorder = EventRecorder()
        for key in ["a", "b", "c"] {
            let a = positionX(from: 0, to: 1)
            a.delegate = recorder
            l.add(a, forKey: key)
        }
        XCTAssertEqual(l.animationKeys() ?? [], ["a", "b", "c"])
        XCTAssertEqual(l.animationKeys()?.count, 3)
        l.removeAnimation(forKey: "b")
        XCTAssertEqual(l.animationKeys() ?? [], ["a", "c"])
        XCTAssertNil(l.animation(forKey: "b"))
        XCTAssertEqual(recorder.events, ["stop(cancelled)"])
        l.removeAnimation(forKey: "missing")
        XCTAssertEqual(l.animationKeys() ?? [], ["a", "c"], "removing an unknown key does nothing")
        l.removeAllAnimations()
        XCTAssertNil(l.animationKeys())
        XCTAssertEqual(l.attachedAnimationCount, 0)
        XCTAssertEqual(recorder.events.count, 3)
        l.removeAllAnimations()
        XCTAssertNil(l.animationKeys(), "removeAllAnimations is safe to repeat")
        XCTAssertEqual(recorder.events.count, 3, "no second stop message")
        XCTAssertEqual(x(l, 0.5), 0, accuracy: 1e-12)
    }

    func testBeginTimeZeroMeansNowInTheLayersTimeSpace() {
        CATransaction.mediaClock = ManualMediaClock(time: 10)
        let parent = CALayer()
        parent.speed = 2
        let child = layer()
        parent.addSublayer(child)
        child.add(positionX(from: 0, to: 100), forKey: "a")
        XCTAssertEqual(child.animation(forKey: "a")?.beginTime ?? .nan, 20, accuracy: 1e-9, "now = 10 → parent speed 2 → 20")
        child.add(positionX(from: 0, to: 100, begin: 3), forKey: "b")
        XCTAssertEqual(child.animation(forKey: "b")?.beginTime ?? .nan, 3, accuracy: 1e-12, "non-zero beginTime kept")
    }

    func testTransactionTimingFunctionFillsOnlyMissingFunctions() {
        let l = layer()
        CATransaction.begin()
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
        l.add(positionX(from: 0, to: 100), forKey: "plain")
        let explicit = positionX(from: 0, to: 100)
        explicit.timingFunction = CAMediaTimingFunction(name: .linear)
        l.add(explicit, forKey: "explicit")
        CATransaction.commit()
        XCTAssertEqual(l.animation(forKey: "plain")?.timingFunction, CAMediaTimingFunction(name: .easeIn))
        XCTAssertEqual(l.animation(forKey: "explicit")?.timingFunction, CAMediaTimingFunction(name: .linear))
        XCTAssertNil(CATransaction.animationTimingFunction(), "restored after commit")
    }

    // MARK: - §4.4 rotationMode on a layer

    func testRotationModeComposesBeforeTheModelTransform() {
        let l = layer()
        l.transform = CATransform3DMakeScale(2, 3, 1)
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 0, y: 100))  // tangent +y: θ = π/2
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = path; a.rotationMode = .rotateAuto
        a.duration = 1; a.beginTime = 0
        l.add(a, forKey: "follow")
        let state = l.presentationProperties(atLocalTime: 0.5)
        XCTAssertEqual(Double(state.position.y), 50, accuracy: 1e-9)
        let m = state.transform
        XCTAssertEqual(Double(m.m12), 3, accuracy: 1e-9, "Concat(rotation, model)")
        XCTAssertEqual(Double(m.m21), -2, accuracy: 1e-9)
        XCTAssertEqual(Double(m.m11), 0, accuracy: 1e-9)
    }

    // MARK: - §7 transitions on a layer

    func testTransitionOnALayer() {
        let l = layer()
        let t = CATransition()
        t.type = .moveIn; t.subtype = .fromTop
        t.beginTime = 0
        l.add(t, forKey: kCATransition)
        XCTAssertEqual(l.animationKeys() ?? [], ["transition"])
        XCTAssertEqual(l.animation(forKey: kCATransition)?.duration ?? .nan, 0.25, accuracy: 1e-12, "duration substitution")
        let state = l.presentationProperties(atLocalTime: 0.125).transition
        XCTAssertEqual(state?.type, .moveIn)
        XCTAssertEqual(state?.subtype, .fromTop)
        XCTAssertEqual(state?.progress ?? .nan, 0.5, accuracy: 1e-9)
        XCTAssertNil(l.presentationProperties(atLocalTime: 0.3).transition, "over (fill removed)")
        XCTAssertNil(l.properties.transition, "the model has no transition")
    }

    // MARK: - §5 springs on a layer

    func testSpringEndsWhenItsDurationEnds() {
        let l = layer(x: -1)
        let s = CASpringAnimation(keyPath: "position.x")
        s.fromValue = 0.0; s.toValue = 100.0
        s.duration = 0.5; s.beginTime = 0
        l.add(s, forKey: "spring")
        XCTAssertNil(l.animation(forKey: "spring")?.timingFunction, "springs do not take the transaction's curve")
        XCTAssertEqual(x(l, 0.25), 102.335958, accuracy: 1e-6)
        XCTAssertEqual(x(l, 0.6), -1, accuracy: 1e-9, "cut off at its duration, not stretched")
    }
}
