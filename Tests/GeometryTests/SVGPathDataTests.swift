import Foundation
import XCTest
@testable import Geometry

final class SVGPathDataTests: XCTestCase {
    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> CGPath {
        do {
            return try CGPath(svgPathData: text)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return CGMutablePath()
        }
    }

    func testAbsoluteCommands() {
        let path = parse("M 10 20 L 30 40 H 50 V 60 C 1 2 3 4 5 6 S 7 8 9 10 Q 11 12 13 14 T 20 30 Z")
        XCTAssertEqual(path.elements, [
            .move(to: pt(10, 20)), .line(to: pt(30, 40)), .line(to: pt(50, 40)), .line(to: pt(50, 60)),
            .curve(to: pt(5, 6), control1: pt(1, 2), control2: pt(3, 4)),
            .curve(to: pt(9, 10), control1: pt(7, 8), control2: pt(7, 8)),  // reflected (3,4) about (5,6)
            .quadCurve(to: pt(13, 14), control: pt(11, 12)),
            .quadCurve(to: pt(20, 30), control: pt(15, 16)),  // reflected (11,12) about (13,14)
            .closeSubpath,
        ])
    }

    func testRelativeCommands() {
        let path = parse("m 10 20 l 5 5 h 10 v -5 c 1 1 2 2 3 3 s 4 4 5 5 q 1 0 2 2 t 2 0 z l 1 1")
        XCTAssertEqual(path.elements, [
            .move(to: pt(10, 20)), .line(to: pt(15, 25)), .line(to: pt(25, 25)), .line(to: pt(25, 20)),
            .curve(to: pt(28, 23), control1: pt(26, 21), control2: pt(27, 22)),
            .curve(to: pt(33, 28), control1: pt(29, 24), control2: pt(32, 27)),
            .quadCurve(to: pt(35, 30), control: pt(34, 28)),
            .quadCurve(to: pt(37, 30), control: pt(36, 32)),
            .closeSubpath,
            .move(to: pt(10, 20)), .line(to: pt(11, 21)),  // after z, drawing restarts at the subpath start
        ])
    }

    func testSmoothCommandsWithoutMatchingPredecessor() {
        XCTAssertEqual(parse("M0 0 S 10 10 20 0").elements,
                       [.move(to: .zero), .curve(to: pt(20, 0), control1: .zero, control2: pt(10, 10))])
        XCTAssertEqual(parse("M0 0 T 10 0").elements, [.move(to: .zero), .quadCurve(to: pt(10, 0), control: .zero)])
        XCTAssertEqual(parse("M0 0 Q 5 5 10 0 S 15 5 20 0").elements.last,
                       .curve(to: pt(20, 0), control1: pt(10, 0), control2: pt(15, 5)))
        XCTAssertEqual(parse("M0 0 C 1 1 2 2 3 3 T 5 5").elements.last, .quadCurve(to: pt(5, 5), control: pt(3, 3)))
    }

    func testNumberSyntaxAndImplicitRepeats() {
        let cases: [(String, [PathElement])] = [
            ("M-1.5e-3,10-5.5.5", [.move(to: pt(-0.0015, 10)), .line(to: pt(-5.5, 0.5))]),
            ("M.5.5", [.move(to: pt(0.5, 0.5))]),
            ("M1E2 +3", [.move(to: pt(100, 3))]),
            ("M 1. 2.", [.move(to: pt(1, 2))]),
            ("M 0 0 10 10 20 0", [.move(to: .zero), .line(to: pt(10, 10)), .line(to: pt(20, 0))]),
            ("m 1 1 2 2 3 3", [.move(to: pt(1, 1)), .line(to: pt(3, 3)), .line(to: pt(6, 6))]),
            ("M0 0H1 2 3", [.move(to: .zero), .line(to: pt(1, 0)), .line(to: pt(2, 0)), .line(to: pt(3, 0))]),
            ("M 0,0 L 1,1, 2,2", [.move(to: .zero), .line(to: pt(1, 1)), .line(to: pt(2, 2))]),
            ("\t\nM0\r\n0\u{0C}z Z ", [.move(to: .zero), .closeSubpath]),
            ("M0 0 C 1 1 2 2 3 3 4 4 5 5 6 6", [
                .move(to: .zero), .curve(to: pt(3, 3), control1: pt(1, 1), control2: pt(2, 2)),
                .curve(to: pt(6, 6), control1: pt(4, 4), control2: pt(5, 5)),
            ]),
            ("M1 1 m 1 1 m 1 1", [.move(to: pt(1, 1)), .move(to: pt(2, 2)), .move(to: pt(3, 3))]),
            ("", []),
            ("   ", []),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(parse(text).elements, expected, text)
        }
        XCTAssertEqual(try CGPath.parsing(svgPathData: "M 0 0 L 10 0 Z").description, "M 0 0 L 10 0 Z")
        XCTAssertEqual(try CGMutablePath(svgPathData: "M 1 2").elements, [.move(to: pt(1, 2))])
    }

