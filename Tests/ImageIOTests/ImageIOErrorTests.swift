import XCTest
@testable import ImageIO

final class ImageIOErrorTests: XCTestCase {
    func testDescriptionsNameTheFileAndTheReason() {
        let cases: [(ImageIOError, String)] = [
            (.unreadable(path: "a.png", reason: "Permission denied"), "a.png: cannot read: Permission denied"),
            (.notAnImage(path: "a.txt"), "a.txt: not an image (neither PNG nor JPEG)"),
            (.corrupt(path: "a.png", format: "PNG", reason: "IDAT: CRC error"), "a.png: corrupt PNG: IDAT: CRC error"),
            (.tooLarge(path: "a.png", width: 20000, height: 10, limit: 16384),
             "a.png: image too large: 20000×10 pixels (at most 16384 per side)"),
            (.cannotEncode(path: "a.png", reason: "x"), "a.png: cannot encode: x"),
            (.cannotWriteFolder(path: "out/a.png", folder: "out", reason: "No such file or directory"),
             "out/a.png: cannot write into folder out: No such file or directory"),
            (.cannotWrite(path: "a.png", reason: "No space left on device"), "a.png: cannot write: No space left on device"),
            (.exists(path: "a.png"), "a.png: already exists (overwriting not allowed)"),
        ]
        for (error, text) in cases {
            XCTAssertEqual(error.description, text)
            XCTAssertEqual(error.withPath("b.png").path, "b.png")
            XCTAssertEqual(error.withPath("b.png").withPath(error.path), error)
        }
    }
}
