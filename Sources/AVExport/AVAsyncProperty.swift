import Foundation
import Geometry
import CoreMedia

/// Loads media properties without blocking. AVFoundation: `AVAsynchronousKeyValueLoading`, with
/// the Swift `load(_:)` forms of iOS 15+.
public protocol AVAsynchronousKeyValueLoading: AnyObject, Sendable {
    func statusOfValue(forKey key: String, error outError: UnsafeMutablePointer<NSError?>?) -> AVKeyValueStatus
    func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?)
    /// Reads what `property` needs (off the calling thread), once.
    func prepareToLoad() async
}

extension AVAsynchronousKeyValueLoading {
    /// The value of `property`: `try await asset.load(.duration)`. Throws an error naming the
    /// file when the asset cannot be read.
    public func load<T>(_ property: AVAsyncProperty<Self, T>, isolation: isolated (any Actor)? = #isolation) async throws -> T {
        await prepareToLoad()
        return try property.value(self)
    }

    /// Several values at once: `let (duration, tracks) = try await asset.load(.duration, .tracks)`.
    public func load<First, each Rest>(_ first: AVAsyncProperty<Self, First>, _ rest: repeat AVAsyncProperty<Self, each Rest>,
                                       isolation: isolated (any Actor)? = #isolation) async throws -> (First, repeat each Rest) {
        await prepareToLoad()
        return (try first.value(self), repeat try (each rest).value(self))
    }

    /// Where `property` stands: not yet loaded, loaded (with the value), or failed (with the error).
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncProperty<Self, T>.Status {
        var error: NSError?
        switch statusOfValue(forKey: property.key, error: &error) {
        case .loaded: return (try? property.value(self)).map { .loaded($0) } ?? .notYetLoaded
        case .failed: return .failed(error ?? (AVError(.unknown, "\(property.key) failed to load") as NSError))
        case .loading: return .loading
        case .unknown, .cancelled: return .notYetLoaded
        }
    }
}

extension AVAsset {
    public func prepareToLoad() async { await loadInBackground() }
}

extension AVAssetTrack {
    public func prepareToLoad() async { await asset?.loadInBackground() }
}

/// The base of the property identifiers `load(_:)` takes. AVFoundation: `AVAnyAsyncProperty`.
public class AVAnyAsyncProperty: @unchecked Sendable, CustomStringConvertible {
    /// The key-value-coding key of the property (`duration`, `tracks` …).
    public let key: String
    init(key: String) { self.key = key }
    public var description: String { key }
}

/// A property identifier of `Root`. AVFoundation: `AVPartialAsyncProperty`.
public class AVPartialAsyncProperty<Root>: AVAnyAsyncProperty, @unchecked Sendable {}

/// A property identifier of `Root` whose value is a `Value`: `.duration`, `.tracks`,
/// `.naturalSize` … AVFoundation: `AVAsyncProperty`.
public final class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable {
    private let read: (Root) throws -> Value

    init(key: String, read: @escaping (Root) throws -> Value) {
        self.read = read
        super.init(key: key)
    }

    func value(_ root: Root) throws -> Value { try read(root) }

    /// Loaded status of a property. AVFoundation: `AVAsyncProperty.Status`.
    public enum Status {
        case notYetLoaded
        case loading
        case loaded(Value)
        case failed(NSError)
    }
}

extension AVPartialAsyncProperty where Root: AVAsset {
    public static var duration: AVAsyncProperty<Root, CMTime> { AVAsyncProperty(key: "duration") { try $0.loadedDuration() } }
    public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> { AVAsyncProperty(key: "tracks") { try $0.loadedTracks() } }
    public static var naturalSize: AVAsyncProperty<Root, CGSize> {
        AVAsyncProperty(key: "naturalSize") { _ = try $0.loadedTracks(); return $0.naturalSize }
    }
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        AVAsyncProperty(key: "preferredTransform") { _ = try $0.loadedTracks(); return $0.preferredTransform }
    }
    public static var preferredRate: AVAsyncProperty<Root, Float> { AVAsyncProperty(key: "preferredRate") { _ = try $0.loadedTracks(); return 1 } }
    public static var preferredVolume: AVAsyncProperty<Root, Float> { AVAsyncProperty(key: "preferredVolume") { _ = try $0.loadedTracks(); return 1 } }
    public static var isPlayable: AVAsyncProperty<Root, Bool> { AVAsyncProperty(key: "playable") { _ = try $0.loadedTracks(); return true } }
    public static var isExportable: AVAsyncProperty<Root, Bool> { AVAsyncProperty(key: "exportable") { _ = try $0.loadedTracks(); return true } }
    public static var isReadable: AVAsyncProperty<Root, Bool> { AVAsyncProperty(key: "readable") { _ = try $0.loadedTracks(); return true } }
    public static var isComposable: AVAsyncProperty<Root, Bool> { AVAsyncProperty(key: "composable") { _ = try $0.loadedTracks(); return true } }
    public static var providesPreciseDurationAndTiming: AVAsyncProperty<Root, Bool> {
        AVAsyncProperty(key: "providesPreciseDurationAndTiming") { _ = try $0.loadedTracks(); return true }
    }
}

extension AVPartialAsyncProperty where Root: AVAssetTrack {
    public static var naturalSize: AVAsyncProperty<Root, CGSize> { AVAsyncProperty(key: "naturalSize") { $0.naturalSize } }
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> { AVAsyncProperty(key: "preferredTransform") { $0.preferredTransform } }
    public static var timeRange: AVAsyncProperty<Root, CMTimeRange> { AVAsyncProperty(key: "timeRange") { $0.timeRange } }
    public static var nominalFrameRate: AVAsyncProperty<Root, Float> { AVAsyncProperty(key: "nominalFrameRate") { $0.nominalFrameRate } }
    public static var minFrameDuration: AVAsyncProperty<Root, CMTime> { AVAsyncProperty(key: "minFrameDuration") { $0.minFrameDuration } }
    public static var naturalTimeScale: AVAsyncProperty<Root, CMTimeScale> { AVAsyncProperty(key: "naturalTimeScale") { $0.naturalTimeScale } }
    public static var estimatedDataRate: AVAsyncProperty<Root, Float> { AVAsyncProperty(key: "estimatedDataRate") { $0.estimatedDataRate } }
    public static var isEnabled: AVAsyncProperty<Root, Bool> { AVAsyncProperty(key: "enabled") { $0.isEnabled } }
    public static var isPlayable: AVAsyncProperty<Root, Bool> { AVAsyncProperty(key: "playable") { $0.isPlayable } }
    public static var isDecodable: AVAsyncProperty<Root, Bool> { AVAsyncProperty(key: "decodable") { $0.isDecodable } }
    public static var preferredVolume: AVAsyncProperty<Root, Float> { AVAsyncProperty(key: "preferredVolume") { $0.preferredVolume } }
}
