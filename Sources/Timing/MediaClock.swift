import Foundation
import Synchronization

/// A source of "now" for the layer model: the time `beginTime == 0` and implicit animations resolve to.
///
/// Library code never reads the wall clock; callers choose a clock. Rendering takes an explicit time.
public protocol MediaClock: AnyObject, Sendable {
    /// The current media time in seconds.
    var currentTime: CFTimeInterval { get }
}

/// A clock that only moves when told to: for tests, offline rendering and video export.
public final class ManualMediaClock: MediaClock {
    private let time: Mutex<CFTimeInterval>

    /// A clock reading `time` (default 0).
    public init(time: CFTimeInterval = 0) { self.time = Mutex(time) }

    public var currentTime: CFTimeInterval {
        get { time.withLock { $0 } }
        set { time.withLock { $0 = newValue } }
    }

    /// Moves the clock forward (or back, for a negative interval).
    public func advance(by interval: CFTimeInterval) { time.withLock { $0 += interval } }
}

/// A clock that reads `CACurrentMediaTime()`: for live use only.
public final class HostMediaClock: MediaClock {
    public init() {}
    public var currentTime: CFTimeInterval { CACurrentMediaTime() }
}

/// Seconds since an arbitrary fixed point (system uptime), monotonic. Core Animation: `CACurrentMediaTime()`.
public func CACurrentMediaTime() -> CFTimeInterval {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}
