import XCTest
import Foundation
@testable import Benchmarks
import Export
import TestSupport

/// `lamina bench`'s output: its JSON survives identical frames, and its rows carry what the
/// table prints.
final class RenderBenchTests: XCTestCase {
    /// Identical GPU and CPU frames have an infinite PSNR, which JSON cannot hold: it is written
    /// as the string "inf" and read back as infinity (the bench used to fail to encode it).
    func testInfinitePSNREncodesAsAString() throws {
        var row = RenderBench.Row(scene: "same", size: "8x8", peakMemoryMB: 12)
        row.psnr = .infinity
        row.maxDifference = 0
        let data = try JSONEncoder().encode([row])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        XCTAssertEqual(json.first?["psnr"] as? String, "inf")
        let back = try JSONDecoder().decode([RenderBench.Row].self, from: data)
        XCTAssertEqual(back.first?.psnr, .infinity)
        row.psnr = 48.25
        let finite = try JSONDecoder().decode(RenderBench.Row.self, from: try JSONEncoder().encode(row))
        XCTAssertEqual(finite.psnr, 48.25)
        XCTAssertTrue(RenderBench.table([back[0]]).contains(" inf "))
    }

    /// A CPU-only run of one tiny built-in scene: a row per scene and size with the CPU's
    /// figures and none of the GPU's.
    func testACPURunMeasuresEveryStage() throws {
        var options = RenderBench.Options()
        options.sizes = [(64, 36)]
        options.seconds = 0
        options.backends = [.cpu]
        options.only = "content, static"
        let rows = try RenderBench.run(options)
        XCTAssertEqual(rows.map(\.scene), ["content, static"])
        let cpu = try XCTUnwrap(rows.first?.cpu)
        XCTAssertNil(rows.first?.gpu)
        XCTAssertGreaterThan(cpu.framesPerSecond, 0)
        XCTAssertGreaterThan(cpu.compositeMs, 0)
        XCTAssertEqual(cpu.rasterMs, 0, "the static scene rasterizes only in the warm-up frame")
    }
}
