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

    /// The goals' ratios come from the same run's rows: rounded cards against the plain cards of
    /// the same size and count, GPU against the floor, evaluation time per animation; rows
    /// without the figures get none, and the ratios survive JSON.
    func testRatiosComeFromTheSameRunsRows() throws {
        func measurement(_ fps: Double, evaluateMs: Double = 0) -> RenderBench.Measurement {
            RenderBench.Measurement(backend: "x", framesPerSecond: fps, evaluateMs: evaluateMs, planMs: 0, rasterMs: 0,
                                    compositeMs: 0, readbackMs: 0)
        }
        var plain = RenderBench.Row(scene: "100 plain cards", size: "64x36", peakMemoryMB: 1)
        plain.gpu = measurement(100); plain.cpu = measurement(200)
        var rounded = RenderBench.Row(scene: "100 rounded + borders", size: "64x36", peakMemoryMB: 1)
        rounded.gpu = measurement(80); rounded.cpu = measurement(100)
        var otherSize = rounded
        otherSize.size = "128x72"
        var textured = RenderBench.Row(scene: "10 textured, opaque", size: "64x36", peakMemoryMB: 1)
        textured.gpu = measurement(40, evaluateMs: 2); textured.floorFramesPerSecond = 50
        let rows = RenderBench.withRatios([plain, rounded, otherSize, textured], animations: ["10 textured, opaque": 1000])
        XCTAssertNil(rows[0].ratios)
        XCTAssertEqual(try XCTUnwrap(rows[1].ratios?.gpuTimeVersusPlainCards), 1.25, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(rows[1].ratios?.cpuTimeVersusPlainCards), 2, accuracy: 1e-12)
        XCTAssertNil(rows[2].ratios, "no plain cards at that size in this run")
        XCTAssertEqual(try XCTUnwrap(rows[3].ratios?.gpuVersusFloor), 0.8, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(rows[3].ratios?.evaluateNanosecondsPerAnimation), 2000, accuracy: 1e-9)
        let back = try JSONDecoder().decode([RenderBench.Row].self, from: try JSONEncoder().encode(rows))
        XCTAssertEqual(back.map(\.ratios), rows.map(\.ratios))
        XCTAssertTrue(RenderBench.table(rows).contains("gpu 1.25× plain cards' time"))
    }

    /// A CPU-only run of one tiny built-in scene: a row per scene and size with the CPU's
    /// figures and none of the GPU's.
    func testACPURunMeasuresEveryStage() throws {
        let rows = try RenderBench.run(.tiny(only: "content, static", on: .cpu))
        XCTAssertEqual(rows.map(\.scene), ["content, static"])
        let cpu = try XCTUnwrap(rows.first?.cpu)
        XCTAssertNil(rows.first?.gpu)
        XCTAssertGreaterThan(cpu.framesPerSecond, 0)
        XCTAssertGreaterThan(cpu.compositeMs, 0)
        XCTAssertEqual(cpu.rasterMs, 0, "the static scene rasterizes only in the warm-up frame")
    }

    /// Rounded cards and the plain cards they are compared with are timed with their runs of
    /// frames alternating on each backend, so host drift falls on both alike; other scenes alone.
    func testRoundedCardsAreTimedInterleavedWithPlainCards() throws {
        let rows = try RenderBench.run(.tiny(only: "100 ", on: .cpu))
        let expected = BenchScenes.all(width: 64, height: 36).map(\.name).filter { $0.contains("100 ") }
        XCTAssertEqual(rows.map(\.scene), expected)
        let plain = try XCTUnwrap(rows.first { $0.scene == "100 plain cards" })
        let rounded = try XCTUnwrap(rows.first { $0.scene == "100 rounded + borders" })
        XCTAssertEqual(plain.cpu?.interleavedWith, ["100 rounded + borders"])
        XCTAssertEqual(rounded.cpu?.interleavedWith, ["100 plain cards"])
        XCTAssertGreaterThan(try XCTUnwrap(rounded.cpu?.framesPerSecond), 0)
        XCTAssertNotNil(rounded.ratios?.cpuTimeVersusPlainCards)
        XCTAssertNil(rows.first { $0.scene == "100 textured, opaque" }?.cpu?.interleavedWith)
        XCTAssertTrue(RenderBench.table(rows).contains("goal ≤ 1.30×, interleaved"))

        // A rounded scene listed before its plain twin joins it (measured once, at its place).
        let scenes = BenchScenes.all(width: 64, height: 36)
        let named = { (name: String) in scenes.first { $0.name == name }! }
        let groups = RenderBench.comparisonGroups([named("100 rounded + borders"), named("10 textured, opaque"),
                                                   named("100 plain cards")])
        XCTAssertEqual(groups.map { $0.map(\.name) },
                       [["10 textured, opaque"], ["100 plain cards", "100 rounded + borders"]])
    }

    /// On the GL backend a textured scene's floor is timed in runs alternating with the scene's
    /// (the measurement names it), and the row's floor figure comes from those runs.
    func testTheFloorIsTimedInterleavedWithItsScene() throws {
        _ = try TestBackends.gpu()
        let rows = try RenderBench.run(.tiny(only: "10 textured, opaque", on: .gpu))
        let row = try XCTUnwrap(rows.first)
        XCTAssertEqual(row.gpu?.interleavedWith, [RenderBench.floorName])
        XCTAssertGreaterThan(try XCTUnwrap(row.floorFramesPerSecond), 0)
        XCTAssertNotNil(row.ratios?.gpuVersusFloor)
        XCTAssertTrue(RenderBench.table(rows).contains("the floor (goal ≥ 0.80×, interleaved)"))
    }

    /// A run lasts about `runSeconds` once the speed is known: 32 frames at first and at most,
    /// one at least.
    func testRunsLastAboutAFifthOfASecond() {
        XCTAssertEqual(RenderBench.runLength(frames: 0, elapsed: 0), 32)
        XCTAssertEqual(RenderBench.runLength(frames: 32, elapsed: 0.01), 32, "fast: capped")
        XCTAssertEqual(RenderBench.runLength(frames: 32, elapsed: 6.4), 1, "5 frames/s: one a run")
        XCTAssertEqual(RenderBench.runLength(frames: 30, elapsed: 1), 6, "30 frames/s: 6 a run")
    }
}

extension RenderBench.Options {
    /// One backend, the built-in scenes whose name contains `only`, at 64×36 for 5 frames each.
    static func tiny(only: String, on backend: BackendKind) -> Self {
        var options = Self()
        options.sizes = [(64, 36)]
        options.seconds = 0
        options.backends = [backend]
        options.only = only
        return options
    }
}
