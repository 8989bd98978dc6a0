import Foundation

/// Where time enters the pipeline: frame n of a render is the layer tree at time n / fps.
///
/// The one rounding rule, used by every command and API that turns durations into frames:
/// a duration d covers `round(d · fps)` frames (at least one), frames 0 … count − 1, so a 10 s
/// video at 30 fps has frames 0…299 and a 0.51 s one at 30 fps 15 frames (15.3 rounds to 15).
/// A time t falls in frame `floor(t · fps)` (with a tolerance of 10⁻⁹ frames, so that
/// t = n / fps computed in floating point maps back to n).
///
/// Nothing else in Lamina's sources multiplies or divides by a frame rate for timing (a test
/// checks it), so a frame's time is the same whichever command renders it.
public struct FrameClock: Sendable, Hashable {
    /// Frames per second, positive and finite.
    public let framesPerSecond: Double

    /// A clock of `framesPerSecond` frames a second (default 30, Core Animation export code's usual rate).
    public init(framesPerSecond: Double = 30) {
        precondition(framesPerSecond > 0 && framesPerSecond.isFinite, "frames per second must be positive and finite")
        self.framesPerSecond = framesPerSecond
    }

    /// Seconds of one frame.
    public var frameDuration: Double { 1 / framesPerSecond }

    /// The time of frame `index`, in seconds: `index / fps`.
    public func time(ofFrame index: Int) -> Double { Double(index) / framesPerSecond }

    /// The frame that shows time `time`: `floor(time · fps)`.
    public func frame(at time: Double) -> Int {
        Int(min(max(time * framesPerSecond + 1e-9, -1e15), 1e15).rounded(.down))
    }

    /// How many frames `duration` seconds hold: `round(duration · fps)`, at least one.
    public func frameCount(forDuration duration: Double) -> Int {
        // Clamped so that absurd inputs cannot trap; callers check their own frame limits.
        max(1, Int(min(max(duration * framesPerSecond, 0), 1e15).rounded()))
    }

    /// The frames of `duration` seconds from frame 0: `0 … frameCount − 1`.
    public func frames(forDuration duration: Double) -> ClosedRange<Int> {
        0...(frameCount(forDuration: duration) - 1)
    }

    /// The times `start ..< end` (seconds) that frames `range` cover: from the first frame's time
    /// to the time after the last one.
    public func timeSpan(of range: ClosedRange<Int>) -> (start: Double, end: Double) {
        (time(ofFrame: range.lowerBound), time(ofFrame: range.upperBound + 1))
    }
}
