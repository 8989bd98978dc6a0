import Foundation

/// A `CMTime`'s numerator: ticks of `1 / timescale` seconds.
public typealias CMTimeValue = Int64
/// Ticks per second of a `CMTime`.
public typealias CMTimeScale = Int32
/// Distinguishes otherwise equal times on different loops of a timeline (0 for durations).
public typealias CMTimeEpoch = Int64

/// The largest timescale Core Media uses when it has to choose one (an LCM that does not fit).
public let kCMTimeMaxTimescale: Int32 = 0x7fff_ffff

/// What kind of time a `CMTime` is: numeric (`valid`), infinite, indefinite, or invalid
/// (no `valid` flag), and whether it has been rounded.
public struct CMTimeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// The flags that make a valid time non-numeric.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// How a value is rounded when a time moves to another timescale.
public enum CMTimeRoundingMethod: UInt32, Sendable {
    case roundHalfAwayFromZero = 1
    case roundTowardZero = 2
    case roundAwayFromZero = 3
    case quickTime = 4
    case roundTowardNegativeInfinity = 5
    case roundTowardPositiveInfinity = 6

    /// `roundHalfAwayFromZero`, what Core Media uses unless told otherwise.
    public static let `default` = CMTimeRoundingMethod.roundHalfAwayFromZero
}

/// A rational time, `value / timescale` seconds: exact for media timing where floating point
/// would drift (30000/1001 fps, 44100 Hz audio). Core Media: `CMTime`, with its Swift names.
///
/// Equality and order compare the times, not the fields (`CMTimeCompare`): 1/2 == 2/4. Invalid
/// times are equal to each other and greater than everything; +∞ is greater than every other
/// valid time, indefinite between +∞ and the numeric times; −∞ is less than everything.
public struct CMTime: Sendable {
    public var value: CMTimeValue
    public var timescale: CMTimeScale
    public var flags: CMTimeFlags
    public var epoch: CMTimeEpoch

    /// The fields as given (no validation, as Core Media's struct initializer).
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value; self.timescale = timescale; self.flags = flags; self.epoch = epoch
    }

    /// `value / timescale` seconds; a timescale ≤ 0 makes an invalid time. `CMTimeMake`.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.init(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: 0)
    }

    /// `seconds` in ticks of `1 / preferredTimescale`, rounded half away from zero (flagged
    /// `hasBeenRounded` when inexact); the timescale is halved until the value fits in 64 bits.
    /// NaN gives an invalid time, ±∞ the infinities. `CMTimeMakeWithSeconds`.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        if seconds.isNaN || preferredTimescale <= 0 { self = .invalid; return }
        if seconds.isInfinite { self = seconds > 0 ? .positiveInfinity : .negativeInfinity; return }
        var scale = preferredTimescale
        while true {
            let ticks = seconds * Double(scale)
            let rounded = ticks.rounded(.toNearestOrAwayFromZero)
            if abs(rounded) < 9.2e18 {
                self.init(value: CMTimeValue(rounded), timescale: scale, flags: rounded == ticks ? .valid : [.valid, .hasBeenRounded], epoch: 0)
                return
            }
            if scale == 1 { self = seconds > 0 ? .positiveInfinity : .negativeInfinity; return }
            scale /= 2
        }
    }

    /// An invalid time (no flags): `kCMTimeInvalid`.
    public static let invalid = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    /// Zero seconds: `kCMTimeZero`.
    public static let zero = CMTime(value: 0, timescale: 1, flags: .valid, epoch: 0)
    /// A time whose value is not known: `kCMTimeIndefinite`.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    /// `kCMTimePositiveInfinity`.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// `kCMTimeNegativeInfinity`.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    public var isValid: Bool { flags.contains(.valid) }
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Valid, finite and definite: a number of seconds (a valid time with a timescale ≤ 0 is not).
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) && timescale > 0 }
    public var hasBeenRounded: Bool { isNumeric && flags.contains(.hasBeenRounded) }

    /// The time in seconds: ±∞ for the infinities, NaN for invalid and indefinite times.
    public var seconds: Double {
        if isNumeric { return Double(value) / Double(timescale) }
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        return .nan
    }

    /// The absolute value (numeric times; others unchanged but −∞, which becomes +∞).
    public var absoluteValue: CMTime { CMTimeAbsoluteValue(self) }

    /// The same time in ticks of `1 / newTimescale`. `CMTimeConvertScale`.
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        CMTimeConvertScale(self, timescale: newTimescale, method: method)
    }
}

// MARK: - The C-style functions Swift code uses

/// `value / timescale` seconds.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }

/// `value / timescale` seconds in `epoch`.
public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    var t = CMTime(value: value, timescale: timescale)
    t.epoch = epoch
    return t
}

/// `seconds` at `preferredTimescale` (see `CMTime(seconds:preferredTimescale:)`).
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// The time in seconds (NaN for invalid and indefinite times, ±∞ for the infinities).
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 { time.seconds }

public func CMTIME_IS_VALID(_ time: CMTime) -> Bool { time.isValid }
public func CMTIME_IS_INVALID(_ time: CMTime) -> Bool { !time.isValid }
public func CMTIME_IS_NUMERIC(_ time: CMTime) -> Bool { time.isNumeric }
public func CMTIME_IS_INDEFINITE(_ time: CMTime) -> Bool { time.isIndefinite }
public func CMTIME_IS_POSITIVE_INFINITY(_ time: CMTime) -> Bool { time.isPositiveInfinity }
public func CMTIME_IS_NEGATIVE_INFINITY(_ time: CMTime) -> Bool { time.isNegativeInfinity }
public func CMTIME_HAS_BEEN_ROUNDED(_ time: CMTime) -> Bool { time.hasBeenRounded }

extension CMTime: CustomStringConvertible, CustomDebugStringConvertible {
    /// `CMTimeCopyDescription`'s short form: `{1/30 = 0.033}`, `{+INFINITY}`, `{INDEFINITE}`, `{INVALID}`.
    public var description: String {
        if isNumeric {
            return "{\(value)/\(timescale) = \(String(format: "%.3f", seconds))\(hasBeenRounded ? ", rounded" : "")"
                + (epoch != 0 ? ", epoch = \(epoch)" : "") + "}"
        }
        if isPositiveInfinity { return "{+INFINITY}" }
        if isNegativeInfinity { return "{-INFINITY}" }
        if isIndefinite { return "{INDEFINITE}" }
        return "{INVALID}"
    }

    public var debugDescription: String {
        "CMTime(value: \(value), timescale: \(timescale), flags: \(flags.rawValue), epoch: \(epoch))"
    }
}

/// Prints the time's description (`{1/30 = 0.033}`) on standard output.
public func CMTimeShow(_ time: CMTime) { print(time.description) }
