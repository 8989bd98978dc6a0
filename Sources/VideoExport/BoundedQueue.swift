import Foundation

/// A first-in first-out queue of at most `capacity` items between two threads: `put` waits while
/// it is full (back-pressure), `take` waits while it is empty. Closing wakes both sides.
///
/// Times spent waiting are summed per side, which is how the export tells which stage limits it.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var closed = false
    let capacity: Int
    /// Seconds `put` spent waiting for room / `take` waiting for an item (read after the threads end).
    private(set) var putWait = 0.0
    private(set) var takeWait = 0.0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Appends `item`, waiting for room; false (item dropped) when the queue was closed.
    @discardableResult
    func put(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if items.count >= capacity, !closed {
            let start = Self.now()
            while items.count >= capacity, !closed { condition.wait() }
            putWait += Self.now() - start
        }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, waiting for one; nil once the queue is closed and empty.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        if items.isEmpty, !closed {
            let start = Self.now()
            while items.isEmpty, !closed { condition.wait() }
            takeWait += Self.now() - start
        }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items: `take` drains what is queued, then returns nil; `put` returns false.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Closes and drops everything queued (on failure or cancellation).
    func abandon() {
        condition.lock()
        closed = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
