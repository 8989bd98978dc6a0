import Foundation
import Geometry
import Layers
import Rendering
import Export

/// Exports `video` post-processed by `tool` to `output` — Lamina's shortcut for the whole
/// AVFoundation set-up: the animation layer rendered over each video frame (y-up, as the tool
/// always is), the video's audio carried over. The output size defaults to the animation
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
    guard let animationLayer = tool.animationLayer else {
        throw .invalidSettings("export(_:video:to:) needs a post-processing tool (an additional-layer tool goes in an AVMutableVideoComposition)")
    }
    if let problem = tool.problem { throw .invalidSettings(problem) }
    let info = try VideoInfo.probe(video)
    let bounds = animationLayer.bounds
    let width = bounds.width > 0 ? Int((bounds.width * scale).rounded()) : info.width
    let height = bounds.height > 0 ? Int((bounds.height * scale).rounded()) : info.height
    var options = VideoExportOptions(output: output, width: width, height: height, framesPerSecond: framesPerSecond,
                                     duration: info.duration)
    options.scale = scale
    options.origin = .bottomLeft
    configure(&options)
    let exporter = VideoExporter(root: animationLayer, options: options,
                                 composition: VideoComposition(url: video, layers: tool.videoLayers))
    exporter.onProgress = progress
    return try exporter.run()
}
