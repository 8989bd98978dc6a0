import Foundation
import XCTest
@testable import Geometry

final class UIBezierPathTests: XCTestCase {
    func testArcDirectionIsOppositeToCoreGraphicsFlag() {
        for clockwise in [true, false] {
            let ui = UIBezierPath(arcCenter: pt(10, 10), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: clockwise)
            let cg = CGMutablePath()
            cg.addArc(center: pt(10, 10), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: !clockwise)
            XCTAssertEqual(ui.cgPath, cg)
        }
        // UIKit clockwise (y-down screen): 0 → π/2 passes through +x+y, a quarter circle.
        let quarter = PathMeasure(UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2,
                                               clockwise: true).cgPath)
        XCTAssertEqual(quarter.length, 5 * .pi, accuracy: 5 * .pi * 3e-4)
        assertPoint(quarter.point(atDistance: quarter.length / 2), pt(10 * cos(.pi / 4), 10 * sin(.pi / 4)), accuracy: 1e-2)
        // Counter-clockwise on screen goes the long way round, through −y.
        let long = PathMeasure(UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2,
                                            clockwise: false).cgPath)
        assertPoint(long.point(atDistance: long.length / 2), pt(-10 * cos(.pi / 4), -10 * sin(.pi / 4)), accuracy: 1e-2)
        // The well-known UIKit full circle: 0 → 2π clockwise.
        let circle = UIBezierPath(arcCenter: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        XCTAssertEqual(circle.cgPath.elements.count, 5)
    }

    func testShapesMatchCoreGraphics() {
        let rect = CGRect(x: 1, y: 2, width: 30, height: 40)
        XCTAssertEqual(UIBezierPath(rect: rect).cgPath, CGPath(rect: rect))
        XCTAssertEqual(UIBezierPath(ovalIn: rect).cgPath, CGPath(ellipseIn: rect))
        XCTAssertEqual(UIBezierPath(roundedRect: rect, cornerRadius: 5).cgPath,
                       CGPath(roundedRect: rect, cornerWidth: 5, cornerHeight: 5))
        // Radii larger than half the shorter side give a capsule with circular ends.
        XCTAssertEqual(UIBezierPath(roundedRect: rect, cornerRadius: 100).cgPath,
                       CGPath(roundedRect: rect, cornerWidth: 15, cornerHeight: 15))
        XCTAssertEqual(UIBezierPath(cgPath: CGPath(rect: rect)).cgPath, CGPath(rect: rect))
    }

    func testRoundingSelectedCorners() {
        let rect = CGRect(x: 0, y: 0, width: 100, height: 50)
        let topLeft = UIBezierPath(roundedRect: rect, byRoundingCorners: .topLeft, cornerRadii: CGSize(width: 10, height: 10))
        XCTAssertEqual(topLeft.cgPath.elements.map(\.type), [
            .moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint,
            .addCurveToPoint, .closeSubpath,
        ])
        XCTAssertEqual(topLeft.cgPath.elements[0], .move(to: pt(10, 0)))
        XCTAssertEqual(topLeft.cgPath.elements[4], .line(to: pt(0, 10)))
        assertRect(topLeft.bounds, rect)
        let all = UIBezierPath(roundedRect: rect, byRoundingCorners: .allCorners, cornerRadii: CGSize(width: 10, height: 10))
        XCTAssertEqual(all.cgPath.elements.count, 10)
        XCTAssertEqual(PathMeasure(all.cgPath).length,
                       PathMeasure(CGPath(roundedRect: rect, cornerWidth: 10, cornerHeight: 10)).length, accuracy: 1e-9)
        let none = UIBezierPath(roundedRect: rect, byRoundingCorners: [], cornerRadii: CGSize(width: 10, height: 10))
        XCTAssertEqual(PathMeasure(none.cgPath).length, 300, accuracy: 1e-12)
        XCTAssertEqual(UIRectCorner.allCorners.intersection([.topLeft, .bottomRight]), [.topLeft, .bottomRight])
    }

    func testBuildingAndEditing() {
        let path = UIBezierPath()
        XCTAssertTrue(path.isEmpty)
        XCTAssertTrue(path.bounds.isNull)
        path.move(to: pt(0, 0))
        path.addLine(to: pt(10, 0))
        path.addQuadCurve(to: pt(20, 0), controlPoint: pt(15, 10))
        path.addCurve(to: pt(30, 0), controlPoint1: pt(20, -10), controlPoint2: pt(30, -10))
        path.addArc(withCenter: pt(40, 0), radius: 10, startAngle: .pi, endAngle: 0, clockwise: true)
        // The joining line is always emitted (here it is zero-length), like Core Graphics.
        XCTAssertEqual(path.cgPath.elements[4].type, .addLineToPoint)
        assertPoint(path.cgPath.elements[4].endPoint, pt(30, 0), accuracy: 1e-12)
        assertPoint(path.currentPoint, pt(50, 0), accuracy: 1e-12)
        path.close()
        XCTAssertEqual(path.currentPoint, .zero)
        assertRect(path.bounds, CGRect(x: 0, y: -10, width: 50, height: 20), accuracy: 1e-12)
        path.apply(CGAffineTransform(translationX: 5, y: 5))
        XCTAssertEqual(path.cgPath.elements.first, .move(to: pt(5, 5)))
        let other = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        path.append(other)
        XCTAssertEqual(Array(path.cgPath.elements.suffix(5)), other.cgPath.elements)
        path.cgPath = CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(path.cgPath.elements.count, 5)
        path.removeAllPoints()
        XCTAssertTrue(path.isEmpty)
        XCTAssertEqual(path.lineWidth, 1)
        XCTAssertEqual(path.lineCapStyle, .butt)
        XCTAssertEqual(path.lineJoinStyle, .miter)
        XCTAssertEqual(path.miterLimit, 10)
        XCTAssertEqual(CGLineCap.square.rawValue, 2)
        XCTAssertEqual(CGLineJoin.bevel.rawValue, 2)
    }

    func testReversing() {
        let square = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        square.lineWidth = 3
        let reversed = square.reversing()
        XCTAssertEqual(reversed.cgPath.description, "M 0 0 L 0 1 L 1 1 L 1 0 Z")
        XCTAssertEqual(reversed.lineWidth, 3)
        XCTAssertEqual(reversed.reversing().cgPath, square.cgPath)

        let open = UIBezierPath()
        open.move(to: pt(0, 0))
        open.addLine(to: pt(10, 0))
        open.addCurve(to: pt(20, 10), controlPoint1: pt(12, 0), controlPoint2: pt(20, 8))
        open.move(to: pt(50, 50))
        XCTAssertEqual(open.reversing().cgPath.elements, [
            .move(to: pt(20, 10)), .curve(to: pt(10, 0), control1: pt(20, 8), control2: pt(12, 0)),
            .line(to: pt(0, 0)), .move(to: pt(50, 50)),
        ])

        let circle = UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 10, height: 10))
        let backwards = PathMeasure(circle.reversing().cgPath)
        XCTAssertEqual(backwards.length, PathMeasure(circle.cgPath).length, accuracy: 1e-9)
        assertPoint(backwards.point(atDistance: 0), pt(10, 5), accuracy: 1e-12)
        assertPoint(backwards.point(atDistance: backwards.length / 4), pt(5, 0), accuracy: 1e-9)
        XCTAssertEqual(circle.reversing().reversing().cgPath, circle.cgPath)
    }
}
