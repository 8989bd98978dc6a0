import Foundation
import Synchronization

/// A request to stop, made from any thread (a signal handler's queue, another task) and seen by
/// the work in two ways: a flag it reads between steps, and handlers that wake it where it is
/// blocked and cannot look (a write to an encoder that stopped reading, a wait for a full frame
/// queue, a running ffmpeg).
public final class Cancellation: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var next = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Requests the stop: sets the flag and runs every handler once (on the calling thread).
    public func cancel() {
        let handlers: [@Sendable () -> Void] = state.withLock { state in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Runs `handler` when `cancel()` is called (at once when it was already); returns a token
    /// for `remove(_:)`.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        let (token, runNow) = state.withLock { state -> (Int, Bool) in
            state.next += 1
            if !state.cancelled { state.handlers[state.next] = handler }
            return (state.next, state.cancelled)
        }
        if runNow { handler() }
        return token
    }

    /// Forgets a handler added with `onCancel`.
    public func remove(_ token: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: token) }
    }
}
