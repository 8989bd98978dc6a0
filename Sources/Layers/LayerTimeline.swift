import Foundation
import Animation
import Timing

/// Drives a layer tree through time the way a display's frame loop does: it makes the tree live
/// (so property changes animate implicitly), and at each frame sends delegate messages and
/// removes finished animations.
///
/// Rendering never needs it — a frame at time t depends only on t. It exists for ported code that
/// relies on `animationDidStop`, `removedOnCompletion` bookkeeping, completion blocks and
/// implicit animations.
///
/// A timeline drives time: making one installs its own manual `clock` as
/// `CATransaction.mediaClock` (the one place "now" is read from), so animations added during a
/// frame start at that frame's time. The clock stays installed after the timeline is gone (as a
/// moved clock stays moved), so no release order can change what "now" reads; set another clock
/// when done.
public final class LayerTimeline {
    public let root: CALayer
    /// The media clock while the timeline lives; it reads the time of the last frame.
    public let clock: ManualMediaClock

    /// The time of the last frame.
    public var currentTime: CFTimeInterval { clock.currentTime }

    /// Makes `root`'s tree live, starting at `time` (the media clock's time by default), and
    /// installs the timeline's clock as `CATransaction.mediaClock`.
    public init(root: CALayer, time: CFTimeInterval? = nil) {
        self.root = root
        clock = ManualMediaClock(time: time ?? CATransaction.mediaClock.currentTime)
        CATransaction.mediaClock = clock
        root.timeline = self
        root.forEachLayerInTree { $0.isCommitted = true }
    }

    deinit { if root.timeline === self { root.timeline = nil } }

    /// Moves to `time`: moves the clock, commits the implicit transaction, marks every layer in
    /// the tree as shown and draws those marked for display, then sends `animationDidStart`/
    /// `animationDidStop` for windows crossed and removes finished `isRemovedOnCompletion` animations.
    public func advance(to time: CFTimeInterval) {
        clock.currentTime = time
        CATransaction.flush()
        var layers: [CALayer] = []
        root.forEachLayerInTree { layers.append($0) }
        for layer in layers {
            layer.isCommitted = true
            // The commit draws marked layers, as Core Animation's does.
            layer.displayIfNeeded()
            guard !layer.attached.isEmpty else { continue }
            let local = layer.localTime(fromGlobalTime: time)
            for item in layer.attached {
                let timing = item.program.timing
                let elapsed = (local - timing.beginTime) * timing.speed
                if elapsed >= 0, !item.didStart {
                    item.didStart = true
                    item.animation.delegate?.animationDidStart(item.animation)
                }
                if elapsed >= timing.activeDuration, !item.didStop {
                    if !item.didStart {
                        item.didStart = true
                        item.animation.delegate?.animationDidStart(item.animation)
                    }
                    item.stop(finished: true)
                }
            }
            layer.attached.removeAll { $0.didStop && $0.animation.isRemovedOnCompletion }
        }
    }
}
