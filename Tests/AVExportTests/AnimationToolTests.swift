import XCTest
import Lamina

/// The tool's other forms: several video layers, a layer rendered as a track of its own, and
/// the trees Apple refuses.
final class AnimationToolTests: XCTestCase {
    func composition(_ folder: URL) throws -> (AVMutableComposition, AVMutableCompositionTrack) {
        let asset = AVURLAsset(url: try AVTestSupport.clip(folder, "blue.mp4", "color=c=blue:s=64x48:r=30", seconds: 0.5, audio: false))
        let composition = AVMutableComposition()
        let track = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        try track.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset.tracks(withMediaType: .video)[0], at: .zero)
        return (composition, track)
    }

    func export(_ composition: AVAsset, _ videoComposition: AVVideoComposition, _ folder: URL, _ name: String) throws -> AVAssetExportSession {
        let session = try XCTUnwrap(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality))
        session.outputURL = folder.appendingPathComponent(name)
        session.outputFileType = .mp4
        session.videoComposition = videoComposition
        session.renderBackend = .cpu
        AVTestSupport.wait(self) { done in session.exportAsynchronously { done() } }
        return session
    }

    /// A layer as track 99, drawn at half size in the top-left corner over the clip: its own
    /// tree is y-up too, so its red band at y = 0…8 lands at the bottom of that corner.
    func testAdditionalLayerIsATrack() throws {
        let folder = try AVTestSupport.folder(self)
        let (composition, track) = try composition(folder)
        let extra = CALayer()
        extra.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        extra.backgroundColor = UIColor.white.cgColor
        let band = CALayer()
        band.frame = CGRect(x: 0, y: 0, width: 64, height: 8)
        band.backgroundColor = UIColor.red.cgColor
        extra.addSublayer(band)

        let videoComposition = AVMutableVideoComposition(propertiesOf: composition)
        videoComposition.animationTool = AVVideoCompositionCoreAnimationTool(additionalLayer: extra, asTrackID: 99)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: composition.duration)
        let corner = AVMutableVideoCompositionLayerInstruction()
        corner.trackID = 99
        corner.setTransform(CGAffineTransform(scaleX: 0.5, y: 0.5), at: .zero)
        instruction.layerInstructions = [corner, AVMutableVideoCompositionLayerInstruction(assetTrack: track)]
        videoComposition.instructions = [instruction]
        let session = try export(composition, videoComposition, folder, "extra.mp4")
        XCTAssertEqual(session.status, .completed, "\(session.error.map { "\($0)" } ?? "")")
        let frame = try AVTestSupport.frame(folder.appendingPathComponent("extra.mp4"), 5, width: 64, height: 48)
        XCTAssertTrue(AVTestSupport.near(frame, 16, 8, (255, 255, 255)), "the layer's white, top-left: \(frame[16, 8])")
        XCTAssertTrue(AVTestSupport.near(frame, 16, 22, (255, 0, 0), tolerance: 40), "its band at the bottom of the corner: \(frame[16, 22])")
        XCTAssertTrue(AVTestSupport.near(frame, 48, 36, (0, 0, 255)), "the clip elsewhere: \(frame[48, 36])")
    }

    /// Two video layers show the same frame; a video layer outside the tree, an animation layer
    /// with a superlayer and post-processing switched off with a tool are refused.
    func testVideoLayersAndRefusedTrees() throws {
        let folder = try AVTestSupport.folder(self)
        let (composition, _) = try composition(folder)
        let parent = CALayer(), left = CALayer(), right = CALayer()
        parent.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        left.frame = CGRect(x: 0, y: 0, width: 32, height: 48)
        right.frame = CGRect(x: 32, y: 0, width: 32, height: 48)
        parent.addSublayer(left)
        parent.addSublayer(right)
        parent.backgroundColor = UIColor.green.cgColor
        let two = AVMutableVideoComposition(propertiesOf: composition)
        two.animationTool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayers: [left, right], in: parent)
        let session = try export(composition, two, folder, "two.mp4")
        XCTAssertEqual(session.status, .completed)
        let frame = try AVTestSupport.frame(folder.appendingPathComponent("two.mp4"), 3, width: 64, height: 48)
        XCTAssertTrue(AVTestSupport.near(frame, 10, 24, (0, 0, 255)) && AVTestSupport.near(frame, 54, 24, (0, 0, 255)))

        let stray = AVMutableVideoComposition(propertiesOf: composition)
        stray.animationTool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: CALayer(), in: parent)
        let adopted = AVMutableVideoComposition(propertiesOf: composition)
        let outer = CALayer()
        outer.addSublayer(parent)
        adopted.animationTool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: left, in: parent)
        for (name, vc, reason) in [("stray", stray, "not inside the animation layer's tree"), ("adopted", adopted, "has a superlayer")] {
            let refused = try export(composition, vc, folder, "\(name).mp4")
            XCTAssertEqual(refused.status, .failed, name)
            XCTAssertTrue("\(refused.error!)".contains(reason), "\(refused.error!)")
        }
        parent.removeFromSuperlayer()
        let noPost = AVMutableVideoComposition(propertiesOf: composition)
        noPost.animationTool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: left, in: parent)
        (noPost.instructions[0] as! AVMutableVideoCompositionInstruction).enablePostProcessing = false
        let unsupported = try export(composition, noPost, folder, "nopost.mp4")
        XCTAssertEqual(unsupported.status, .failed)
        XCTAssertTrue("\(unsupported.error!)".contains("enablePostProcessing"), "\(unsupported.error!)")
        XCTAssertEqual(AVTestSupport.files(in: folder).sorted(), ["blue.mp4", "two.mp4"])
    }
}
