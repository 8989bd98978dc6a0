import XCTest
import Lamina
import RenderTesting
import TestSupport

/// The snapshot API: recording, matching, failing with a difference, the record modes, names and
/// tolerances, and each strategy (`.image`, `.frames`, `.presentation`, `.video`).
final class AssertSnapshotTests: XCTestCase {
    /// A 20×10 card: a rounded blue layer with an orange dot whose opacity fades over 1 s.
    private func card(blue: CGFloat = 0.9) -> CALayer {
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        card.position = CGPoint(x: 300, y: 300)   // ignored: a snapshot draws the layer in its own bounds
        card.backgroundColor = CGColor(red: 0.1, green: 0.3, blue: blue, alpha: 1)
        card.cornerRadius = 3
        let dot = CALayer()
        dot.frame = CGRect(x: 12, y: 2, width: 6, height: 6)
        dot.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        fade.duration = 1
        fade.fillMode = .both
        dot.add(fade, forKey: "fade", atMediaTime: 0)
        card.addSublayer(dot)
        return card
    }

    func testFirstRunRecordsAndFailsThenMatchesThenFailsWithADifference() throws {
        let folder = try TemporaryFolder(for: self)
        let first = verifySnapshot(of: card(), as: .image, named: "card", snapshotDirectory: folder.url.path, testName: "testCard()")
        let reference = folder.file("testCard.card.png")
        XCTAssertEqual(first?.contains("recorded a snapshot at \(reference.path)"), true, first ?? "passed")
        let recorded = try ImageFile.read(contentsOf: reference)
        XCTAssertEqual([recorded.width, recorded.height], [20, 10])
        XCTAssertEqual(recorded[15, 5].r, 255, "the dot, drawn in the layer's own bounds")
        XCTAssertEqual(recorded[4, 5].b, 230, "the card's blue")

        XCTAssertNil(verifySnapshot(of: card(), as: .image, named: "card", snapshotDirectory: folder.url.path, testName: "testCard()"))

        let changed = try XCTUnwrap(verifySnapshot(of: card(blue: 0.5), as: .image, named: "card", snapshotDirectory: folder.url.path,
                                                   testName: "testCard()"))
        XCTAssertTrue(changed.contains("snapshot does not match \(reference.path)"), changed)
        XCTAssertTrue(changed.contains(folder.file("testCard.card.actual.png").path), changed)
        XCTAssertTrue(changed.contains(folder.file("testCard.card.diff.png").path), changed)
        XCTAssertEqual(try ImageFile.read(contentsOf: folder.file("testCard.card.actual.png"))[4, 5].b, 128)
        XCTAssertEqual(try ImageFile.read(contentsOf: reference)[4, 5].b, 230, "a failure does not change the reference")
        // A pass afterwards removes the stale actual and difference images.
        XCTAssertNil(verifySnapshot(of: card(), as: .image, named: "card", snapshotDirectory: folder.url.path, testName: "testCard()"))
        XCTAssertEqual(try folder.contents(), ["testCard.card.png"])
    }

    func testRecordModes() throws {
        let folder = try TemporaryFolder(for: self)
        let dir = folder.url.path
        let never = try XCTUnwrap(verifySnapshot(of: card(), as: .image, named: "a", record: .never, snapshotDirectory: dir, testName: "t"))
        XCTAssertTrue(never.contains("no reference"), never)
        XCTAssertEqual(try folder.contents(), [])
        _ = verifySnapshot(of: card(), as: .image, named: "a", snapshotDirectory: dir, testName: "t")
        // `.all` rewrites even a matching reference, and fails so nothing goes in unseen.
        let all = try XCTUnwrap(withSnapshotTesting(record: .all) {
            verifySnapshot(of: card(blue: 0.2), as: .image, named: "a", snapshotDirectory: dir, testName: "t")
        })
        XCTAssertTrue(all.contains("record mode"), all)
        XCTAssertEqual(try ImageFile.read(contentsOf: folder.file("t.a.png"))[4, 5].b, 51)
        // `.failed` records the new snapshot of a failing assertion, still failing it.
        let failed = try XCTUnwrap(verifySnapshot(of: card(), as: .image, named: "a", record: .failed, snapshotDirectory: dir, testName: "t"))
        XCTAssertTrue(failed.contains("recorded the new snapshot"), failed)
        XCTAssertNil(verifySnapshot(of: card(), as: .image, named: "a", record: .never, snapshotDirectory: dir, testName: "t"))
    }

    func testUnnamedAssertionsAreNumberedInOrder() throws {
        let folder = try TemporaryFolder(for: self)
        for _ in 0..<3 { _ = verifySnapshot(of: card(), as: .image, snapshotDirectory: folder.url.path, testName: "testNumbers()") }
        XCTAssertEqual(try folder.contents(), ["testNumbers.1.png", "testNumbers.2.png", "testNumbers.3.png"])
    }

