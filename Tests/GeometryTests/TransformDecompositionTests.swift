import XCTest
@testable import Geometry

/// Decomposition must round-trip exactly (to rounding) and interpolate rotations along the short arc.
final class TransformDecompositionTests: XCTestCase {
    private func assertClose(_ a: CATransform3D, _ b: CATransform3D, _ tolerance: CGFloat = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(a.isApproximatelyEqual(to: b, tolerance: tolerance), "\(a) != \(b)", file: file, line: line)
    }

    func testRoundTripOfComposedTransforms() throws {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let cases: [CATransform3D] = [
            CATransform3DIdentity,
            CATransform3DMakeTranslation(10, -20, 30),
            CATransform3DMakeScale(2, 3, 4),
            CATransform3DMakeScale(-1, 1, 1),
            CATransform3DMakeRotation(.pi / 3, 0, 0, 1),
            CATransform3DMakeRotation(2.5, 0, 1, 0),
            CATransform3DMakeRotation(1.1, 1, 2, 3),
            CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0),
            CATransform3DConcat(CATransform3DMakeScale(2, 0.5, 1), CATransform3DMakeRotation(0.7, 1, 0, 0)),
            CATransform3DMakeAffineTransform(CGAffineTransform(a: 1, b: 0.5, c: 0.3, d: 1, tx: 4, ty: 5)),
            CATransform3DMakeAffineTransform(CGAffineTransform(a: -2, b: 0, c: 0, d: 3, tx: 0, ty: 0)),
        ]
        for t in cases {
            let c = try XCTUnwrap(t.components, "\(t)")
            assertClose(c.transform, t)
        }
    }

    func testRotationInterpolatesAlongShortArc() {
        let a = CATransform3DIdentity, b = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        assertClose(a.interpolated(to: b, fraction: 0.5), CATransform3DMakeRotation(.pi / 4, 0, 0, 1))
        let c = CATransform3DMakeRotation(-0.2, 0, 0, 1), d = CATransform3DMakeRotation(0.2 - 2 * .pi, 0, 0, 1)
        // 0.2 − 2π is 0.2: the midpoint of −0.2 and 0.2 along the short arc is 0.
        assertClose(c.interpolated(to: d, fraction: 0.5), CATransform3DIdentity)
    }

    func testEulerAnglesReadBackSingleAxisRotations() throws {
        for angle in [-3.0, -2.0, -1.0, 0.3, 1.5, 2.5, 3.0] {
            let y = try XCTUnwrap(CATransform3DMakeRotation(angle, 0, 1, 0).components)
            XCTAssertEqual(y.eulerAngles.y, angle, accuracy: 1e-9, "rotation.y \(angle)")
            XCTAssertEqual(y.eulerAngles.x, 0, accuracy: 1e-9)
            let z = try XCTUnwrap(CATransform3DMakeRotation(angle, 0, 0, 1).components)
            XCTAssertEqual(z.eulerAngles.z, angle, accuracy: 1e-9, "rotation.z \(angle)")
        }
    }

    func testSettingEulerAnglesComposesXThenYThenZ() {
        var c = TransformComponents()
        c.eulerAngles = SIMD3(0.3, -0.4, 0.5)
        let expected = CATransform3DMakeRotation(0.3, 1, 0, 0)
            .concatenating(CATransform3DMakeRotation(-0.4, 0, 1, 0))
            .concatenating(CATransform3DMakeRotation(0.5, 0, 0, 1))
        assertClose(c.transform, expected)
        XCTAssertEqual(c.eulerAngles.x, 0.3, accuracy: 1e-9)
        XCTAssertEqual(c.eulerAngles.y, -0.4, accuracy: 1e-9)
        XCTAssertEqual(c.eulerAngles.z, 0.5, accuracy: 1e-9)
    }

    func testPerspectiveSurvivesRotationFieldWrites() throws {
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        var c = try XCTUnwrap(t.components)
        c.eulerAngles.y = -.pi / 2
        assertClose(c.transform, CATransform3DRotate(t, -.pi / 2, 0, 1, 0))
    }

    func testSingularMatricesFallBackWithoutCrashing() {
        XCTAssertNil(CATransform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                   m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 0).components)
        let flat = CATransform3DMakeScale(0, 2, 1)
        XCTAssertEqual(flat.components?.scale, SIMD3(0, 2, 1))
        let mid = flat.interpolated(to: CATransform3DMakeScale(1, 2, 1), fraction: 0.5)
        XCTAssertEqual(mid.m11, 0.5, accuracy: 1e-12)
    }
}
