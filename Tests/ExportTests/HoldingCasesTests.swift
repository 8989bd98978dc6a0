import XCTest
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// Cases that held before the server-safety work and must keep holding, through the real
/// `lamina` (the others: JSON malformations in SceneLoaderTests' corpus, 100,000 layers and
/// deep nesting in SceneLoaderTests, image bombs in PNGCodecTests/JPEGCodecTests, Ctrl-C and a
/// killed ffmpeg in InspectCommandTests/ExportFailureTests, read-only folders in
/// ExportFailureTests and PreflightTests, two exports to one output in EncoderOutputTests).
final class HoldingCasesTests: XCTestCase {
    func assertRefusedQuickly(_ arguments: [String], in folder: URL, mentions needle: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let started = Date()
        let run = try VideoTestSupport.lamina(arguments, in: folder, timeout: 30)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, file: file, line: line)
        XCTAssertEqual(run.status, 1, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(needle), run.stderr, file: file, line: line)
    }

    /// A 500 MB scene file (sparse: no disk used) is refused unread.
    func testA500MBSceneIsRefusedUnread() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("big.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("{".utf8)))
        XCTAssertEqual(truncate(url.path, 500 << 20), 0)
        try assertRefusedQuickly(["render", "big.json", "-o", "out.png"], in: folder,
                                 mentions: "big.json: file is 524288000 bytes, over the 67108864-byte limit")
        try assertRefusedQuickly(["inspect", "big.json", "--budget"], in: folder, mentions: "over the 67108864-byte limit")
    }

    /// 100,000 nested arrays (200 KB) are refused by the reader in well under a second.
    func testHundredThousandDeepNestingIsRefused() throws {
        let folder = try VideoTestSupport.folder(self)
        let deep = "{\"format\": 1, \"size\": [8, 8], \"root\": " + String(repeating: "[", count: 100_000) + "}"
        try Data(deep.utf8).write(to: folder.appendingPathComponent("deep.json"))
        try assertRefusedQuickly(["render", "deep.json", "-o", "out.png"], in: folder, mentions: "nested deeper than 256 layers")
    }

    /// The disk fills during an export (a file-size limit stands in: ffmpeg is stopped by
    /// SIGXFSZ as it writes past it): one line naming the encoder's end, nothing left.
    func testAFullDiskDuringAnExportLeavesNothing() throws {
        let folder = try VideoTestSupport.folder(self)
        try Data("""
        {"format": 1, "size": [64, 48], "fps": 30, "duration": 600, "background": "#101010",
         "root": {"sublayers": [{"bounds": [0, 0, 20, 20], "position": [32, 24], "backgroundColor": "#ff0000",
           "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 6.28, "duration": 2, "repeatCount": 1000}]}]}}
        """.utf8).write(to: folder.appendingPathComponent("long.json"))
        let lamina = try XCTUnwrap(LaminaProcess.executable)
        // dash's `ulimit -f` counts 512-byte blocks: 64 KB.
        let run = try VideoTestSupport.shell("ulimit -f 128; exec '\(lamina.path)' render long.json -o out.mp4 --backend cpu", in: folder)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("lamina: ffmpeg failed (exit status 153): killed by signal 25 (SIGXFSZ, the file size limit)"),
                      run.stderr)
        XCTAssertEqual(VideoTestSupport.leftovers(folder), ["long.json"])
    }
}
