import Foundation
import Synchronization
import Rendering

/// A first-in first-out queue of at most `capacity` items between two threads: `put` waits while
/// it is full (back-pressure), `take` waits while it is empty. Closing wakes both sides.
///
/// Times spent waiting go to a stopwatch per side, which is how the export tells which stage
/// limits it.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var closed = false
    /// How many items are queued, read without the lock: with `spins`, `take` watches it
    /// before it sleeps, since being put to sleep and woken costs two system calls and two
    /// context switches, which is much of a small frame's time when frames are handed over
    /// thousands of times a second.
    private let count = Atomic<Int>(0)
    /// Reads of `count` an empty `take` makes before it sleeps (0: it sleeps at once).
    private let spins: Int
    let capacity: Int
    /// Where `put`'s waits for room and `take`'s waits for an item are added.
    private let waits: (stopwatch: Stopwatch, put: Stopwatch.Stage, take: Stopwatch.Stage)?

    /// `spins`: reads of the count an empty `take` makes before it sleeps, for a taker with
    /// nothing else to do meanwhile (a drawing thread waiting for its next frame).
    init(capacity: Int, waits: (stopwatch: Stopwatch, put: Stopwatch.Stage, take: Stopwatch.Stage)? = nil, spins: Int = 0) {
        self.capacity = max(1, capacity)
        self.waits = waits
        self.spins = max(0, spins)
    }

    /// Appends `item`, waiting for room; false (item dropped) when the queue was closed.
    @discardableResult
    func put(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if items.count >= capacity, !closed {
            let start = Stopwatch.now()
            while items.count >= capacity, !closed { condition.wait() }
            if let waits { waits.stopwatch.add(Stopwatch.now() - start, to: waits.put) }
        }
        guard !closed else { return false }
        items.append(item)
        count.store(items.count, ordering: .releasing)
        condition.broadcast()
        return true
    }

    /// The next item, waiting for one; nil once the queue is closed and empty.
    func take() -> Element? { takeNotingWait().item }

    /// The next item (nil once the queue is closed and empty), and whether `take` found the
    /// queue empty and had to wait for it.
    func takeNotingWait() -> (item: Element?, waited: Bool) {
        let waited = count.load(ordering: .acquiring) == 0
        if waited {
            for _ in 0..<spins where count.load(ordering: .relaxed) == 0 {}
        }
        condition.lock()
        defer { condition.unlock() }
        if items.isEmpty, !closed {
            let start = Stopwatch.now()
            while items.isEmpty, !closed { condition.wait() }
            if let waits { waits.stopwatch.add(Stopwatch.now() - start, to: waits.take) }
        }
        guard !items.isEmpty else { return (nil, waited) }
        let item = items.removeFirst()
        count.store(items.count, ordering: .releasing)
        condition.broadcast()
        return (item, waited)
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
        count.store(0, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }
}
