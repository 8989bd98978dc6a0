import Foundation
import XCTest
@testable import Geometry

final class CGPathTests: XCTestCase {
    let k = CGMutablePath.kappa

    func testRectWindsLikeCoreGraphics() {
        let path = CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertEqual(path.elements, [
            .move(to: pt(10, 20)), .line(to: pt(40, 20)), .line(to: pt(40, 60)), .line(to: pt(10, 60)),
            .closeSubpath,
        ])
        XCTAssertEqual(path.description, "M 10 20 L 40 20 L 40 60 L 10 60 Z")
        // Negative sizes are standardized; the transform maps every point.
        let flipped = CGPath(rect: CGRect(x: 40, y: 60, width: -30, height: -40),
                             transform: CGAffineTransform(translationX: 1, y: 1))
        XCTAssertEqual(flipped.elements.first, .move(to: pt(11, 21)))
    }

    func testEllipseElements() {
        let path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 200, height: 100))
        let (cx, cy, rx, ry) = (100.0, 50.0, 100.0, 50.0)
        assertElements(path.elements, [
            .move(to: pt(200, 50)),
            .curve(to: pt(cx, cy + ry), control1: pt(cx + rx, cy + k * ry), control2: pt(cx + k * rx, cy + ry)),
            .curve(to: pt(0, cy), control1: pt(cx - k * rx, cy + ry), control2: pt(cx - rx, cy + k * ry)),
            .curve(to: pt(cx, 0), control1: pt(cx - rx, cy - k * ry), control2: pt(cx - k * rx, cy - ry)),
            .curve(to: pt(200, cy), control1: pt(cx + k * rx, cy - ry), control2: pt(cx + rx, cy - k * ry)),
            .closeSubpath,
        ])
    }

    func testRoundedRectElements() {
        let path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerWidth: 10, cornerHeight: 5)
        let (w, h) = (10.0, 5.0)
        assertElements(path.elements, [
            .move(to: pt(10, 0)), .line(to: pt(90, 0)),
            .curve(to: pt(100, 5), control1: pt(90 + k * w, 0), control2: pt(100, 5 - k * h)),
            .line(to: pt(100, 45)),
            .curve(to: pt(90, 50), control1: pt(100, 45 + k * h), control2: pt(90 + k * w, 50)),
            .line(to: pt(10, 50)),
            .curve(to: pt(0, 45), control1: pt(10 - k * w, 50), control2: pt(0, 45 + k * h)),
            .line(to: pt(0, 5)),
            .curve(to: pt(10, 0), control1: pt(0, 5 - k * h), control2: pt(10 - k * w, 0)),
            .closeSubpath,
        ])
        // Oversized corners clamp to half the side; zero corners give a plain rectangle.
        let capsule = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerWidth: 80, cornerHeight: 80)
        assertRect(capsule.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(capsule.elements[1], .line(to: pt(50, 0)))
        XCTAssertEqual(CGPath(roundedRect: CGRect(x: 0, y: 0, width: 5, height: 5), cornerWidth: 0, cornerHeight: 2),
                       CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5)))
    }

    /// Checks the arc's start, end, every on-curve point and every curve midpoint lie on the
    /// circle, and that the point halfway along the arc is at `midAngle`.
    private func checkArc(
        _ path: CGPath, center c: CGPoint, radius r: CGFloat, start: CGFloat, end: CGFloat,
        midAngle: CGFloat, line: UInt = #line
    ) {
        func onCircle(_ angle: CGFloat) -> CGPoint { pt(c.x + r * cos(angle), c.y + r * sin(angle)) }
        assertPoint(path.elements.first?.endPoint, onCircle(start), accuracy: 1e-9, "start", line: line)
        assertPoint(path.currentPoint, onCircle(end), accuracy: 1e-9, "end", line: line)
        for segment in path.segments {
            for t in [0, 0.25, 0.5, 0.75, 1.0] {
                let p = segment.point(at: t)
                XCTAssertEqual(hypot(p.x - c.x, p.y - c.y), r, accuracy: 1e-3 * r, "radius", line: line)
            }
        }
        let measure = PathMeasure(path)
        assertPoint(measure.point(atDistance: measure.length / 2), onCircle(midAngle), accuracy: 1e-3 * r,
                    "middle", line: line)
    }

    func testArcDirections() {
        let c = pt(50, 50), r: CGFloat = 40
        // (start, end, clockwise, expected sweep)
        let cases: [(CGFloat, CGFloat, Bool, CGFloat)] = [
            (0, .pi / 2, false, .pi / 2),
            (0, .pi / 2, true, -3 * .pi / 2),  // clockwise = decreasing angle
            (.pi / 2, 0, true, -.pi / 2),
            (.pi / 2, 0, false, 3 * .pi / 2),
            (-.pi / 4, 3 * .pi, false, 2 * .pi),  // ≥ 2π in the requested direction: full circle
            (.pi, -.pi, true, -2 * .pi),
            (0, 5 * .pi / 2, false, 2 * .pi),
            (0, -.pi / 3, true, -.pi / 3),
        ]
        for (index, (start, end, clockwise, sweep)) in cases.enumerated() {
            let path = CGMutablePath()
            path.addArc(center: c, radius: r, startAngle: start, endAngle: end, clockwise: clockwise)
            XCTAssertEqual(path.elements.count, 1 + Int((abs(sweep) / (.pi / 2) - 1e-9).rounded(.up)), "case \(index)")
            checkArc(path, center: c, radius: r, start: start, end: start + sweep, midAngle: start + sweep / 2)
            XCTAssertEqual(path.length, abs(sweep) * r, accuracy: abs(sweep) * r * 3e-4, "case \(index)")
        }
        // Equal angles, or a 2π request against the direction, add only the start point.
        let empty = CGMutablePath()
        empty.addArc(center: c, radius: r, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        XCTAssertEqual(empty.elements, [.move(to: pt(90, 50))])
    }

    func testArcConnectsWithLineOnlyWhenSubpathOpen() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(center: pt(10, 0), radius: 5, startAngle: .pi, endAngle: 0, clockwise: true)
        XCTAssertEqual(path.elements[1].type, .addLineToPoint)
        assertPoint(path.elements[1].endPoint, pt(5, 0), accuracy: 1e-12)
        path.closeSubpath()
        path.addArc(center: pt(10, 0), radius: 5, startAngle: 0, endAngle: .pi, clockwise: false)
        XCTAssertEqual(path.elements[path.elements.count - 3], .move(to: pt(15, 0)))
    }

    func testRelativeArcAndTransform() {
        let path = CGMutablePath()
        path.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: -.pi / 2)
        assertPoint(path.currentPoint, pt(0, -10), accuracy: 1e-12)
        let scaled = CGMutablePath()
        scaled.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: .pi,
                              transform: CGAffineTransform(scaleX: 2, y: 1))
        assertRect(scaled.boundingBoxOfPath, CGRect(x: -20, y: 0, width: 40, height: 10), accuracy: 1e-2)
    }

    func testTangentArc() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(tangent1End: pt(100, 0), tangent2End: pt(100, 100), radius: 20)
        XCTAssertEqual(path.elements[1], .line(to: pt(80, 0)))
        assertPoint(path.currentPoint, pt(100, 20), accuracy: 1e-9)
        let arc = path.segments[1]
        let mid = arc.point(at: 0.5)
        assertPoint(mid, pt(80 + 20 * cos(-.pi / 4), 20 + 20 * sin(-.pi / 4)), accuracy: 1e-3)
        // Turning the other way (right turn in y-up math) sweeps toward decreasing angles.
        let right = CGMutablePath()
        right.move(to: .zero)
        right.addArc(tangent1End: pt(100, 0), tangent2End: pt(100, -100), radius: 20)
        assertPoint(right.currentPoint, pt(100, -20), accuracy: 1e-9)
        // Collinear points degrade to a line to tangent1End.
        let straight = CGMutablePath()
        straight.move(to: .zero)
        straight.addArc(tangent1End: pt(50, 0), tangent2End: pt(100, 0), radius: 20)
        XCTAssertEqual(straight.elements, [.move(to: .zero), .line(to: pt(50, 0))])
    }

    func testBoundingBoxes() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addCurve(to: pt(100, 0), control1: pt(0, 100), control2: pt(100, 100))
        assertRect(path.boundingBox, CGRect(x: 0, y: 0, width: 100, height: 100))
        assertRect(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 75))
        let quad = CGMutablePath()
        quad.move(to: .zero)
        quad.addQuadCurve(to: pt(100, 0), control: pt(50, -100))
        assertRect(quad.boundingBoxOfPath, CGRect(x: 0, y: -50, width: 100, height: 50))
        XCTAssertTrue(CGMutablePath().boundingBox.isNull)
        XCTAssertTrue(CGMutablePath().boundingBoxOfPath.isNull)
        assertRect(CGPath(ellipseIn: CGRect(x: 1, y: 2, width: 3, height: 4)).boundingBoxOfPath,
                   CGRect(x: 1, y: 2, width: 3, height: 4), accuracy: 1e-12)
    }

    func testCurrentPointAndImplicitMoveAfterClose() {
        let path = CGMutablePath()
        XCTAssertEqual(path.currentPoint, .zero)
        path.addLine(to: pt(5, 5))  // no current point: ignored, as in Core Graphics
        XCTAssertTrue(path.isEmpty)
        path.addLines(between: [pt(1, 1), pt(9, 1), pt(9, 9)])
        path.closeSubpath()
        path.closeSubpath()  // already closed: ignored
        XCTAssertEqual(path.currentPoint, pt(1, 1))
        path.addLine(to: pt(0, 5))
        XCTAssertEqual(path.description, "M 1 1 L 9 1 L 9 9 Z M 1 1 L 0 5")
    }

    func testCopiesEqualityAndAddPath() {
        let path = CGMutablePath()
        path.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 2, y: 2, width: 1, height: 1)])
        let snapshot = path.copy()
        let mutable = path.mutableCopy()
        mutable.addLine(to: pt(7, 7))
        XCTAssertEqual(snapshot, path)
        XCTAssertNotEqual(mutable, path)
        XCTAssertEqual(Set([snapshot, path as CGPath]).count, 1)
        XCTAssertEqual(path.copy(using: nil), path)
        let moved = path.copy(using: CGAffineTransform(translationX: 10, y: 0))
        XCTAssertEqual(moved.elements.first, .move(to: pt(10, 0)))
        let combined = CGMutablePath()
        combined.addPath(snapshot, transform: CGAffineTransform(scaleX: 2, y: 2))
        XCTAssertEqual(combined.elements[5], .move(to: pt(4, 4)))
        var count = 0
        path.forEach { _ in count += 1 }
        XCTAssertEqual(count, 10)
        XCTAssertEqual(path.elements[2].points, [pt(1, 1)])
        XCTAssertEqual(PathElement.curve(to: pt(5, 6), control1: pt(1, 2), control2: pt(3, 4)).points,
                       [pt(1, 2), pt(3, 4), pt(5, 6)])
    }

    func testInterpolation() {
        let a = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 100), cornerWidth: 10, cornerHeight: 10)
        let b = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 200, height: 100), cornerWidth: 30, cornerHeight: 30)
        let mid = a.interpolated(to: b, fraction: 0.5)
        XCTAssertEqual(mid?.elements.count, a.elements.count)
        XCTAssertEqual(mid?.elements[0], .move(to: pt(20, 0)))
        XCTAssertEqual(mid?.elements[1], .line(to: pt(130, 0)))
        XCTAssertEqual(a.interpolated(to: b, fraction: 0), a)
        XCTAssertEqual(a.interpolated(to: b, fraction: 1), b)
        // Different element kinds or counts cannot be blended.
        XCTAssertNil(CGPath(rect: .init(x: 0, y: 0, width: 1, height: 1))
            .interpolated(to: CGPath(ellipseIn: .init(x: 0, y: 0, width: 1, height: 1)), fraction: 0.5))
        XCTAssertNil(a.interpolated(to: CGMutablePath(), fraction: 0.5))
        // A line against a curve blends as the curve with its control points on the line's ends
        // (semantics addenda A16), in either order and after a closed subpath.
        let straight = CGMutablePath(), bent = CGMutablePath()
        for p in [straight, bent] {
            p.move(to: pt(0, 0)); p.addLine(to: pt(4, 0)); p.closeSubpath()
            p.move(to: pt(10, 10))
        }
        straight.addLine(to: pt(20, 10))
        bent.addCurve(to: pt(20, 30), control1: pt(12, 20), control2: pt(18, 20))
        XCTAssertEqual(straight.interpolated(to: bent, fraction: 0.5)?.elements.last,
                       .curve(to: pt(20, 20), control1: pt(11, 15), control2: pt(19, 15)))
        XCTAssertEqual(bent.interpolated(to: straight, fraction: 0.25)?.elements.last,
                       .curve(to: pt(20, 25), control1: pt(11.5, 17.5), control2: pt(18.5, 17.5)))
        // A control point's offset from its on-curve point turns through the blend, its length
        // blended (addenda A17): (4, 0) turning to (0, 4) is 4 long at 45° half-way, where a
        // linear blend of the points would give (2, 2); an offset swinging a quarter turn the
        // other way turns the shorter way too.
        let east = CGMutablePath(), north = CGMutablePath()
        east.move(to: pt(0, 0)); east.addCurve(to: pt(10, 0), control1: pt(4, 0), control2: pt(10, -2))
        north.move(to: pt(0, 10)); north.addCurve(to: pt(10, 10), control1: pt(0, 14), control2: pt(12, 10))
        guard case .curve(let end, let c1, let c2)? = east.interpolated(to: north, fraction: 0.5)?.elements.last else {
            return XCTFail("a curve")
        }
        XCTAssertEqual(end, pt(10, 5))
        let r = 4 / CGFloat(2).squareRoot(), s = 2 / CGFloat(2).squareRoot()
        XCTAssertEqual(c1.x, r, accuracy: 1e-12); XCTAssertEqual(c1.y, 5 + r, accuracy: 1e-12)
        XCTAssertEqual(c2.x, 10 + s, accuracy: 1e-12); XCTAssertEqual(c2.y, 5 - s, accuracy: 1e-12)
        let afterClose = CGMutablePath(), curvedAfterClose = CGMutablePath()
        afterClose.move(to: pt(0, 0)); afterClose.addLine(to: pt(8, 0)); afterClose.closeSubpath(); afterClose.addLine(to: pt(0, 8))
        curvedAfterClose.move(to: pt(0, 0)); curvedAfterClose.addLine(to: pt(8, 0)); curvedAfterClose.closeSubpath()
        curvedAfterClose.addCurve(to: pt(0, 8), control1: pt(4, 4), control2: pt(4, 4))
        // The line after the close starts where the subpath began, (0, 0).
        XCTAssertEqual(afterClose.interpolated(to: curvedAfterClose, fraction: 0.5)?.elements.last,
                       .curve(to: pt(0, 8), control1: pt(2, 2), control2: pt(2, 6)))
        let line = CGMutablePath(), quad = CGMutablePath()
        line.addLines(between: [.zero, pt(1, 0)])
        quad.move(to: .zero)
        quad.addQuadCurve(to: pt(1, 0), control: pt(1, 1))
        XCTAssertNil(line.interpolated(to: quad, fraction: 0.5))
    }

    func testDescriptionFormatsNumbers() {
        let path = CGMutablePath()
        path.move(to: pt(-0.0, 1.5))
        path.addQuadCurve(to: pt(3, 4), control: pt(-2, 0.25))
        path.addCurve(to: pt(1, 1), control1: pt(2, 2), control2: pt(1e20, 0))
        XCTAssertEqual(path.description, "M 0 1.5 Q -2 0.25 3 4 C 2 2 1e+20 0 1 1")
        XCTAssertEqual(CGMutablePath().description, "")
    }

    /// The hash is worked out once and kept, so it must follow mutation: a path hashed, then
    /// extended, hashes as a fresh path with the new elements does, and equal paths built
    /// apart hash alike.
    func testHashFollowsMutationAndMatchesEqualPaths() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 3, y: 4))
        let before = path.hashValue
        XCTAssertEqual(before, path.copy().hashValue)
        XCTAssertEqual(before, path.hashValue)
        path.addLine(to: CGPoint(x: 5, y: 7))
        let after = path.hashValue
        XCTAssertNotEqual(after, before)
        let fresh = CGMutablePath()
        fresh.move(to: CGPoint(x: 1, y: 2))
        fresh.addLine(to: CGPoint(x: 3, y: 4))
        fresh.addLine(to: CGPoint(x: 5, y: 7))
        XCTAssertEqual(fresh, path)
        XCTAssertEqual(fresh.hashValue, after)
        XCTAssertEqual(Set([path, fresh, path.copy()]).count, 1)
        path.addPath(fresh)
        XCTAssertNotEqual(path.hashValue, after)
        XCTAssertEqual(path.hashValue, path.copy().hashValue)
    }

    /// Every point counts, control points first (`CGPathElement.points` order), and one
    /// non-finite coordinate anywhere makes the element non-finite.
    func testElementPointsAndFiniteness() {
        let curve = PathElement.curve(to: pt(5, 6), control1: pt(1, 2), control2: pt(3, 4))
        var seen: [CGPoint] = []
        curve.forEachPoint { seen.append($0) }
        XCTAssertEqual(seen, curve.points)
        XCTAssertEqual(seen, [pt(1, 2), pt(3, 4), pt(5, 6)])
        XCTAssertTrue(curve.isFinite)
        XCTAssertFalse(PathElement.curve(to: pt(5, 6), control1: pt(1, .nan), control2: pt(3, 4)).isFinite)
        XCTAssertFalse(PathElement.quadCurve(to: pt(.infinity, 0), control: pt(0, 0)).isFinite)
        XCTAssertTrue(PathElement.closeSubpath.isFinite)

        let path = CGMutablePath()
        path.move(to: pt(0, 0))
        path.addCurve(to: pt(10, 0), control1: pt(-5, 20), control2: pt(15, -3))
        XCTAssertEqual(path.boundingBox, CGRect(x: -5, y: -3, width: 20, height: 23))
    }
}
