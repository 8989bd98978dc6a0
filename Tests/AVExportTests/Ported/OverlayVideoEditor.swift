// A typical iOS "add a caption band and a watermark to a video" editor, written as such apps
// write it: the clip into a composition, its orientation from the preferred transform, a layer
// tree sized to the video with the band placed at the top by `videoSize.height − bandHeight`
// (the export is y-up) and the logo at the bottom-right by a plain margin, a fade-in that
// starts at AVCoreAnimationBeginTimeAtZero, an export session whose completion hops to the
// main queue. On iOS: `import AVFoundation`, `import UIKit`; here `import Lamina`.
import Lamina

final class OverlayVideoEditor {
    let bandHeight: CGFloat = 24
    let logoSize = CGSize(width: 20, height: 14)
    let margin: CGFloat = 4

    func makeCaptionedVideo(fromVideoAt videoURL: URL, caption: String, to exportURL: URL,
                            onComplete: @escaping @Sendable (URL?, (any Error)?) -> Void) {
        let asset = AVURLAsset(url: videoURL)
        let composition = AVMutableComposition()
        guard let compositionTrack = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid),
              let assetTrack = asset.tracks(withMediaType: .video).first else {
            onComplete(nil, nil)
            return
        }
        do {
            let timeRange = CMTimeRange(start: .zero, duration: asset.duration)
            try compositionTrack.insertTimeRange(timeRange, of: assetTrack, at: .zero)
            if let audioAssetTrack = asset.tracks(withMediaType: .audio).first,
               let compositionAudioTrack = composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid) {
                try compositionAudioTrack.insertTimeRange(timeRange, of: audioAssetTrack, at: .zero)
            }
        } catch {
            onComplete(nil, error)
            return
        }
        compositionTrack.preferredTransform = assetTrack.preferredTransform
        let videoSize = isPortrait(assetTrack.preferredTransform)
            ? CGSize(width: assetTrack.naturalSize.height, height: assetTrack.naturalSize.width)
            : assetTrack.naturalSize

        let videoLayer = CALayer()
        videoLayer.frame = CGRect(origin: .zero, size: videoSize)
        let overlayLayer = CALayer()
        overlayLayer.frame = CGRect(origin: .zero, size: videoSize)
        addCaptionBand(caption, to: overlayLayer, videoSize: videoSize)
        addWatermark(to: overlayLayer, videoSize: videoSize)

        let outputLayer = CALayer()
        outputLayer.frame = CGRect(origin: .zero, size: videoSize)
        outputLayer.addSublayer(videoLayer)
        outputLayer.addSublayer(overlayLayer)

        let videoComposition = AVMutableVideoComposition()
        videoComposition.renderSize = videoSize
        videoComposition.frameDuration = CMTime(value: 1, timescale: 30)
        videoComposition.animationTool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: videoLayer, in: outputLayer)

        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: composition.duration)
        videoComposition.instructions = [instruction]
        let layerInstruction = AVMutableVideoCompositionLayerInstruction(assetTrack: compositionTrack)
        layerInstruction.setTransform(assetTrack.preferredTransform, at: .zero)
        instruction.layerInstructions = [layerInstruction]

        guard let export = AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality) else {
            onComplete(nil, nil)
            return
        }
        export.videoComposition = videoComposition
        export.outputFileType = .mov
        export.outputURL = exportURL
        export.exportAsynchronously {
            DispatchQueue.main.async {
                switch export.status {
                case .completed:
                    onComplete(exportURL, nil)
                default:
                    print("Something went wrong during export.")
                    print(export.error ?? "unknown error")
                    onComplete(nil, export.error)
                }
            }
        }
    }

    private func addCaptionBand(_ caption: String, to layer: CALayer, videoSize: CGSize) {
        // Core Animation's export space is y-up: the top band starts at height − bandHeight.
        let band = CALayer()
        band.frame = CGRect(x: 0, y: videoSize.height - bandHeight, width: videoSize.width, height: bandHeight)
        band.backgroundColor = UIColor.black.withAlphaComponent(0.75).cgColor

        let text = CATextLayer()
        text.frame = band.bounds.insetBy(dx: 4, dy: 2)
        text.string = caption
        text.font = UIFont(name: "DejaVuSans-Bold", size: 16)
        text.fontSize = 16
        text.foregroundColor = UIColor.white.cgColor
        text.alignmentMode = .center
        band.addSublayer(text)

        let fadeIn = CABasicAnimation(keyPath: "opacity")
        fadeIn.fromValue = 0
        fadeIn.toValue = 1
        fadeIn.beginTime = AVCoreAnimationBeginTimeAtZero
        fadeIn.duration = 0.5
        fadeIn.fillMode = .both
        fadeIn.isRemovedOnCompletion = false
        band.add(fadeIn, forKey: "fadeIn")
        layer.addSublayer(band)
    }

    private func addWatermark(to layer: CALayer, videoSize: CGSize) {
        // Bottom-right: y = margin from the bottom edge in the export's y-up space.
        let logo = CALayer()
        logo.frame = CGRect(x: videoSize.width - logoSize.width - margin, y: margin, width: logoSize.width, height: logoSize.height)
        logo.backgroundColor = UIColor.yellow.cgColor
        logo.cornerRadius = 3
        layer.addSublayer(logo)
    }

    private func isPortrait(_ transform: CGAffineTransform) -> Bool {
        (transform.a == 0 && transform.b == 1 && transform.c == -1 && transform.d == 0)
            || (transform.a == 0 && transform.b == -1 && transform.c == 1 && transform.d == 0)
    }
}
