import Foundation

/// A span of media time: `start ..< start + duration`. Core Media: `CMTimeRange`.
///
/// `containsTime` is half-open (the end is not inside); an empty range contains no time.
public struct CMTimeRange: Sendable, Hashable {
    public var start: CMTime
    public var duration: CMTime

    /// An empty range at zero.
    public init() { start = .zero; duration = .zero }

    /// `start ..< start + duration`; a duration with a non-zero epoch gives an invalid range.
    public init(start: CMTime, duration: CMTime) {
        if duration.isValid, duration.epoch != 0 { self = .invalid; return }
        self.start = start; self.duration = duration
    }

    /// `start ..< end`. `CMTimeRangeFromTimeToTime`.
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: CMTimeSubtract(end, start))
    }

    /// `kCMTimeRangeZero`.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    /// `kCMTimeRangeInvalid`.
    public static let invalid: CMTimeRange = {
        var r = CMTimeRange()
        r.start = .invalid; r.duration = .invalid
        return r
    }()

    /// The first time after the range: `start + duration`. `CMTimeRangeGetEnd`.
    public var end: CMTime { CMTimeAdd(start, duration) }

    /// Start and duration valid, the duration a non-negative duration (epoch 0).
    public var isValid: Bool {
        start.isValid && duration.isValid && duration.epoch == 0 && CMTimeCompare(duration, .zero) >= 0
    }
    /// Valid, with an indefinite start or duration.
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }
    /// Valid and of zero duration.
    public var isEmpty: Bool { isValid && duration == .zero }

    /// Whether `time` is in `start ..< end`.
    public func containsTime(_ time: CMTime) -> Bool {
        isValid && time.isValid && CMTimeCompare(time, start) >= 0 && CMTimeCompare(time, end) < 0
    }

    /// Whether every time of `range` is in this range.
    public func containsTimeRange(_ range: CMTimeRange) -> Bool {
        isValid && range.isValid && CMTimeCompare(range.start, start) >= 0 && CMTimeCompare(range.end, end) <= 0
    }

    /// The times in both ranges: from the later start to the earlier end (`zero` when they do not overlap).
    public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange {
        guard isValid, otherRange.isValid else { return .invalid }
        let lower = CMTimeMaximum(start, otherRange.start), upper = CMTimeMinimum(end, otherRange.end)
        guard CMTimeCompare(upper, lower) > 0 else { return .zero }
        return CMTimeRange(start: lower, end: upper)
    }

    /// The smallest range holding both: from the earlier start to the later end.
    public func union(_ otherRange: CMTimeRange) -> CMTimeRange {
        guard isValid, otherRange.isValid else { return .invalid }
        return CMTimeRange(start: CMTimeMinimum(start, otherRange.start), end: CMTimeMaximum(end, otherRange.end))
    }

    /// Equal start and duration (`CMTimeRangeEqual`); `==` is the same.
    public static func == (lhs: CMTimeRange, rhs: CMTimeRange) -> Bool { lhs.start == rhs.start && lhs.duration == rhs.duration }
}

extension CMTimeRange: CustomStringConvertible {
    /// `{{0/1 = 0.000}, {150/30 = 5.000}}`, as `CMTimeRangeShow` prints it.
    public var description: String { "{\(start.description), \(duration.description)}" }
}

/// A source range of media placed at a target range of a timeline; equal durations play at
/// normal speed, a longer target slows the source down. An empty edit has an invalid source
/// start. Core Media: `CMTimeMapping`.
public struct CMTimeMapping: Sendable, Hashable {
    public var source: CMTimeRange
    public var target: CMTimeRange

    public init(source: CMTimeRange, target: CMTimeRange) { self.source = source; self.target = target }
    public init() { source = .zero; target = .zero }
}

/// An edit of `source` played over `target`.
public func CMTimeMappingMake(source: CMTimeRange, target: CMTimeRange) -> CMTimeMapping {
    CMTimeMapping(source: source, target: target)
}

