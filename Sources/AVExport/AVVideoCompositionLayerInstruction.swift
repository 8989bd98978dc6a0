import Foundation
import Geometry
import CoreMedia

/// How one track appears during an instruction: its transform, opacity and crop over time.
/// AVFoundation: `AVVideoCompositionLayerInstruction`.
///
/// Transforms map the track's natural (coded) frame, origin at its top-left and y down, into
/// the render frame (also y down). Before the first value set, the transform is the identity,
/// the opacity 1 and the crop the whole frame; during a ramp the value is interpolated
/// linearly (a transform component by component); after a ramp or a value set at a time, that
/// value holds until the next one. The crop rectangle is in the natural frame; pixels outside
/// it are transparent.
open class AVVideoCompositionLayerInstruction: @unchecked Sendable {
    /// The track this instruction places.
    open internal(set) var trackID: CMPersistentTrackID
    /// The values over time (a value, so that an export can take a copy).
    var timelines = LayerTimelines()

    init(trackID: CMPersistentTrackID) { self.trackID = trackID }

    /// The transform ramp in effect at `time` (start and end values and its range); false
    /// before any transform was set.
    open func getTransformRamp(for time: CMTime, start startTransform: UnsafeMutablePointer<CGAffineTransform>?,
                               end endTransform: UnsafeMutablePointer<CGAffineTransform>?,
                               timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        timelines.transforms.report(for: time, start: startTransform, end: endTransform, timeRange: timeRange)
    }

    /// The opacity ramp in effect at `time`; false before any opacity was set.
    open func getOpacityRamp(for time: CMTime, startOpacity: UnsafeMutablePointer<Float>?, endOpacity: UnsafeMutablePointer<Float>?,
                             timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        timelines.opacities.report(for: time, start: startOpacity, end: endOpacity, timeRange: timeRange)
    }

    /// The crop ramp in effect at `time`; false before any crop was set.
    open func getCropRectangleRamp(for time: CMTime, startCropRectangle: UnsafeMutablePointer<CGRect>?,
                                   endCropRectangle: UnsafeMutablePointer<CGRect>?, timeRange: UnsafeMutablePointer<CMTimeRange>?) -> Bool {
        timelines.crops.report(for: time, start: startCropRectangle, end: endCropRectangle, timeRange: timeRange)
    }

}

/// A layer instruction's transform, opacity and crop over time.
struct LayerTimelines: Sendable {
    var transforms = RampTimeline<CGAffineTransform>()
    var opacities = RampTimeline<Float>()
    var crops = RampTimeline<CGRect>()

    /// Transform, opacity and crop at `time` (seconds), with the defaults before the first values
    /// (identity, 1, no crop).
    func state(at time: Double) -> (transform: CGAffineTransform, opacity: Float, crop: CGRect?) {
        (transforms.value(at: time, interpolate: Interpolation.transform) ?? .identity,
         opacities.value(at: time, interpolate: Interpolation.float) ?? 1,
         crops.value(at: time, interpolate: Interpolation.rect))
    }
}

/// A layer instruction whose values can be set. AVFoundation: `AVMutableVideoCompositionLayerInstruction`.
open class AVMutableVideoCompositionLayerInstruction: AVVideoCompositionLayerInstruction, @unchecked Sendable {
    /// An instruction for no track yet (set `trackID`).
    public init() { super.init(trackID: kCMPersistentTrackID_Invalid) }

    /// An instruction for `track` (its `trackID`; a composition's track, usually).
    public init(assetTrack track: AVAssetTrack) { super.init(trackID: track.trackID) }

    open override var trackID: CMPersistentTrackID {
        get { super.trackID }
        set { super.trackID = newValue }
    }

    /// `transform` from `time` on.
    open func setTransform(_ transform: CGAffineTransform, at time: CMTime) { timelines.transforms.set(transform, at: time) }

    /// A linear ramp from `startTransform` to `endTransform` over `timeRange`.
    open func setTransformRamp(fromStart startTransform: CGAffineTransform, toEnd endTransform: CGAffineTransform, timeRange: CMTimeRange) {
        timelines.transforms.ramp(from: startTransform, to: endTransform, over: timeRange)
    }

    /// `opacity` (0…1) from `time` on.
    open func setOpacity(_ opacity: Float, at time: CMTime) { timelines.opacities.set(opacity, at: time) }

    /// A linear opacity ramp over `timeRange`: the classic cross-fade.
    open func setOpacityRamp(fromStartOpacity startOpacity: Float, toEndOpacity endOpacity: Float, timeRange: CMTimeRange) {
        timelines.opacities.ramp(from: startOpacity, to: endOpacity, over: timeRange)
    }

    /// Shows only `cropRectangle` of the natural frame from `time` on.
    open func setCropRectangle(_ cropRectangle: CGRect, at time: CMTime) { timelines.crops.set(cropRectangle, at: time) }

    /// A linear crop ramp over `timeRange`.
    open func setCropRectangleRamp(fromStartCropRectangle startCropRectangle: CGRect, toEndCropRectangle endCropRectangle: CGRect,
                                   timeRange: CMTimeRange) {
        timelines.crops.ramp(from: startCropRectangle, to: endCropRectangle, over: timeRange)
    }
}
