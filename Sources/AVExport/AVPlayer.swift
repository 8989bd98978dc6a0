import Foundation
import Synchronization
import CoreMedia
import Layers

/// Media being played: an asset, the item time over host time. AVFoundation: `AVPlayerItem`.
/// Its `AVPlayer` moves it; `AVSynchronizedLayer(playerItem:)` shows its time.
open class AVPlayerItem: @unchecked Sendable {
    public enum Status: Int, Sendable { case unknown = 0, readyToPlay, failed }

    public let asset: AVAsset
    public var videoComposition: AVVideoComposition?
    public var audioMix: AVAudioMix?
    private let storedTimeline = Mutex(PlaybackTimeline(itemTime: 0, rate: 0, hostTime: 0))
    private let layers = Mutex<[WeakLayer]>([])

    public init(asset: AVAsset) { self.asset = asset }
    public convenience init(url: URL) { self.init(asset: AVURLAsset(url: url)) }

    /// `readyToPlay` once the asset could be read, `failed` when it cannot be.
    public var status: Status { asset.isPlayable ? .readyToPlay : .failed }
    /// The asset's error when it cannot be read.
    public var error: (any Error)? {
        do throws(AVError) { _ = try asset.loadedTracks(); return nil } catch { return error }
    }
    public var duration: CMTime { asset.duration }

    /// The item's position and rate over host time.
    public internal(set) var timeline: PlaybackTimeline {
        get { storedTimeline.withLock { $0 } }
        set {
            storedTimeline.withLock { $0 = newValue }
            let attached = layers.withLock { list in
                list.removeAll { $0.layer == nil }
                return list.compactMap(\.layer)
            }
            for layer in attached { layer.timeline = newValue }
        }
    }

    /// The item time now (host time from `CATransaction.mediaClock`).
    public func currentTime() -> CMTime {
        CMTime(seconds: timeline.itemTime(at: CATransaction.mediaClock.currentTime), preferredTimescale: 600)
    }

    /// Moves to `time`, keeping the rate.
    open func seek(to time: CMTime) {
        rebase(itemTime: time.seconds, rate: timeline.rate)
    }

    /// Moves to `time`, then calls `completionHandler` (true: the seek finished).
    open func seek(to time: CMTime, completionHandler: (@Sendable (Bool) -> Void)?) {
        seek(to: time)
        completionHandler?(true)
    }

    /// The timeline from now on: `itemTime` (nil: where it is now) moving at `rate`.
    func rebase(itemTime: Double? = nil, rate: Double) {
        let now = CATransaction.mediaClock.currentTime
        timeline = PlaybackTimeline(itemTime: itemTime ?? timeline.itemTime(at: now), rate: rate, hostTime: now)
    }

    func attach(_ layer: AVSynchronizedLayer) {
        layers.withLock { list in
            if !list.contains(where: { $0.layer === layer }) { list.append(WeakLayer(layer: layer)) }
        }
    }

    func detach(_ layer: AVSynchronizedLayer) {
        layers.withLock { $0.removeAll { $0.layer === layer || $0.layer == nil } }
    }

    private struct WeakLayer: @unchecked Sendable { weak var layer: AVSynchronizedLayer? }
}

/// Plays one item: its time moves with host time at `rate`. AVFoundation: `AVPlayer`, enough for
/// `AVSynchronizedLayer` previews (there is no picture or sound output: render the layer tree at
/// host times to see it).
open class AVPlayer: @unchecked Sendable {
    public enum TimeControlStatus: Int, Sendable { case paused = 0, waitingToPlayAtSpecifiedRate, playing }

    public private(set) var currentItem: AVPlayerItem?

    public init() {}
    public init(playerItem item: AVPlayerItem?) { currentItem = item }
    public convenience init(url: URL) { self.init(playerItem: AVPlayerItem(url: url)) }

    /// Item seconds per host second (0 paused, 1 playing).
    open var rate: Float {
        get { Float(currentItem?.timeline.rate ?? 0) }
        set { currentItem?.rebase(rate: Double(newValue)) }
    }
    /// The rate `play()` uses (1).
    open var defaultRate: Float = 1

    open var timeControlStatus: TimeControlStatus { rate == 0 ? .paused : .playing }

    open func play() { rate = defaultRate }
    open func pause() { rate = 0 }

    /// The current item's time now.
    open func currentTime() -> CMTime { currentItem?.currentTime() ?? .zero }

    open func seek(to time: CMTime) { currentItem?.seek(to: time) }

    open func seek(to time: CMTime, completionHandler: @escaping @Sendable (Bool) -> Void) {
        currentItem?.seek(to: time)
        completionHandler(currentItem != nil)
    }

    /// Moves to `time`; true when there was an item to move.
    @discardableResult
    open func seek(to time: CMTime) async -> Bool {
        currentItem?.seek(to: time)
        return currentItem != nil
    }

    /// Plays `item` instead (from its own position, at the player's rate).
    open func replaceCurrentItem(with item: AVPlayerItem?) {
        let rate = self.rate
        currentItem = item
        item?.rebase(rate: Double(rate))
    }
}
