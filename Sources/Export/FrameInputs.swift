import Foundation
import Geometry
import Layers

/// Images that enter each frame from outside the model: they become the contents of the layers
/// they name, in the render plan only (`RenderPlanBuilder.frameInputs`); the model is never written.
public protocol FrameInputs: AnyObject {
    /// The images of frame `index`, keyed by layer (`ObjectIdentifier` of the model layer).
    /// Called once per frame, in increasing order.
    func images(forFrame index: Int) throws(ExportError) -> [ObjectIdentifier: CGImage]
    /// Stops whatever produces the images (decoders); called once the frames are done or abandoned.
    func close()
    /// Whether `images(forFrame:)` may be called on a thread of its own, frames ahead of the
    /// one drawing (`FrameRenderer.plansAhead`): true only where it does not draw with the
    /// render's backend, whose GL context and buffers belong to the drawing thread.
    var isReadableAhead: Bool { get }
}

extension FrameInputs {
    /// Default: nothing to stop.
    public func close() {}
    /// Default: asked for on the drawing thread, frame by frame.
    public var isReadableAhead: Bool { false }
}

/// An input video's frames shown by layers: the `AVVideoCompositionCoreAnimationTool` job.
/// Frame i of the output shows the input at the output's frame rate (ffmpeg's `fps` filter),
/// holding the last frame when the input is shorter.
public final class VideoFrameInputs: FrameInputs {
    private let source: VideoSource
    private let layers: [ObjectIdentifier]
    /// Frames come from a decoder's pipe, in order, on any thread.
    public var isReadableAhead: Bool { true }

    /// Decodes `composition`'s video from frame `first` of `clock` at `width`×`height` pixels.
    public init(_ composition: VideoComposition, info: VideoInfo, width: Int, height: Int, clock: FrameClock,
                first: Int) throws(ExportError) {
        source = try VideoSource(url: composition.url, info: info, width: width, height: height,
                                 framesPerSecond: clock.framesPerSecond, start: clock.time(ofFrame: first))
        layers = composition.layers.map(ObjectIdentifier.init)
    }

    deinit { source.close() }

    public func images(forFrame index: Int) throws(ExportError) -> [ObjectIdentifier: CGImage] {
        let frame = try source.nextFrame()
        return Dictionary(layers.map { ($0, frame) }, uniquingKeysWith: { a, _ in a })
    }

    /// Stops the decoder.
    public func close() { source.close() }
}

/// The video an export composites over and the layers that show its frames
/// (the `AVVideoCompositionCoreAnimationTool` job).
public struct VideoComposition {
    /// The input video (its audio is carried into the output).
    public var url: URL
    /// Layers that show the current frame as their contents (`VideoFrameLayer`s or any `CALayer`).
    public var layers: [CALayer]

    public init(url: URL, layers: [CALayer]) { self.url = url; self.layers = layers }

    /// The size video frames are decoded at: the largest layer's size in output pixels (model
    /// bounds × scale), or `fallback` when that is unknown; 2…8192 a side.
    public func decodeSize(scale: CGFloat, fallback: (width: Int, height: Int)) -> (width: Int, height: Int) {
        var best: (Int, Int)?
        for layer in layers {
            let w = Int((layer.bounds.width * scale).rounded()), h = Int((layer.bounds.height * scale).rounded())
            guard w > 0, h > 0 else { continue }
            if best == nil || w * h > best!.0 * best!.1 { best = (w, h) }
        }
        let (w, h) = best ?? fallback
        let side = SceneLimits.maximumVideoSide
        return (min(max(w, 2), side), min(max(h, 2), side))
    }
}
