import XCTest
import Lamina

/// AVAssetExportSession's contract: presets, file types, time ranges, fast start, passthrough,
/// and failures — a status, an error that names the cause, and no file at the output.
final class ExportSessionTests: XCTestCase {
    var folder: URL!
    var clip: URL!

    override func setUpWithError() throws {
        folder = try AVTestSupport.folder(self)
        clip = try AVTestSupport.clip(folder, "clip.mp4", "testsrc2=s=64x48:r=30", seconds: 1)
    }

    func session(_ asset: AVAsset? = nil, preset: String = AVAssetExportPresetHighestQuality, to name: String = "out.mp4",
                 type: AVFileType = .mp4) throws -> AVAssetExportSession {
        let session = try XCTUnwrap(AVAssetExportSession(asset: asset ?? AVURLAsset(url: clip), presetName: preset))
        session.outputURL = folder.appendingPathComponent(name)
        session.outputFileType = type
        session.renderBackend = .cpu
        return session
    }

    func run(_ session: AVAssetExportSession) {
        AVTestSupport.wait(self) { done in session.exportAsynchronously { done() } }
    }

    func testPresetsAndFileTypes() throws {
        XCTAssertNil(AVAssetExportSession(asset: AVURLAsset(url: clip), presetName: "AVAssetExportPresetHEVCHighestQuality"))
        let s = try session()
        XCTAssertEqual(s.supportedFileTypes, [.mov, .mp4, .m4v])
        XCTAssertTrue(AVAssetExportSession.allExportPresets().contains(AVAssetExportPreset1280x720))
        XCTAssertEqual(try session(preset: AVAssetExportPresetAppleProRes4444LPCM).supportedFileTypes, [.mov])
        XCTAssertEqual(s.status, .unknown)
    }

