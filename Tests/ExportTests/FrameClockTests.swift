import XCTest
import Lamina
import TestSupport

/// `FrameClock`: the one place frames become times, with one rounding rule.
final class FrameClockTests: XCTestCase {
    func testFrameTimesAndBack() {
        let clock = FrameClock(framesPerSecond: 30)
        XCTAssertEqual(clock.time(ofFrame: 0), 0)
        XCTAssertEqual(clock.time(ofFrame: 45), 1.5)
        XCTAssertEqual(clock.frameDuration, 1.0 / 30)
        // Every frame's time maps back to that frame, though n / 30 is not exact in binary.
        for n in 0..<10_000 { XCTAssertEqual(clock.frame(at: clock.time(ofFrame: n)), n) }
        // A time inside a frame falls in it; just before the next frame is still this one.
        XCTAssertEqual(clock.frame(at: 1.0 / 30 * 2.5), 2)
        XCTAssertEqual(clock.frame(at: 1.0 / 30 * 3 - 1e-6), 2)
        let ntsc = FrameClock(framesPerSecond: 30000.0 / 1001)
        for n in stride(from: 0, to: 100_000, by: 7) { XCTAssertEqual(ntsc.frame(at: ntsc.time(ofFrame: n)), n) }
    }

    func testDurationsRoundToTheNearestFrameCountAtLeastOne() {
        let clock = FrameClock(framesPerSecond: 30)
        XCTAssertEqual(clock.frameCount(forDuration: 10), 300)
        XCTAssertEqual(clock.frames(forDuration: 10), 0...299)
        XCTAssertEqual(clock.frameCount(forDuration: 0.51), 15)   // 15.3 rounds down
        XCTAssertEqual(clock.frameCount(forDuration: 0.52), 16)   // 15.6 rounds up
        XCTAssertEqual(clock.frameCount(forDuration: 0), 1)
        XCTAssertEqual(clock.frameCount(forDuration: -3), 1)
        XCTAssertEqual(FrameClock(framesPerSecond: 24).frameCount(forDuration: 7), 168)
        // Absurd inputs are clamped instead of trapping.
        XCTAssertGreaterThan(FrameClock(framesPerSecond: 1e9).frameCount(forDuration: 1e12), 0)
    }

    func testTimeSpanOfARange() {
        let span = FrameClock(framesPerSecond: 30).timeSpan(of: 60...119)
        XCTAssertEqual(span.start, 2)
        XCTAssertEqual(span.end, 4)
    }

    /// Time enters in one place: no source file other than FrameClock.swift multiplies or divides
    /// by a frame rate (comments aside).
    func testOnlyFrameClockTurnsFramesIntoTimes() throws {
        // A frame rate of the render (bare, or of the options, scene, settings or input), not a
        // measured speed (`summary.framesPerSecond`, a benchmark row's).
        let receiver = #"(?:(?:o|options|scene|settings|self|info)\.)"#
        let pattern = try NSRegularExpression(pattern: #"[/*]\s*\(?\s*"# + receiver + #"?(?:fps|framesPerSecond)\b|(?:^|[^\w$.]|"#
                                              + receiver + #")(?:fps|framesPerSecond)\s*\)?\s*[*/]"#)
        func matches(_ line: String) -> Bool { pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }
        // The check itself: it sees the arithmetic it is for, and not measured speeds.
        for line in ["let t = Double(index) / o.framesPerSecond", "let n = Int(duration * fps)", "(fps * 2).rounded()",
                     "Double(i) / framesPerSecond", "scene.framesPerSecond * seconds"] {
            XCTAssertTrue(matches(line), line)
        }
        for line in ["summary.framesPerSecond / min(a, b)", "$0.framesPerSecond / g.framesPerSecond", "let fps = 30.0"] {
            XCTAssertFalse(matches(line), line)
        }
        var offenders: [String] = []
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: Repository.sources.path))
        for case let path as String in files where path.hasSuffix(".swift") && !path.hasSuffix("Export/FrameClock.swift") {
            let text = try String(contentsOf: Repository.sources.appendingPathComponent(path), encoding: .utf8)
            var inText = false
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                // Multi-line string literals (usage texts) are prose.
                if code.components(separatedBy: "\"\"\"").count % 2 == 0 { inText.toggle(); continue }
                if inText || code.hasPrefix("//") { continue }
                let range = NSRange(code.startIndex..., in: code)
                if pattern.firstMatch(in: code, range: range) != nil { offenders.append("\(path):\(n + 1): \(code)") }
            }
        }
        XCTAssertEqual(offenders, [], "frame ↔ time arithmetic outside FrameClock")
    }
}