/// A gap in the timeline over `target`: no source media (an invalid source start).
public func CMTimeMappingMakeEmpty(target: CMTimeRange) -> CMTimeMapping {
    CMTimeMapping(source: CMTimeRange(start: .invalid, duration: .invalid), target: target)
}

// MARK: - The C-style functions Swift code uses

/// `start ..< start + duration`.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange { CMTimeRange(start: start, duration: duration) }
/// `start ..< end`.
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange { CMTimeRange(start: start, end: end) }
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime { range.end }
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool { range.containsTime(time) }
public func CMTimeRangeContainsTimeRange(_ range: CMTimeRange, otherRange: CMTimeRange) -> Bool { range.containsTimeRange(otherRange) }
public func CMTimeRangeGetIntersection(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange { range.intersection(otherRange) }
public func CMTimeRangeGetUnion(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange { range.union(otherRange) }
public func CMTimeRangeEqual(_ range1: CMTimeRange, _ range2: CMTimeRange) -> Bool { range1 == range2 }
public func CMTIMERANGE_IS_VALID(_ range: CMTimeRange) -> Bool { range.isValid }
public func CMTIMERANGE_IS_INVALID(_ range: CMTimeRange) -> Bool { !range.isValid }
public func CMTIMERANGE_IS_EMPTY(_ range: CMTimeRange) -> Bool { range.isEmpty }
public func CMTIMERANGE_IS_INDEFINITE(_ range: CMTimeRange) -> Bool { range.isIndefinite }
/// Prints the range's description on standard output.
public func CMTimeRangeShow(_ range: CMTimeRange) { print(range.description) }

/// `time` moved into `range`: its start when earlier, its end when later.
public func CMTimeClampToRange(_ time: CMTime, range: CMTimeRange) -> CMTime {
    if CMTimeCompare(time, range.start) < 0 { return range.start }
    if CMTimeCompare(time, range.end) > 0 { return range.end }
    return time
}

/// The time in `toRange` that `time` in `fromRange` maps to, linearly (`fromRange`'s start to
/// `toRange`'s start, durations scaled). `CMTimeMapTimeFromRangeToRange`.
public func CMTimeMapTimeFromRangeToRange(_ t: CMTime, fromRange: CMTimeRange, toRange: CMTimeRange) -> CMTime {
    CMTimeAdd(toRange.start, CMTimeMapDurationFromRangeToRange(CMTimeSubtract(t, fromRange.start), fromRange: fromRange, toRange: toRange))
}

/// `duration` in `fromRange` scaled to `toRange`: `duration × toRange.duration / fromRange.duration`.
public func CMTimeMapDurationFromRangeToRange(_ dur: CMTime, fromRange: CMTimeRange, toRange: CMTimeRange) -> CMTime {
    guard dur.isNumeric, fromRange.duration.isNumeric, toRange.duration.isNumeric, fromRange.duration.value != 0 else {
        return dur.isNumeric ? .invalid : dur
    }
    if fromRange.duration == toRange.duration { return dur }
    let numerator = Int128(dur.value) * Int128(toRange.duration.value) * Int128(fromRange.duration.timescale)
    var denominator = Int128(dur.timescale) * Int128(toRange.duration.timescale) * Int128(fromRange.duration.value)
    var n = numerator
    if denominator < 0 { n = -n; denominator = -denominator }
    return CMTime.rational(n, denominator, timescale: CMTime.commonTimescale(dur.timescale, toRange.duration.timescale).scale)
}

/// A track's identity that persists in files: 1, 2, … (`kCMPersistentTrackID_Invalid` is 0).
public typealias CMPersistentTrackID = Int32

/// No track (0); pass it to `addMutableTrack(withMediaType:preferredTrackID:)` for the next free ID.
public let kCMPersistentTrackID_Invalid: CMPersistentTrackID = 0
