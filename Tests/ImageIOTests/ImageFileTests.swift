import Foundation
import XCTest
import Rendering
@testable import ImageIO

final class ImageFileTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws { folder = try TemporaryFolder() }
    override func tearDown() { folder.remove() }

    // MARK: Reading

    func testReadsPNGAndJPEGBySignatureNotName() throws {
        let png = folder.file("really-a-png.jpg")
        try Data(Fixtures.bytes("gray8-3x2.png")).write(to: png)
        XCTAssertEqual(try ImageFile.read(contentsOf: png).width, 3)

        let jpeg = folder.file("no-extension")
        try Data(Fixtures.bytes("quadrants444-16x16.jpg")).write(to: jpeg)
        XCTAssertEqual(try ImageFile.read(contentsOf: jpeg).width, 16)

        XCTAssertEqual(try ImageFile.read(contentsOf: Fixtures.url("palette2-4x1.png")).width, 4)
    }

    func testCorruptFilesGiveErrorsNamingTheFile() throws {
        let pngBytes = try Fixtures.bytes("rgba16-2x2.png")
        let jpegBytes = try Fixtures.bytes("quadrants444-16x16.jpg")
        let cases: [(String, [UInt8], String)] = [
            ("truncated.png", Array(pngBytes.prefix(pngBytes.count - 30)), "PNG"),
            ("truncated.jpg", Array(jpegBytes.prefix(jpegBytes.count / 2)), "JPEG"),
        ]
        for (name, bytes, format) in cases {
            let url = folder.file(name)
            try Data(bytes).write(to: url)
            let error = assertThrowsImageIOError { () throws(ImageIOError) in try ImageFile.read(contentsOf: url) }
            guard case .corrupt(let path, let actualFormat, _) = error else { XCTFail("\(name): got \(String(describing: error))"); continue }
            XCTAssertEqual(path, url.path)
            XCTAssertEqual(actualFormat, format)
            XCTAssertTrue(error!.description.hasPrefix(url.path + ": corrupt \(format): "), error!.description)
        }
    }

    func testTooLargeFileNamesTheFile() throws {
        let url = folder.file("huge.png")
        try Data(PNGBytes.header(width: 20000, height: 10)).write(to: url)
        XCTAssertEqual(assertThrowsImageIOError { () throws(ImageIOError) in try ImageFile.read(contentsOf: url) },
                       .tooLarge(path: url.path, width: 20000, height: 10, limit: 16384))
    }

    func testNotAnImageAndUnreadable() throws {
        let text = folder.file("notes.png")
        try Data("just text".utf8).write(to: text)
        XCTAssertEqual(assertThrowsImageIOError { () throws(ImageIOError) in try ImageFile.read(contentsOf: text) },
                       .notAnImage(path: text.path))

        let empty = folder.file("empty.png")
        try Data().write(to: empty)
        XCTAssertEqual(assertThrowsImageIOError { () throws(ImageIOError) in try ImageFile.read(contentsOf: empty) },
                       .notAnImage(path: empty.path))

        let missing = folder.file("missing.png")
        let error = assertThrowsImageIOError { () throws(ImageIOError) in try ImageFile.read(contentsOf: missing) }
        guard case .unreadable(missing.path, let reason) = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(reason, "no such file")

        guard case .unreadable(folder.url.path, _) = assertThrowsImageIOError({ () throws(ImageIOError) in
            try ImageFile.read(contentsOf: folder.url)
        }) else { return XCTFail("a folder must be unreadable") }
    }

    // MARK: Atomic writing

    func testWriteSucceedsAndLeavesNoTemporaryFiles() throws {
        let image = TestImages.premultiplied(width: 30, height: 20, seed: 6, alphas: [0, 255])
        let url = folder.file("frame.png")
        try ImageFile.writePNG(image, to: url, overwrite: false)
        XCTAssertEqual(try folder.contents(), ["frame.png"])
        XCTAssertEqual(try ImageFile.read(contentsOf: url), image)
    }

    func testWriteIntoMissingFolderFailsAndLeavesNothing() throws {
        let missingFolder = folder.url.appendingPathComponent("missing")
        let url = missingFolder.appendingPathComponent("frame.png")
        let image = TestImages.opaque(width: 4, height: 4, seed: 7)
        let error = assertThrowsImageIOError { () throws(ImageIOError) in try ImageFile.writePNG(image, to: url, overwrite: true) }
        guard case .cannotWriteFolder(url.path, missingFolder.path, let reason) = error else {
            return XCTFail("got \(String(describing: error))")
        }
        XCTAssertEqual(reason, "No such file or directory")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missingFolder.path))
        XCTAssertEqual(try folder.contents(), [])
        XCTAssertTrue(error!.description.contains(url.path))
    }

    func testExistingFileWithoutOverwriteFailsAndKeepsOldBytes() throws {
        let url = folder.file("frame.png")
        let old = Data("old contents".utf8)
        try old.write(to: url)
        let image = TestImages.opaque(width: 4, height: 4, seed: 8)
        XCTAssertEqual(assertThrowsImageIOError { () throws(ImageIOError) in try ImageFile.writePNG(image, to: url, overwrite: false) },
                       .exists(path: url.path))
        XCTAssertEqual(try Data(contentsOf: url), old)
        XCTAssertEqual(try folder.contents(), ["frame.png"])
    }

    func testOverwriteReplacesTheFile() throws {
        let url = folder.file("frame.png")
        try Data("old contents".utf8).write(to: url)
        let image = TestImages.opaque(width: 6, height: 5, seed: 9)
        try ImageFile.writePNG(image, to: url, overwrite: true)
        XCTAssertEqual(try ImageFile.read(contentsOf: url), image)
        XCTAssertEqual(try folder.contents(), ["frame.png"])
    }

    func testFailedRenameRemovesTheTemporaryFile() throws {
        // The final name is a non-empty folder: the temporary file is written and synced, then
        // the rename fails; the temporary file must be gone and the folder untouched.
        let url = folder.file("frame.png")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: url.appendingPathComponent("inside"))
        let image = TestImages.opaque(width: 4, height: 4, seed: 10)
        let error = assertThrowsImageIOError { () throws(ImageIOError) in try ImageFile.writePNG(image, to: url, overwrite: true) }
        guard case .cannotWrite(url.path, _) = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertEqual(try folder.contents(), ["frame.png"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url.path), ["inside"])
    }

    func testRelativePathWritesIntoTheCurrentFolder() throws {
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.url.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let image = TestImages.opaque(width: 3, height: 3, seed: 11)
        try ImageFile.writeAtomically(PNGCodec.encode(image), to: "relative.png", overwrite: false)
        XCTAssertEqual(try folder.contents(), ["relative.png"])
    }
}
