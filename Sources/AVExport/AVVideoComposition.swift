import Foundation
import Geometry
import CoreMedia

/// What an instruction of a video composition must say. AVFoundation:
/// `AVVideoCompositionInstructionProtocol`.
public protocol AVVideoCompositionInstructionProtocol: AnyObject {
    /// The composition times the instruction covers.
    var timeRange: CMTimeRange { get }
    /// Whether the animation tool renders over this range (false: the composed video only).
    var enablePostProcessing: Bool { get }
    /// Whether frames change even where the sources do not (informational here).
    var containsTweening: Bool { get }
    /// A track shown as it is over the range (`kCMPersistentTrackID_Invalid`: none).
    var passthroughTrackID: CMPersistentTrackID { get }
}

/// Which tracks are composed how over a range of the composition. AVFoundation:
/// `AVVideoCompositionInstruction`.
open class AVVideoCompositionInstruction: AVVideoCompositionInstructionProtocol, @unchecked Sendable {
    /// Invalid until set: a composition with an instruction whose range is invalid does not export.
    open internal(set) var timeRange = CMTimeRange.invalid
    /// The tracks, first on top.
    open internal(set) var layerInstructions: [AVVideoCompositionLayerInstruction] = []
    /// What shows where no track covers the frame (nil: opaque black).
    open internal(set) var backgroundColor: CGColor?
    open internal(set) var enablePostProcessing = true
    open internal(set) var containsTweening = true
    open internal(set) var passthroughTrackID = kCMPersistentTrackID_Invalid

    init() {}
}

/// An instruction whose values can be set. AVFoundation: `AVMutableVideoCompositionInstruction`.
open class AVMutableVideoCompositionInstruction: AVVideoCompositionInstruction, @unchecked Sendable {
    public override init() { super.init() }

    open override var timeRange: CMTimeRange {
        get { super.timeRange }
        set { super.timeRange = newValue }
    }
    open override var layerInstructions: [AVVideoCompositionLayerInstruction] {
        get { super.layerInstructions }
        set { super.layerInstructions = newValue }
    }
    open override var backgroundColor: CGColor? {
        get { super.backgroundColor }
        set { super.backgroundColor = newValue }
    }
    open override var enablePostProcessing: Bool {
        get { super.enablePostProcessing }
        set { super.enablePostProcessing = newValue }
    }
    open override var containsTweening: Bool {
        get { super.containsTweening }
        set { super.containsTweening = newValue }
    }
    open override var passthroughTrackID: CMPersistentTrackID {
        get { super.passthroughTrackID }
        set { super.passthroughTrackID = newValue }
    }
}

/// How an asset's video tracks make each output frame: render size, frame rate, instructions
/// over time, and Core Animation post-processing. AVFoundation: `AVVideoComposition`.
///
/// An export checks it as Apple does before anything renders: a positive render size and frame
/// duration, instructions with valid ranges that start at 0, follow one another without gaps or
/// overlaps and cover the whole export, and layer instructions naming tracks of the asset.
open class AVVideoComposition: @unchecked Sendable {
    /// One frame's duration: `CMTime(value: 1, timescale: 30)` for 30 fps. Invalid until set.
    open internal(set) var frameDuration = CMTime.invalid
    /// Size of the composed frames, in pixels (the animation tool's layers are in these units).
    open internal(set) var renderSize = CGSize.zero
    /// Must be 1 for an export (only a player item may render at another scale).
    open internal(set) var renderScale: Float = 1
    open internal(set) var instructions: [any AVVideoCompositionInstructionProtocol] = []
    open internal(set) var animationTool: AVVideoCompositionCoreAnimationTool?
    /// The track whose frame timing the output follows (`kCMPersistentTrackID_Invalid`: `frameDuration`).
    open internal(set) var sourceTrackIDForFrameTiming = kCMPersistentTrackID_Invalid
    /// Colour tags (informational; exports are BT.709).
    open internal(set) var colorPrimaries: String?
    open internal(set) var colorTransferFunction: String?
    open internal(set) var colorYCbCrMatrix: String?

    init() {}

    /// A composition of `asset`'s video tracks as they are: render size from the first video
    /// track's display size (its natural size turned by its `preferredTransform`), the frame
    /// duration of the fastest track (30 fps without one), one instruction over the whole
    /// asset with a layer instruction per video track (first track on top) that applies the
    /// track's `preferredTransform`. AVFoundation: `init(propertiesOf:)`.
    public convenience init(propertiesOf asset: AVAsset) {
        self.init()
        adopt(propertiesOf: asset)
    }

