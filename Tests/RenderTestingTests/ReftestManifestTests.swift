import XCTest
import Foundation
import RenderTesting
import TestSupport

/// The manifest parser: the line format of `Reftests/README.md` and its errors.
final class ReftestManifestTests: XCTestCase {
    private let manifest = URL(fileURLWithPath: "/corpus/demo/reftest.list")

    private func parse(_ text: String) -> (entries: [ReftestEntry], errors: [ReftestManifestError]) {
        ReftestManifest.parse(text, manifest: manifest, checkFilesExist: false)
    }

    private func error(_ line: String) -> String? {
        parse(line).errors.first?.description
    }

    func testAFullLine() throws {
        let result = parse("""
            # a comment line

            time(0,0.5,2) fuzzy(3,40) == a.json@1 b.json  # edges round differently
            != c.json golden.png
            """)
        XCTAssertEqual(result.errors.map(\.description), [])
        XCTAssertEqual(result.entries.count, 2)
        let first = try XCTUnwrap(result.entries.first)
        XCTAssertEqual(first.line, 3)
        XCTAssertEqual(first.times, [0, 0.5, 2])
        XCTAssertEqual(first.fuzz, ReftestEntry.Fuzz(maxDifference: 3, maxPixels: 40))
        XCTAssertEqual(first.relation, .equal)
        XCTAssertEqual(first.left, ReftestSide(kind: .scene, url: URL(fileURLWithPath: "/corpus/demo/a.json"), pinnedTime: 1))
        XCTAssertEqual(first.right, ReftestSide(kind: .scene, url: URL(fileURLWithPath: "/corpus/demo/b.json"), pinnedTime: nil))
        XCTAssertEqual(first.reason, "edges round differently")
        let second = result.entries[1]
        XCTAssertEqual(second.relation, .notEqual)
        XCTAssertEqual(second.times, [0])
        XCTAssertNil(second.fuzz)
        XCTAssertEqual(second.right.kind, .golden)
    }

    func testTolerance() {
        let exact = parse("== a.json b.json").entries[0]
        XCTAssertTrue(exact.withinTolerance(maxChannelDifference: 0, differingPixels: 0))
        XCTAssertFalse(exact.withinTolerance(maxChannelDifference: 1, differingPixels: 1))
        let fuzzy = parse("fuzzy(2,10) == a.json b.json # why").entries[0]
        XCTAssertTrue(fuzzy.withinTolerance(maxChannelDifference: 2, differingPixels: 10))
        XCTAssertFalse(fuzzy.withinTolerance(maxChannelDifference: 3, differingPixels: 1))
        XCTAssertFalse(fuzzy.withinTolerance(maxChannelDifference: 1, differingPixels: 11))
    }

    func testErrorsNameTheFileLineAndReason() {
        XCTAssertEqual(error("fuzzy(2,10) == a.json b.json"),
                       "demo/reftest.list:1: a fuzzy entry needs a \"# reason\" comment saying why the frames may differ")
        XCTAssertEqual(parse("== a.json b.json\n\n== a.json").errors.first?.description,
                       "demo/reftest.list:3: expected two files after ==, found 1")
        XCTAssertEqual(error("a.json b.json"), "demo/reftest.list:1: unknown option \"a.json\" (expected time(...), fuzzy(...), == or !=)")
        XCTAssertEqual(error("time(1) time(2) == a.json b.json"), "demo/reftest.list:1: time(...) given twice")
        XCTAssertEqual(error("time() == a.json b.json"), "demo/reftest.list:1: time() needs at least one time")
        XCTAssertEqual(error("time(-1) == a.json b.json"), "demo/reftest.list:1: time \"-1\" is not a number ≥ 0")
        XCTAssertEqual(error("fuzzy(300,1) == a.json b.json # r"), "demo/reftest.list:1: fuzzy MAXDIFF \"300\" is not an integer in 0…255")
        XCTAssertEqual(error("fuzzy(3) == a.json b.json # r"), "demo/reftest.list:1: fuzzy needs two numbers: fuzzy(MAXDIFF,MAXPIXELS)")
        XCTAssertEqual(error("== a.png b.json"), "demo/reftest.list:1: the left side must be a scene (.json), not a.png")
        XCTAssertEqual(error("== a.json b.png@1"), "demo/reftest.list:1: a golden image has no time: \"b.png@1\"")
        XCTAssertEqual(error("== a.json b.txt"), "demo/reftest.list:1: \"b.txt\" is neither a scene (.json) nor a golden image (.png)")
        XCTAssertEqual(error("== a.json@x b.json"), "demo/reftest.list:1: time \"@x\" of a.json is not a number ≥ 0")
        XCTAssertEqual(error("<= a.json b.json"), "demo/reftest.list:1: unknown option \"<=\" (expected time(...), fuzzy(...), == or !=)")
        XCTAssertEqual(error("time(1)"), "demo/reftest.list:1: missing == or !=")
    }

    func testMissingFilesAreErrors() {
        let folder = Repository.root.appendingPathComponent("Tests/ReftestTests/Reftests/basics")
        let result = ReftestManifest.parse("== no-such-scene.json empty.json", manifest: folder.appendingPathComponent("reftest.list"))
        XCTAssertEqual(result.errors.map(\.description), ["basics/reftest.list:1: no file no-such-scene.json next to the manifest"])
    }
}
