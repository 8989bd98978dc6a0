import XCTest
import CoreMedia

/// Core Media's rational time: construction, seconds, arithmetic across timescales, rounding,
/// the order of non-numeric times, and ranges and mappings.
final class CMTimeTests: XCTestCase {
    func testConstructionAndSeconds() {
        let t = CMTimeMake(value: 1001, timescale: 30000)
        XCTAssertEqual(t.value, 1001)
        XCTAssertEqual(t.timescale, 30000)
        XCTAssertTrue(t.isValid && t.isNumeric)
        XCTAssertEqual(CMTimeGetSeconds(t), 1001.0 / 30000, accuracy: 1e-15)
        XCTAssertEqual(CMTime.zero.seconds, 0)
        XCTAssertFalse(CMTime.invalid.isValid)
        XCTAssertTrue(CMTime.invalid.seconds.isNaN)
        XCTAssertEqual(CMTime.positiveInfinity.seconds, .infinity)
        XCTAssertEqual(CMTime.negativeInfinity.seconds, -.infinity)
        XCTAssertTrue(CMTime.indefinite.seconds.isNaN)
        XCTAssertFalse(CMTime(value: 1, timescale: 0).isValid, "a timescale of 0 makes an invalid time")
    }

    func testSecondsRoundHalfAwayFromZeroAndFlagRounding() {
        let exact = CMTime(seconds: 2.5, preferredTimescale: 600)
        XCTAssertEqual(exact.value, 1500)
        XCTAssertFalse(exact.hasBeenRounded)
        let third = CMTime(seconds: 1.0 / 3, preferredTimescale: 10)
        XCTAssertEqual(third.value, 3)
        XCTAssertTrue(third.hasBeenRounded)
        XCTAssertEqual(CMTime(seconds: 0.25, preferredTimescale: 2).value, 1, "0.5 ticks round away from zero")
        XCTAssertEqual(CMTime(seconds: -0.25, preferredTimescale: 2).value, -1)
        XCTAssertTrue(CMTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
        XCTAssertFalse(CMTime(seconds: .nan, preferredTimescale: 600).isValid)
        // Too large for 64 bits at 1e9 ticks a second: the timescale halves until it fits.
        let huge = CMTime(seconds: 1e12, preferredTimescale: 1_000_000_000)
        XCTAssertTrue(huge.isNumeric)
        XCTAssertLessThan(huge.timescale, 1_000_000_000)
        XCTAssertEqual(huge.seconds, 1e12, accuracy: 1)
    }

    func testAdditionUsesTheLeastCommonMultipleTimescale() {
        let sum = CMTimeMake(value: 1, timescale: 30) + CMTimeMake(value: 1, timescale: 25)
        XCTAssertEqual(sum.timescale, 150)
        XCTAssertEqual(sum.value, 11)
        XCTAssertFalse(sum.hasBeenRounded)
        let same = CMTimeAdd(CMTimeMake(value: 2, timescale: 600), CMTimeMake(value: 3, timescale: 600))
        XCTAssertEqual(same.value, 5)
        XCTAssertEqual(same.timescale, 600)
        let difference = CMTimeSubtract(CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 1, timescale: 3))
        XCTAssertEqual(difference, CMTimeMake(value: 1, timescale: 6))
        // Coprime large timescales: the LCM does not fit, so the maximum timescale with rounding.
        let rounded = CMTimeMake(value: 1, timescale: 2_147_483_629) + CMTimeMake(value: 1, timescale: 2_147_483_587)
        XCTAssertEqual(rounded.timescale, kCMTimeMaxTimescale)
        XCTAssertTrue(rounded.hasBeenRounded)
    }

