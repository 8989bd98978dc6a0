import Foundation
import CoreMedia

/// Volumes of an asset's audio tracks over time, for an export or a player item.
/// AVFoundation: `AVAudioMix`.
open class AVAudioMix: @unchecked Sendable {
    /// One entry per track whose volume changes (tracks without one play at volume 1).
    open internal(set) var inputParameters: [AVAudioMixInputParameters] = []
    init() {}
}

/// An audio mix whose parameters can be set. AVFoundation: `AVMutableAudioMix`.
open class AVMutableAudioMix: AVAudioMix, @unchecked Sendable {
    public override init() { super.init() }

    open override var inputParameters: [AVAudioMixInputParameters] {
        get { super.inputParameters }
        set { super.inputParameters = newValue }
    }
}

/// How pitch is kept when audio plays faster or slower. AVFoundation: `AVAudioTimePitchAlgorithm`.
public struct AVAudioTimePitchAlgorithm: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Pitch kept (ffmpeg's `atempo`); the default for exports.
    public static let spectral = AVAudioTimePitchAlgorithm(rawValue: "Spectral")
    public static let timeDomain = AVAudioTimePitchAlgorithm(rawValue: "TimeDomain")
    /// Pitch follows the rate (resampled, as a tape played faster).
    public static let varispeed = AVAudioTimePitchAlgorithm(rawValue: "Varispeed")
    public static let lowQualityZeroLatency = AVAudioTimePitchAlgorithm(rawValue: "LowQualityZeroLatency")
}

/// One track's volume over time. AVFoundation: `AVAudioMixInputParameters`.
///
/// Before the first volume set the volume is 1; during a ramp it is interpolated linearly;
/// after a ramp or a volume set at a time, that value holds until the next.
open class AVAudioMixInputParameters: @unchecked Sendable {
    open internal(set) var trackID: CMPersistentTrackID
    open internal(set) var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm?
    var volumes = RampTimeline<Float>()

    init(trackID: CMPersistentTrackID) { self.trackID = trackID }

    /// The volume ramp in effect at `time`; false before any volume was set.
    open func getVolumeRamp(for time: CMTime, startVolume: UnsafeMutablePointer<Float>?, endVolume: UnsafeMutablePointer<Float>?,
                            timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        volumes.report(for: time, start: startVolume, end: endVolume, timeRange: timeRange)
    }
}

/// Input parameters whose values can be set. AVFoundation: `AVMutableAudioMixInputParameters`.
open class AVMutableAudioMixInputParameters: AVAudioMixInputParameters, @unchecked Sendable {
    /// Parameters for `track` (nil: set `trackID`).
    public init(track: AVAssetTrack?) { super.init(trackID: track?.trackID ?? kCMPersistentTrackID_Invalid) }
    public init() { super.init(trackID: kCMPersistentTrackID_Invalid) }

    open override var trackID: CMPersistentTrackID {
        get { super.trackID }
        set { super.trackID = newValue }
    }
    open override var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm? {
        get { super.audioTimePitchAlgorithm }
        set { super.audioTimePitchAlgorithm = newValue }
    }

    /// `volume` (0 silent … 1 as recorded) from `time` on.
    open func setVolume(_ volume: Float, at time: CMTime) { volumes.set(volume, at: time) }

    /// A linear volume ramp over `timeRange` (a fade in or out).
    open func setVolumeRamp(fromStartVolume startVolume: Float, toEndVolume endVolume: Float, timeRange: CMTimeRange) {
        volumes.ramp(from: startVolume, to: endVolume, over: timeRange)
    }
}
