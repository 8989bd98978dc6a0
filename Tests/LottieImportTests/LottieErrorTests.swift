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
}
