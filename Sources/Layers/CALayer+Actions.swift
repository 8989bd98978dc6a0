import Foundation
import Animation
import Timing

/// The outcome of searching a layer for the action of an event.
enum ActionSearch {
    case found(CAAction)
    /// `NSNull` ended the search: no action, and no implicit animation either.
    case stopped
    case notFound
}

extension CALayer {
    func searchAction(forKey event: String) -> ActionSearch {
        func classify(_ action: CAAction?) -> ActionSearch? {
            guard let action else { return nil }
            return action is NSNull ? .stopped : .found(action)
        }
        if let delegate, let result = classify(delegate.action(for: self, forKey: event)) { return result }
        if let actions, let result = classify(actions[event]) { return result }
        var style = self.style
        while let current = style {
            if let actions = current["actions"] as? [String: CAAction], let result = classify(actions[event]) {
                return result
            }
            style = current["style"] as? [AnyHashable: Any]
        }
        if let result = classify(Swift.type(of: self).defaultAction(forKey: event)) { return result }
        return .notFound
    }

    /// True when changes animate implicitly: the layer is in a tree driven by a `LayerTimeline`
    /// and has been shown in a frame (standalone layers never animate implicitly).
    public var isInLiveTree: Bool { isCommitted && rootLayer.timeline != nil }

    /// Runs the action for a changed property (§8.2).
    func didChangeValue(forKey key: LayerKey, from oldValue: AnimatableValue) {
        guard isInLiveTree, !CATransaction.disableActions() else { return }
        if let action = action(forKey: key.rawValue) {
            filledIn(action, key: key, from: oldValue).run(forKey: key.rawValue, object: self, arguments: nil)
            return
        }
        guard case .notFound = searchAction(forKey: key.rawValue), key.isImplicitlyAnimatable else { return }
        let animation = CABasicAnimation(keyPath: key.rawValue)
        animation.fromValue = oldValue.anyValue
        animation.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        animation.run(forKey: key.rawValue, object: self, arguments: nil)
    }

    /// Runs the action for a non-property event (`onOrderIn`, `onOrderOut`, `transition`), if any.
    func runAction(forKey event: String, evenIfUncommitted: Bool = false) {
        guard evenIfUncommitted || isInLiveTree, !CATransaction.disableActions() else { return }
        action(forKey: event)?.run(forKey: event, object: self, arguments: nil)
    }
}

extension CALayer {
    /// A basic animation found as a property's action animates that property from the old value
    /// to the new one when it names neither (as Apple runs `actions = ["key": CABasicAnimation()]`).
    func filledIn(_ action: CAAction, key: LayerKey, from oldValue: AnimatableValue) -> CAAction {
        guard let basic = action as? CABasicAnimation,
              basic.keyPath == nil || (basic.fromValue == nil && basic.toValue == nil && basic.byValue == nil),
              let copy = basic.copy() as? CABasicAnimation else { return action }
        if copy.keyPath == nil { copy.keyPath = key.rawValue }
        if copy.fromValue == nil, copy.toValue == nil, copy.byValue == nil {
            copy.fromValue = oldValue.anyValue
            copy.toValue = properties.value(for: key)?.anyValue
        }
        return copy
    }
}
