import Foundation
import Synchronization
import Timing

/// Wall-clock seconds spent per stage of the frame pipeline, for benchmarks, progress lines and
/// export summaries: the one clock measurements read (`CACurrentMediaTime()`, monotonic).
///
/// Passed in to whoever does the work (`FrameRenderer`, the backends, the content cache, the
/// export's queue and writer), which add what they spent; nothing keeps timings as hidden
/// state. Thread-safe: the render thread and an export's writer thread add to one stopwatch.
/// Rendering never reads it: frames depend only on their time.
public final class Stopwatch: Sendable {
    /// A stage of the pipeline.
    public enum Stage: Int, CaseIterable, Sendable {
        /// Presentation tree at t.
        case evaluate
        /// Render plan, not counting `raster`.
        case plan
        /// Rasterizing shape, text and shadow-path contents (misses of the content cache).
        case raster
        /// Drawing the plan's passes.
        case composite
        /// Reading the frame back from the GPU.
        case readback
        /// Waiting for a decoded input video frame.
        case decodeWait
        /// Waiting for room in an export's queue (the encoder was slower).
        case encoderWait
        /// An export's writer waiting for frames (rendering was slower).
        case writerWait
        /// Un-premultiplying frames for an encoder.
        case convert
        /// Writing into the encoder's pipe (blocks while it encodes).
        case write
    }

    private let seconds = Mutex([Double](repeating: 0, count: Stage.allCases.count))

    /// A stopwatch with nothing measured.
    public init() {}

    /// Now, in seconds of the monotonic clock (an arbitrary origin).
    public static func now() -> Double { CACurrentMediaTime() }

    /// Adds `interval` seconds to `stage`.
    public func add(_ interval: Double, to stage: Stage) {
        seconds.withLock { $0[stage.rawValue] += interval }
    }

    /// Runs `body`, adding the time it took to `stage`.
    @inlinable
    public func measure<T, E: Error>(_ stage: Stage, _ body: () throws(E) -> T) throws(E) -> T {
        let start = Self.now()
        defer { add(Self.now() - start, to: stage) }
        return try body()
    }

    /// Seconds spent in `stage` so far.
    public subscript(stage: Stage) -> Double { seconds.withLock { $0[stage.rawValue] } }

    /// Every stage's seconds so far.
    public var times: StageTimes {
        let s = seconds.withLock { $0 }
        return StageTimes(evaluate: s[0], plan: s[1], raster: s[2], composite: s[3], readback: s[4], decodeWait: s[5],
                          encoderWait: s[6], writerWait: s[7], convert: s[8], write: s[9])
    }
}

extension Optional where Wrapped == Stopwatch {
    /// Runs `body`, adding its time to `stage` when there is a stopwatch (no clock read otherwise).
    @inlinable
    public func measure<T, E: Error>(_ stage: Stopwatch.Stage, _ body: () throws(E) -> T) throws(E) -> T {
        guard let stopwatch = self else { return try body() }
        return try stopwatch.measure(stage, body)
    }
}

/// Seconds spent per stage: a reading of a `Stopwatch`.
public struct StageTimes: Sendable, Codable, Equatable {
    /// Render thread: presentation evaluation, render plan (without rasterizing contents),
    /// rasterizing contents, drawing, reading back, waiting for decoded input frames, and
    /// waiting for room in the queue (the encoder was slower).
    public var evaluate = 0.0, plan = 0.0, raster = 0.0, composite = 0.0, readback = 0.0, decodeWait = 0.0, encoderWait = 0.0
    /// Writer thread: waiting for frames (rendering was slower), un-premultiplying, and writing
    /// into ffmpeg's pipe (blocks while ffmpeg encodes).
    public var writerWait = 0.0, convert = 0.0, write = 0.0

    public init(evaluate: Double = 0, plan: Double = 0, raster: Double = 0, composite: Double = 0, readback: Double = 0,
                decodeWait: Double = 0, encoderWait: Double = 0, writerWait: Double = 0, convert: Double = 0, write: Double = 0) {
        self.evaluate = evaluate; self.plan = plan; self.raster = raster; self.composite = composite; self.readback = readback
        self.decodeWait = decodeWait; self.encoderWait = encoderWait; self.writerWait = writerWait
        self.convert = convert; self.write = write
    }

    /// Seconds of drawing a frame on the render thread: evaluate, plan, raster, composite, read back.
    public var rendering: Double { evaluate + plan + raster + composite + readback }

    /// The stage that limited an export's speed: `render`, `encode` or `decode`.
    public var limitingStage: String {
        if decodeWait > max(composite, write) { return "decode" }
        // Sequential: no queue waits; the slower side of the loop limits.
        if encoderWait == 0, writerWait == 0 { return write > rendering ? "encode" : "render" }
        return encoderWait > writerWait ? "encode" : "render"
    }

    /// `evaluate 0.4, plan 0.2, draw 5.1, read back 0.3, decode wait 0.0, encoder wait 3.2 | convert 0.1, encode+write 9.0 ms/frame`
    public func summary(frames: Int) -> String {
        let n = Double(max(frames, 1))
        func ms(_ s: Double) -> String { String(format: "%.1f", s / n * 1000) }
        return "evaluate \(ms(evaluate)), plan \(ms(plan + raster)), draw \(ms(composite)), read back \(ms(readback)), "
            + "decode wait \(ms(decodeWait)), encoder wait \(ms(encoderWait)) | writer: convert \(ms(convert)), "
            + "encode+write \(ms(write)), idle \(ms(writerWait)) ms/frame; limited by \(limitingStage)"
    }
}