    /// Checks an arc path ends where expected and every sampled point is on the ellipse.
    private func checkCircle(
        _ text: String, center: CGPoint, radius: CGFloat, end: CGPoint, midpoint: CGPoint, length: CGFloat,
        line: UInt = #line
    ) {
        let path = parse(text, line: line)
        assertPoint(path.currentPoint, end, accuracy: 1e-12, text, line: line)
        for segment in path.segments {
            for t in stride(from: 0.0, through: 1.0, by: 0.125) {
                let p = segment.point(at: t)
                XCTAssertEqual(hypot(p.x - center.x, p.y - center.y), radius, accuracy: 1e-3 * radius, text, line: line)
            }
        }
        let measure = PathMeasure(path)
        XCTAssertEqual(measure.length, length, accuracy: length * 3e-4, text, line: line)
        assertPoint(measure.point(atDistance: measure.length / 2), midpoint, accuracy: 1e-3 * radius, text, line: line)
    }

    func testArcs() {
        let half = CGFloat.pi * 50
        // sweep-flag 1 runs toward increasing angles (clockwise on a y-down screen).
        checkCircle("M 0 0 A 50 50 0 0 1 100 0", center: pt(50, 0), radius: 50, end: pt(100, 0),
                    midpoint: pt(50, -50), length: half)
        checkCircle("M 0 0 A 50 50 0 0 0 100 0", center: pt(50, 0), radius: 50, end: pt(100, 0),
                    midpoint: pt(50, 50), length: half)
        checkCircle("M 0 0 A 1 1 0 0 1 100 0", center: pt(50, 0), radius: 50, end: pt(100, 0),
                    midpoint: pt(50, -50), length: half)  // radii scaled up (F.6.6)
        checkCircle("M 0 0 a 50 50 0 0 1 50 50", center: pt(0, 50), radius: 50, end: pt(50, 50),
                    midpoint: pt(50 * sin(CGFloat.pi / 4), 50 - 50 * cos(CGFloat.pi / 4)), length: half / 2)
        checkCircle("M 0 0 A 50 50 0 1 0 50 50", center: pt(0, 50), radius: 50, end: pt(50, 50),
                    midpoint: pt(-50 * sin(CGFloat.pi / 4), 50 + 50 * cos(CGFloat.pi / 4)), length: half * 1.5)
        checkCircle("M10 10a1 1 0 00 1 1", center: pt(11, 10), radius: 1, end: pt(11, 11),
                    midpoint: pt(11 - cos(CGFloat.pi / 4), 10 + sin(CGFloat.pi / 4)), length: .pi / 2)
        checkCircle("M0 0a1 1 0 111 1", center: pt(1, 0), radius: 1, end: pt(1, 1),
                    midpoint: pt(1 + cos(CGFloat.pi / 4), -sin(CGFloat.pi / 4)), length: 1.5 * .pi)
        checkCircle("M 0 0 A -50 -50 0 0 1 100 0", center: pt(50, 0), radius: 50, end: pt(100, 0),
                    midpoint: pt(50, -50), length: half)  // negative radii use their magnitude
        // A rotated ellipse: rx = 100 along y after 90°, ry = 50 along x.
        let rotated = PathMeasure(parse("M 0 0 A 100 50 90 0 1 0 200"))
        assertPoint(rotated.point(atDistance: rotated.length / 2), pt(50, 100), accuracy: 0.05)
        XCTAssertEqual(parse("M 0 0 A 0 5 0 0 1 10 0").elements, [.move(to: .zero), .line(to: pt(10, 0))])
        XCTAssertEqual(parse("M 5 5 A 10 10 0 0 1 5 5").elements, [.move(to: pt(5, 5))])
        // Radii so large the arc is a straight line: no overflow, no giant detour.
        XCTAssertEqual(parse("M 0 0 A 1e300 1e300 0 0 1 10 0").elements, [.move(to: .zero), .line(to: pt(10, 0))])
        let flat = parse("M 0 0 A 1e150 1e150 0 0 1 10 0")
        assertRect(flat.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 0), accuracy: 1e-6)
    }

    func testMalformedInputReportsOffsetAndReason() {
        let cases: [(String, String)] = [
            ("L 10 10", "path data must start with a moveto ('M' or 'm'), found 'L' at offset 0"),
            ("  10 10", "path data must start with a moveto ('M' or 'm'), found '1' at offset 2"),
            ("M 10", "expected a number after 'M' at offset 4"),
            ("M 0 0 L", "expected a number after 'L' at offset 7"),
            ("M 0 0 X 5", "unexpected character 'X' at offset 6"),
            ("M 0 0 L 1e 5", "expected digits in the exponent of a number at offset 10"),
            ("M 1e+ 2", "expected digits in the exponent of a number at offset 5"),
            ("M 0 0 L 1e999 0", "number '1e999' is out of range at offset 8"),
            ("M 0 0 A 10 10 0 2 0 5 5", "expected a flag (0 or 1) after 'A' at offset 16"),
            ("M 0 0 A 10 10 0 1", "expected a flag (0 or 1) after 'A' at offset 17"),
            ("M 0 0 A 5 5 0 0 1 10", "expected a number after 'A' at offset 20"),
            ("M 0 0 Z 5 5", "unexpected number after 'Z', which takes no arguments at offset 8"),
            ("M,0 0", "expected a number after 'M' at offset 1"),
            ("M 0 0 L 1 1,", "expected a number after 'L' at offset 12"),
            ("M 0 0 L 1 1,L 2 2", "expected a number after 'L' at offset 12"),
            ("M 0 0 L 1 1 2", "expected a number after 'L' at offset 13"),
            ("M 1 2 3", "expected a number after 'L' at offset 7"),  // implicit lineto
            ("M 0 0 L . 5", "expected a number after 'L' at offset 8"),
            ("M 0 0 L - 5", "expected a number after 'L' at offset 8"),
            ("M 0 0 L 1-", "expected a number after 'L' at offset 9"),
            ("M 0 0 C 1 2 3 4 5", "expected a number after 'C' at offset 17"),
            ("M 0 0 q 1 1 2", "expected a number after 'q' at offset 13"),
            ("M 0 0 H", "expected a number after 'H' at offset 7"),
            ("M NaN 0", "expected a number after 'M' at offset 2"),
            ("M 0 0 L Infinity 0", "expected a number after 'L' at offset 8"),
            ("M 0 0 L 0x10 5", "expected a number after 'L' at offset 9"),
            ("M 0 0 é", "unexpected character 'é' at offset 6"),
            ("M 0 0 €€", "unexpected character '€' at offset 6"),
            ("M 1e308 0 l 1e308 0", "coordinates out of range after 'l' at offset 12"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try CGPath(svgPathData: text), text) { error in
                XCTAssertEqual((error as? SVGPathError)?.description, expected, text)
            }
        }
        do {
            _ = try CGPath.parsing(svgPathData: "M 0 0 L")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, SVGPathError(offset: 7, message: "expected a number after 'L'"))
        }
    }

    func testFuzzedInputNeverCrashes() {
        var rng = XorShift(seed: 0x5EED)
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789012345.-+eE,  \n01")
        let seeds = ["M 0 0 A 50 50 0 1 1 100 0", "m1 1c1 2 3 4 5 6s1 2 3 4q1 2 3 4t5 6z", "M.5.5l-1e-3-2h3v4Z"]
        var accepted = 0
        for round in 0..<4000 {
            var text: [Character]
            if round % 2 == 0 {
                text = (0..<Int(rng.next() % 48)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            } else {  // mutate a valid string
                text = Array(seeds[round % seeds.count])
                for _ in 0..<(1 + Int(rng.next() % 3)) where !text.isEmpty {
                    text[Int(rng.next() % UInt64(text.count))] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                }
            }
            let string = String(text)
            do {
                let path = try CGPath(svgPathData: string)
                accepted += 1
                for element in path.elements {
                    XCTAssertTrue(element.points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, string)
                }
                _ = PathMeasure(path).length
            } catch {
                XCTAssertLessThanOrEqual(error.offset, string.utf8.count, string)
            }
        }
        XCTAssertGreaterThan(accepted, 100)
    }
}

/// A tiny deterministic generator so fuzz failures reproduce.
struct XorShift {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
