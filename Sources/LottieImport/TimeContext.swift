import Foundation

/// How a layer's own frames map onto the root composition's frames (lottie-ios's simple and
/// complex time remapping): a linear map through precomps' start times and time stretches, or,
/// below a time-remapped precomp, a function from root frames to local frames that is sampled.
struct TimeContext {
    /// root frame = local frame · scale + offset (while `remap` is nil).
    var scale = 1.0
    var offset = 0.0
    /// root frame → local frame, below a time-remapped precomp.
    var remap: ((Double) -> Double)?

    /// The root frame of a local frame (only meaningful without `remap`).
    func rootFrame(_ local: Double) -> Double { local * scale + offset }

    /// The local frame shown at a root frame.
    func localFrame(_ root: Double) -> Double { remap?(root) ?? (root - offset) / scale }

    /// The context of a precomp's layers: its start time, time stretch and time remapping.
    func entering(startTime st: Double, timeStretch sr: Double, timeRemap tm: KeyframeGroup<[Double]>?, frameRate fr: Double) -> TimeContext {
        var next = self
        if let tm {
            let outer = self
            let group = tm
            next.remap = { root in
                let parentLocal = outer.localFrame(root)
                return (group.value(at: parentLocal).first ?? 0) * fr
            }
        } else if let remap {
            next.remap = { root in (remap(root) - st) / sr }
        } else {
            next.scale = scale * sr
            next.offset = st * scale + offset
        }
        return next
    }
}
