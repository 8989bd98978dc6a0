import Foundation

// Core Media's arithmetic and comparison, exact on rationals (128-bit intermediates), with its
// rules for timescales (same scale kept; different scales meet at their least common multiple,
// or at `kCMTimeMaxTimescale` with rounding), overflow (the timescale halves until the value
// fits; ±∞ past timescale 1) and non-numeric operands.

extension CMTime {
    /// `numerator / denominator` seconds (denominator > 0) at `timescale`, rounded by `method`;
    /// the timescale halves while the value does not fit; ±∞ when it never does.
    static func rational(_ numerator: Int128, _ denominator: Int128, timescale: Int32, method: CMTimeRoundingMethod = .default,
                         rounded: Bool = false) -> CMTime {
        var scale = timescale
        while true {
            let scaled = numerator * Int128(scale)
            let (quotient, remainder) = scaled.quotientAndRemainder(dividingBy: denominator)
            let value = remainder == 0 ? quotient : round(quotient, remainder, denominator, method)
            if let fitted = Int64(exactly: value) {
                return CMTime(value: fitted, timescale: scale,
                              flags: rounded || remainder != 0 ? [.valid, .hasBeenRounded] : .valid, epoch: 0)
            }
            if scale == 1 { return numerator > 0 ? .positiveInfinity : .negativeInfinity }
            scale /= 2
        }
    }

    /// Rounds `quotient + remainder / divisor` (truncated division, divisor > 0) to an integer.
    private static func round(_ quotient: Int128, _ remainder: Int128, _ divisor: Int128, _ method: CMTimeRoundingMethod) -> Int128 {
        let negative = remainder < 0
        let away = negative ? quotient - 1 : quotient + 1
        switch method {
        case .roundTowardZero: return quotient
        case .roundAwayFromZero: return away
        case .roundTowardNegativeInfinity: return negative ? away : quotient
        case .roundTowardPositiveInfinity: return negative ? quotient : away
        case .roundHalfAwayFromZero, .quickTime:
            let twice = remainder.magnitude * 2
            return twice >= divisor.magnitude ? away : quotient
        }
    }

    /// The operands' common timescale: the same one, or their LCM (`kCMTimeMaxTimescale`, rounded, when that is larger).
    static func commonTimescale(_ a: Int32, _ b: Int32) -> (scale: Int32, exact: Bool) {
        if a == b { return (a, true) }
        var x = Int64(a), y = Int64(b)
        while y != 0 { (x, y) = (y, x % y) }
        let lcm = Int64(a) / x * Int64(b)
        return lcm <= Int64(kCMTimeMaxTimescale) ? (Int32(lcm), true) : (kCMTimeMaxTimescale, false)
    }
}

/// `lhs + rhs`. Invalid if either is invalid, or for +∞ + −∞; infinite if either is; else
/// indefinite if either is; numeric times of different non-zero epochs give an invalid time.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { combine(lhs, rhs, negate: false) }

/// `lhs − rhs`, with `CMTimeAdd`'s rules (subtracting +∞ gives −∞).
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { combine(lhs, rhs, negate: true) }

private func combine(_ a: CMTime, _ b: CMTime, negate: Bool) -> CMTime {
    guard a.isValid, b.isValid else { return .invalid }
    let bPositive = negate ? b.isNegativeInfinity : b.isPositiveInfinity
    let bNegative = negate ? b.isPositiveInfinity : b.isNegativeInfinity
    if (a.isPositiveInfinity && bNegative) || (a.isNegativeInfinity && bPositive) { return .invalid }
    if a.isPositiveInfinity || bPositive { return .positiveInfinity }
    if a.isNegativeInfinity || bNegative { return .negativeInfinity }
    if a.isIndefinite || b.isIndefinite { return .indefinite }
    if a.epoch != b.epoch, a.epoch != 0, b.epoch != 0 { return .invalid }
    let (scale, exact) = CMTime.commonTimescale(a.timescale, b.timescale)
    let rhs = Int128(b.value) * Int128(a.timescale)
    let numerator = Int128(a.value) * Int128(b.timescale) + (negate ? -rhs : rhs)
    var result = CMTime.rational(numerator, Int128(a.timescale) * Int128(b.timescale), timescale: scale,
                                 rounded: !exact || a.hasBeenRounded || b.hasBeenRounded)
    // Two times of one epoch make a duration (epoch 0); a time and a duration keep the time's epoch.
    result.epoch = a.epoch == b.epoch ? 0 : max(a.epoch, b.epoch)
    return result
}

/// `time × multiplier` at the time's timescale (halved on overflow; ±∞ past timescale 1).
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    guard time.isNumeric else { return multiplyNonNumeric(time, negative: multiplier < 0, zero: multiplier == 0) }
    var result = CMTime.rational(Int128(time.value) * Int128(multiplier), Int128(time.timescale), timescale: time.timescale,
                                 rounded: time.hasBeenRounded)
    result.epoch = time.epoch
    return result
}

/// `time × multiplier`: the time's timescale, doubled until it is at least 65536, halved on
/// overflow; rounded half away from zero. NaN gives an invalid time, an infinite product ±∞.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    guard time.isNumeric else {
        return multiplier.isNaN ? .invalid : multiplyNonNumeric(time, negative: multiplier < 0, zero: multiplier == 0)
    }
    guard multiplier.isFinite else { return multiplier.isNaN ? .invalid : (multiplier > 0) == (time.value >= 0) ? .positiveInfinity : .negativeInfinity }
    var scale = time.timescale
    while scale < 65536, scale <= kCMTimeMaxTimescale / 2 { scale *= 2 }
    var result = CMTime(seconds: time.seconds * multiplier, preferredTimescale: scale)
    if time.hasBeenRounded, result.isNumeric { result.flags.insert(.hasBeenRounded) }
    result.epoch = time.epoch
    return result
}

