import Foundation
import Geometry
import CoreMedia

/// Values set at times and ramps over ranges, as AVFoundation's layer instructions and audio
/// mix parameters keep them: before the first entry the default holds, during a ramp the value
/// is interpolated linearly, after a ramp (or a value set at a time) its end value holds until
/// the next entry.
struct RampTimeline<Value: Sendable>: Sendable {
    struct Ramp: Sendable {
        var timeRange: CMTimeRange
        var start: Value
        var end: Value
    }

    private(set) var ramps: [Ramp] = []

    /// `value` from `time` on (until the next entry).
    mutating func set(_ value: Value, at time: CMTime) {
        add(Ramp(timeRange: CMTimeRange(start: time, duration: .zero), start: value, end: value))
    }

    /// A linear ramp from `start` to `end` over `timeRange`.
    mutating func ramp(from start: Value, to end: Value, over timeRange: CMTimeRange) {
        add(Ramp(timeRange: timeRange, start: start, end: end))
    }

    /// An entry at the start time of an existing one replaces it.
    private mutating func add(_ ramp: Ramp) {
        guard ramp.timeRange.start.isNumeric else { return }
        ramps.removeAll { $0.timeRange.start == ramp.timeRange.start }
        let index = ramps.firstIndex { $0.timeRange.start > ramp.timeRange.start } ?? ramps.count
        ramps.insert(ramp, at: index)
    }

    /// The entry in effect at `time`: the last one starting at or before it.
    func entry(at time: CMTime) -> Ramp? { ramps.last { $0.timeRange.start <= time } }

    /// The value at `time` (seconds), or nil before the first entry (the default holds there).
    func value(at time: Double, interpolate: (Value, Value, Double) -> Value) -> Value? {
        guard let ramp = ramps.last(where: { $0.timeRange.start.seconds <= time }) else { return nil }
        let duration = ramp.timeRange.duration.seconds
        guard duration > 0 else { return ramp.end }
        let progress = (time - ramp.timeRange.start.seconds) / duration
        return progress >= 1 ? ramp.end : interpolate(ramp.start, ramp.end, max(0, progress))
    }

    /// What AVFoundation's `get…Ramp(for:…)` report for `time`: the entry's start and end values
    /// and range, or false when no entry starts at or before it.
    func report(for time: CMTime, start: UnsafeMutablePointer<Value>?, end: UnsafeMutablePointer<Value>?,
                timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        guard let ramp = entry(at: time) else { return false }
        start?.pointee = ramp.start
        end?.pointee = ramp.end
        timeRange?.pointee = ramp.timeRange
        return true
    }
}

enum Interpolation {
    static func float(_ a: Float, _ b: Float, _ t: Double) -> Float { a + (b - a) * Float(t) }

    /// Component by component (AVFoundation ramps a transform's matrix linearly).
    static func transform(_ a: CGAffineTransform, _ b: CGAffineTransform, _ t: Double) -> CGAffineTransform {
        let t = CGFloat(t)
        return CGAffineTransform(a: a.a + (b.a - a.a) * t, b: a.b + (b.b - a.b) * t, c: a.c + (b.c - a.c) * t,
                                 d: a.d + (b.d - a.d) * t, tx: a.tx + (b.tx - a.tx) * t, ty: a.ty + (b.ty - a.ty) * t)
    }

    static func rect(_ a: CGRect, _ b: CGRect, _ t: Double) -> CGRect {
        let t = CGFloat(t)
        return CGRect(x: a.minX + (b.minX - a.minX) * t, y: a.minY + (b.minY - a.minY) * t,
                      width: a.width + (b.width - a.width) * t, height: a.height + (b.height - a.height) * t)
    }
}
