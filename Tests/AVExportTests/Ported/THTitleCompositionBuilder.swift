// The export around the title card, in the style of the book's composition builder and
// exporter (the article shows only THTitleItem): the clip's tracks into an AVMutableComposition,
// a video composition with the asset's own properties plus a Core Animation tool, an
// AVAssetExportSession. On iOS: `import AVFoundation` and `import UIKit`; here `import Lamina`.
import Lamina

final class THTitleCompositionBuilder {
    let videoURL: URL
    let titleItems: [THTitleItem]
    /// The titles are laid out as on screen (top-left, as an AVSynchronizedLayer preview over a
    /// player view shows them), so the title layer is flipped for export, which renders in Core
    /// Animation's unflipped, y-up space.
    var flipsTitleLayer = true

    init(videoURL: URL, titleItems: [THTitleItem]) {
        self.videoURL = videoURL
        self.titleItems = titleItems
    }

    func buildComposition() throws -> (AVMutableComposition, AVMutableVideoComposition) {
        let asset = AVURLAsset(url: videoURL, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        let composition = AVMutableComposition()
        let videoTrack = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)!
        let audioTrack = composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid)!
        let timeRange = CMTimeRangeMake(start: .zero, duration: asset.duration)
        try videoTrack.insertTimeRange(timeRange, of: asset.tracks(withMediaType: .video)[0], at: .zero)
        try audioTrack.insertTimeRange(timeRange, of: asset.tracks(withMediaType: .audio)[0], at: .zero)

        let videoComposition = AVMutableVideoComposition(propertiesOf: composition)
        videoComposition.animationTool = buildAnimationTool()
        return (composition, videoComposition)
    }

    func buildAnimationTool() -> AVVideoCompositionCoreAnimationTool {
        let parentLayer = CALayer()
        let videoLayer = CALayer()
        parentLayer.frame = TH720pVideoRect
        videoLayer.frame = TH720pVideoRect
        parentLayer.addSublayer(videoLayer)

        let titleLayer = CALayer()
        titleLayer.frame = TH720pVideoRect
        for item in titleItems {
            titleLayer.addSublayer(item.buildLayer())
        }
        titleLayer.isGeometryFlipped = flipsTitleLayer
        parentLayer.addSublayer(titleLayer)

        return AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: videoLayer, in: parentLayer)
    }

    func export(to url: URL, presetName: String, timeRange: CMTimeRange? = nil,
                completion: @escaping @Sendable (AVAssetExportSession) -> Void) throws -> AVAssetExportSession {
        let (composition, videoComposition) = try buildComposition()
        let session = AVAssetExportSession(asset: composition, presetName: presetName)!
        session.outputURL = url
        session.outputFileType = .mp4
        session.videoComposition = videoComposition
        if let timeRange { session.timeRange = timeRange }
        session.exportAsynchronously {
            completion(session)
        }
        return session
    }
}
