import Foundation
import Geometry
import CoreMedia
import Layers
import Export

/// An AVFoundation composition as an export's input: its composed video frames for the
/// animation tool's video layers (or the export's own root), its audio mixed.
final class CompositionInput: VideoInput {
    let snapshot: CompositionSnapshot
    let instructions: [InstructionSnapshot]
    let renderSize: CGSize
    let targets: [CALayer]
    let additional: (CMPersistentTrackID, CALayer)?
    let volumes: [CMPersistentTrackID: RampTimeline<Float>]

    init(snapshot: CompositionSnapshot, videoComposition: AVVideoComposition, audioMix: AVAudioMix?, targets: [CALayer]) {
        self.snapshot = snapshot
        instructions = InstructionSnapshot.of(videoComposition.instructions)
        renderSize = videoComposition.renderSize
        self.targets = targets
        if let tool = videoComposition.animationTool, let layer = tool.additionalLayer {
            additional = (tool.additionalTrackID, layer)
        } else {
            additional = nil
        }
        var volumes: [CMPersistentTrackID: RampTimeline<Float>] = [:]
        for parameters in audioMix?.inputParameters ?? [] { volumes[parameters.trackID] = parameters.volumes }
        self.volumes = volumes
    }

    /// The files were read when the snapshot was taken.
    func prepare() throws(ExportError) {}

    func makeFrameInputs(frames: ClosedRange<Int>, clock: FrameClock, context: FrameInputContext) throws(ExportError) -> any FrameInputs {
        CompositionFrames(snapshot: snapshot, instructions: instructions, renderSize: renderSize, clock: clock, context: context,
                          targets: targets, additional: additional)
    }

    func audio(from start: Double, to end: Double) -> ExportAudio? {
        CompositionAudio.audio(of: snapshot, volumes: volumes, from: start, to: end)
    }
}
