import Foundation
import Drawing
import Synchronization
import Animation
import Timing

/// Groups layer-tree changes and carries the settings implicit animations read.
/// Core Animation: `CATransaction`.
///
/// Transactions nest per thread; each value is read from the innermost scope that set it.
/// There is no run loop here: changes made outside `begin()`/`commit()` take effect at once, and
/// implicit animations start at the clock's current time (`mediaClock`).
public enum CATransaction {
    /// Keys of the per-transaction values.
    public static let animationDurationKey = "animationDuration"
    public static let animationTimingFunctionKey = "animationTimingFunction"
    public static let disableActionsKey = "disableActions"
    public static let completionBlockKey = "completionBlock"

    private static let clock = Mutex<any MediaClock>(ManualMediaClock())
    private static let globalLock = NSRecursiveLock()

    /// The clock "now" is read from when an animation with `beginTime == 0` is added.
    ///
    /// Defaults to a manual clock at 0, so offline rendering is deterministic; set a
    /// `HostMediaClock` for live use.
    public static var mediaClock: any MediaClock {
        get { clock.withLock { $0 } }
        set { clock.withLock { $0 = newValue } }
    }

    /// Opens a nested transaction on this thread.
    public static func begin() { TransactionStack.current.scopes.append(TransactionScope()) }

    /// Closes the innermost transaction; without one it does nothing (as on Apple).
    public static func commit() {
        let stack = TransactionStack.current
        guard let scope = stack.scopes.popLast() else { return }
        scope.completion?.markCommitted()
    }

    /// Commits the implicit transaction: values and a completion block set outside
    /// `begin()`/`commit()` last until here (Core Animation: until the run loop turns).
    /// `LayerTimeline.advance(to:)` flushes for each frame.
    public static func flush() {
        let stack = TransactionStack.current
        guard stack.scopes.isEmpty else { return }  // delayed until explicit ones finish
        stack.implicitValues = [:]
        let completion = stack.implicitCompletion
        stack.implicitCompletion = nil
        completion?.markCommitted()
    }

    /// Core Animation's global recursive lock.
    public static func lock() { globalLock.lock() }
    public static func unlock() { globalLock.unlock() }

    /// Default duration of animations added in this transaction (0.25 s unless set).
    public static func animationDuration() -> CFTimeInterval {
        (value(forKey: animationDurationKey) as? CFTimeInterval) ?? 0.25
    }
    public static func setAnimationDuration(_ duration: CFTimeInterval) { setValue(duration, forKey: animationDurationKey) }

    /// Timing function given to animations added without one (nil unless set).
    public static func animationTimingFunction() -> CAMediaTimingFunction? {
        value(forKey: animationTimingFunctionKey) as? CAMediaTimingFunction
    }
    public static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setValue(function, forKey: animationTimingFunctionKey)
    }

    /// When true, property changes do not look for actions.
    public static func disableActions() -> Bool { (value(forKey: disableActionsKey) as? Bool) ?? false }
    public static func setDisableActions(_ flag: Bool) { setValue(flag, forKey: disableActionsKey) }

    /// Runs once every animation added after it was set, in this transaction, has finished.
    public static func completionBlock() -> (() -> Void)? {
        let stack = TransactionStack.current
        return (stack.scopes.last(where: { $0.completion != nil })?.completion ?? stack.implicitCompletion)?.block
    }
    public static func setCompletionBlock(_ block: (() -> Void)?) {
        let stack = TransactionStack.current
        if stack.scopes.isEmpty {
            stack.implicitCompletion = block.map(CompletionGroup.init)
        } else {
            stack.scopes[stack.scopes.count - 1].completion = block.map(CompletionGroup.init)
        }
    }

    /// A value stored in the innermost scope that set `key`; nil when none did.
    public static func value(forKey key: String) -> Any? {
        let stack = TransactionStack.current
        for scope in stack.scopes.reversed() {
            if let value = scope.values[key] { return value }
        }
        return stack.implicitValues[key]
    }

    /// Stores a value in the innermost transaction (or for the rest of this thread's implicit one).
    public static func setValue(_ value: Any?, forKey key: String) {
        let stack = TransactionStack.current
        if stack.scopes.isEmpty {
            stack.implicitValues[key] = value
            return
        }
        stack.scopes[stack.scopes.count - 1].values[key] = value
    }

    /// The completion group animations added now belong to.
    static var currentCompletionGroup: CompletionGroup? {
        let stack = TransactionStack.current
        return stack.scopes.last(where: { $0.completion != nil })?.completion ?? stack.implicitCompletion
    }
}

/// Runs a completion block once all its animations have ended and its transaction committed.
final class CompletionGroup {
    let block: () -> Void
    private var pending = 0
    private var committed = false
    private var ran = false
    init(_ block: @escaping () -> Void) { self.block = block }

    func animationAdded() { pending += 1 }
    func animationEnded() {
        pending -= 1
        runIfDone()
    }
    func markCommitted() {
        committed = true
        runIfDone()
    }
    private func runIfDone() {
        guard committed, pending <= 0, !ran else { return }
        ran = true
        block()
    }
}

struct TransactionScope {
    var values: [String: Any] = [:]
    var completion: CompletionGroup?
}

/// This thread's open transactions (Core Animation keeps them per thread).
final class TransactionStack {
    var scopes: [TransactionScope] = []
    /// Values and completion of the implicit transaction, until `flush()`.
    var implicitValues: [String: Any] = [:]
    var implicitCompletion: CompletionGroup?

    static var current: TransactionStack { threadLocal("Lamina.CATransaction", TransactionStack.init) }
}
