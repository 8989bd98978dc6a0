import XCTest
import Foundation
import Geometry
import Timing
import Animation
import Layers
import Presentation

// Rules of semantics §8 (actions, implicit animations, CATransaction), §9 (model/presentation,
// delegates, removedOnCompletion), §10 (key paths) and §11 (geometry, hierarchy, flattening).
//
// Tolerance: 1e-9 for exact arithmetic, 1e-6 for values printed to 6 digits or built from
// trigonometry.

/// An animation whose key path names where it came from, to tell action sources apart.
private func tagged(_ source: String) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: source)
    a.duration = 7
    return a
}

private func tag(_ action: CAAction?) -> String? {
    if action == nil { return nil }
    if action is NSNull { return "NSNull" }
    return (action as? CABasicAnimation)?.keyPath ?? "other"
}


/// A delegate answering from a dictionary (nil for missing keys).
private final class DictionaryActionDelegate: CALayerDelegate {
    var answers: [String: CAAction] = [:]
    var asked: [String] = []
    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        asked.append(event)
        return answers[event]
    }
}

/// A layer class whose default action for `position` is tagged "default".
private final class DefaultActionLayer: CALayer {
    override class func defaultAction(forKey event: String) -> CAAction? {
        event == "position" || event == "opacity" ? tagged("default") : nil
    }
}

/// A counter a completion block can bump.
private final class Counter {
    var value = 0
}