    func testNonNumericArithmetic() {
        let one = CMTimeMake(value: 1, timescale: 1)
        XCTAssertFalse((CMTime.invalid + one).isValid)
        XCTAssertTrue((CMTime.positiveInfinity + one).isPositiveInfinity)
        XCTAssertTrue((one - CMTime.positiveInfinity).isNegativeInfinity)
        XCTAssertFalse((CMTime.positiveInfinity + CMTime.negativeInfinity).isValid)
        XCTAssertTrue((CMTime.indefinite + one).isIndefinite)
        XCTAssertTrue((CMTime.positiveInfinity + CMTime.indefinite).isPositiveInfinity, "infinity wins over indefinite")
        XCTAssertFalse(CMTimeAdd(CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 1), CMTimeMakeWithEpoch(value: 1, timescale: 1, epoch: 2)).isValid)
    }

    func testMultiplication() {
        XCTAssertEqual(CMTimeMultiply(CMTimeMake(value: 1001, timescale: 30000), multiplier: 30), CMTimeMake(value: 30030, timescale: 30000))
        XCTAssertEqual(CMTimeMultiply(CMTimeMake(value: 7, timescale: 3), multiplier: 3).timescale, 3)
        let half = CMTimeMultiplyByFloat64(CMTimeMake(value: 1, timescale: 30), multiplier: 0.5)
        XCTAssertGreaterThanOrEqual(half.timescale, 65536, "the timescale doubles up to at least 65536")
        XCTAssertEqual(half.seconds, 1.0 / 60, accuracy: 1e-6)
        XCTAssertEqual(CMTimeMultiplyByRatio(CMTimeMake(value: 1, timescale: 30), multiplier: 1, divisor: 2), CMTimeMake(value: 1, timescale: 60))
        XCTAssertFalse(CMTimeMultiplyByRatio(CMTimeMake(value: 1, timescale: 30), multiplier: 1, divisor: 0).isValid)
        XCTAssertTrue(CMTimeMultiply(.positiveInfinity, multiplier: -2).isNegativeInfinity)
        XCTAssertEqual(CMTimeMake(value: 3, timescale: 10) * Int32(2), CMTimeMake(value: 6, timescale: 10))
    }

    func testComparisonIsByValueAndOrdersNonNumericTimes() {
        XCTAssertEqual(CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 2, timescale: 4))
        XCTAssertEqual(CMTimeCompare(CMTimeMake(value: 1, timescale: 3), CMTimeMake(value: 1, timescale: 2)), -1)
        XCTAssertEqual(Set([CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 3, timescale: 6)]).count, 1, "equal times hash equal")
        let ordered: [CMTime] = [.negativeInfinity, CMTimeMake(value: -5, timescale: 1), .zero, CMTimeMake(value: 5, timescale: 1),
                                 .indefinite, .positiveInfinity, .invalid]
        for (i, a) in ordered.enumerated() {
            for (j, b) in ordered.enumerated() {
                XCTAssertEqual(CMTimeCompare(a, b), Int32(i < j ? -1 : i > j ? 1 : 0), "\(a) vs \(b)")
            }
        }
        XCTAssertEqual(CMTimeMaximum(CMTimeMake(value: 1, timescale: 1), CMTimeMake(value: 3, timescale: 2)), CMTimeMake(value: 3, timescale: 2))
        XCTAssertEqual(CMTimeMinimum(.zero, .positiveInfinity), .zero)
        XCTAssertEqual(CMTimeAbsoluteValue(CMTimeMake(value: -3, timescale: 2)), CMTimeMake(value: 3, timescale: 2))
    }

    func testConvertScaleRoundsAsAsked() {
        let t = CMTimeMake(value: 1, timescale: 3)
        XCTAssertEqual(CMTimeConvertScale(t, timescale: 10, method: .roundHalfAwayFromZero).value, 3)
        XCTAssertEqual(t.convertScale(10, method: .roundAwayFromZero).value, 4)
        XCTAssertEqual(t.convertScale(10, method: .roundTowardZero).value, 3)
        XCTAssertEqual(CMTimeMake(value: -1, timescale: 3).convertScale(10, method: .roundTowardNegativeInfinity).value, -4)
        XCTAssertEqual(CMTimeMake(value: -1, timescale: 3).convertScale(10, method: .roundTowardPositiveInfinity).value, -3)
        XCTAssertTrue(t.convertScale(10, method: .default).hasBeenRounded)
        XCTAssertFalse(CMTimeMake(value: 1, timescale: 2).convertScale(10, method: .default).hasBeenRounded)
    }

    func testRanges() {
        let range = CMTimeRangeMake(start: CMTimeMake(value: 1, timescale: 1), duration: CMTimeMake(value: 2, timescale: 1))
        XCTAssertEqual(range.end, CMTimeMake(value: 3, timescale: 1))
        XCTAssertTrue(range.containsTime(CMTimeMake(value: 1, timescale: 1)))
        XCTAssertTrue(range.containsTime(CMTimeMake(value: 299, timescale: 100)))
        XCTAssertFalse(range.containsTime(CMTimeMake(value: 3, timescale: 1)), "the end is outside (half-open)")
        XCTAssertEqual(CMTimeRange(start: CMTimeMake(value: 1, timescale: 1), end: CMTimeMake(value: 3, timescale: 1)), range)
        let other = CMTimeRange(start: CMTimeMake(value: 2, timescale: 1), duration: CMTimeMake(value: 5, timescale: 1))
        XCTAssertEqual(range.intersection(other), CMTimeRange(start: CMTimeMake(value: 2, timescale: 1), end: CMTimeMake(value: 3, timescale: 1)))
        XCTAssertEqual(range.union(other), CMTimeRange(start: CMTimeMake(value: 1, timescale: 1), end: CMTimeMake(value: 7, timescale: 1)))
        XCTAssertTrue(range.intersection(CMTimeRange(start: CMTimeMake(value: 5, timescale: 1), duration: CMTimeMake(value: 1, timescale: 1))).isEmpty)
        XCTAssertTrue(other.containsTimeRange(CMTimeRange(start: CMTimeMake(value: 3, timescale: 1), duration: CMTimeMake(value: 1, timescale: 1))))
        XCTAssertFalse(CMTimeRange.invalid.isValid)
        XCTAssertFalse(CMTimeRange(start: .zero, duration: CMTimeMake(value: -1, timescale: 1)).isValid, "a negative duration")
        XCTAssertTrue(CMTimeRange(start: .zero, duration: .positiveInfinity).containsTime(CMTimeMake(value: 1_000_000, timescale: 1)))
        XCTAssertEqual(CMTimeClampToRange(CMTimeMake(value: 9, timescale: 1), range: range), range.end)
        XCTAssertEqual(range.description, "{{1/1 = 1.000}, {2/1 = 2.000}}")
    }

    func testMappingBetweenRanges() {
        let source = CMTimeRange(start: CMTimeMake(value: 10, timescale: 1), duration: CMTimeMake(value: 4, timescale: 1))
        let target = CMTimeRange(start: .zero, duration: CMTimeMake(value: 8, timescale: 1))
        XCTAssertEqual(CMTimeMapTimeFromRangeToRange(CMTimeMake(value: 11, timescale: 1), fromRange: source, toRange: target),
                       CMTimeMake(value: 2, timescale: 1))
        XCTAssertEqual(CMTimeMapDurationFromRangeToRange(CMTimeMake(value: 3, timescale: 1), fromRange: source, toRange: target),
                       CMTimeMake(value: 6, timescale: 1))
        let gap = CMTimeMappingMakeEmpty(target: target)
        XCTAssertEqual(CMTimeMappingMake(source: source, target: target).source, source)
        XCTAssertFalse(gap.source.start.isValid)
        XCTAssertEqual(kCMPersistentTrackID_Invalid, 0)
    }
}
