import Foundation
import Layers

/// A playback position: the item time shown at a host time, and how fast it moves.
/// AVFoundation counterpart: the current time and rate of an `AVPlayerItem`.
public struct PlaybackTimeline: Sendable, Equatable {
    /// The item's time (seconds) at `hostTime`.
    public var itemTime: Double
    /// Item seconds per host second: 1 plays, 0 pauses, 2 plays twice as fast, −1 backwards.
    public var rate: Double
    /// The time in the synchronized layer's parent time space at which the item showed `itemTime`.
    public var hostTime: Double

    public init(itemTime: Double = 0, rate: Double = 1, hostTime: Double = 0) {
        self.itemTime = itemTime; self.rate = rate; self.hostTime = hostTime
    }

    /// The item time at parent time `t`.
    public func itemTime(at t: Double) -> Double { itemTime + (t - hostTime) * rate }
}

/// A layer whose subtree's time follows a player item, so that animations inside it are read
/// on the item's timeline (item time 0 = the start of the item). It displays nothing itself.
/// AVFoundation: `AVSynchronizedLayer`.
///
/// It works through Core Animation's own layer timing: `beginTime` = host time, `speed` =
/// rate, `timeOffset` = item time, since a layer's local time is `(t − beginTime)·speed +
/// timeOffset`; the item's player updates it when it plays, pauses, seeks or changes rate.
/// Host time is `CATransaction.mediaClock`'s, the clock the layer tree is rendered on. As on
/// Apple, animations inside need a non-zero `beginTime` (`AVCoreAnimationBeginTimeAtZero` for
/// item time 0).
open class AVSynchronizedLayer: CALayer {
    /// The item whose time the subtree follows.
    public var playerItem: AVPlayerItem? {
        didSet {
            oldValue?.detach(self)
            playerItem?.attach(self)
            if let playerItem { timeline = playerItem.timeline }
        }
    }

    /// The timeline the subtree follows; nil leaves the layer's timing as set.
    public var timeline: PlaybackTimeline? {
        didSet { apply() }
    }

    /// Copies the timeline into the layer's timing (`beginTime`, `speed`, `timeOffset`).
    private func apply() {
        guard let timeline else { return }
        beginTime = timeline.hostTime
        speed = Float(timeline.rate)
        timeOffset = timeline.itemTime
    }

    /// A synchronized layer following `playerItem`.
    public convenience init(playerItem: AVPlayerItem) {
        self.init()
        // Property observers do not run in the class's own initializers: attach and apply here.
        self.playerItem = playerItem
        playerItem.attach(self)
        timeline = playerItem.timeline
        apply()
    }

    /// A synchronized layer following `timeline`.
    public convenience init(timeline: PlaybackTimeline) {
        self.init()
        self.timeline = timeline
        apply()
    }
}
