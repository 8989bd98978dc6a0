import XCTest
import Lamina

/// AVMutableComposition's edits on track timelines — insert, insert empty, remove, scale —
/// checked on the segments and on exported frames.
final class CompositionEditingTests: XCTestCase {
    func assets() throws -> (red: AVURLAsset, blue: AVURLAsset) {
        let folder = try AVTestSupport.folder(self)
        return (AVURLAsset(url: try AVTestSupport.clip(folder, "red.mp4", "color=c=red:s=32x24:r=30", seconds: 1)),
                AVURLAsset(url: try AVTestSupport.clip(folder, "blue.mp4", "color=c=blue:s=32x24:r=30", seconds: 1)))
    }

    func seconds(_ range: CMTimeRange) -> [Double] { [range.start.seconds, range.duration.seconds] }

    func testInsertingInTheMiddleSplitsAndMovesLater() throws {
        let (red, blue) = try assets()
        let composition = AVMutableComposition()
        let track = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        XCTAssertEqual(track.trackID, 1)
        XCTAssertEqual(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: 1)?.trackID, 2, "a taken ID gives the next free one")
        try track.insertTimeRange(CMTimeRange(start: .zero, duration: red.duration), of: red.tracks(withMediaType: .video)[0], at: .zero)
        let half = CMTimeMake(value: 1, timescale: 2)
        try track.insertTimeRange(CMTimeRange(start: .zero, duration: half), of: blue.tracks(withMediaType: .video)[0], at: half)
        XCTAssertEqual(track.segments.map { $0.sourceURL?.lastPathComponent }, ["red.mp4", "blue.mp4", "red.mp4"])
        XCTAssertEqual(track.segments.map { seconds($0.timeMapping.target) }, [[0, 0.5], [0.5, 0.5], [1, 0.5]])
        XCTAssertEqual(track.segments.map { seconds($0.timeMapping.source) }, [[0, 0.5], [0, 0.5], [0.5, 0.5]])
        XCTAssertEqual(composition.duration.seconds, 1.5, accuracy: 1e-9)
        XCTAssertEqual(track.segment(forTrackTime: CMTimeMake(value: 6, timescale: 10))?.sourceURL?.lastPathComponent, "blue.mp4")

        track.insertEmptyTimeRange(CMTimeRange(start: .zero, duration: half))
        XCTAssertTrue(track.segments[0].isEmpty)
        XCTAssertEqual(composition.duration.seconds, 2, accuracy: 1e-9)
        track.removeTimeRange(CMTimeRange(start: CMTimeMake(value: 3, timescale: 4), duration: half))
        XCTAssertEqual(track.segments.map { seconds($0.timeMapping.target) }, [[0, 0.5], [0.5, 0.25], [0.75, 0.25], [1, 0.5]])
        XCTAssertEqual(seconds(track.segments[2].timeMapping.source), [0.25, 0.25], "the blue segment's last quarter second is left")
        try track.validateSegments(track.segments)
    }

    func testScalingStretchesTargetsNotSources() throws {
        let (red, _) = try assets()
        let composition = AVMutableComposition()
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: red.duration), of: red, at: .zero)
        XCTAssertEqual(composition.tracks.map(\.mediaType), [.video, .audio], "one composition track per asset track")
        composition.scaleTimeRange(CMTimeRange(start: .zero, duration: CMTimeMake(value: 1, timescale: 2)), toDuration: CMTimeMake(value: 1, timescale: 1))
        let video = try XCTUnwrap(composition.tracks(withMediaType: .video).first as? AVCompositionTrack)
        XCTAssertEqual(video.segments.map { seconds($0.timeMapping.target) }, [[0, 1], [1, 0.5]])
        XCTAssertEqual(video.segments.map { seconds($0.timeMapping.source) }, [[0, 0.5], [0.5, 0.5]])
        XCTAssertEqual(composition.duration.seconds, 1.5, accuracy: 1e-3)
    }

    func testMismatchedMediaAndRangesOutsideTheTrackAreRefused() throws {
        let (red, _) = try assets()
        let composition = AVMutableComposition()
        let audio = try XCTUnwrap(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid))
        XCTAssertThrowsError(try audio.insertTimeRange(CMTimeRange(start: .zero, duration: red.duration), of: red.tracks(withMediaType: .video)[0], at: .zero))
        let video = try XCTUnwrap(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        XCTAssertThrowsError(try video.insertTimeRange(CMTimeRange(start: CMTimeMake(value: 5, timescale: 1), duration: CMTimeMake(value: 1, timescale: 1)),
                                                       of: red.tracks(withMediaType: .video)[0], at: .zero)) { error in
            XCTAssertTrue("\(error)".contains("red.mp4"), "\(error)")
        }
    }

    /// Sequenced, trimmed and slowed: red 0–0.5 s of its clip, then blue played at half speed.
    func testSequencedAndScaledCompositionExports() throws {
        let (red, blue) = try assets()
        let composition = AVMutableComposition()
        let half = CMTimeMake(value: 1, timescale: 2)
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: half), of: red, at: .zero)
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: half), of: blue, at: half)
        composition.scaleTimeRange(CMTimeRange(start: half, duration: half), toDuration: CMTimeMake(value: 1, timescale: 1))
        let folder = try AVTestSupport.folder(self)
        let output = folder.appendingPathComponent("sequence.mp4")
        let session = try XCTUnwrap(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality))
        session.outputURL = output
        session.outputFileType = .mp4
        session.renderBackend = .cpu
        AVTestSupport.wait(self) { done in session.exportAsynchronously { done() } }
        XCTAssertEqual(session.status, .completed, "\(session.error.map { "\($0)" } ?? "")")
        let frames = try MediaFiles.decode(output, width: 32, height: 24).map { try XCTUnwrap(Image(width: 32, height: 24, pixels: $0)) }
        XCTAssertEqual(frames.count, 45, "0.5 s + 0.5 s slowed to 1 s, at the clips' 30 fps")
        XCTAssertTrue(AVTestSupport.near(frames[10], 16, 12, (255, 0, 0), tolerance: 12))
        XCTAssertTrue(AVTestSupport.near(frames[20], 16, 12, (0, 0, 255), tolerance: 12))
        XCTAssertTrue(AVTestSupport.near(frames[44], 16, 12, (0, 0, 255), tolerance: 12))
        let audio = try AVTestSupport.audioSamples(output)
        XCTAssertEqual(Double(audio.count) / 48000, 1.5, accuracy: 0.05, "the slowed audio lasts as long as the video")
        XCTAssertGreaterThan(AVTestSupport.rms(audio, from: 0.7, to: 1.3), 0.05, "the slowed tone is there")
    }
}