    /// `init(propertiesOf:)` after loading the asset; throws when it cannot be read.
    open class func videoComposition(withPropertiesOf asset: AVAsset, isolation: isolated (any Actor)? = #isolation) async throws -> AVVideoComposition {
        await asset.loadInBackground()
        _ = try asset.loadedTracks()
        return AVVideoComposition(propertiesOf: asset)
    }

    func adopt(propertiesOf asset: AVAsset) {
        let videos = asset.tracks(withMediaType: .video)
        renderSize = asset.naturalSize
        let rate = videos.map(\.nominalFrameRate).max() ?? 0
        frameDuration = Self.frameDuration(forRate: rate)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: asset.duration)
        instruction.layerInstructions = videos.map { track in
            let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
            layer.setTransform(track.preferredTransform, at: .zero)
            return layer
        }
        instructions = videos.isEmpty ? [] : [instruction]
    }

    /// 1/rate as a CMTime: 1/30 for 30, 1001/30000 for 29.97; 1/30 without a rate.
    static func frameDuration(forRate rate: Float) -> CMTime {
        guard rate > 0 else { return CMTime(value: 1, timescale: 30) }
        let whole = Double(rate).rounded()
        if abs(Double(rate) - whole) < 0.01 { return CMTime(value: 1, timescale: Int32(whole)) }
        let ntsc = (Double(rate) * 1.001).rounded()
        if abs(Double(rate) - ntsc / 1.001) < 0.01 { return CMTime(value: 1001, timescale: Int32(ntsc * 1000)) }
        return CMTime(seconds: 1 / Double(rate), preferredTimescale: 600_000)
    }

    /// The instruction covering composition time `time` (seconds).
    func instruction(at time: Double) -> (any AVVideoCompositionInstructionProtocol)? {
        instructions.first { $0.timeRange.start.seconds <= time && time < $0.timeRange.end.seconds }
            ?? instructions.last.flatMap { time >= $0.timeRange.end.seconds ? $0 : nil }
    }
}

/// A video composition whose values can be set. AVFoundation: `AVMutableVideoComposition`.
open class AVMutableVideoComposition: AVVideoComposition, @unchecked Sendable {
    /// An empty composition (set render size, frame duration and instructions).
    public override init() { super.init() }

    /// See `AVVideoComposition(propertiesOf:)`.
    public convenience init(propertiesOf asset: AVAsset) {
        self.init()
        adopt(propertiesOf: asset)
    }

    /// `init(propertiesOf:)` after loading the asset; throws when it cannot be read.
    open override class func videoComposition(withPropertiesOf asset: AVAsset, isolation: isolated (any Actor)? = #isolation) async throws -> AVMutableVideoComposition {
        await asset.loadInBackground()
        _ = try asset.loadedTracks()
        return AVMutableVideoComposition(propertiesOf: asset)
    }

    open override var frameDuration: CMTime {
        get { super.frameDuration }
        set { super.frameDuration = newValue }
    }
    open override var renderSize: CGSize {
        get { super.renderSize }
        set { super.renderSize = newValue }
    }
    open override var renderScale: Float {
        get { super.renderScale }
        set { super.renderScale = newValue }
    }
    open override var instructions: [any AVVideoCompositionInstructionProtocol] {
        get { super.instructions }
        set { super.instructions = newValue }
    }
    open override var animationTool: AVVideoCompositionCoreAnimationTool? {
        get { super.animationTool }
        set { super.animationTool = newValue }
    }
    open override var sourceTrackIDForFrameTiming: CMPersistentTrackID {
        get { super.sourceTrackIDForFrameTiming }
        set { super.sourceTrackIDForFrameTiming = newValue }
    }
    open override var colorPrimaries: String? {
        get { super.colorPrimaries }
        set { super.colorPrimaries = newValue }
    }
    open override var colorTransferFunction: String? {
        get { super.colorTransferFunction }
        set { super.colorTransferFunction = newValue }
    }
    open override var colorYCbCrMatrix: String? {
        get { super.colorYCbCrMatrix }
        set { super.colorYCbCrMatrix = newValue }
    }
}
