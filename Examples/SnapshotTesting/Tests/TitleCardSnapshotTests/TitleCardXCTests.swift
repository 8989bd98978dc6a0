import XCTest
import Lamina
import RenderTesting
import TitleCard

/// XCTest: the title card at its key moments, against references in `__Snapshots__/`.
final class TitleCardXCTests: XCTestCase {
    func testSlidesInThenShowsItsTitle() {
        let card = TitleCard.make(title: "Lamina")
        assertSnapshot(of: card, as: .frames([0, 0.25, 0.5, 1.0]))
        assertSnapshot(of: card, as: .image(scale: 2, time: 1.0), named: "settled-2x")
    }

    func testPresentationTree() {
        assertSnapshot(of: TitleCard.make(title: "Lamina"), as: .presentation(times: [0.25, 0.55]))
    }

    /// Another accent colour is a different picture: the reference of the orange card does not
    /// match a blue one (checked without recording or reporting).
    func testAChangedLayerFailsWithADifference() throws {
        let blue = TitleCard.make(title: "Lamina", accent: CGColor(red: 0.2, green: 0.5, blue: 1, alpha: 1))
        let failure = try XCTUnwrap(verifySnapshot(of: blue, as: .image(scale: 2, time: 1.0), named: "settled-2x", record: .never,
                                                   file: #filePath, testName: "testSlidesInThenShowsItsTitle()"))
        XCTAssertTrue(failure.contains("snapshot does not match"), failure)
        XCTAssertTrue(failure.contains("settled-2x.diff.png"), failure)
        // Leave the folder as the repository has it.
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__/TitleCardXCTests")
        for suffix in ["actual.png", "diff.png"] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("testSlidesInThenShowsItsTitle.settled-2x.\(suffix)"))
        }
    }
}
