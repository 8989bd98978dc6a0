import Foundation
import XCTest
@testable import Geometry

final class CGAffineTransformTests: XCTestCase {
    func testIdentity() {
        XCTAssertTrue(CGAffineTransform.identity.isIdentity)
        XCTAssertEqual(CGAffineTransform(), .identity)
        XCTAssertFalse(CGAffineTransform(translationX: 1, y: 0).isIdentity)
        XCTAssertEqual(pt(3, 4).applying(.identity), pt(3, 4))
    }

    func testFactoriesMapPoints() {
        let cases: [(CGAffineTransform, CGPoint, CGPoint)] = [
            (CGAffineTransform(translationX: 10, y: -5), pt(1, 2), pt(11, -3)),
            (CGAffineTransform(scaleX: 2, y: 3), pt(1, 2), pt(2, 6)),
            (CGAffineTransform(rotationAngle: .pi / 2), pt(1, 0), pt(0, 1)),  // +x toward +y
            (CGAffineTransform(rotationAngle: .pi), pt(1, 2), pt(-1, -2)),
            (CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6), pt(1, 1), pt(9, 12)),
        ]
        for (transform, input, expected) in cases {
            assertPoint(input.applying(transform), expected, accuracy: 1e-12, "\(transform)")
        }
    }

    func testConcatenatingAppliesSelfFirst() {
        let translate = CGAffineTransform(translationX: 10, y: 0)
        let scale = CGAffineTransform(scaleX: 2, y: 2)
        assertPoint(pt(1, 1).applying(translate.concatenating(scale)), pt(22, 2))
        assertPoint(pt(1, 1).applying(scale.concatenating(translate)), pt(12, 2))
    }

    func testRelativeOperationsPrecedeTheTransform() {
        // Apple: t.translatedBy(x:y:) == translation.concatenating(t).
        let scale = CGAffineTransform(scaleX: 2, y: 2)
        assertPoint(CGPoint.zero.applying(scale.translatedBy(x: 10, y: 0)), pt(20, 0))
        let rotation = CGAffineTransform(rotationAngle: .pi / 2)
        assertPoint(pt(1, 0).applying(rotation.scaledBy(x: 2, y: 1)), pt(0, 2), accuracy: 1e-12)
        let moved = CGAffineTransform(translationX: 5, y: 5).rotated(by: .pi / 2)
        assertPoint(pt(1, 0).applying(moved), pt(5, 6), accuracy: 1e-12)
    }

    func testInverted() {
        let t = CGAffineTransform(a: 2, b: 1, c: -1, d: 3, tx: 7, ty: -4)
        let roundTrip = t.concatenating(t.inverted())
        for (value, expected) in [(roundTrip.a, 1.0), (roundTrip.b, 0), (roundTrip.c, 0),
                                  (roundTrip.d, 1), (roundTrip.tx, 0), (roundTrip.ty, 0)] {
            XCTAssertEqual(value, CGFloat(expected), accuracy: 1e-12)
        }
        assertPoint(pt(3, 9).applying(t).applying(t.inverted()), pt(3, 9), accuracy: 1e-12)
        let singular = CGAffineTransform(scaleX: 0, y: 1)
        XCTAssertEqual(singular.inverted(), singular)  // Apple returns the input unchanged
    }

    func testSizeAndRectApplying() {
        XCTAssertEqual(CGSize(width: 2, height: 3).applying(CGAffineTransform(scaleX: -1, y: 2)),
                       CGSize(width: -2, height: 6))
        XCTAssertEqual(CGSize(width: 2, height: 3).applying(CGAffineTransform(translationX: 9, y: 9)),
                       CGSize(width: 2, height: 3))
        let square = CGRect(x: 0, y: 0, width: 10, height: 10)
        let rotated = square.applying(CGAffineTransform(rotationAngle: .pi / 4))
        let half = 10 / 2.0.squareRoot()
        assertRect(rotated, CGRect(x: -half, y: 0, width: 2 * half, height: 2 * half), accuracy: 1e-12)
        XCTAssertEqual(square.applying(CGAffineTransform(translationX: 1, y: 2)),
                       CGRect(x: 1, y: 2, width: 10, height: 10))
        XCTAssertEqual(square.applying(CGAffineTransform(scaleX: -1, y: 1)),
                       CGRect(x: -10, y: 0, width: 10, height: 10))
        XCTAssertTrue(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
    }

    func testDescriptionAndHashing() {
        XCTAssertEqual(CGAffineTransform.identity.description,
                       "CGAffineTransform(a: 1.0, b: 0.0, c: 0.0, d: 1.0, tx: 0.0, ty: 0.0)")
        let set: Set = [CGAffineTransform.identity, CGAffineTransform(), CGAffineTransform(scaleX: 2, y: 2)]
        XCTAssertEqual(set.count, 2)
    }
}
