import Foundation
import Geometry
import CoreMedia

/// Receives what a video composition's validation finds. AVFoundation:
/// `AVVideoCompositionValidationHandling` (Lamina calls none of its methods; the export's
/// error names the problem).
public protocol AVVideoCompositionValidationHandling: AnyObject {}

extension AVVideoComposition {
    /// Whether the composition can export `timeRange` of `asset` (see `problem(for:timeRange:)`).
    public func isValid(for asset: AVAsset?, timeRange: CMTimeRange, validationDelegate: (any AVVideoCompositionValidationHandling)?) -> Bool {
        problem(for: asset, timeRange: timeRange) == nil
    }

    /// Why the composition cannot export `timeRange` of `asset`, as Apple's validation rules
    /// put it, or nil: a positive render size and frame duration, a render scale of 1,
    /// instructions with valid ranges that start at 0, follow one another without gaps or
    /// overlaps and reach the end of the range, layer instructions naming tracks of the asset
    /// (or the animation tool's additional track), a usable animation tool.
    func problem(for asset: AVAsset?, timeRange: CMTimeRange) -> AVError? {
        func invalid(_ reason: String) -> AVError { AVError(.invalidVideoComposition, "the video composition is not valid: \(reason)") }
        guard renderSize.width >= 1, renderSize.height >= 1, renderSize.width.isFinite, renderSize.height.isFinite else {
            return invalid("renderSize \(renderSize.width)x\(renderSize.height) is empty")
        }
        guard frameDuration.isNumeric, frameDuration > .zero else { return invalid("frameDuration \(frameDuration) is not a positive time") }
        guard renderScale == 1 else { return invalid("renderScale \(renderScale) is not 1 (only a player item renders at another scale)") }
        if let tool = animationTool, let problem = tool.problem { return invalid("animationTool: \(problem)") }
        guard !instructions.isEmpty else { return invalid("it has no instructions") }
        var end = CMTime.zero
        for (i, instruction) in instructions.enumerated() {
            let range = instruction.timeRange
            guard range.isValid, range.start.isNumeric, range.duration.isNumeric, range.duration > .zero else {
                return invalid("instructions[\(i)].timeRange \(range) is not a valid, non-empty range (it must be set)")
            }
            if range.start > end { return invalid("a gap between instructions: nothing covers \(end.seconds) s to \(range.start.seconds) s") }
            if range.start < end {
                return invalid("instructions[\(i)] starts at \(range.start.seconds) s, inside the one before it (which ends at \(end.seconds) s)")
            }
            end = range.end
            if animationTool != nil, !instruction.enablePostProcessing {
                return AVError(.operationNotSupportedForAsset,
                               "instructions[\(i)].enablePostProcessing = false with an animation tool is not supported by Lamina")
            }
            for layer in (instruction as? AVVideoCompositionInstruction)?.layerInstructions ?? [] {
                let id = layer.trackID
                if id == animationTool?.additionalTrackID, animationTool?.additionalLayer != nil { continue }
                if let asset, asset.track(withTrackID: id)?.mediaType != .video {
                    return invalid("instructions[\(i)] has a layer instruction for track \(id), which is not a video track of the asset")
                }
            }
        }
        let needed = timeRange.end.isNumeric ? timeRange.end : asset?.duration ?? .zero
        if end < needed { return invalid("the instructions end at \(end.seconds) s, before the export's end at \(needed.seconds) s") }
        return nil
    }
}
