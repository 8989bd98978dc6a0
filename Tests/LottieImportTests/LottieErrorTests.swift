import XCTest
import Foundation
import Layers
@testable import LottieImport
import SceneFormat

/// Bad files: every problem names the file, the JSON path and the reason, and nothing is built.
final class LottieErrorTests: XCTestCase {
    func problems(_ json: String) -> [String] {
        do {
            _ = try LottieImporter.load(bytes: Array(json.utf8), fileName: "bad.json", baseDirectory: nil)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    let head = #""fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100"#

    func testMalformedJSONGivesLineAndColumn() {
        let p = problems("{\n  \"fr\": 30,\n  \"w\": ]\n}")
        XCTAssertEqual(p.count, 1)
        XCTAssertTrue(p[0].hasPrefix("bad.json:3:8: invalid JSON"), p[0])
    }

    func testMissingCompositionKeys() {
        let p = problems(#"{"w": 100, "h": 100, "layers": []}"#)
        XCTAssertTrue(p.contains { $0.hasSuffix("fr: missing required key \"fr\" (is this a Lottie file?)") }, "\(p)")
        XCTAssertTrue(p.contains { $0.contains("ip: missing required key") }, "\(p)")
    }

    func testWrongTypeNamesTheJSONPath() {
        let p = problems("{\(head), \"layers\": [{\"ty\": 4, \"ip\": 0, \"op\": 30, \"ks\": {\"o\": {\"k\": \"opaque\"}}}]}")
        XCTAssertEqual(p.count, 1, "\(p)")
        XCTAssertTrue(p[0].contains("layers[0].ks.o.k: expected a number or an array of numbers, found string"), p[0])
    }

    func testKeyframesOutOfOrder() {
        let p = problems("{\(head), \"layers\": [{\"ty\": 3, \"ip\": 0, \"op\": 30, \"ks\": {\"o\": {\"a\": 1, \"k\": [{\"t\": 10, \"s\": [0]}, {\"t\": 5, \"s\": [100]}]}}}]}")
        XCTAssertEqual(p.count, 1, "\(p)")
        XCTAssertTrue(p[0].contains("layers[0].ks.o.k[1].t: keyframe time 5 is before the previous keyframe's 10"), p[0])
    }

    func testMissingAndRecursivePrecomps() {
        var p = problems("{\(head), \"layers\": [{\"ty\": 0, \"refId\": \"nowhere\", \"ip\": 0, \"op\": 30}]}")
        XCTAssertEqual(p, ["bad.json: layers[0].refId: no precomp asset with id \"nowhere\""])
        p = problems("{\(head), \"assets\": [{\"id\": \"a\", \"layers\": [{\"ty\": 0, \"refId\": \"a\", \"ip\": 0, \"op\": 30}]}], \"layers\": [{\"ty\": 0, \"refId\": \"a\", \"ip\": 0, \"op\": 30}]}")
        XCTAssertEqual(p, ["bad.json: assets[0].layers[0].refId: precomp \"a\" contains itself"])
    }

    func testLimitsAreCheckedBeforeBuilding() {
        // An absurd composition size.
        var p = problems(#"{"fr": 30, "ip": 0, "op": 30, "w": 1e9, "h": 100, "layers": []}"#)
        XCTAssertTrue(p.contains { $0.contains("w: 1000000000 is outside 0…16384") }, "\(p)")
        // More layers than the limit: refused at the first one over, by count.
        let layer = #"{"ty": 3, "ip": 0, "op": 1}"#
        let many = Array(repeating: layer, count: SceneLimits.Lottie.maximumLayers + 1).joined(separator: ",")
        p = problems("{\(head), \"layers\": [\(many)]}")
        XCTAssertEqual(p.count, 1, "\(p.prefix(3))")
        XCTAssertTrue(p[0].contains("layers[\(SceneLimits.Lottie.maximumLayers)]: more than \(SceneLimits.Lottie.maximumLayers) layers in the file"), p[0])
        // Shape groups nested too deep.
        var shapes = #"{"ty": "rc"}"#
        for _ in 0..<(SceneLimits.Lottie.maximumNesting + 1) { shapes = "{\"ty\": \"gr\", \"it\": [\(shapes)]}" }
        p = problems("{\(head), \"layers\": [{\"ty\": 4, \"ip\": 0, \"op\": 30, \"shapes\": [\(shapes)]}]}")
        XCTAssertEqual(p.count, 1, "\(p)")
        XCTAssertTrue(p[0].contains("shape groups nested deeper than \(SceneLimits.Lottie.maximumNesting)"), p[0])
    }

    func testBadEmbeddedImage() {
        let p = problems("{\(head), \"assets\": [{\"id\": \"img\", \"w\": 10, \"h\": 10, \"e\": 1, \"p\": \"data:image/png;base64,AAAA\"}], \"layers\": []}")
        XCTAssertEqual(p.count, 1, "\(p)")
        XCTAssertTrue(p[0].contains("assets[0].p: image \"img\""), p[0])
    }

    func testDamagedArchive() {
        let p = problems("PK\u{3}\u{4}garbage")
        XCTAssertEqual(p, ["bad.json: not a complete zip archive (no end of central directory)"])
    }

    func testFrameCountsAndAssetSizes() {
        // More frames from ip to op than a scene may have.
        var p = problems(#"{"fr": 30, "ip": 0, "op": 1e8, "w": 100, "h": 100, "layers": []}"#)
        XCTAssertTrue(p.contains { $0.contains("op: 100000000 frames, over the") && $0.contains("-frame limit") }, "\(p)")
        // An image asset and a solid claiming absurd sizes.
        p = problems("{\(head), \"assets\": [{\"id\": \"img\", \"w\": 1e7, \"h\": 10, \"e\": 1, \"p\": \"data:image/png;base64,AAAA\"}], \"layers\": []}")
        XCTAssertTrue(p.contains { $0.contains("assets[0].w: 10000000 is outside 0…16384") }, "\(p)")
        p = problems("{\(head), \"layers\": [{\"ty\": 1, \"sc\": \"#ff0000\", \"sw\": 100, \"sh\": -5, \"ip\": 0, \"op\": 30}]}")
        XCTAssertTrue(p.contains { $0.contains("layers[0].sh: -5 is outside 0…16384") }, "\(p)")
    }

    func testPrecompsNestedTooDeep() {
        // Precomp asset i holds one layer using asset i + 1: a chain one deeper than the limit.
        let depth = SceneLimits.Lottie.maximumNesting + 1
        let assets = (0...depth).map { i in
            i == depth ? "{\"id\": \"p\(i)\", \"layers\": [{\"ty\": 3, \"ip\": 0, \"op\": 30}]}"
                : "{\"id\": \"p\(i)\", \"layers\": [{\"ty\": 0, \"refId\": \"p\(i + 1)\", \"ip\": 0, \"op\": 30}]}"
        }.joined(separator: ",")
        let p = problems("{\(head), \"assets\": [\(assets)], \"layers\": [{\"ty\": 0, \"refId\": \"p0\", \"ip\": 0, \"op\": 30}]}")
        XCTAssertEqual(p.count, 1, "\(p)")
        XCTAssertTrue(p[0].hasSuffix("precomps nested deeper than \(SceneLimits.Lottie.maximumNesting)"), p[0])
        XCTAssertTrue(p[0].contains("assets[\(SceneLimits.Lottie.maximumNesting - 1)].layers[0].refId"), p[0])
    }

    func testTooManyVerticesInOnePath() {
        let vertices = Array(repeating: "[0,0]", count: SceneLimits.Lottie.maximumVertices + 1).joined(separator: ",")
        let path = "{\"ty\": \"sh\", \"ks\": {\"a\": 0, \"k\": {\"c\": true, \"v\": [\(vertices)], \"i\": [], \"o\": []}}}"
        let p = problems("{\(head), \"layers\": [{\"ty\": 4, \"ip\": 0, \"op\": 30, \"shapes\": [\(path)]}]}")
        XCTAssertTrue(p.contains { $0.contains("layers[0].shapes[0].ks.k") && $0.contains("\(SceneLimits.Lottie.maximumVertices + 1) vertices, over the") }, "\(p)")
    }

    func testRepeatedShapesAreCountedBeforeBuilding() {
        // 1000 copies of 60 rectangles: over the built-layer limit, refused before any is made.
        let rects = Array(repeating: #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [4, 4]}}"#, count: 60).joined(separator: ",")
        let repeater = #"{"ty": "rp", "c": {"a": 0, "k": 1000}, "o": {"a": 0, "k": 0}, "tr": {"p": {"a": 0, "k": [1, 0]}}}"#
        let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
        var p = problems("{\(head), \"layers\": [{\"ty\": 4, \"ip\": 0, \"op\": 30, \"shapes\": [\(rects), \(fill), \(repeater)]}]}")
        XCTAssertEqual(p, ["bad.json: layers[0].shapes: more than \(SceneLimits.Lottie.maximumBuiltLayers) layers once precomps and repeaters are expanded"])
        // Copies written as a number too large for an integer are clamped (1000), not a trap.
        let huge = #"{"ty": "rp", "c": {"a": 0, "k": 1e300}, "tr": {}}"#
        p = problems("{\(head), \"layers\": [{\"ty\": 4, \"ip\": 0, \"op\": 30, \"shapes\": [\(rects), \(fill), \(huge)]}]}")
        XCTAssertEqual(p.count, 1, "\(p)")
    }

    func testStarPointsAreLimited() {
        let star = #"{"ty": "sr", "sy": 1, "pt": {"a": 0, "k": 1e12}, "p": {"a": 0, "k": [0, 0]}, "or": {"a": 0, "k": 10}, "ir": {"a": 0, "k": 5}}"#
        let p = problems("{\(head), \"layers\": [{\"ty\": 4, \"ip\": 0, \"op\": 30, \"shapes\": [\(star)]}]}")
        XCTAssertEqual(p.count, 1, "\(p)")
        XCTAssertTrue(p[0].contains("layers[0].shapes[0].pt: 1000000000000 points, over the 50000-point limit"), p[0])
    }

    // MARK: .lottie archives: sizes checked from the zip directory, before anything is inflated

    /// A zip archive of `entries` (name, bytes, method, claimed size), built by hand so that the
    /// directory can claim what the data does not hold.
    func zip(_ entries: [(name: String, data: [UInt8], method: UInt16, claimed: Int?)]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        var out: [UInt8] = [], directory: [UInt8] = []
        for e in entries {
            let name = Array(e.name.utf8), offset = out.count, size = e.claimed ?? e.data.count
            let common = u16(20) + u16(0) + u16(Int(e.method)) + u16(0) + u16(0) + u32(0) + u32(e.data.count) + u32(size) + u16(name.count) + u16(0)
            out += u32(0x0403_4B50) + common + name + e.data
            directory += u32(0x0201_4B50) + u16(20) + common + u16(0) + u16(0) + u16(0) + u32(0) + u32(offset) + name
        }
        let directoryOffset = out.count
        out += directory
        out += u32(0x0605_4B50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count) + u32(directory.count) + u32(directoryOffset) + u16(0)
        return out
    }

    func archiveProblems(_ bytes: [UInt8]) -> [String] {
        do {
            _ = try LottieImporter.load(bytes: bytes, fileName: "bad.lottie", baseDirectory: nil)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    func testArchiveStoredEntryImportsAndClaimsAreChecked() {
        let json = Array("{\(head), \"layers\": []}".utf8)
        // A well-formed stored archive imports.
        XCTAssertEqual(archiveProblems(zip([("animations/a.json", json, 0, nil)])), [])
        // A stored entry claiming more than it holds.
        XCTAssertEqual(archiveProblems(zip([("animations/a.json", json, 0, 1 << 20)])),
                       ["bad.lottie: animations/a.json: stored entry claims 1048576 bytes but holds \(json.count)"])
        // A deflated entry claiming more than deflate can make of its bytes (a 10-byte entry
        // asking for a 200 MB buffer).
        XCTAssertEqual(archiveProblems(zip([("animations/a.json", Array(repeating: 0, count: 10), 8, 200 << 20)])),
                       ["bad.lottie: animations/a.json: claims to inflate to 209715200 bytes, more than its 10 compressed bytes can hold"])
    }

    func testArchiveTotalInflatedSizeIsLimited() {
        // Two 160 KB entries, claiming 150 MB each: 300 MB in
        // all, over the limit; refused from the directory (the data is not even valid deflate).
        let chunk = Array(repeating: UInt8(0), count: 160_000)
        let claim = 150 << 20
        let p = archiveProblems(zip([("images/a.png", chunk, 8, claim), ("images/b.png", chunk, 8, claim)]))
        XCTAssertEqual(p, ["bad.lottie: entries inflate to more than \(SceneLimits.Lottie.maximumInflatedBytes) bytes in all (images/b.png reaches \(2 * claim))"])
    }

    func testArchiveWithoutAnimationOrWithTooManyEntries() {
        XCTAssertEqual(archiveProblems(zip([("images/a.png", [1, 2, 3], 0, nil)])), ["bad.lottie: the .lottie archive holds no animation"])
        let many = (0...SceneLimits.Lottie.maximumArchiveEntries).map { (name: "f\($0)", data: [UInt8](), method: UInt16(0), claimed: Int?.none) }
        XCTAssertEqual(archiveProblems(zip(many)),
                       ["bad.lottie: archive has \(SceneLimits.Lottie.maximumArchiveEntries + 1) entries, over the \(SceneLimits.Lottie.maximumArchiveEntries)-entry limit"])
    }
}
