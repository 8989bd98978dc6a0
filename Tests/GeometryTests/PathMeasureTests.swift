import Foundation
import XCTest
@testable import Geometry

final class PathMeasureTests: XCTestCase {
    let sCurve = PathSegment(from: pt(0, 0), control1: pt(0, 100), control2: pt(100, 100), to: pt(100, 0))

    func testReferenceCubic() {
        // |B′(t)| = 300(1 − 2t + 2t²), so the exact length is 200.
        XCTAssertEqual(sCurve.length, 200, accuracy: 1e-9)
        XCTAssertEqual(sCurve.length, simpsonLength(sCurve), accuracy: 1e-4)
        assertPoint(sCurve.point(at: 0.25), pt(15.625, 56.25), accuracy: 1e-12)
        let t = sCurve.parameter(atLength: 50)
        assertPoint(sCurve.point(at: t), pt(10.5893, 48.3525), accuracy: 1e-3)
        XCTAssertEqual(sCurve.length(from: 0, to: t), 50, accuracy: 1e-9)
        let d = sCurve.tangent(at: 0.25)
        XCTAssertEqual(d.dx, 112.5, accuracy: 1e-12)
        XCTAssertEqual(d.dy, 150, accuracy: 1e-12)
    }

    func testLengthsAgainstIndependentIntegration() {
        let segments = [
            PathSegment(from: pt(0, 0), control: pt(50, 100), to: pt(100, 0)),
            PathSegment(from: pt(-3, 7), control: pt(-3, 7), to: pt(10, 1)),  // control on an endpoint
            PathSegment(from: pt(0, 0), control1: pt(100, 100), control2: pt(0, 100), to: pt(100, 0)),  // loop
            PathSegment(from: pt(0, 0), control1: pt(100, 0), control2: pt(-50, 0), to: pt(60, 0)),  // reversals
            PathSegment(from: pt(1, 1), control1: pt(1, 1), control2: pt(5, 5), to: pt(5, 5)),
        ]
        for segment in segments {
            XCTAssertEqual(segment.length, simpsonLength(segment), accuracy: 1e-4, "\(segment)")
        }
        // A stationary point (x′ = 300(1 − 2t)² vanishes at t = ½) on a monotone cubic: length 100.
        let stall = PathSegment(from: .zero, control1: pt(100, 0), control2: pt(0, 0), to: pt(100, 0))
        XCTAssertEqual(stall.length, 100, accuracy: 1e-9)
        XCTAssertEqual(PathSegment(from: pt(1, 2), to: pt(4, 6)).length, 5)
        // Closed form for a parabola y = x² on [0, 1]: (2√5 + asinh 2) / 4.
        let parabola = PathSegment(from: .zero, control: pt(0.5, 0), to: pt(1, 1))
        XCTAssertEqual(parabola.length, (2 * 5.0.squareRoot() + asinh(2.0)) / 4, accuracy: 1e-12)
    }

    func testInverseArcLengthRoundTrips() {
        for fraction in stride(from: 0.0, through: 1.0, by: 0.05) {
            let t = sCurve.parameter(atLength: fraction * 200)
            XCTAssertEqual(sCurve.length(from: 0, to: t), fraction * 200, accuracy: 1e-8)
        }
        XCTAssertEqual(sCurve.parameter(atLength: -5), 0)
        XCTAssertEqual(sCurve.parameter(atLength: 500), 1)
        XCTAssertEqual(sCurve.length(from: 1, to: 0), -200, accuracy: 1e-9)
    }

    func testSubsegmentAndReversal() {
        let piece = sCurve.subsegment(from: 0.25, to: 0.75)
        for u in [0.0, 0.3, 0.5, 1.0] {
            assertPoint(piece.point(at: u), sCurve.point(at: 0.25 + 0.5 * u), accuracy: 1e-12)
        }
        XCTAssertEqual(sCurve.subsegment(from: 0, to: 0.4).length + sCurve.subsegment(from: 0.4, to: 1).length,
                       200, accuracy: 1e-9)
        assertPoint(sCurve.reversed().point(at: 0.25), sCurve.point(at: 0.75), accuracy: 1e-12)
        let quad = PathSegment(from: .zero, control: pt(5, 10), to: pt(10, 0))
        assertPoint(quad.subsegment(from: 1, to: 0).point(at: 0.2), quad.point(at: 0.8), accuracy: 1e-12)
        assertRect(sCurve.bounds, CGRect(x: 0, y: 0, width: 100, height: 75))
    }

