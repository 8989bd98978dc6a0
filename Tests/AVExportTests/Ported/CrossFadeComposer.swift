// The classic two-track cross-fade: clips alternate between two video (and audio) tracks,
// overlapping by the transition; pass-through instructions between transition instructions
// whose layer instructions ramp the outgoing clip's opacity from 1 to 0 over the incoming one,
// and an audio mix ramping the volumes the same way. On iOS: `import AVFoundation`; here
// `import Lamina`.
import Lamina

final class CrossFadeComposer {
    let clips: [AVURLAsset]
    let transitionDuration: CMTime

    init(clips: [URL], transitionDuration: CMTime) {
        self.clips = clips.map { AVURLAsset(url: $0) }
        self.transitionDuration = transitionDuration
    }

    func makeExportSession(to url: URL) throws -> AVAssetExportSession {
        let composition = AVMutableComposition()
        let videoTracks = (0..<2).map { _ in composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)! }
        let audioTracks = (0..<2).map { _ in composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid)! }

        var cursor = CMTime.zero
        var passThroughRanges: [CMTimeRange] = []
        var transitionRanges: [CMTimeRange] = []
        for (i, clip) in clips.enumerated() {
            let trackIndex = i % 2
            let clipRange = CMTimeRange(start: .zero, duration: clip.duration)
            try videoTracks[trackIndex].insertTimeRange(clipRange, of: clip.tracks(withMediaType: .video)[0], at: cursor)
            try audioTracks[trackIndex].insertTimeRange(clipRange, of: clip.tracks(withMediaType: .audio)[0], at: cursor)

            var passThrough = CMTimeRange(start: cursor, duration: clip.duration)
            if i > 0 {
                passThrough.start = passThrough.start + transitionDuration
                passThrough.duration = passThrough.duration - transitionDuration
            }
            if i + 1 < clips.count { passThrough.duration = passThrough.duration - transitionDuration }
            passThroughRanges.append(passThrough)

            cursor = cursor + clip.duration - transitionDuration
            if i + 1 < clips.count { transitionRanges.append(CMTimeRange(start: cursor, duration: transitionDuration)) }
        }

        var instructions: [AVMutableVideoCompositionInstruction] = []
        let audioMix = AVMutableAudioMix()
        var mixParameters: [AVMutableAudioMixInputParameters] = []
        for i in 0..<clips.count {
            let trackIndex = i % 2
            let passThrough = AVMutableVideoCompositionInstruction()
            passThrough.timeRange = passThroughRanges[i]
            passThrough.layerInstructions = [AVMutableVideoCompositionLayerInstruction(assetTrack: videoTracks[trackIndex])]
            instructions.append(passThrough)

            if i < transitionRanges.count {
                let range = transitionRanges[i]
                let transition = AVMutableVideoCompositionInstruction()
                transition.timeRange = range
                let from = AVMutableVideoCompositionLayerInstruction(assetTrack: videoTracks[trackIndex])
                from.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: range)
                let to = AVMutableVideoCompositionLayerInstruction(assetTrack: videoTracks[1 - trackIndex])
                transition.layerInstructions = [from, to]
                instructions.append(transition)

                let fadeOut = AVMutableAudioMixInputParameters(track: audioTracks[trackIndex])
                fadeOut.setVolumeRamp(fromStartVolume: 1, toEndVolume: 0, timeRange: range)
                let fadeIn = AVMutableAudioMixInputParameters(track: audioTracks[1 - trackIndex])
                fadeIn.setVolumeRamp(fromStartVolume: 0, toEndVolume: 1, timeRange: range)
                mixParameters += [fadeOut, fadeIn]
            }
        }
        audioMix.inputParameters = mixParameters

        let videoComposition = AVMutableVideoComposition()
        videoComposition.instructions = instructions
        videoComposition.frameDuration = CMTimeMake(value: 1, timescale: 30)
        videoComposition.renderSize = clips[0].tracks(withMediaType: .video)[0].naturalSize

        let session = AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality)!
        session.outputURL = url
        session.outputFileType = .mp4
        session.videoComposition = videoComposition
        session.audioMix = audioMix
        return session
    }
}
