import XCTest
import Lamina

/// The seeds' THTitleItem title card (the article's layer code unchanged, Ported/) exported over
/// a generated 1280×720 clip through AVAssetExportSession, on both backends.
///
/// The item's layout is top-left (image at y = 270, text at y = 470, as on screen). The tool
/// renders y-up as Apple does, so the export flips the title layer: then the image is
/// above the text, as on screen and as `lamina render` draws the same tree; without the flip
/// the card comes out upside down in placement (text above image) — each at rows computed from
/// the layout. Frames are 640×360 (the 640x480 preset scales 1280×720 by ½); 4.0–4.4 s of the
/// clip, where the card is fully faded in and the image has stopped turning.
final class TitleCardExportTests: XCTestCase {
    static let background = (32, 48, 96)  // the clip's colour, 0x203060

    func titleItem() throws -> THTitleItem {
        AVTestSupport.useExampleAssets()
        let item = THTitleItem.titleItem(withText: "Core Animation", image: try XCTUnwrap(UIImage(named: "cover")))
        item.startTimeInTimeline = CMTimeMake(value: 1, timescale: 1)
        item.timeRange = CMTimeRangeMake(start: .zero, duration: CMTimeMake(value: 5, timescale: 1))
        return item
    }

    /// Exports the card over the clip; returns the first decoded frame (640×360).
    func exportCard(flipped: Bool, backend: BackendKind) throws -> (Image, AVAssetExportSession, URL) {
        let folder = try AVTestSupport.folder(self)
        let clip = try AVTestSupport.clip(folder, "clip.mp4", "color=c=0x203060:s=1280x720:r=5", seconds: 4.6)
        let builder = THTitleCompositionBuilder(videoURL: clip, titleItems: [try titleItem()])
        builder.flipsTitleLayer = flipped
        let output = folder.appendingPathComponent("title.mp4")
        var session: AVAssetExportSession?
        try AVTestSupport.wait(self) { done in
            session = try builder.export(to: output, presetName: AVAssetExportPreset640x480,
                                         timeRange: CMTimeRange(start: CMTimeMake(value: 40, timescale: 10),
                                                                duration: CMTimeMake(value: 4, timescale: 10))) { _ in done() }
            session?.renderBackend = backend
        }
        let finished = try XCTUnwrap(session)
        XCTAssertEqual(finished.status, .completed, "\(finished.error.map { "\($0)" } ?? "")")
        return (try AVTestSupport.frame(output, 0, width: 640, height: 360), finished, output)
    }

    /// Rows (of 360) holding white text ink, in the columns beside the image (x 200…234 and
    /// 386…440: "Co" and "on" of the 471-point-wide title, clear of the 300-point cover).
    func textRows(_ frame: Image) -> [Int] {
        (0..<360).filter { y in
            (Array(200..<235) + Array(386..<441)).contains { x in AVTestSupport.near(frame, x, y, (255, 255, 255), tolerance: 40) }
        }
    }

    func checkPlacement(flipped: Bool, backend: BackendKind) throws {
        let (frame, session, output) = try exportCard(flipped: flipped, backend: backend)
        // The sun in the middle of the cover: at y = 270 from the top (flipped) or from the bottom (y-up).
        let imageRow = flipped ? 135 : 225, mirroredRow = flipped ? 225 : 135
        XCTAssertTrue(AVTestSupport.near(frame, 310, imageRow, (250, 220, 80), tolerance: 40),
                      "\(backend): the cover's sun at row \(imageRow): \(frame[310, imageRow])")
        XCTAssertTrue(AVTestSupport.near(frame, 310, mirroredRow, Self.background, tolerance: 20),
                      "\(backend): only the clip at row \(mirroredRow): \(frame[310, mirroredRow])")
        // The text 54 pt high at y = 470 (top-left when flipped, y-up otherwise): rows 219…251 or 109…141 of 360.
        let rows = textRows(frame)
        let expected = flipped ? 215...256 : 104...146
        XCTAssertFalse(rows.isEmpty, "\(backend): no text")
        XCTAssertTrue(rows.allSatisfy(expected.contains), "\(backend): text rows \(rows.first ?? -1)…\(rows.last ?? -1), expected within \(expected)")
        // Above the card and below it: the clip as it was.
        XCTAssertTrue(AVTestSupport.near(frame, 20, 20, Self.background, tolerance: 12))
        XCTAssertTrue(AVTestSupport.near(frame, 620, 340, Self.background, tolerance: 12))
        XCTAssertEqual(try MediaFiles.probe(output, stream: "a")?["codec_name"] as? String, "aac", "the clip's audio is kept")
        XCTAssertEqual(Int(try XCTUnwrap(MediaFiles.probe(output)?["nb_read_frames"] as? String) ?? "0"), 2, "0.4 s at 5 fps")
        XCTAssertEqual(session.progress, 1)
        // The article's spin animation keeps the default removedOnCompletion (true) and ends at 3.2 s:
        // Apple's export would not keep it, and the lint says so; the fade and pop are export-ready.
        let timing = session.warnings.filter { $0.contains("AVCoreAnimationBeginTimeAtZero") || $0.contains("removedOnCompletion") }
        XCTAssertEqual(timing.count, 1, "\(timing)")
        XCTAssertTrue(timing.first?.contains("transform.rotation.y ends at 3.200 s") ?? false, "\(timing)")
    }

    func testFlippedTitleLayerReadsTopLeftOnTheCPU() throws { try checkPlacement(flipped: true, backend: .cpu) }
    func testFlippedTitleLayerReadsTopLeftOnTheGPU() throws {
        _ = try TestBackends.gpu()
        try checkPlacement(flipped: true, backend: .gpu)
    }
    func testUnflippedTitleLayerIsYUpOnTheCPU() throws { try checkPlacement(flipped: false, backend: .cpu) }
    func testUnflippedTitleLayerIsYUpOnTheGPU() throws {
        _ = try TestBackends.gpu()
        try checkPlacement(flipped: false, backend: .gpu)
    }

    /// The flipped export matches the same tree drawn top-left by the scene-file path
    /// (`FrameRenderer`, what `lamina render` uses) over the clip's colour: ≥ 30 dB, H.264 aside.
    func testFlippedExportMatchesTheTopLeftRender() throws {
        let (frame, _, _) = try exportCard(flipped: true, backend: .cpu)
        let builder = THTitleCompositionBuilder(videoURL: URL(fileURLWithPath: "/unused"), titleItems: [try titleItem()])
        builder.flipsTitleLayer = false
        let tool = builder.buildAnimationTool()
        let root = try XCTUnwrap(tool.animationLayer), videoLayer = try XCTUnwrap(tool.videoLayers.first)
        let (r, g, b) = Self.background
        let clip = try XCTUnwrap(CGImage(width: 2, height: 2, premultipliedRGBA: Array(Array(repeating: [UInt8(r), UInt8(g), UInt8(b), 255], count: 4).joined())))
        let renderer = try FrameRenderer(width: 640, height: 360, scale: 0.5, backend: .cpu)
        let reference = try XCTUnwrap(renderer.render(root, at: 4.0, inputs: [ObjectIdentifier(videoLayer): clip]))
        XCTAssertGreaterThan(try AVTestSupport.psnr(frame, reference, rows: 0..<360), 30)
        // And that render is top-left: the sun at row 135.
        XCTAssertTrue(AVTestSupport.near(reference, 310, 135, (250, 220, 80), tolerance: 40))
    }
}
