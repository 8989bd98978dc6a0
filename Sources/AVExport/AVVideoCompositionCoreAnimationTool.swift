import Foundation
import Geometry
import CoreMedia
import Layers

/// Core Animation in a video export: each composed video frame is put into the video layer(s),
/// and the animation layer's tree is rendered over it to make the output frame; or a layer
/// rendered as a video track of its own. AVFoundation: `AVVideoCompositionCoreAnimationTool`,
/// set as `AVMutableVideoComposition.animationTool`.
///
/// **The tree is rendered y-up, as Apple renders it**: in Core Animation's unflipped space the
/// animation layer's y = 0 is the bottom row of the video and y grows upward, so a sublayer
/// with `frame = (0, 0, w, 100)` covers the bottom 100 rows. Set `isGeometryFlipped = true` on
/// the animation layer to lay the tree out from the top-left, as on an iOS screen. Contents
/// images and text stay upright either way (core-animation-semantics.md §12). Scene files and
/// `FrameRenderer` keep their top-left convention; only this tool is y-up.
///
/// As on Apple, the video layers must be inside the animation layer's tree, and animations are
/// read on the video's timeline (time 0 = the composition's start: use
/// `AVCoreAnimationBeginTimeAtZero` and `isRemovedOnCompletion = false`). Each video layer (a
/// `VideoFrameLayer` or any `CALayer`) shows the frame as its contents in the render plan: the
/// model is not touched.
public final class AVVideoCompositionCoreAnimationTool: @unchecked Sendable {
    /// The layers the video frames go into.
    public let videoLayers: [CALayer]
    /// The root of the tree that is rendered over the video (nil for an additional-layer tool).
    public let animationLayer: CALayer?
    /// A layer rendered as the frames of track `additionalTrackID` (nil for a post-processing tool).
    public let additionalLayer: CALayer?
    /// The track ID that layer instructions use for `additionalLayer`.
    public let additionalTrackID: CMPersistentTrackID

    /// One video layer in `animationLayer`'s tree. AVFoundation: `init(postProcessingAsVideoLayer:in:)`.
    public convenience init(postProcessingAsVideoLayer videoLayer: CALayer, in animationLayer: CALayer) {
        self.init(postProcessingAsVideoLayers: [videoLayer], in: animationLayer)
    }

    /// Several video layers, each showing the same frame. AVFoundation: `init(postProcessingAsVideoLayers:in:)`.
    public init(postProcessingAsVideoLayers videoLayers: [CALayer], in animationLayer: CALayer) {
        self.videoLayers = videoLayers
        self.animationLayer = animationLayer
        additionalLayer = nil
        additionalTrackID = kCMPersistentTrackID_Invalid
    }

    /// `layer` rendered (y-up, at the composition's render size) as the frames of a video track
    /// with ID `trackID`, which layer instructions place like any other track.
    /// AVFoundation: `init(additionalLayer:asTrackID:)`.
    public init(additionalLayer layer: CALayer, asTrackID trackID: CMPersistentTrackID) {
        videoLayers = []
        animationLayer = nil
        additionalLayer = layer
        additionalTrackID = trackID
    }

    /// Layers that are not in the animation layer's tree (Apple requires them to be).
    var strayVideoLayers: [CALayer] {
        guard let animationLayer else { return [] }
        var inTree = Set<ObjectIdentifier>()
        animationLayer.forEachLayerInTree { inTree.insert(ObjectIdentifier($0)) }
        return videoLayers.filter { !inTree.contains(ObjectIdentifier($0)) }
    }

    /// Why the tool cannot be used, or nil: a video layer outside the tree, or an animation layer
    /// that belongs to another tree.
    var problem: String? {
        if let stray = strayVideoLayers.first {
            return "video layer \(stray.name.map { "\"\($0)\"" } ?? "(unnamed)") is not inside the animation layer's tree"
        }
        if let animationLayer, animationLayer.superlayer != nil {
            return "the animation layer \(animationLayer.name.map { "\"\($0)\" " } ?? "")has a superlayer; it must be the root of its own tree"
        }
        return nil
    }
}