final class LayerRulesTests: XCTestCase {

    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
        CATransaction.flush()
    }

    /// A root with one committed child, driven by a timeline (keep the timeline alive).
    private func liveTree() -> (root: CALayer, child: CALayer, timeline: LayerTimeline) {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        let child = CALayer()
        root.addSublayer(child)
        let timeline = LayerTimeline(root: root)
        return (root, child, timeline)
    }

    private func positionX(from: Double? = nil, to: Double? = nil, duration: Double = 1, begin: Double = 0) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = from; a.toValue = to
        a.duration = duration; a.beginTime = begin
        return a
    }

    // MARK: - §8.1 action(forKey:) search order

    func testActionSearchOrder() {
        struct Row {
            let label: String
            let delegate: CAAction??   // .none: no delegate; .some(nil): delegate answers nil
            let actions: CAAction?
            let style: CAAction?
            let nestedStyle: CAAction?
            let defaultClass: Bool
            let expected: String?
        }
        let rows: [Row] = [
            Row(label: "delegate first", delegate: .some(tagged("delegate")), actions: tagged("actions"), style: tagged("style"),
                nestedStyle: tagged("nested"), defaultClass: true, expected: "delegate"),
            Row(label: "delegate answers nil → actions", delegate: .some(nil), actions: tagged("actions"), style: tagged("style"),
                nestedStyle: tagged("nested"), defaultClass: true, expected: "actions"),
            Row(label: "actions before style", delegate: nil, actions: tagged("actions"), style: tagged("style"),
                nestedStyle: tagged("nested"), defaultClass: true, expected: "actions"),
            Row(label: "style actions", delegate: nil, actions: nil, style: tagged("style"),
                nestedStyle: tagged("nested"), defaultClass: true, expected: "style"),
            Row(label: "nested style", delegate: nil, actions: nil, style: nil,
                nestedStyle: tagged("nested"), defaultClass: true, expected: "nested"),
            Row(label: "defaultAction last", delegate: nil, actions: nil, style: nil,
                nestedStyle: nil, defaultClass: true, expected: "default"),
            Row(label: "nothing", delegate: nil, actions: nil, style: nil, nestedStyle: nil, defaultClass: false, expected: nil),
            Row(label: "delegate NSNull stops", delegate: .some(NSNull()), actions: tagged("actions"), style: tagged("style"),
                nestedStyle: nil, defaultClass: true, expected: nil),
            Row(label: "actions NSNull stops", delegate: nil, actions: NSNull(), style: tagged("style"),
                nestedStyle: nil, defaultClass: true, expected: nil),
            Row(label: "style NSNull stops", delegate: nil, actions: nil, style: NSNull(),
                nestedStyle: tagged("nested"), defaultClass: true, expected: nil),
            Row(label: "nested NSNull stops", delegate: nil, actions: nil, style: nil,
                nestedStyle: NSNull(), defaultClass: true, expected: nil),
        ]
        for row in rows {
            let layer: CALayer = row.defaultClass ? DefaultActionLayer() : CALayer()
            let delegate = DictionaryActionDelegate()
            if case .some(let answer) = row.delegate {
                if let answer { delegate.answers["position"] = answer }
                layer.delegate = delegate
            }
            if let a = row.actions { layer.actions = ["position": a] }
            var style: [AnyHashable: Any] = [:]
            if let s = row.style { style["actions"] = ["position": s] as [String: CAAction] }
            if let n = row.nestedStyle { style["style"] = ["actions": ["position": n] as [String: CAAction]] as [AnyHashable: Any] }
            if !style.isEmpty { layer.style = style }
            XCTAssertEqual(tag(layer.action(forKey: "position")), row.expected, row.label)
            withExtendedLifetime(delegate) {}
        }
    }

    func testDefaultActionIsNilForCALayer() {
        for key in ["position", "bounds", "opacity", "transform", "onOrderIn"] {
            XCTAssertNil(CALayer.defaultAction(forKey: key), key)
            XCTAssertNil(CALayer().action(forKey: key), key)
        }
    }

    func testOtherKeysAreNotAffected() {
        let layer = CALayer()
        layer.actions = ["position": tagged("actions")]
        XCTAssertNil(layer.action(forKey: "bounds"))
        XCTAssertEqual(tag(layer.action(forKey: "position")), "actions")
    }

    func testDisableActionsDoesNotChangeActionForKey() {
        let layer = CALayer()
        layer.actions = ["opacity": tagged("actions")]
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        XCTAssertEqual(tag(layer.action(forKey: "opacity")), "actions")
        CATransaction.commit()
    }

    // MARK: - §8.2 implicit animations

    func testStandaloneLayersNeverAnimateImplicitly() {
        let layer = CALayer()
        layer.position = CGPoint(x: 100, y: 0)
        layer.opacity = 0.5
        XCTAssertNil(layer.animationKeys())
        XCTAssertEqual(layer.attachedAnimationCount, 0)
        XCTAssertFalse(layer.isInLiveTree)
        // Even with an explicit action: the setter does not ask standalone layers.
        let withAction = CALayer()
        withAction.actions = ["opacity": tagged("opacity")]
        withAction.opacity = 0.2
        XCTAssertNil(withAction.animationKeys())
    }

    func testImplicitAnimationKeyDurationAndCurve() {
        let (_, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        XCTAssertTrue(child.isInLiveTree)
        child.opacity = 0.5
        XCTAssertEqual(child.animationKeys() ?? [], ["opacity"])
        guard let a = child.animation(forKey: "opacity") as? CABasicAnimation else { return XCTFail("no implicit animation") }
        XCTAssertEqual(a.keyPath, "opacity")
        XCTAssertEqual(a.duration, 0.25, accuracy: 1e-12)
        XCTAssertEqual(a.timingFunction, CAMediaTimingFunction(name: .default))
        XCTAssertEqual(AnimatableValue.double(a.fromValue as Any) ?? .nan, 1, accuracy: 1e-9, "fromValue = old model value")
        XCTAssertNil(a.toValue, "to the model value")
        XCTAssertEqual(a.beginTime, 0, accuracy: 1e-12, "starts now")
        XCTAssertEqual(Double(child.opacity), 0.5, "the model changes at once")
        XCTAssertEqual(Double(child.presentationProperties(atLocalTime: 0.125).opacity), 1 - 0.5 * 0.802403, accuracy: 1e-6)
        XCTAssertEqual(Double(child.presentationProperties(atLocalTime: 0.25).opacity), 0.5, accuracy: 1e-6)
    }

    func testImplicitAnimationTakesTransactionSettings() {
        let (_, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
        child.position = CGPoint(x: 100, y: 0)
        CATransaction.commit()
        let a = child.animation(forKey: "position")
        XCTAssertEqual(a?.duration ?? .nan, 2, accuracy: 1e-12)
        XCTAssertEqual(a?.timingFunction, CAMediaTimingFunction(name: .easeIn))
        XCTAssertEqual(Double(child.presentationProperties(atLocalTime: 1).position.x), 31.535681, accuracy: 1e-6)
    }

    func testNoImplicitAnimationWhenSuppressed() {
        let (_, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        // disableActions
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        child.position = CGPoint(x: 10, y: 0)
        CATransaction.commit()
        XCTAssertNil(child.animationKeys(), "disableActions")
        // NSNull in actions
        child.actions = ["position": NSNull()]
        child.position = CGPoint(x: 20, y: 0)
        XCTAssertNil(child.animationKeys(), "NSNull")
        // unchanged value
        child.actions = nil
        child.position = CGPoint(x: 20, y: 0)
        XCTAssertNil(child.animationKeys(), "same value: nothing happens")
        // a delegate answering NSNull (as a UIView does outside animation blocks)
        let delegate = DictionaryActionDelegate()
        delegate.answers["position"] = NSNull()
        child.delegate = delegate
        child.position = CGPoint(x: 30, y: 0)
        XCTAssertNil(child.animationKeys(), "delegate NSNull")
        XCTAssertFalse(delegate.asked.isEmpty, "the delegate is asked")
        XCTAssertTrue(delegate.asked.allSatisfy { $0 == "position" })
        // back to normal: animates
        child.delegate = nil
        child.position = CGPoint(x: 40, y: 0)
        XCTAssertEqual(child.animationKeys() ?? [], ["position"])
    }

    func testExplicitActionRunsInsteadOfTheDefaultAnimation() {
        let (_, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        let custom = CABasicAnimation(keyPath: "opacity")
        custom.fromValue = 0.0
        custom.duration = 3
        child.actions = ["opacity": custom]
        child.opacity = 0.8
        let added = child.animation(forKey: "opacity") as? CABasicAnimation
        XCTAssertEqual(added?.duration ?? .nan, 3, accuracy: 1e-12)
        XCTAssertEqual(AnimatableValue.double(added?.fromValue as Any) ?? .nan, 0, accuracy: 1e-12)
        XCTAssertEqual(Double(child.presentationProperties(atLocalTime: 1.5).opacity), 0.4, accuracy: 1e-6)
    }

    func testFrameAnimatesThroughPositionAndBounds() {
        let (_, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        child.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        let keys = Set(child.animationKeys() ?? [])
        XCTAssertEqual(keys, ["position", "bounds"])
    }

    func testShapePathHasNoImplicitAnimation() {
        let root = CALayer()
        let shape = CAShapeLayer()
        root.addSublayer(shape)
        let timeline = LayerTimeline(root: root)
        defer { withExtendedLifetime(timeline) {} }
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        XCTAssertNil(shape.animationKeys(), "path: animatable, never implicitly")
        shape.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        XCTAssertEqual(shape.animationKeys() ?? [], ["fillColor"])
    }

    func testNewSublayerAnimatesAfterTheNextFrame() {
        let (root, _, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        let late = CALayer()
        root.addSublayer(late)
        timeline.advance(to: 0)
        XCTAssertTrue(late.isInLiveTree)
        late.position = CGPoint(x: 5, y: 5)
        XCTAssertEqual(late.animationKeys() ?? [], ["position"])
    }

    func testOrderInAndOrderOutActions() {
        let (root, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        // Removing a committed layer from the visible tree asks for onOrderOut.
        let fadeOut = tagged("opacity")
        child.actions = [kCAOnOrderOut: fadeOut]
        child.removeFromSuperlayer()
        XCTAssertNotNil(child.animation(forKey: kCAOnOrderOut), "onOrderOut on removal")

        // Adding a layer to a visible tree asks it for onOrderIn (§8.2 [doc]).
        let newcomer = CALayer()
        newcomer.actions = [kCAOnOrderIn: tagged("opacity")]
        root.addSublayer(newcomer)
        XCTAssertNotNil(newcomer.animation(forKey: kCAOnOrderIn), "onOrderIn when added to a visible tree")
    }

    func testHidingRunsOrderActions() {
        let (_, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        child.actions = [kCAOnOrderOut: tagged("opacity"), kCAOnOrderIn: tagged("opacity"), "hidden": NSNull()]
        child.isHidden = true
        XCTAssertNotNil(child.animation(forKey: kCAOnOrderOut), "onOrderOut when hidden (§8.2 [doc])")
        child.isHidden = false
        XCTAssertNotNil(child.animation(forKey: kCAOnOrderIn), "onOrderIn when un-hidden (§8.2 [doc])")
    }

    // MARK: - §8.3 CATransaction

    func testTransactionKeys() {
        XCTAssertEqual(CATransaction.animationDurationKey, "animationDuration")
        XCTAssertEqual(CATransaction.animationTimingFunctionKey, "animationTimingFunction")
        XCTAssertEqual(CATransaction.disableActionsKey, "disableActions")
        XCTAssertEqual(CATransaction.completionBlockKey, "completionBlock")
    }

    func testTransactionDefaults() {
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        XCTAssertNil(CATransaction.animationTimingFunction())
        XCTAssertFalse(CATransaction.disableActions())
        XCTAssertNil(CATransaction.value(forKey: "anything"))
    }

    func testTransactionNestingRestoresValues() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setDisableActions(true)
        XCTAssertEqual(CATransaction.animationDuration(), 2)
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 2, "inner scope reads the outer value")
        XCTAssertTrue(CATransaction.disableActions())
        CATransaction.setAnimationDuration(3)
        CATransaction.setDisableActions(false)
        XCTAssertEqual(CATransaction.animationDuration(), 3)
        XCTAssertFalse(CATransaction.disableActions())
        XCTAssertEqual(CATransaction.value(forKey: "animationDuration") as? Double, 3, "the same value by key")
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 2, "commit restores the enclosing scope")
        XCTAssertTrue(CATransaction.disableActions())
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        XCTAssertFalse(CATransaction.disableActions())
    }

    func testTransactionArbitraryValues() {
        CATransaction.begin()
        CATransaction.setValue("outer", forKey: "custom")
        CATransaction.setValue(1.5, forKey: "animationDuration")
        XCTAssertEqual(CATransaction.animationDuration(), 1.5, "setValue(forKey:) sets the named values too")
        CATransaction.begin()
        XCTAssertEqual(CATransaction.value(forKey: "custom") as? String, "outer")
        CATransaction.setValue("inner", forKey: "custom")
        XCTAssertEqual(CATransaction.value(forKey: "custom") as? String, "inner")
        XCTAssertNil(CATransaction.value(forKey: "unset"))
        CATransaction.commit()
        XCTAssertEqual(CATransaction.value(forKey: "custom") as? String, "outer")
        CATransaction.commit()
        XCTAssertNil(CATransaction.value(forKey: "custom"))
    }

    func testCommitWithoutBeginIsHarmless() {
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        CATransaction.begin()
        CATransaction.setAnimationDuration(4)
        CATransaction.commit()
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
    }

    func testCompletionBlockWithoutAnimationsRunsAtCommit() {
        let counter = Counter()
        CATransaction.begin()
        CATransaction.setCompletionBlock { counter.value += 1 }
        XCTAssertNotNil(CATransaction.completionBlock())
        XCTAssertEqual(counter.value, 0)
        CATransaction.commit()
        XCTAssertEqual(counter.value, 1)
    }

    func testCompletionBlockWaitsForItsAnimations() {
        let (root, child, timeline) = liveTree()
        let counter = Counter()
        // An animation added before the block is not awaited.
        CATransaction.begin()
        child.add(positionX(from: 0, to: 1, duration: 5), forKey: "early")
        CATransaction.setCompletionBlock { counter.value += 1 }
        child.add(positionX(from: 0, to: 1, duration: 1), forKey: "a")
        root.add(positionX(from: 0, to: 1, duration: 2), forKey: "b")
        CATransaction.commit()
        XCTAssertEqual(counter.value, 0, "animations pending")
        timeline.advance(to: 0.5)
        XCTAssertEqual(counter.value, 0)
        timeline.advance(to: 1.5)
        XCTAssertEqual(counter.value, 0, "one of two finished")
        timeline.advance(to: 2.0)
        XCTAssertEqual(counter.value, 1, "both finished (the earlier 5 s animation is not awaited)")
        timeline.advance(to: 6)
        XCTAssertEqual(counter.value, 1, "runs once")
    }

    func testCompletionBlockCountsRemovedAnimations() {
        let (_, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        let counter = Counter()
        CATransaction.begin()
        CATransaction.setCompletionBlock { counter.value += 1 }
        child.add(positionX(from: 0, to: 1, duration: 10), forKey: "a")
        CATransaction.commit()
        XCTAssertEqual(counter.value, 0)
        child.removeAnimation(forKey: "a")
        XCTAssertEqual(counter.value, 1, "removal completes the group")
    }

    func testImplicitTransactionCompletionBlock() {
        let (_, child, timeline) = liveTree()
        let counter = Counter()
        CATransaction.setCompletionBlock { counter.value += 1 }
        child.add(positionX(from: 0, to: 1, duration: 1), forKey: "a")
        timeline.advance(to: 0.1)  // commits the implicit transaction
        XCTAssertEqual(counter.value, 0)
        XCTAssertNil(CATransaction.completionBlock(), "the implicit transaction ended")
        timeline.advance(to: 1.1)
        XCTAssertEqual(counter.value, 1)
    }

    // MARK: - §9 delegates and removedOnCompletion

    func testDelegateStartAndStop() {
        let (_, child, timeline) = liveTree()
        let recorder = EventRecorder()
        let a = positionX(from: 0, to: 100, duration: 1, begin: 0.5)
        a.delegate = recorder
        child.add(a, forKey: "a")
        timeline.advance(to: 0.2)
        XCTAssertEqual(recorder.events, [], "not started yet")
        timeline.advance(to: 0.6)
        XCTAssertEqual(recorder.events, ["start"])
        XCTAssertTrue(recorder.animations.first === child.animation(forKey: "a"), "the delegate hears about the layer's copy")
        timeline.advance(to: 1.2)
        XCTAssertEqual(recorder.events, ["start"])
        timeline.advance(to: 1.5)
        XCTAssertEqual(recorder.events, ["start", "stop(finished)"])
        XCTAssertNil(child.animation(forKey: "a"), "removedOnCompletion")
        timeline.advance(to: 3)
        XCTAssertEqual(recorder.events, ["start", "stop(finished)"], "messages sent once")
    }

    func testSkippingAWholeWindowSendsBothMessages() {
        let (_, child, timeline) = liveTree()
        let recorder = EventRecorder()
        let a = positionX(from: 0, to: 100, duration: 1)
        a.delegate = recorder
        child.add(a, forKey: "a")
        timeline.advance(to: 10)
        XCTAssertEqual(recorder.events, ["start", "stop(finished)"])
    }

    func testRemovedOnCompletionBookkeeping() {
        let (_, child, timeline) = liveTree()
        let kept = positionX(from: 0, to: 100, duration: 1)
        kept.isRemovedOnCompletion = false
        kept.fillMode = .forwards
        child.add(kept, forKey: "kept")
        let removed = positionX(from: 0, to: 50, duration: 1)
        removed.fillMode = .forwards
        child.add(removed, forKey: "removed")
        timeline.advance(to: 0.5)
        XCTAssertEqual(child.animationKeys() ?? [], ["kept", "removed"])
        timeline.advance(to: 2)
        XCTAssertEqual(child.animationKeys() ?? [], ["kept"])
        XCTAssertEqual(Double(child.presentation()?.position.x ?? .nan), 100, accuracy: 1e-9, "forward fill holds")
        XCTAssertEqual(Double(child.position.x), 0, "model unchanged")
    }

    func testGroupChildDelegatesAreIgnored() {
        let (_, child, timeline) = liveTree()
        let groupRecorder = EventRecorder(), childRecorder = EventRecorder()
        let inner = positionX(from: 0, to: 1, duration: 1)
        inner.delegate = childRecorder
        let g = CAAnimationGroup()
        g.animations = [inner]
        g.duration = 1
        g.delegate = groupRecorder
        child.add(g, forKey: "g")
        timeline.advance(to: 2)
        XCTAssertEqual(groupRecorder.events, ["start", "stop(finished)"])
        XCTAssertEqual(childRecorder.events, [])
    }

    // MARK: - §9 presentation() and model()

    func testPresentationIsNilForAStandaloneLayer() {
        XCTAssertNil(CALayer().presentation(), "a never-committed layer has no presentation (§9 [apple-test])")
    }

    func testPresentationInALiveTree() {
        let (root, child, timeline) = liveTree()
        child.position = CGPoint(x: 0, y: 9)
        child.removeAllAnimations()
        child.add(positionX(from: 0, to: 100, duration: 1), forKey: "a")
        timeline.advance(to: 0.5)
        guard let p = child.presentation() else { return XCTFail("no presentation") }
        XCTAssertEqual(Double(p.position.x), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(p.position.y), 9, accuracy: 1e-9)
        XCTAssertTrue(p.model() === child)
        XCTAssertTrue(child.model() === child)
        XCTAssertFalse(p === child)
        XCTAssertEqual(Double(child.position.x), 0, "model untouched")
        guard let rp = root.presentation(), let sub = rp.sublayers?.first else { return XCTFail("no root presentation") }
        XCTAssertEqual(Double(sub.position.x), 50, accuracy: 1e-9, "sublayers are presentation copies")
        XCTAssertTrue(sub.superlayer === rp)
        XCTAssertTrue(sub.model() === child)
        XCTAssertTrue(rp.model() === root)
    }

    // MARK: - §10 key paths

    func testFieldKeyPathAnimations() {
        struct Row { let keyPath: String; let from: Any; let to: Any; let read: (LayerProperties) -> [CGFloat]; let expected: [Double] }
        let pos: (LayerProperties) -> [CGFloat] = { [$0.position.x, $0.position.y] }
        let bounds: (LayerProperties) -> [CGFloat] = { [$0.bounds.width, $0.bounds.height, $0.bounds.minX, $0.bounds.minY] }
        let shadow: (LayerProperties) -> [CGFloat] = { [$0.shadowOffset.width, $0.shadowOffset.height] }
        let cr: (LayerProperties) -> [CGFloat] = { [$0.contentsRect.minX, $0.contentsRect.minY, $0.contentsRect.width, $0.contentsRect.height] }
        let rows: [Row] = [
            Row(keyPath: "position.x", from: 0.0, to: 100.0, read: pos, expected: [50, 30]),
            Row(keyPath: "position.y", from: 0.0, to: 100.0, read: pos, expected: [0, 50]),
            Row(keyPath: "bounds.size.width", from: 10.0, to: 30.0, read: bounds, expected: [20, 40, 5, 6]),
            Row(keyPath: "bounds.size.height", from: 0.0, to: 100.0, read: bounds, expected: [10, 50, 5, 6]),
            Row(keyPath: "bounds.size", from: CGSize(width: 10, height: 10), to: CGSize(width: 30, height: 50), read: bounds, expected: [20, 30, 5, 6]),
            Row(keyPath: "bounds.origin", from: CGPoint.zero, to: CGPoint(x: 10, y: 20), read: bounds, expected: [10, 40, 5, 10]),
            Row(keyPath: "bounds.origin.x", from: 0.0, to: 10.0, read: bounds, expected: [10, 40, 5, 6]),
            Row(keyPath: "bounds.origin.y", from: 0.0, to: 20.0, read: bounds, expected: [10, 40, 5, 10]),
            Row(keyPath: "shadowOffset.width", from: 0.0, to: 10.0, read: shadow, expected: [5, -3]),
            Row(keyPath: "shadowOffset.height", from: 0.0, to: 10.0, read: shadow, expected: [0, 5]),
            Row(keyPath: "contentsRect.size.height", from: 1.0, to: 0.5, read: cr, expected: [0, 0, 1, 0.75]),
            Row(keyPath: "contentsRect.origin.x", from: 0.0, to: 0.5, read: cr, expected: [0.25, 0, 1, 1]),
            Row(keyPath: "anchorPoint.x", from: 0.0, to: 1.0, read: { [$0.anchorPoint.x, $0.anchorPoint.y] }, expected: [0.5, 0.5]),
        ]
        for row in rows {
            let layer = CALayer()
            layer.position = CGPoint(x: 0, y: 30)
            layer.bounds = CGRect(x: 5, y: 6, width: 10, height: 40)
            let a = CABasicAnimation(keyPath: row.keyPath)
            a.fromValue = row.from; a.toValue = row.to
            a.duration = 1; a.beginTime = 0
            layer.add(a, forKey: "k")
            let values = row.read(layer.presentationProperties(atLocalTime: 0.5)).map { Double($0) }
            XCTAssertEqual(values.count, row.expected.count, row.keyPath)
            for (value, expected) in zip(values, row.expected) {
                XCTAssertEqual(value, expected, accuracy: 1e-9, "\(row.keyPath): \(values)")
            }
        }
    }

    func testTransformFieldKeyPathAnimations() {
        let c = cos(Double.pi / 4), s = sin(Double.pi / 4)
        typealias Entry = (row: Int, column: Int, value: Double)
        struct Row { let keyPath: String; let from: Any; let to: Any; let entries: [Entry] }
        let rows: [Row] = [
            Row(keyPath: "transform.rotation.z", from: 0.0, to: Double.pi / 2, entries: [(0, 0, c), (0, 1, s), (1, 0, -s), (1, 1, c)]),
            Row(keyPath: "transform.rotation", from: 0.0, to: Double.pi / 2, entries: [(0, 0, c), (0, 1, s), (1, 0, -s), (1, 1, c)]),
            Row(keyPath: "transform.rotation.x", from: 0.0, to: Double.pi / 2, entries: [(1, 1, c), (1, 2, s), (2, 1, -s), (2, 2, c), (0, 0, 1)]),
            Row(keyPath: "transform.rotation.y", from: 0.0, to: Double.pi / 2, entries: [(0, 0, c), (0, 2, -s), (2, 0, s), (2, 2, c), (1, 1, 1)]),
            Row(keyPath: "transform.scale.x", from: 1.0, to: 3.0, entries: [(0, 0, 2), (1, 1, 1), (2, 2, 1)]),
            Row(keyPath: "transform.scale.y", from: 1.0, to: 3.0, entries: [(0, 0, 1), (1, 1, 2), (2, 2, 1)]),
            Row(keyPath: "transform.scale.z", from: 1.0, to: 3.0, entries: [(0, 0, 1), (1, 1, 1), (2, 2, 2)]),
            Row(keyPath: "transform.scale", from: 1.0, to: 3.0, entries: [(0, 0, 2), (1, 1, 2), (2, 2, 2)]),
            Row(keyPath: "transform.translation.x", from: 0.0, to: 100.0, entries: [(3, 0, 50), (3, 1, 0), (3, 2, 0)]),
            Row(keyPath: "transform.translation.y", from: 0.0, to: 100.0, entries: [(3, 0, 0), (3, 1, 50), (3, 2, 0)]),
            Row(keyPath: "transform.translation.z", from: 0.0, to: 100.0, entries: [(3, 0, 0), (3, 1, 0), (3, 2, 50)]),
            Row(keyPath: "transform.translation", from: CGSize.zero, to: CGSize(width: 100, height: 40), entries: [(3, 0, 50), (3, 1, 20), (3, 2, 0)]),
            // A scalar field spins: 0 → 2π passes through π at the midpoint (a matrix animation would not move).
            Row(keyPath: "transform.rotation.z", from: 0.0, to: 2 * Double.pi, entries: [(0, 0, -1), (1, 1, -1)]),
        ]
        for row in rows {
            let layer = CALayer()
            let a = CABasicAnimation(keyPath: row.keyPath)
            a.fromValue = row.from; a.toValue = row.to
            a.duration = 1; a.beginTime = 0
            layer.add(a, forKey: "k")
            let m = layer.presentationProperties(atLocalTime: 0.5).transform
            for e in row.entries {
                XCTAssertEqual(Double(m[e.row, e.column]), e.value, accuracy: 1e-6, "\(row.keyPath) m\(e.row + 1)\(e.column + 1)")
            }
        }
        // sublayerTransform has the same fields.
        let layer = CALayer()
        let a = CABasicAnimation(keyPath: "sublayerTransform.scale")
        a.fromValue = 1.0; a.toValue = 3.0; a.duration = 1; a.beginTime = 0
        layer.add(a, forKey: "k")
        let m = layer.presentationProperties(atLocalTime: 0.5).sublayerTransform
        XCTAssertEqual(Double(m.m11), 2, accuracy: 1e-9)
        XCTAssertEqual(Double(m.m33), 2, accuracy: 1e-9)
        XCTAssertTrue(layer.presentationProperties(atLocalTime: 0.5).transform.isIdentity)
    }

    func testUnknownKeyPathAnimationIsInert() {
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 4)
        for keyPath in ["position.z", "nonsense", "bounds.size.depth", "transform.skew"] {
            let a = CABasicAnimation(keyPath: keyPath)
            a.fromValue = 0.0; a.toValue = 100.0; a.duration = 1; a.beginTime = 0
            layer.add(a, forKey: keyPath)
        }
        XCTAssertEqual(layer.animationKeys()?.count, 4, "kept for timing")
        var presented = layer.presentationProperties(atLocalTime: 0.5)
        // An unknown plain key is a custom property, animated as Apple's key-value coding animates it.
        XCTAssertEqual(presented.customValues.removeValue(forKey: "nonsense"), .number(50))
        XCTAssertEqual(presented, layer.properties, "the invalid key paths change nothing")
    }

    func testValueForKeyPath() {
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 4)
        layer.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        layer.transform = CATransform3DConcat(CATransform3DMakeRotation(0.3, 0, 0, 1), CATransform3DMakeTranslation(5, 6, 7))
        func n(_ keyPath: String) -> Double { AnimatableValue.double(layer.value(forKeyPath: keyPath) as Any) ?? .nan }
        let rows: [(String, Double)] = [
            ("position.x", 3), ("position.y", 4), ("bounds.size.width", 30), ("bounds.size.height", 40),
            ("bounds.origin.x", 1), ("bounds.origin.y", 2), ("transform.rotation.z", 0.3), ("transform.rotation", 0.3),
            ("transform.rotation.x", 0), ("transform.translation.x", 5), ("transform.translation.y", 6),
            ("transform.translation.z", 7), ("transform.scale", 1), ("shadowOffset.height", -3), ("opacity", 1),
            ("anchorPoint.y", 0.5),
        ]
        for (keyPath, expected) in rows { XCTAssertEqual(n(keyPath), expected, accuracy: 1e-9, keyPath) }
        XCTAssertEqual(layer.value(forKeyPath: "bounds.size") as? CGSize, CGSize(width: 30, height: 40))
        XCTAssertEqual(layer.value(forKeyPath: "bounds.origin") as? CGPoint, CGPoint(x: 1, y: 2))
        let translation = layer.value(forKeyPath: "transform.translation") as? CGSize
        XCTAssertEqual(Double(translation?.width ?? .nan), 5, accuracy: 1e-9)
        XCTAssertEqual(Double(translation?.height ?? .nan), 6, accuracy: 1e-9)
        let scaled = CALayer()
        scaled.transform = CATransform3DMakeScale(2, 3, 4)
        XCTAssertEqual(AnimatableValue.double(scaled.value(forKeyPath: "transform.scale.y") as Any) ?? .nan, 3, accuracy: 1e-9)
        XCTAssertEqual(AnimatableValue.double(scaled.value(forKeyPath: "transform.scale.z") as Any) ?? .nan, 4, accuracy: 1e-9)
    }

    func testSetValueForKeyPath() {
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 4)
        layer.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        layer.setValue(5.0, forKeyPath: "position.x")
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 4))
        layer.setValue(CGFloat(50), forKeyPath: "bounds.size.width")
        XCTAssertEqual(layer.bounds, CGRect(x: 1, y: 2, width: 50, height: 40))
        layer.setValue(CGPoint(x: 7, y: 8), forKeyPath: "bounds.origin")
        XCTAssertEqual(layer.bounds, CGRect(x: 7, y: 8, width: 50, height: 40))
        layer.setValue(2, forKeyPath: "shadowOffset.width")
        XCTAssertEqual(layer.shadowOffset, CGSize(width: 2, height: -3))
        layer.setValue(0.5, forKeyPath: "contentsRect.size.height")
        XCTAssertEqual(layer.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 0.5))
        layer.setValue(0.5, forKey: "opacity")
        XCTAssertEqual(layer.opacity, 0.5)
        layer.setValue(Double.pi / 2, forKeyPath: "transform.rotation.z")
        XCTAssertEqual(Double(layer.transform.m12), 1, accuracy: 1e-9)
        XCTAssertEqual(Double(layer.transform.m21), -1, accuracy: 1e-9)

        let scaled = CALayer()
        scaled.setValue(2.0, forKeyPath: "transform.scale")
        XCTAssertTrue(scaled.transform.isApproximatelyEqual(to: CATransform3DMakeScale(2, 2, 2), tolerance: 1e-9), "transform.scale writes all three")
        scaled.setValue(10.0, forKeyPath: "transform.translation.x")
        XCTAssertEqual(Double(scaled.transform.m41), 10, accuracy: 1e-9)
        XCTAssertEqual(Double(scaled.transform.m11), 2, accuracy: 1e-9, "other fields kept")

        // Unknown keys store values, as key-value coding allows.
        layer.setValue("hello", forKey: "customKey")
        XCTAssertEqual(layer.value(forKey: "customKey") as? String, "hello")
    }

    func testSetValueForKeyPathAnimatesImplicitly() {
        let (_, child, timeline) = liveTree()
        defer { withExtendedLifetime(timeline) {} }
        child.setValue(100.0, forKeyPath: "position.x")
        XCTAssertEqual(child.animationKeys() ?? [], ["position"], "the property's key, not the field's")
        XCTAssertEqual(Double(child.presentationProperties(atLocalTime: 0.125).position.x), 80.240339, accuracy: 1e-6)
    }

    // MARK: - §11.1 defaults

    func testGeometryDefaults() {
        let layer = CALayer()
        XCTAssertEqual(layer.bounds, .zero)
        XCTAssertEqual(layer.position, .zero)
        XCTAssertEqual(layer.anchorPoint, CGPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(layer.anchorPointZ, 0)
        XCTAssertEqual(layer.zPosition, 0)
        XCTAssertTrue(CATransform3DIsIdentity(layer.transform))
        XCTAssertTrue(CATransform3DIsIdentity(layer.sublayerTransform))
        XCTAssertFalse(layer.masksToBounds)
        XCTAssertFalse(layer.isGeometryFlipped)
        XCTAssertFalse(layer.isHidden)
        XCTAssertTrue(layer.isDoubleSided)
        XCTAssertEqual(layer.contentsScale, 1)
        XCTAssertEqual(layer.frame, .zero)
        XCTAssertNil(layer.superlayer)
        XCTAssertNil(layer.sublayers)
        XCTAssertNil(layer.mask)
    }

    func testAppearanceAndTimingDefaults() {
        let layer = CALayer()
        XCTAssertEqual(layer.opacity, 1)
        XCTAssertEqual(layer.cornerRadius, 0)
        XCTAssertEqual(layer.maskedCorners, .all)
        XCTAssertEqual(layer.maskedCorners.rawValue, 15)
        XCTAssertEqual(layer.cornerCurve, .circular)
        XCTAssertEqual(layer.borderWidth, 0)
        XCTAssertEqual(layer.borderColor, CGColor.black)
        XCTAssertNil(layer.backgroundColor)
        XCTAssertEqual(layer.shadowColor, CGColor.black)
        XCTAssertEqual(layer.shadowOpacity, 0)
        XCTAssertEqual(layer.shadowOffset, CGSize(width: 0, height: -3))
        XCTAssertEqual(layer.shadowRadius, 3)
        XCTAssertNil(layer.shadowPath)
        XCTAssertNil(layer.contents)
        XCTAssertEqual(layer.contentsGravity, .resize)
        XCTAssertEqual(layer.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.contentsCenter, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.minificationFilter, .linear)
        XCTAssertEqual(layer.magnificationFilter, .linear)
        XCTAssertTrue(layer.allowsGroupOpacity)
        XCTAssertFalse(layer.shouldRasterize)
        // Layer timing (§1.1): duration is infinite.
        XCTAssertEqual(layer.duration, .infinity)
        XCTAssertEqual(layer.beginTime, 0)
        XCTAssertEqual(layer.speed, 1)
        XCTAssertEqual(layer.timeOffset, 0)
        XCTAssertEqual(layer.repeatCount, 0)
        XCTAssertEqual(layer.repeatDuration, 0)
        XCTAssertFalse(layer.autoreverses)
        XCTAssertEqual(layer.fillMode, .removed)
        XCTAssertEqual(CALayerCornerCurve.expansionFactor(.continuous), 1.528665, accuracy: 1e-6)
        XCTAssertEqual(AnimatableValue.double(CALayer.defaultValue(forKey: "opacity") as Any) ?? .nan, 1)
        XCTAssertEqual(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint, CGPoint(x: 0.5, y: 0.5))
    }

    // MARK: - §11.1 frame, anchor point, affine transform

    func testFrameGetAndSet() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 5, y: 5, width: 1, height: 1)
        layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(layer.bounds, CGRect(x: 5, y: 5, width: 30, height: 40), "bounds.origin kept, size set")
        XCTAssertEqual(layer.position, CGPoint(x: 25, y: 40), "the anchor lands on the mapped point")
        XCTAssertEqual(layer.frame, CGRect(x: 10, y: 20, width: 30, height: 40))

        let cornered = CALayer()
        cornered.anchorPoint = .zero
        cornered.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(cornered.position, CGPoint(x: 10, y: 20))
        XCTAssertEqual(cornered.frame, CGRect(x: 10, y: 20, width: 30, height: 40))
    }

    func testFrameSetterUnderTransforms() {
        let scaled = CALayer()
        scaled.transform = CATransform3DMakeScale(2, 4, 1)
        scaled.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        XCTAssertEqual(Double(scaled.bounds.width), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(scaled.bounds.height), 12.5, accuracy: 1e-9)
        XCTAssertEqual(Double(scaled.bounds.minX), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(scaled.position.x), 60, accuracy: 1e-9)
        XCTAssertEqual(Double(scaled.position.y), 45, accuracy: 1e-9)
        let back = scaled.frame
        XCTAssertEqual(Double(back.minX), 10, accuracy: 1e-9); XCTAssertEqual(Double(back.minY), 20, accuracy: 1e-9)
        XCTAssertEqual(Double(back.width), 100, accuracy: 1e-9); XCTAssertEqual(Double(back.height), 50, accuracy: 1e-9)

        let turned = CALayer()
        turned.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        turned.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        XCTAssertEqual(Double(turned.bounds.width), 20, accuracy: 1e-9)
        XCTAssertEqual(Double(turned.bounds.height), 40, accuracy: 1e-9)
        XCTAssertEqual(Double(turned.frame.width), 40, accuracy: 1e-9)
        XCTAssertEqual(Double(turned.frame.height), 20, accuracy: 1e-9)
        XCTAssertEqual(Double(turned.frame.minX), 0, accuracy: 1e-9)
    }

    func testAnchorPointOutsideTheUnitSquare() {
        let layer = CALayer()
        layer.anchorPoint = CGPoint(x: 2, y: -1)
        XCTAssertEqual(layer.anchorPoint, CGPoint(x: 2, y: -1), "kept as given")
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(layer.frame, CGRect(x: -20, y: 10, width: 10, height: 10))
        // Rotating about an anchor outside the layer swings it around that point.
        layer.transform = CATransform3DMakeRotation(.pi, 0, 0, 1)
        let f = layer.frame
        XCTAssertEqual(Double(f.minX), 10, accuracy: 1e-9)
        XCTAssertEqual(Double(f.minY), -20, accuracy: 1e-9)
    }

    func testAffineTransform() {
        let layer = CALayer()
        layer.transform = CATransform3DConcat(CATransform3DMakeScale(2, 3, 1), CATransform3DMakeTranslation(4, 5, 0))
        let a = layer.affineTransform()
        XCTAssertEqual(a, CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 4, ty: 5))
        layer.transform = CATransform3DMakeRotation(0.5, 1, 0, 0)
        XCTAssertEqual(layer.affineTransform(), .identity, "not affine → identity")
        var perspective = CATransform3DIdentity
        perspective.m34 = -0.002
        layer.transform = perspective
        XCTAssertEqual(layer.affineTransform(), .identity, "perspective → identity")
        layer.transform = CATransform3DMakeTranslation(0, 0, 9)
        layer.setAffineTransform(CGAffineTransform(translationX: 1, y: 2))
        XCTAssertEqual(layer.transform, CATransform3DMakeTranslation(1, 2, 0), "setAffineTransform replaces the whole transform")
    }

    // MARK: - §11.1 conversion

    func testConvertThroughScrolledBoundsAndSublayerTransform() {
        let grand = CALayer()
        grand.bounds = CGRect(x: 0, y: 0, width: 300, height: 300)
        let parent = CALayer()
        parent.bounds = CGRect(x: 10, y: 20, width: 100, height: 100)  // the origin scrolls the sublayers
        parent.position = CGPoint(x: 50, y: 50)
        grand.addSublayer(parent)
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        child.position = CGPoint(x: 50, y: 50)
        parent.addSublayer(child)
        let inParent = child.convert(CGPoint.zero, to: parent)
        XCTAssertEqual(Double(inParent.x), 40, accuracy: 1e-9)
        XCTAssertEqual(Double(inParent.y), 40, accuracy: 1e-9)
        let inGrand = child.convert(CGPoint.zero, to: grand)
        XCTAssertEqual(Double(inGrand.x), 30, accuracy: 1e-9, "(40 − 60) + 50")
        XCTAssertEqual(Double(inGrand.y), 20, accuracy: 1e-9, "(40 − 70) + 50")
        // sublayerTransform about the parent's anchor (60, 70).
        parent.sublayerTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let turned = child.convert(CGPoint.zero, to: parent)
        // (40,40) − (60,70) = (−20,−30) → rotated (+x → +y): (30, −20) → + (60,70) = (90, 50).
        XCTAssertEqual(Double(turned.x), 90, accuracy: 1e-9)
        XCTAssertEqual(Double(turned.y), 50, accuracy: 1e-9)
        let back = child.convert(CGPoint(x: 90, y: 50), from: parent)
        XCTAssertEqual(Double(back.x), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(back.y), 0, accuracy: 1e-9)
        // Rects convert to the box around the converted corners.
        let r = child.convert(CGRect(x: 0, y: 0, width: 20, height: 10), to: parent)
        XCTAssertEqual(Double(r.minX), 80, accuracy: 1e-9)
        XCTAssertEqual(Double(r.minY), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(r.width), 10, accuracy: 1e-9)
        XCTAssertEqual(Double(r.height), 20, accuracy: 1e-9)
    }

    func testConvertBetweenDifferentTrees() {
        let r1 = CALayer(), r2 = CALayer()
        r1.bounds = CGRect(x: 0, y: 0, width: 100, height: 100); r1.position = CGPoint(x: 50, y: 50)
        r2.bounds = CGRect(x: 0, y: 0, width: 100, height: 100); r2.position = CGPoint(x: 150, y: 50)
        let leaf = CALayer()
        leaf.bounds = CGRect(x: 0, y: 0, width: 10, height: 10); leaf.position = CGPoint(x: 20, y: 30)
        r1.addSublayer(leaf)
        let p = r1.convert(CGPoint.zero, to: r2)
        XCTAssertEqual(Double(p.x), -100, accuracy: 1e-9)
        XCTAssertEqual(Double(p.y), 0, accuracy: 1e-9)
        let q = leaf.convert(CGPoint.zero, to: r2)
        XCTAssertEqual(Double(q.x), -85, accuracy: 1e-9, "through both roots as if they shared one space")
        XCTAssertEqual(Double(q.y), 25, accuracy: 1e-9)
        let world = leaf.convert(CGPoint.zero, to: nil)
        XCTAssertEqual(Double(world.x), 15, accuracy: 1e-9, "nil: the root's superlayer space")
        XCTAssertEqual(Double(world.y), 25, accuracy: 1e-9)
        let fromWorld = leaf.convert(CGPoint(x: 15, y: 25), from: nil)
        XCTAssertEqual(Double(fromWorld.x), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(fromWorld.y), 0, accuracy: 1e-9)
    }

    // MARK: - §11.1 hit testing

    func testHitTestAndContains() {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        parent.position = CGPoint(x: 100, y: 100)
        let low = CALayer(), high = CALayer()
        low.name = "low"; high.name = "high"; parent.name = "parent"
        low.bounds = CGRect(x: 0, y: 0, width: 50, height: 50); low.position = CGPoint(x: 50, y: 50)    // 25…75
        high.bounds = CGRect(x: 0, y: 0, width: 20, height: 20); high.position = CGPoint(x: 60, y: 60)  // 50…70
        parent.addSublayer(low); parent.addSublayer(high)

        XCTAssertTrue(low.contains(CGPoint(x: 10, y: 10)))
        XCTAssertTrue(low.contains(CGPoint(x: 0, y: 0)))
        XCTAssertFalse(low.contains(CGPoint(x: 60, y: 10)))
        XCTAssertFalse(low.contains(CGPoint(x: -1, y: 0)))

        let rows: [(CGPoint, String?)] = [
            (CGPoint(x: 60, y: 60), "high"), (CGPoint(x: 30, y: 30), "low"), (CGPoint(x: 150, y: 150), "parent"),
            (CGPoint(x: 250, y: 10), nil),
        ]
        for (point, expected) in rows { XCTAssertEqual(parent.hitTest(point)?.name, expected, "hitTest \(point)") }
        high.isHidden = true
        XCTAssertEqual(parent.hitTest(CGPoint(x: 60, y: 60))?.name, "low", "hidden layers are skipped")
        high.isHidden = false
        low.zPosition = 1
        XCTAssertEqual(parent.hitTest(CGPoint(x: 60, y: 60))?.name, "low", "nearest in drawing order wins")
    }

    // MARK: - §11 hierarchy

    func testSublayerManagement() {
        let parent = CALayer()
        func names() -> [String] { (parent.sublayers ?? []).map { $0.name ?? "?" } }
        func make(_ name: String) -> CALayer { let l = CALayer(); l.name = name; return l }
        let a = make("A"), b = make("B"), c = make("C")
        parent.addSublayer(a); parent.addSublayer(b); parent.addSublayer(c)
        XCTAssertEqual(names(), ["A", "B", "C"])
        XCTAssertTrue(b.superlayer === parent)
        let d = make("D")
        parent.insertSublayer(d, below: b)
        XCTAssertEqual(names(), ["A", "D", "B", "C"])
        let e = make("E")
        parent.insertSublayer(e, above: b)
        XCTAssertEqual(names(), ["A", "D", "B", "E", "C"])
        let f = make("F")
        parent.insertSublayer(f, at: 0)
        XCTAssertEqual(names(), ["F", "A", "D", "B", "E", "C"])
        let g = make("G")
        parent.insertSublayer(g, at: 100)
        XCTAssertEqual(names(), ["F", "A", "D", "B", "E", "C", "G"], "index past the end appends")
        parent.insertSublayer(a, above: c)
        XCTAssertEqual(names(), ["F", "D", "B", "E", "C", "A", "G"], "moving within the parent")
        parent.insertSublayer(g, below: f)
        XCTAssertEqual(names(), ["G", "F", "D", "B", "E", "C", "A"])
        let r = make("R")
        parent.replaceSublayer(b, with: r)
        XCTAssertEqual(names(), ["G", "F", "D", "R", "E", "C", "A"])
        XCTAssertNil(b.superlayer)
        XCTAssertTrue(r.superlayer === parent)
        c.removeFromSuperlayer()
        XCTAssertEqual(names(), ["G", "F", "D", "R", "E", "A"])
        XCTAssertNil(c.superlayer)
        c.removeFromSuperlayer()
        XCTAssertEqual(names(), ["G", "F", "D", "R", "E", "A"], "removing twice is harmless")

        // Adding to another parent moves the layer.
        let other = CALayer()
        other.addSublayer(d)
        XCTAssertEqual(names(), ["G", "F", "R", "E", "A"])
        XCTAssertTrue(d.superlayer === other)
        XCTAssertTrue(d.rootLayer === other)
        XCTAssertTrue(r.rootLayer === parent)

        // The sublayers setter replaces the list and detaches the old layers.
        let x = make("X"), y = make("Y")
        parent.sublayers = [x, y]
        XCTAssertEqual(names(), ["X", "Y"])
        XCTAssertNil(g.superlayer)
        XCTAssertTrue(x.superlayer === parent)
        parent.sublayers = nil
        XCTAssertNil(parent.sublayers)
        XCTAssertNil(y.superlayer)
    }

    func testMaskHasNoSuperlayer() {
        let holder = CALayer(), masked = CALayer(), m = CALayer()
        holder.addSublayer(m)
        masked.mask = m
        XCTAssertTrue(masked.mask === m)
        XCTAssertNil(m.superlayer, "a mask has no superlayer")
        XCTAssertNil(holder.sublayers, "it left its old superlayer")
        XCTAssertNil(masked.sublayers, "and is not a sublayer of the masked layer")
        masked.mask = nil
        XCTAssertNil(masked.mask)
        // The mask's geometry is in the masked layer's coordinate space (it joins the tree as a mask).
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let maskLayer = CALayer()
        maskLayer.name = "mask"
        root.mask = maskLayer
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.layers.count, 2)
        XCTAssertEqual(tree.layers[0].mask, 1)
        XCTAssertTrue(tree.layers[1].isMask)
        XCTAssertEqual(tree.layers[1].parent, 0)
        XCTAssertEqual(tree.layers[0].sublayersInDrawingOrder, [], "a mask is not drawn as a sublayer")
    }

    // MARK: - §11.3 / §11.1 geometry flipping

    func testGeometryFlippedAndContentsAreFlipped() {
        let grand = CALayer(), parent = CALayer(), child = CALayer()
        grand.addSublayer(parent); parent.addSublayer(child)
        XCTAssertFalse(child.contentsAreFlipped())
        parent.isGeometryFlipped = true
        XCTAssertTrue(parent.isGeometryFlipped)
        XCTAssertTrue(child.contentsAreFlipped(), "one flip above")
        // Apple counts the layer's own flag (CALayer.h: "from the receiver up to and including
        // the implicit container of the root layer"; OpenCoreAnimation's Apple-checked
        // geometryFlippingControlsContentContext: a lone flipped layer answers true).
        XCTAssertTrue(parent.contentsAreFlipped(), "a layer's own flag counts")
        grand.isGeometryFlipped = true
        XCTAssertFalse(child.contentsAreFlipped(), "two flips above cancel")
        XCTAssertFalse(parent.contentsAreFlipped(), "its own and its superlayer's cancel")
        child.isGeometryFlipped = true
        XCTAssertTrue(child.contentsAreFlipped(), "three flips")
    }

    func testGeometryFlippedMeasuresSublayersFromTheTop() {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        parent.position = CGPoint(x: 50, y: 50)
        parent.isGeometryFlipped = true
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        child.position = CGPoint(x: 10, y: 10)
        parent.addSublayer(child)
        let anchor = child.convert(CGPoint(x: 10, y: 10), to: parent)
        XCTAssertEqual(Double(anchor.x), 10, accuracy: 1e-9)
        XCTAssertEqual(Double(anchor.y), 90, accuracy: 1e-9, "position.y measured from the top")
        let origin = child.convert(CGPoint(x: 10, y: 0), to: parent)
        XCTAssertEqual(Double(origin.y), 100, accuracy: 1e-9, "the child's y axis points down in the parent")
    }

    // MARK: - §11.3 flattening in the presentation tree

    func testFlatteningOrdinaryLayerVersusTransformLayer() {
        func tree(parentIsTransformLayer: Bool, depth: CGFloat, useZPosition: Bool) -> PresentationTree {
            let parent: CALayer = parentIsTransformLayer ? CATransformLayer() : CALayer()
            parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            parent.position = CGPoint(x: 50, y: 50)
            let child = CALayer()
            child.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            child.position = CGPoint(x: 20, y: 20)
            if useZPosition { child.zPosition = depth } else { child.transform = CATransform3DMakeTranslation(0, 0, depth) }
            parent.addSublayer(child)
            return PresentationTree.evaluate(parent, at: 0)
        }
        for useZ in [false, true] {
            let label = useZ ? "zPosition" : "z translation"
            let flat = tree(parentIsTransformLayer: false, depth: 50, useZPosition: useZ)
            let flatPoint = flat.layers[1].transformToRoot.transform(x: 5, y: 5)
            XCTAssertEqual(Double(flatPoint.x / flatPoint.w), 20, accuracy: 1e-9, "\(label): x")
            XCTAssertEqual(Double(flatPoint.z), 0, accuracy: 1e-9, "\(label): lands in the ordinary parent's plane")
            XCTAssertEqual(flat.layers[1].renderingContext, 0)

            let deep = tree(parentIsTransformLayer: true, depth: 50, useZPosition: useZ)
            let deepPoint = deep.layers[1].transformToRoot.transform(x: 5, y: 5)
            XCTAssertEqual(Double(deepPoint.x / deepPoint.w), 20, accuracy: 1e-9, "\(label): x under a transform layer")
            XCTAssertEqual(Double(deepPoint.z), 50, accuracy: 1e-9, "\(label): z survives under a CATransformLayer")
            XCTAssertNil(deep.layers[1].renderingContext)
            XCTAssertEqual(deep.layers[0].typeName, "transform")
            XCTAssertEqual(flat.layers[0].typeName, "layer")
        }
    }

    func testTransformLayerInsideOrdinaryLayerFlattensAtTheOrdinaryLayer() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let group = CATransformLayer()
        group.transform = CATransform3DMakeTranslation(0, 0, 30)
        root.addSublayer(group)
        let leaf = CALayer()
        leaf.zPosition = 20
        group.addSublayer(leaf)
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.layers.count, 3)
        XCTAssertEqual(tree.layers[2].renderingContext, 0, "the leaf is drawn into the root's plane")
        XCTAssertEqual(tree.layers[1].renderingContext, 0)
        // Relative to the transform layer's own space the leaf keeps its depth.
        let local = tree.layers[2].transformToParent.transform(x: 0, y: 0)
        XCTAssertEqual(Double(local.z), 20, accuracy: 1e-9)
        let world = tree.layers[2].transformToRoot.transform(x: 0, y: 0)
        XCTAssertEqual(Double(world.z), 0, accuracy: 1e-9, "flattened into the root")
    }

    func testPresentationTreeHiddenAndTiming() {
        let root = CALayer(), mid = CALayer(), leaf = CALayer()
        root.addSublayer(mid); mid.addSublayer(leaf)
        mid.isHidden = true
        mid.beginTime = 2; mid.speed = 2
        let tree = PresentationTree.evaluate(root, at: 5)
        XCTAssertFalse(tree.layers[0].isEffectivelyHidden)
        XCTAssertTrue(tree.layers[1].isEffectivelyHidden)
        XCTAssertTrue(tree.layers[2].isEffectivelyHidden, "hidden through an ancestor")
        XCTAssertEqual(tree.layers[1].localTime, 6, accuracy: 1e-12)
        XCTAssertEqual(tree.layers[2].localTime, 6, accuracy: 1e-12)
        XCTAssertEqual(tree.layers[2].parent, 1)
        XCTAssertEqual(tree.layers[2].depth, 2)
    }
}
