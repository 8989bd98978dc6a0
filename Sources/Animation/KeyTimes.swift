import Foundation

/// Which `keyTimes` a keyframe animation uses (§4.1): the given ones when they fit the mode,
/// else even spacing. Core Animation ignores arrays that do not fit rather than failing, so the
/// reason is returned too, for a loader to warn with.
public enum KeyTimes {
    /// The boundary times for `count` keyframes in `mode` (`count + 1` of them in discrete
    /// mode), and why `given` was not used (nil when it was, or when none was given).
    /// Paced modes return nil times: they are computed from distances.
    public static func resolve(_ given: [Double], mode: CAAnimationCalculationMode, count n: Int,
                               alongPath: Bool) -> (times: [Double]?, ignored: String?) {
        let even = n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
        switch mode {
        case .paced, .cubicPaced:
            return (nil, given.isEmpty ? nil : "keyTimes are ignored in \(mode.rawValue) mode (times follow the distance)")
        case .discrete where alongPath:
            // Each segment's start point holds for an equal share of the time (§4.4).
            let m = n - 1
            return ((0...m).map { Double($0) / Double(m) },
                    given.isEmpty ? nil : "keyTimes are ignored by a discrete animation along a path")
        case .discrete:
            let evenDiscrete = (0...n).map { Double($0) / Double(n) }
            if given.isEmpty { return (evenDiscrete, nil) }
            if problem(given, count: n + 1) == nil, given.last == 1 { return (given, nil) }
            if problem(given, count: n) == nil { return (given + [1], nil) }  // the common n-entry form
            let reason = problem(given, count: given.count == n ? n : n + 1)
                ?? "the last of \(n + 1) keyTimes must be 1"
            return (evenDiscrete, "\(reason); Core Animation ignores them and spaces the keyframes evenly")
        default:
            if given.isEmpty { return (even, nil) }
            var reason = problem(given, count: n)
            if reason == nil, n > 1, given.last != 1 { reason = "the last keyTime must be 1" }
            guard let reason else { return (given, nil) }
            return (even, "\(reason); Core Animation ignores them and spaces the keyframes evenly")
        }
    }

    /// Why `times` are not `count` key times from 0, each in [0, 1], never decreasing.
    private static func problem(_ times: [Double], count: Int) -> String? {
        guard times.count == count else {
            return "\(times.count) keyTimes for \(count) key frame\(count == 1 ? "" : "s")"
        }
        guard times.first == 0 else { return "the first keyTime must be 0" }
        for (i, t) in times.enumerated() {
            guard t.isFinite, t >= 0, t <= 1 else { return "keyTimes[\(i)] is outside 0…1" }
            if i > 0, t < times[i - 1] { return "keyTimes decrease at [\(i)] (\(t) after \(times[i - 1]))" }
        }
        return nil
    }
}
