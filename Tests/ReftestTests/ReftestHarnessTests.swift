import XCTest
import Foundation
import Lamina
import RenderTesting
import TestSupport

/// The harness's own checks, with stand-in backends: the GPU ≈ CPU comparison, a backend that
/// returns no frame, and the files a failure leaves.
final class ReftestHarnessTests: XCTestCase {
    /// Draws with another backend, then changes the frame as told (the "CPU" side of these tests).
    private final class AlteredBackend: RenderBackend {
        let name = "cpu"
        let base: any RenderBackend
        let alter: (inout Image) -> Bool
        init(_ base: any RenderBackend, alter: @escaping (inout Image) -> Bool) {
            self.base = base
            self.alter = alter
        }
        func render(_ plan: RenderPlan, images: ImageProvider, stopwatch: Stopwatch?) -> Image? {
            guard var image = base.render(plan, images: images, stopwatch: stopwatch), alter(&image) else { return nil }
            return image
        }
    }

    private let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-reftests-selftest")

    private func gpu() throws -> any RenderBackend { try TestBackends.gpu() }

    private func entry(_ line: String) throws -> ReftestEntry {
        let manifest = ReftestTests.corpus.appendingPathComponent("basics").appendingPathComponent("reftest.list")
        return try XCTUnwrap(ReftestManifest.parseLine(line, manifest: manifest, line: 1, checkFilesExist: true))
    }

    func testIdenticalBackendsPassAndCountAsIdentical() throws {
        let gpu = try gpu()
        var run = ReftestRunner(artifacts: artifacts, backends: [(.gpu, gpu), (.cpu, AlteredBackend(gpu) { _ in true })])
        XCTAssertEqual(run.check(try entry("== frame.json bounds-position.json")), [])
        XCTAssertEqual(run.identicalCrossBackendFrames, 1)
        XCTAssertEqual(run.crossBackendPSNRs, [])
        XCTAssertEqual(run.renders[.gpu], 2)
        XCTAssertEqual(run.renders[.cpu], 2)
    }

    func testSmallDifferencesBetweenBackendsAreAllowed() throws {
        let gpu = try gpu()
        // One channel off by 1 everywhere: PSNR ≈ 54 dB, every pixel within 2/255.
        let nudged = AlteredBackend(gpu) { image in
            for i in stride(from: 0, to: image.pixels.count, by: 4) { image.pixels[i + 1] ^= 1 }
            return true
        }
        var run = ReftestRunner(artifacts: artifacts, backends: [(.gpu, gpu), (.cpu, nudged)])
        XCTAssertEqual(run.check(try entry("== frame.json bounds-position.json")), [])
        XCTAssertEqual(run.crossBackendPSNRs.count, 1)
        XCTAssertGreaterThan(run.crossBackendPSNRs.first ?? 0, 40)
    }

    func testBackendsThatDisagreeFailWithFiles() throws {
        let gpu = try gpu()
        // A 16×16 block inverted: 6 % of the pixels far off.
        let broken = AlteredBackend(gpu) { image in
            for y in 0..<16 {
                for x in 0..<16 {
                    let i = (y * image.width + x) * 4
                    for k in 0..<3 { image.pixels[i + k] = 255 - image.pixels[i + k] }
                    image.pixels[i + 3] = 255
                }
            }
            return true
        }
        var run = ReftestRunner(artifacts: artifacts, backends: [(.gpu, gpu), (.cpu, broken)])
        let failures = run.check(try entry("== frame.json bounds-position.json"))
        XCTAssertEqual(failures.count, 1, "both sides are altered alike, so only the GPU/CPU check fails: \(failures)")
        let failure = try XCTUnwrap(failures.first)
        XCTAssertTrue(failure.hasPrefix("frame.json at t=0: GPU and CPU frames disagree"), failure)
        for name in ["gpu", "cpu", "diff"] {
            let file = artifacts.appendingPathComponent("line1-frame-t0.\(name).png")
            XCTAssertTrue(failure.contains(file.path), "names \(file.lastPathComponent): \(failure)")
            XCTAssertNoThrow(try ImageFile.read(contentsOf: file))
        }
    }

    func testANilFrameIsAFailureThatSaysSo() throws {
        let gpu = try gpu()
        var run = ReftestRunner(artifacts: artifacts, backends: [(.gpu, gpu), (.cpu, AlteredBackend(gpu) { _ in false })])
        XCTAssertEqual(run.check(try entry("== frame.json bounds-position.json")),
                       ["frame.json at t=0 on cpu: the cpu backend returned no frame"])
    }

    func testMismatchesWriteActualExpectedAndDifference() throws {
        let gpu = try gpu()
        var run = ReftestRunner(artifacts: artifacts, backends: [(.gpu, gpu)])
        let failures = run.check(try entry("time(0,1) == red-square.json empty.json"))
        XCTAssertEqual(failures.count, 2, "one per time")
        let failure = try XCTUnwrap(failures.first)
        XCTAssertTrue(failure.hasPrefix("red-square.json at t=0 on gpu does not match empty.json (exact): 1024 pixels differ"), failure)
        for name in ["actual", "expected", "diff"] {
            let file = artifacts.appendingPathComponent("line1-red-square-t0-gpu.\(name).png")
            XCTAssertTrue(failure.contains(file.path), "names \(file.lastPathComponent): \(failure)")
            XCTAssertNoThrow(try ImageFile.read(contentsOf: file))
        }
        XCTAssertEqual(run.check(try entry("!= red-square.json red-square.json")).count, 1, "!= of equal frames fails")
        XCTAssertEqual(run.check(try entry("fuzzy(255,1024) == red-square.json empty.json # everything may differ")), [])
        XCTAssertEqual(run.check(try entry("fuzzy(255,1023) == red-square.json empty.json # one pixel too few")).count, 1)
    }
}
