import XCTest
import Lamina

/// The portrait-rotation recipe: a landscape-coded clip whose rotation metadata says 90°
/// clockwise (as phones record portrait video), composed with its preferred transform.
final class PortraitExportTests: XCTestCase {
    /// 64×48 coded, left half red, right half blue; shown turned 90° clockwise: 48×64, red on top.
    func portraitClip(_ folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("portrait.mov")
        _ = try FFmpegProcess.run(arguments: [
            "-v", "error", "-nostdin", "-y", "-f", "lavfi",
            "-i", "color=c=red:s=32x48:r=30:d=0.5[a];color=c=blue:s=32x48:r=30:d=0.5[b];[a][b]hstack",
            "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv444p", url.path])
        try AVTestSupport.markRotatedClockwise(url, codedHeight: 48)
        return url
    }

    func export(_ session: AVAssetExportSession) throws {
        session.renderBackend = .cpu
        AVTestSupport.wait(self) { done in session.exportAsynchronously { done() } }
        XCTAssertEqual(session.status, .completed, "\(session.error.map { "\($0)" } ?? "")")
    }

    func testPropertiesOfAssetTurnsThePicture() throws {
        let folder = try AVTestSupport.folder(self)
        let asset = AVURLAsset(url: try portraitClip(folder))
        let videoComposition = AVMutableVideoComposition(propertiesOf: asset)
        XCTAssertEqual(videoComposition.renderSize, CGSize(width: 48, height: 64))
        XCTAssertEqual(videoComposition.frameDuration, CMTimeMake(value: 1, timescale: 30))
        let session = try XCTUnwrap(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetHighestQuality))
        session.outputURL = folder.appendingPathComponent("out.mp4")
        session.outputFileType = .mp4
        session.videoComposition = videoComposition
        try export(session)
        let frame = try AVTestSupport.frame(folder.appendingPathComponent("out.mp4"), 3, width: 48, height: 64)
        XCTAssertTrue(AVTestSupport.near(frame, 24, 12, (255, 0, 0)), "\(frame[24, 12])")
        XCTAssertTrue(AVTestSupport.near(frame, 24, 52, (0, 0, 255)), "\(frame[24, 52])")
    }

    /// The hand-written recipe: a composition track, the source's transform set on a layer
    /// instruction, the render size swapped — and a crop, which is in the coded frame: x < 32
    /// keeps the red left half (turned to the top), the rest shows the background colour.
    func testLayerInstructionTransformAndCrop() throws {
        let folder = try AVTestSupport.folder(self)
        let asset = AVURLAsset(url: try portraitClip(folder))
        let source = try XCTUnwrap(asset.tracks(withMediaType: .video).first)
        let composition = AVMutableComposition()
        let track = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        try track.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: source, at: .zero)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: composition.duration)
        instruction.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
        layer.setTransform(source.preferredTransform, at: .zero)
        layer.setCropRectangle(CGRect(x: 0, y: 0, width: 32, height: 48), at: .zero)
        instruction.layerInstructions = [layer]
        let videoComposition = AVMutableVideoComposition()
        videoComposition.renderSize = CGSize(width: source.naturalSize.height, height: source.naturalSize.width)
        videoComposition.frameDuration = CMTimeMake(value: 1, timescale: 30)
        videoComposition.instructions = [instruction]
        let session = try XCTUnwrap(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality))
        session.outputURL = folder.appendingPathComponent("cropped.mp4")
        session.outputFileType = .mp4
        session.videoComposition = videoComposition
        try export(session)
        let frame = try AVTestSupport.frame(folder.appendingPathComponent("cropped.mp4"), 3, width: 48, height: 64)
        XCTAssertTrue(AVTestSupport.near(frame, 24, 12, (255, 0, 0)), "the red half, turned to the top: \(frame[24, 12])")
        XCTAssertTrue(AVTestSupport.near(frame, 24, 52, (0, 255, 0)), "the blue half is cropped away to the background: \(frame[24, 52])")
    }
}
