import XCTest
import Lamina

/// AVURLAsset read with ffprobe: tracks, sizes, rates, ranges and the rotation as a preferred
/// transform, synchronously and with the async loaders; unreadable files fail naming the file.
final class AssetLoadingTests: XCTestCase {
    func testTracksDurationAndSizes() throws {
        let folder = try AVTestSupport.folder(self)
        let clip = try AVTestSupport.clip(folder, "clip.mp4", "color=c=green:s=64x48:r=25", seconds: 1.2)
        let asset = AVURLAsset(url: clip)
        XCTAssertEqual(asset.duration.seconds, 1.2, accuracy: 0.03)
        XCTAssertEqual(asset.tracks.count, 2)
        let video = try XCTUnwrap(asset.tracks(withMediaType: .video).first)
        XCTAssertEqual(video.mediaType, .video)
        XCTAssertEqual(video.naturalSize, CGSize(width: 64, height: 48))
        XCTAssertEqual(video.nominalFrameRate, 25)
        XCTAssertEqual(video.preferredTransform, .identity)
        XCTAssertEqual(video.timeRange.duration.seconds, 1.2, accuracy: 0.001)
        XCTAssertNotEqual(video.trackID, kCMPersistentTrackID_Invalid)
        XCTAssertTrue(asset.track(withTrackID: video.trackID) === video)
        let audio = try XCTUnwrap(asset.tracks(withMediaType: .audio).first)
        XCTAssertNotEqual(audio.trackID, video.trackID)
        XCTAssertEqual(asset.naturalSize, CGSize(width: 64, height: 48))
        XCTAssertTrue(asset.isExportable)
    }

    func testAsyncLoaders() async throws {
        let folder = try AVTestSupport.folder(self)
        let clip = try AVTestSupport.clip(folder, "clip.mov", "color=c=green:s=64x48:r=30", seconds: 0.5)
        try AVTestSupport.markRotatedClockwise(clip, codedHeight: 48)
        let asset = AVURLAsset(url: clip)
        let duration = try await asset.load(.duration)
        XCTAssertEqual(duration.seconds, 0.5, accuracy: 0.03)
        let (loaded, tracks) = try await asset.load(.duration, .tracks)
        XCTAssertEqual(loaded, duration)
        XCTAssertEqual(tracks.count, 2)
        let videos = try await asset.loadTracks(withMediaType: .video)
        let video = try XCTUnwrap(videos.first)
        let size = try await video.load(.naturalSize)
        XCTAssertEqual(size, CGSize(width: 64, height: 48), "the coded size, before rotation")
        let transform = try await video.load(.preferredTransform)
        XCTAssertEqual(transform, CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 48, ty: 0), "90° clockwise, kept in the positive quadrant")
        XCTAssertEqual(CGRect(origin: .zero, size: size).applying(transform), CGRect(x: 0, y: 0, width: 48, height: 64))
        let (rate, range) = try await video.load(.nominalFrameRate, .timeRange)
        XCTAssertEqual(rate, 30)
        XCTAssertEqual(range.duration.seconds, 0.5, accuracy: 0.001)
        if case .loaded(let value) = asset.status(of: .duration) { XCTAssertEqual(value, duration) } else { XCTFail("duration is loaded") }
        let naturalSize = try await asset.load(.naturalSize)
        XCTAssertEqual(naturalSize, CGSize(width: 48, height: 64), "the asset's display size is portrait")
    }

    func testCompletionHandlerLoaders() throws {
        let folder = try AVTestSupport.folder(self)
        let clip = try AVTestSupport.clip(folder, "clip.mp4", "color=c=green:s=64x48:r=30", seconds: 0.5)
        let asset = AVURLAsset(url: clip)
        nonisolated(unsafe) var count = -1
        AVTestSupport.wait(self) { done in
            asset.loadValuesAsynchronously(forKeys: ["duration", "tracks"]) {
                var error: NSError?
                if asset.statusOfValue(forKey: "tracks", error: &error) == .loaded { count = asset.tracks.count }
                done()
            }
        }
        XCTAssertEqual(count, 2)
        nonisolated(unsafe) var audio: [AVAssetTrack]?
        AVTestSupport.wait(self) { done in
            asset.loadTracks(withMediaType: .audio) { tracks, _ in
                audio = tracks
                done()
            }
        }
        XCTAssertEqual(audio?.count, 1)
    }

    func testMissingAndUnreadableFilesFailNamingTheFile() async throws {
        let folder = try AVTestSupport.folder(self)
        let missing = AVURLAsset(url: folder.appendingPathComponent("nowhere.mov"))
        XCTAssertEqual(missing.tracks.count, 0)
        XCTAssertFalse(missing.duration.isValid)
        do {
            _ = try await missing.load(.duration)
            XCTFail("a missing file loads")
        } catch {
            XCTAssertTrue(error.localizedDescription.contains("nowhere.mov"), error.localizedDescription)
            XCTAssertTrue(error.localizedDescription.contains("no such file"), error.localizedDescription)
            XCTAssertEqual((error as NSError).domain, AVError.errorDomain)
        }
        var error: NSError?
        XCTAssertEqual(missing.statusOfValue(forKey: "duration", error: &error), .failed)
        XCTAssertTrue(error?.localizedDescription.contains("nowhere.mov") ?? false)

        let text = folder.appendingPathComponent("notes.mp4")
        try Data("not a movie".utf8).write(to: text)
        do {
            _ = try await AVURLAsset(url: text).loadTracks(withMediaType: .video)
            XCTFail("a text file loads")
        } catch let error as AVError {
            XCTAssertEqual(error.code, .fileFormatNotRecognized)
            XCTAssertTrue(error.reason.contains("notes.mp4"), error.reason)
        }
        let png = folder.appendingPathComponent("still.png")
        _ = try FFmpegProcess.run(arguments: ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=8x8", "-frames:v", "1", png.path])
        do {
            _ = try await AVAsset(url: png).load(.tracks)
            XCTFail("a still image is a movie")
        } catch let error as AVError {
            XCTAssertEqual(error.code, .fileFormatNotRecognized)
        }
    }
}
