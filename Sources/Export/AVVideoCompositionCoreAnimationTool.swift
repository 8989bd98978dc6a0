import Foundation
import Geometry
import Layers

/// Core Animation post-processing of a video: each frame of the video is put into the video
/// layer(s), and the animation layer's tree is rendered over it to make the output frame.
/// AVFoundation counterpart: `AVVideoCompositionCoreAnimationTool`; use it with
/// `export(_:video:to:options:)`.
///
/// As on Apple, the video layers must be inside the animation layer's tree, and animations are
/// read on the video's timeline (time 0 = the first frame). Each video layer (a `VideoFrameLayer`
/// or any `CALayer`) shows the frame as its contents, in the render plan: the model is not touched.
public final class AVVideoCompositionCoreAnimationTool {
    /// The layers the video frames go into.
    public let videoLayers: [CALayer]
    /// The root of the tree that is rendered.
    public let animationLayer: CALayer

    /// One video layer. AVFoundation: `init(postProcessingAsVideoLayer:in:)`.
    public convenience init(postProcessingAsVideoLayer videoLayer: CALayer, in animationLayer: CALayer) {
        self.init(postProcessingAsVideoLayers: [videoLayer], in: animationLayer)
    }

    /// Several video layers, each showing the same frame.
    /// AVFoundation: `init(postProcessingAsVideoLayers:in:)`.
    public init(postProcessingAsVideoLayers videoLayers: [CALayer], in animationLayer: CALayer) {
        self.videoLayers = videoLayers
        self.animationLayer = animationLayer
    }

    /// Layers that are not in the animation layer's tree (Apple requires them to be).
    var strayVideoLayers: [CALayer] {
        var inTree = Set<ObjectIdentifier>()
        animationLayer.forEachLayerInTree { inTree.insert(ObjectIdentifier($0)) }
        return videoLayers.filter { !inTree.contains(ObjectIdentifier($0)) }
    }
}

/// Exports `video` post-processed by `tool` to `output`: the animation layer rendered over each
/// video frame, the video's audio carried over. The output size defaults to the animation
/// layer's bounds at `scale`, the frame count to the video's duration at `framesPerSecond`.
///
/// - Parameters:
///   - configure: adjusts the options (codec, quality, backend, frame range …) before export.
///   - progress: called after each frame on the calling thread.
/// - Returns: the summary; its `warnings` list animations that an AVFoundation export would
///   not show (`ExportLint`).
@discardableResult
public func export(_ tool: AVVideoCompositionCoreAnimationTool, video: URL, to output: URL, scale: CGFloat = 1,
                   framesPerSecond: Double = 30, configure: (inout VideoExportOptions) -> Void = { _ in },
                   progress: ((ExportProgress) -> Void)? = nil) throws(ExportError) -> ExportSummary {
    if let stray = tool.strayVideoLayers.first {
        throw .invalidSettings("video layer \(stray.name.map { "\"\($0)\"" } ?? "(unnamed)") is not inside the animation layer's tree")
    }
    let info = try VideoInfo.probe(video)
    let bounds = tool.animationLayer.bounds
    let width = bounds.width > 0 ? Int((bounds.width * scale).rounded()) : info.width
    let height = bounds.height > 0 ? Int((bounds.height * scale).rounded()) : info.height
    var options = VideoExportOptions(output: output, width: width, height: height, framesPerSecond: framesPerSecond,
                                     duration: info.duration)
    options.scale = scale
    configure(&options)
    let exporter = VideoExporter(root: tool.animationLayer, options: options,
                                 composition: VideoComposition(url: video, layers: tool.videoLayers))
    exporter.onProgress = progress
    return try exporter.run()
}