    func testPrecisionAndPerceptualPrecision() throws {
        let folder = try TemporaryFolder(for: self)
        let dir = folder.url.path
        _ = verifySnapshot(of: card(), as: .image, named: "p", snapshotDirectory: dir, testName: "t")
        // 0.9 → 0.905 blue: ΔE ≈ 0.4 on every card pixel, invisible; exact comparison fails it.
        let nudged = card(blue: 0.905)
        XCTAssertNotNil(verifySnapshot(of: nudged, as: .image, named: "p", record: .never, snapshotDirectory: dir, testName: "t"))
        XCTAssertNil(verifySnapshot(of: nudged, as: .image(perceptualPrecision: 0.98), named: "p", record: .never,
                                    snapshotDirectory: dir, testName: "t"))
        // Half the card's blue: ΔE ≈ 20, visible, so perceptual precision does not excuse it, but
        // a precision of 0.5 (the dot and the corners are most of... not half) does not either.
        let darker = card(blue: 0.45)
        XCTAssertNotNil(verifySnapshot(of: darker, as: .image(perceptualPrecision: 0.98), named: "p", record: .never,
                                       snapshotDirectory: dir, testName: "t"))
        XCTAssertNil(verifySnapshot(of: darker, as: .image(precision: 0.1, perceptualPrecision: 0.98), named: "p", record: .never,
                                    snapshotDirectory: dir, testName: "t"), "precision 0.1: the unchanged dot pixels are enough")
        XCTAssertEqual(PerceptualDifference.deltaE94(PerceptualDifference.lab(255, 0, 0), PerceptualDifference.lab(255, 0, 0)), 0)
    }

    func testFramesAreLaidOutSideBySide() throws {
        let folder = try TemporaryFolder(for: self)
        _ = verifySnapshot(of: card(), as: .frames([0, 0.5, 1]), named: "f", snapshotDirectory: folder.url.path, testName: "t")
        let strip = try ImageFile.read(contentsOf: folder.file("t.f.png"))
        XCTAssertEqual([strip.width, strip.height], [60, 10])
        // The dot fades: full at t = 0, half at 0.5, gone at 1 (the card's blue shows through).
        XCTAssertEqual(strip[15, 5].r, 255)
        XCTAssertEqual(Int(strip[35, 5].r), 140, accuracy: 2)
        XCTAssertEqual(Int(strip[55, 5].r), 26, accuracy: 1)
    }

    func testPresentationIsDiffedAsText() throws {
        let folder = try TemporaryFolder(for: self)
        _ = verifySnapshot(of: card(), as: .presentation(times: [0, 0.5]), named: "tree", snapshotDirectory: folder.url.path, testName: "t")
        let text = try String(contentsOf: folder.file("t.tree.json"), encoding: .utf8)
        XCTAssertEqual(text.split(separator: "\n").count, 2)
        XCTAssertTrue(text.contains("\"opacity\": 0.5"), text)
        let moved = card()
        moved.sublayers?.first?.frame = CGRect(x: 11, y: 2, width: 6, height: 6)
        let failure = try XCTUnwrap(verifySnapshot(of: moved, as: .presentation(times: [0, 0.5]), named: "tree",
                                                   snapshotDirectory: folder.url.path, testName: "t"))
        XCTAssertTrue(failure.contains("−1:") && failure.contains("+1:"), failure)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("t.tree.actual.txt").path))
    }

    func testVideoRecordsDecodedFrameDigests() throws {
        let folder = try TemporaryFolder(for: self)
        let layer = card()
        layer.bounds = CGRect(x: 0, y: 0, width: 32, height: 16)
        _ = verifySnapshot(of: layer, as: .video(duration: 0.2), named: "v", snapshotDirectory: folder.url.path, testName: "t")
        let digests = try String(contentsOf: folder.file("t.v.framemd5.txt"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(digests.count, 6, "0.2 s at 30 fps")
        XCTAssertEqual(Set(digests.compactMap { $0.split(separator: ",").last }).count, 6, "the dot fades: every frame differs")
        XCTAssertNil(verifySnapshot(of: layer, as: .video(duration: 0.2), named: "v", record: .never,
                                    snapshotDirectory: folder.url.path, testName: "t"), "the same export decodes to the same frames")
    }

    /// `assertSnapshot` itself, against references committed next to this file
    /// (`__Snapshots__/AssertSnapshotTests/`).
    func testCommittedReferences() {
        assertSnapshot(of: card(), as: .image)
        assertSnapshot(of: card(), as: .image(scale: 2, time: 0.5), named: "half-faded-2x")
        assertSnapshot(of: card(), as: .presentation)
    }
}
