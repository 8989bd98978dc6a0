import Foundation
import Synchronization

/// A thread of its own that runs jobs one at a time, in the order given.
///
/// The preview's renderers live on one: a GL context is current on one thread only
/// (toolchain-notes.md), and the model tree is read by one thread at a time.
final class SerialThread: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let finished = Atomic<Bool>(false)

    init(name: String) {
        // The thread holds the object until `finish` has run.
        let thread = Thread { [self] in
            while true {
                ready.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job()
                if finished.load(ordering: .acquiring), jobs.withLock({ $0.isEmpty }) { return }
            }
        }
        thread.name = name
        thread.start()
    }

    /// Runs `body` on the thread and waits for its result.
    func sync<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        jobs.withLock { $0.append { let value = body(); result.withLock { $0 = value }; done.signal() } }
        ready.signal()
        done.wait()
        return result.withLock { $0! }
    }

    /// Runs `last` on the thread after the jobs given before it, then ends the thread.
    func finish(_ last: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(last) }
        finished.store(true, ordering: .releasing)
        ready.signal()
    }
}

/// A value handed between threads that only one thread at a time touches, by construction
/// (here: state that only the render thread's jobs read and write).
struct ThreadConfined<Value>: @unchecked Sendable {
    let value: Value
}