/// `time × multiplier / divisor`, exact where it fits (a divisor of 0 gives an invalid time).
public func CMTimeMultiplyByRatio(_ time: CMTime, multiplier: Int32, divisor: Int32) -> CMTime {
    guard divisor != 0 else { return .invalid }
    guard time.isNumeric else { return multiplyNonNumeric(time, negative: (multiplier < 0) != (divisor < 0), zero: multiplier == 0) }
    var numerator = Int128(time.value) * Int128(multiplier)
    var denominator = Int128(time.timescale) * Int128(divisor)
    if denominator < 0 { numerator = -numerator; denominator = -denominator }
    // The time's timescale when the ratio divides into it, else the smallest one that is exact.
    var scale = time.timescale
    let g = gcd(numerator.magnitude, denominator.magnitude)
    let reduced = denominator / Int128(g == 0 ? 1 : g)
    if Int128(scale) % reduced != 0, let exact = Int32(exactly: reduced) { scale = exact }
    var result = CMTime.rational(numerator, denominator, timescale: scale, rounded: time.hasBeenRounded)
    result.epoch = time.epoch
    return result
}

private func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return x
}

private func multiplyNonNumeric(_ time: CMTime, negative: Bool, zero: Bool) -> CMTime {
    if !time.isValid || time.isIndefinite { return time.isValid ? .indefinite : .invalid }
    if zero { return .invalid }
    let positive = time.isPositiveInfinity != negative
    return positive ? .positiveInfinity : .negativeInfinity
}

/// −1, 0 or 1 as `time1` is less than, equal to or greater than `time2` (the order `CMTime`'s
/// comparison operators use; see `CMTime`).
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    func rank(_ t: CMTime) -> Int {
        if !t.isValid { return 4 }
        if t.isPositiveInfinity { return 3 }
        if t.isIndefinite { return 2 }
        if t.isNegativeInfinity { return 0 }
        return 1
    }
    let r1 = rank(time1), r2 = rank(time2)
    if r1 != r2 { return r1 < r2 ? -1 : 1 }
    guard r1 == 1 else { return 0 }
    if time1.epoch != time2.epoch { return time1.epoch < time2.epoch ? -1 : 1 }
    let lhs = Int128(time1.value) * Int128(time2.timescale), rhs = Int128(time2.value) * Int128(time1.timescale)
    return lhs == rhs ? 0 : lhs < rhs ? -1 : 1
}

/// The smaller time (`CMTimeCompare`'s order).
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime { CMTimeCompare(time1, time2) <= 0 ? time1 : time2 }
/// The larger time (`CMTimeCompare`'s order).
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime { CMTimeCompare(time1, time2) >= 0 ? time1 : time2 }

/// The absolute value; −∞ becomes +∞, other non-numeric times are unchanged.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    if time.isNegativeInfinity { return .positiveInfinity }
    guard time.isNumeric, time.value < 0 else { return time }
    var t = time
    t.value = time.value == .min ? .max : -time.value
    return t
}

/// `time` in ticks of `1 / newTimescale`, rounded by `method` (flagged when inexact);
/// non-numeric times stay as they are, a timescale ≤ 0 gives an invalid time.
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    guard time.isNumeric else { return time }
    guard newTimescale > 0 else { return .invalid }
    var result = CMTime.rational(Int128(time.value), Int128(time.timescale), timescale: newTimescale, method: method,
                                 rounded: time.hasBeenRounded)
    // The new timescale is kept: halving is only for values that overflow, which become ±∞ here.
    if result.isNumeric, result.timescale != newTimescale { result = time.value > 0 ? .positiveInfinity : .negativeInfinity }
    result.epoch = time.epoch
    return result
}

extension CMTime: Equatable, Comparable, Hashable {
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) == 0 }
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) < 0 }

    /// Hashes what equality compares: the reduced fraction and epoch of a numeric time, the kind of any other.
    public func hash(into hasher: inout Hasher) {
        guard isNumeric else {
            hasher.combine(isValid ? flags.intersection(.impliedValueFlagsMask).rawValue : 0xffff)
            return
        }
        var a = value.magnitude, b = UInt64(timescale)
        while b != 0 { (a, b) = (b, a % b) }
        hasher.combine(value / Int64(a == 0 ? 1 : a))
        hasher.combine(Int64(timescale) / Int64(a == 0 ? 1 : a))
        hasher.combine(epoch)
    }

    public static func + (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeAdd(lhs, rhs) }
    public static func - (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeSubtract(lhs, rhs) }
    public static func += (lhs: inout CMTime, rhs: CMTime) { lhs = CMTimeAdd(lhs, rhs) }
    public static func -= (lhs: inout CMTime, rhs: CMTime) { lhs = CMTimeSubtract(lhs, rhs) }
    public static prefix func - (time: CMTime) -> CMTime { CMTimeMultiply(time, multiplier: -1) }
    public static func * (time: CMTime, multiplier: Int32) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }
    public static func * (multiplier: Int32, time: CMTime) -> CMTime { CMTimeMultiply(time, multiplier: multiplier) }
    public static func * (time: CMTime, multiplier: Float64) -> CMTime { CMTimeMultiplyByFloat64(time, multiplier: multiplier) }
    public static func * (multiplier: Float64, time: CMTime) -> CMTime { CMTimeMultiplyByFloat64(time, multiplier: multiplier) }
    public static func *= (time: inout CMTime, multiplier: Int32) { time = CMTimeMultiply(time, multiplier: multiplier) }
    public static func *= (time: inout CMTime, multiplier: Float64) { time = CMTimeMultiplyByFloat64(time, multiplier: multiplier) }
}