    func testSegmentsOfPath() {
        let path = CGMutablePath()
        path.addLines(between: [pt(0, 0), pt(3, 0), pt(3, 4)])
        path.closeSubpath()
        path.addEllipse(in: CGRect(x: 0, y: 0, width: 2, height: 2))
        let segments = path.segments
        XCTAssertEqual(segments.count, 3 + 5)
        XCTAssertEqual(segments[2], PathSegment(from: pt(3, 4), to: pt(0, 0)))  // the closing line
        XCTAssertEqual(segments[7], PathSegment(from: pt(2, 1), to: pt(2, 1)))  // already there
        XCTAssertEqual(segments[7].length, 0)
        XCTAssertEqual(PathMeasure(path).segmentLengths[0...2], [3, 4, 5])
    }

    func testCircleCircumference() {
        for radius: CGFloat in [1, 50, 1000] {
            let circle = CGPath(ellipseIn: CGRect(x: -radius, y: -radius, width: 2 * radius, height: 2 * radius))
            XCTAssertEqual(circle.length, 2 * .pi * radius, accuracy: 2 * .pi * radius * 3e-4)
        }
    }

    func testPointAndTangentAtDistanceOnSquare() {
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        let measure = PathMeasure(square)
        XCTAssertEqual(measure.length, 400)
        // (distance, point, direction of travel)
        let cases: [(CGFloat, CGPoint, CGFloat)] = [
            (-10, pt(0, 0), 0), (0, pt(0, 0), 0), (50, pt(50, 0), 0), (100, pt(100, 0), 0),
            (150, pt(100, 50), .pi / 2), (250, pt(50, 100), .pi), (350, pt(0, 50), -.pi / 2),
            (400, pt(0, 0), -.pi / 2), (1000, pt(0, 0), -.pi / 2),
        ]
        for (distance, point, angle) in cases {
            assertPoint(measure.point(atDistance: distance), point, accuracy: 1e-9, "at \(distance)")
            XCTAssertEqual(measure.tangentAngle(atDistance: distance) ?? .nan, angle, accuracy: 1e-12, "at \(distance)")
        }
        XCTAssertEqual(square.point(atDistance: 150), pt(100, 50))
        XCTAssertNil(CGMutablePath().point(atDistance: 0))
        XCTAssertNil(CGMutablePath().tangentAngle(atDistance: 0))
    }

    func testTangentOnCircleAndDegenerateControls() {
        let circle = PathMeasure(CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20)))
        assertPoint(circle.point(atDistance: circle.length / 4), pt(0, 10), accuracy: 1e-9)
        XCTAssertEqual(circle.tangentAngle(atDistance: 0) ?? .nan, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(abs(circle.tangentAngle(atDistance: circle.length / 4) ?? .nan), .pi, accuracy: 1e-9)
        // The derivative vanishes at t = 0 when control1 == start; the direction still exists.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addCurve(to: pt(10, 10), control1: .zero, control2: pt(0, 10))
        XCTAssertEqual(path.tangentAngle(atDistance: 0) ?? .nan, .pi / 2, accuracy: 1e-3)
        XCTAssertEqual(path.tangentAngle(atDistance: 1e9) ?? .nan, 0, accuracy: 1e-12)
    }

    func testTrimming() {
        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertEqual(square.trimmed(fromFraction: 0, toFraction: 1), square)  // keeps closeSubpath
        XCTAssertEqual(square.trimmed(fromFraction: 0, toFraction: 0.5).description, "M 0 0 L 100 0 L 100 100")
        XCTAssertEqual(square.trimmed(fromFraction: 0.125, toFraction: 0.375).description, "M 50 0 L 100 0 L 100 50")
        XCTAssertEqual(square.trimmed(fromFraction: 0.5, toFraction: 1).description, "M 100 100 L 0 100 L 0 0")
        XCTAssertTrue(square.trimmed(fromFraction: 0.6, toFraction: 0.6).isEmpty)
        XCTAssertTrue(square.trimmed(fromFraction: 0.7, toFraction: 0.2).isEmpty)
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(circle.trimmed(fromFraction: 0, toFraction: 1), circle)
        let half = PathMeasure(circle.trimmed(fromFraction: 0.25, toFraction: 0.75))
        XCTAssertEqual(half.length, PathMeasure(circle).length / 2, accuracy: 1e-9)
        assertPoint(half.point(atDistance: 0), pt(5, 10), accuracy: 1e-9)
        // Two subpaths: each trimmed piece starts with its own move.
        let two = CGMutablePath()
        two.addLines(between: [pt(0, 0), pt(10, 0)])
        two.addLines(between: [pt(0, 5), pt(10, 5)])
        XCTAssertEqual(two.trimmed(fromFraction: 0.25, toFraction: 0.75).description, "M 5 0 L 10 0 M 0 5 L 5 5")
    }
}
