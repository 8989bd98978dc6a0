import Foundation

/// Where a time falls relative to an animation's active window.
public enum TimingPhase: Sendable, Equatable {
    case before, active, after
}

/// The result of mapping parent time into an animation's basic local time (semantics §1.2).
public struct ResolvedTime: Sendable, Equatable {
    /// Cycle index (0-based); a cycle of an autoreversing animation spans both legs.
    public var iteration: Int
    /// Basic local time within one leg, in `0…duration` seconds.
    public var basicTime: Double
    /// `basicTime / duration`, the fraction fed to the timing function.
    public var fraction: Double
    public var phase: TimingPhase

    public init(iteration: Int, basicTime: Double, fraction: Double, phase: TimingPhase) {
        self.iteration = iteration; self.basicTime = basicTime; self.fraction = fraction; self.phase = phase
    }
}

/// A value snapshot of `CAMediaTiming`, with the math that maps parent time to local time.
///
/// Parent time → active local time → basic local time, as Core Animation documents:
/// `t_active = (t_parent − beginTime) · speed + timeOffset`, then repetition and autoreverse.
public struct TimingParameters: Sendable, Equatable {
    public var beginTime: Double = 0
    public var duration: Double = 0
    public var speed: Double = 1
    public var timeOffset: Double = 0
    public var repeatCount: Double = 0
    public var repeatDuration: Double = 0
    public var autoreverses = false
    /// What shows outside the active window. Stored as two flags, so copying and evaluating
    /// timing never touches a string.
    public var fillMode: CAMediaTimingFillMode {
        get {
            switch (fillsForwards, fillsBackwards) {
            case (true, true): .both
            case (true, false): .forwards
            case (false, true): .backwards
            case (false, false): .removed
            }
        }
        set { (fillsForwards, fillsBackwards) = (newValue.fillsForwards, newValue.fillsBackwards) }
    }
    @usableFromInline private(set) var fillsForwards = false
    @usableFromInline private(set) var fillsBackwards = false

    public init() {}

    /// Copies the timing of any `CAMediaTiming` object.
    public init(_ timing: some CAMediaTiming) {
        beginTime = timing.beginTime; duration = timing.duration; speed = Double(timing.speed)
        timeOffset = timing.timeOffset; repeatCount = Double(timing.repeatCount)
        repeatDuration = timing.repeatDuration; autoreverses = timing.autoreverses; fillMode = timing.fillMode
    }

    /// Length of one cycle: the duration, doubled when autoreversing.
    public var cycleDuration: Double { duration * (autoreverses ? 2 : 1) }

    /// Total active time in local units (∞ for endless repeats). A positive `repeatDuration` wins.
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 {
            return repeatCount >= Double(Float.greatestFiniteMagnitude) ? .infinity : cycleDuration * repeatCount
        }
        return cycleDuration
    }

    /// Maps a parent time into basic local time, or `nil` where the animation has no effect.
    ///
    /// The active window is decided on the elapsed time before `timeOffset`; the offset then
    /// shifts the start inside the cycle with wrap-around. At exactly the end of the active
    /// window the end of the last cycle shows.
    @inlinable
    public func resolve(parentTime: Double) -> ResolvedTime? {
        TimingResolver(self).resolve(parentTime: parentTime)
    }

    /// Parent time → local time for a layer (infinite duration).
    ///
    /// Before `beginTime` a layer's local time reads 0 (Core Animation's `convertTime` does so).
    public func layerLocalTime(parentTime: Double) -> Double {
        if parentTime < beginTime { return 0 }
        return (parentTime - beginTime) * speed + timeOffset
    }

    /// Local time → parent time for a layer; 0 when `speed` is 0 (the mapping has no inverse).
    public func layerParentTime(localTime: Double) -> Double {
        if speed == 0 { return 0 }
        return (localTime - timeOffset) / speed + beginTime
    }

    /// True for the default timing (begin 0, speed 1, offset 0): an identity step in time conversion.
    public var isIdentityForLayer: Bool { beginTime == 0 && speed == 1 && timeOffset == 0 }
}

/// `TimingParameters` with what `resolve` derives from them (cycle, active duration, whether
/// the duration is usable) worked out once: compiled animations keep one and resolve it every
/// frame. The same arithmetic in the same order as deriving them on each call, so the results
/// are the same bits.
public struct TimingResolver: Sendable {
    @usableFromInline let beginTime: Double
    @usableFromInline let speed: Double
    @usableFromInline let timeOffset: Double
    public let duration: Double
    @usableFromInline let cycle: Double
    @usableFromInline let total: Double
    @usableFromInline let autoreverses: Bool
    @usableFromInline let fillsForwards: Bool
    @usableFromInline let fillsBackwards: Bool
    /// False for a duration ≤ 0 or not finite: such timing never resolves.
    @usableFromInline let isResolvable: Bool

    @inlinable
    public init(_ t: TimingParameters) {
        beginTime = t.beginTime; speed = t.speed; timeOffset = t.timeOffset; duration = t.duration
        cycle = t.cycleDuration; total = t.activeDuration; autoreverses = t.autoreverses
        fillsForwards = t.fillsForwards; fillsBackwards = t.fillsBackwards
        isResolvable = t.duration > 0 && t.duration.isFinite
    }

    /// As `TimingParameters.resolve(parentTime:)`.
    @inlinable  // called for every animation of every layer every frame
    public func resolve(parentTime: Double) -> ResolvedTime? {
        guard isResolvable else { return nil }
        let d = duration
        var elapsed = (parentTime - beginTime) * speed
        var phase = TimingPhase.active
        if elapsed < 0 {
            guard fillsBackwards else { return nil }
            elapsed = 0; phase = .before
        } else if elapsed > total {
            guard fillsForwards else { return nil }
            elapsed = total; phase = .after
        }
        let local = elapsed + timeOffset
        var k = (local / cycle).rounded(.down)
        var r = local - k * cycle
        if elapsed == total, total > 0, r == 0, local > 0 {
            k -= 1; r = cycle
        }
        if autoreverses, r > d { r = 2 * d - r }
        r = min(max(r, 0), d)
        let iteration = k.isFinite ? Int(max(-Double(Int32.max), min(Double(Int32.max), k))) : 0
        return ResolvedTime(iteration: iteration, basicTime: r, fraction: r / d, phase: phase)
    }
}
