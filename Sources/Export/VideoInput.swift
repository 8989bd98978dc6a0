import Foundation
import Geometry
import Rendering

/// What an export composites over: images that enter each frame's render plan as the contents of
/// layers (`FrameInputs`), and the audio that goes with them.
///
/// `VideoComposition` (one input video shown by named layers: scene files, `lamina render`) is
/// one; AVFoundation's compositions (`AVExport`) are another. An input is used by one export at a
/// time, on the exporting thread.
public protocol VideoInput: AnyObject {
    /// Checks the input before anything renders (files probed), so that a bad input fails first,
    /// naming the file.
    func prepare() throws(ExportError)
    /// The images of `frames` of `clock`, for an output described by `context`; called once per
    /// pass (a GIF renders twice), after `prepare()`.
    func makeFrameInputs(frames: ClosedRange<Int>, clock: FrameClock, context: FrameInputContext) throws(ExportError) -> any FrameInputs
    /// The audio of the output's times `start ..< end` (seconds of the input's timeline), nil for none.
    func audio(from start: Double, to end: Double) -> ExportAudio?
}

/// The output frame inputs are made for: its size and density, and the backend drawing it (an
/// input that composes its own frames may draw with it, on the exporting thread).
public struct FrameInputContext {
    public var width: Int
    public var height: Int
    /// Pixels per point.
    public var scale: CGFloat
    public var backend: any RenderBackend

    public init(width: Int, height: Int, scale: CGFloat, backend: any RenderBackend) {
        self.width = width; self.height = height; self.scale = scale; self.backend = backend
    }
}

/// The audio of an export: one input's first audio stream carried over, or a graph that mixes several.
public enum ExportAudio: Sendable, Equatable {
    case passthrough(AudioPassthrough)
    case graph(AudioGraph)
}

/// `VideoComposition` as an export's input: the video probed once, decoded at the largest video
/// layer's size, its first audio stream carried over.
final class SingleVideoInput: VideoInput {
    let composition: VideoComposition
    private var info: VideoInfo?

    init(_ composition: VideoComposition) { self.composition = composition }

    func prepare() throws(ExportError) { info = try VideoInfo.probe(composition.url) }

    func makeFrameInputs(frames: ClosedRange<Int>, clock: FrameClock, context: FrameInputContext) throws(ExportError) -> any FrameInputs {
        let info: VideoInfo
        if let probed = self.info { info = probed } else { info = try VideoInfo.probe(composition.url) }
        let size = composition.decodeSize(scale: context.scale, fallback: (context.width, context.height))
        return try VideoFrameInputs(composition, info: info, width: size.width, height: size.height, clock: clock, first: frames.lowerBound)
    }

    func audio(from start: Double, to end: Double) -> ExportAudio? {
        guard let info else { return nil }
        return info.audioCodec.map { .passthrough(AudioPassthrough(url: composition.url, codec: $0, start: start, container: info.container)) }
    }
}