    func testTimeRangeAndFileTypeWhateverTheExtension() throws {
        let s = try session(to: "part.video", type: .mov)
        s.timeRange = CMTimeRange(start: CMTimeMake(value: 1, timescale: 2), duration: CMTimeMake(value: 1, timescale: 5))
        run(s)
        XCTAssertEqual(s.status, .completed, "\(s.error.map { "\($0)" } ?? "")")
        let output = folder.appendingPathComponent("part.video")
        XCTAssertEqual(try MediaFiles.probe(output)?["nb_read_frames"] as? String, "6", "0.2 s at 30 fps")
        let format = try FFmpegProcess.run(program: "ffprobe", arguments: ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", output.path])
        XCTAssertTrue(String(decoding: format, as: UTF8.self).contains("mov"), "a QuickTime file, as outputFileType says")
        // Frame 0 of the output is frame 15 of the clip.
        let first = try AVTestSupport.frame(output, 0, width: 64, height: 48), source = try AVTestSupport.frame(clip, 15, width: 64, height: 48)
        XCTAssertGreaterThan(try AVTestSupport.psnr(first, source, rows: 0..<48), 24)
        let other = try AVTestSupport.frame(clip, 0, width: 64, height: 48)
        XCTAssertGreaterThan(try AVTestSupport.psnr(first, source, rows: 0..<48), try AVTestSupport.psnr(first, other, rows: 0..<48) + 3)
    }

    func testShouldOptimizeForNetworkUsePutsTheIndexFirst() throws {
        for optimized in [false, true] {
            let s = try session(to: "net-\(optimized).mp4")
            s.shouldOptimizeForNetworkUse = optimized
            run(s)
            XCTAssertEqual(s.status, .completed)
            let boxes = try AVTestSupport.topLevelBoxes(folder.appendingPathComponent("net-\(optimized).mp4"))
            let moov = try XCTUnwrap(boxes.firstIndex(of: "moov")), mdat = try XCTUnwrap(boxes.firstIndex(of: "mdat"))
            XCTAssertEqual(moov < mdat, optimized, "\(boxes)")
        }
    }

    func testPassthroughCopiesTheStreams() throws {
        let s = try session(preset: AVAssetExportPresetPassthrough, to: "copy.mov", type: .mov)
        run(s)
        XCTAssertEqual(s.status, .completed, "\(s.error.map { "\($0)" } ?? "")")
        let output = folder.appendingPathComponent("copy.mov")
        let packets = { (url: URL) throws -> [String] in
            String(decoding: try FFmpegProcess.run(arguments: ["-v", "error", "-i", url.path, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"]), as: UTF8.self)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
        }
        XCTAssertEqual(try packets(output), try packets(clip), "the coded frames are copied, not re-encoded")
        XCTAssertEqual(try MediaFiles.probe(output, stream: "a")?["codec_name"] as? String, "aac")
        let withComposition = try session(preset: AVAssetExportPresetPassthrough, to: "refused.mov", type: .mov)
        withComposition.videoComposition = AVMutableVideoComposition(propertiesOf: AVURLAsset(url: clip))
        run(withComposition)
        XCTAssertEqual(withComposition.status, .failed)
        XCTAssertEqual((withComposition.error as? AVError)?.code, .operationNotSupportedForPreset)
    }

    func testAnExistingOutputFailsAndIsKept() throws {
        let existing = folder.appendingPathComponent("out.mp4")
        try Data("keep me".utf8).write(to: existing)
        let s = try session()
        run(s)
        XCTAssertEqual(s.status, .failed)
        XCTAssertEqual((s.error as NSError?)?.code, AVError.Code.fileAlreadyExists.rawValue)
        XCTAssertEqual((s.error as NSError?)?.domain, "AVFoundationErrorDomain")
        XCTAssertTrue(s.error?.localizedDescription.contains(existing.path) ?? false)
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "keep me")
    }

    func testMissingSourceFailsNamingItBeforeRendering() async throws {
        let missing = folder.appendingPathComponent("gone.mov")
        let s = try session(AVURLAsset(url: missing))
        do {
            try await s.export(to: folder.appendingPathComponent("never.mp4"), as: .mp4)
            XCTFail("exported a missing file")
        } catch {
            XCTAssertTrue("\(error)".contains("gone.mov"), "\(error)")
        }
        XCTAssertEqual(s.status, .failed)
        XCTAssertEqual(AVTestSupport.files(in: folder), ["clip.mp4"])
    }

    func testInvalidVideoCompositionsFailWithTheReason() throws {
        let asset = AVURLAsset(url: clip)
        func composition(_ change: (AVMutableVideoComposition, AVMutableVideoCompositionInstruction) -> Void) -> AVMutableVideoComposition {
            let vc = AVMutableVideoComposition(propertiesOf: asset)
            change(vc, vc.instructions[0] as! AVMutableVideoCompositionInstruction)
            return vc
        }
        let cases: [(String, AVMutableVideoComposition)] = [
            ("a gap between instructions", composition { _, i in i.timeRange = CMTimeRange(start: CMTimeMake(value: 1, timescale: 10), duration: CMTimeMake(value: 9, timescale: 10)) }),
            ("before the export's end", composition { _, i in i.timeRange = CMTimeRange(start: .zero, duration: CMTimeMake(value: 1, timescale: 2)) }),
            ("renderSize", composition { vc, _ in vc.renderSize = .zero }),
            ("frameDuration", composition { vc, _ in vc.frameDuration = .invalid }),
            ("not a video track", composition { _, i in i.layerInstructions = [AVMutableVideoCompositionLayerInstruction(assetTrack: asset.tracks(withMediaType: .audio)[0])] }),
            ("must be set", composition { _, i in i.timeRange = .invalid }),
        ]
        for (n, (reason, vc)) in cases.enumerated() {
            XCTAssertFalse(vc.isValid(for: asset, timeRange: CMTimeRange(start: .zero, duration: asset.duration), validationDelegate: nil), reason)
            let s = try session(to: "bad-\(n).mp4")
            s.videoComposition = vc
            run(s)
            XCTAssertEqual(s.status, .failed, reason)
            XCTAssertEqual((s.error as? AVError)?.code, .invalidVideoComposition, reason)
            XCTAssertTrue("\(s.error!)".contains(reason), "\(s.error!) should say \(reason)")
        }
        XCTAssertTrue(AVMutableVideoComposition(propertiesOf: asset).isValid(for: asset, timeRange: CMTimeRange(start: .zero, duration: asset.duration), validationDelegate: nil))
        XCTAssertEqual(AVTestSupport.files(in: folder), ["clip.mp4"])
    }

    func testUnsetOutputAndWrongFileTypeFail() throws {
        let s = try XCTUnwrap(AVAssetExportSession(asset: AVURLAsset(url: clip), presetName: AVAssetExportPresetHighestQuality))
        run(s)
        XCTAssertEqual(s.status, .failed)
        XCTAssertTrue("\(s.error!)".contains("outputURL"))
        let prores = try session(preset: AVAssetExportPresetAppleProRes4444LPCM, to: "p.mp4", type: .mp4)
        run(prores)
        XCTAssertEqual(prores.status, .failed)
        XCTAssertTrue("\(prores.error!)".contains("cannot write"), "\(prores.error!)")
    }

    func testCancelledExportLeavesNothing() throws {
        let long = try AVTestSupport.clip(folder, "long.mp4", "testsrc2=s=64x48:r=30", seconds: 8, audio: false)
        let s = try session(AVURLAsset(url: long), to: "cancelled.mp4")
        nonisolated(unsafe) var sawProgress = false
        AVTestSupport.wait(self) { done in
            s.exportAsynchronously { done() }
            DispatchQueue.global().async {
                while s.status != .completed, s.status != .failed, s.status != .cancelled {
                    if s.progress > 0.05 { sawProgress = true; s.cancelExport(); return }
                    usleep(2000)
                }
            }
        }
        XCTAssertTrue(sawProgress, "progress moved before the cancel")
        XCTAssertEqual(s.status, .cancelled)
        XCTAssertEqual((s.error as? AVError)?.code, .operationCancelled)
        XCTAssertEqual(AVTestSupport.files(in: folder).sorted(), ["clip.mp4", "long.mp4"])

        let early = try session(to: "early.mp4")
        early.cancelExport()
        run(early)
        XCTAssertEqual(early.status, .cancelled)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("early.mp4").path))
    }
}
