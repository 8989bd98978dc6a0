import Foundation
import XCTest
@testable import Geometry

/// Asserts two points agree within `accuracy` on both axes.
func assertPoint(
    _ actual: CGPoint?, _ expected: CGPoint, accuracy: CGFloat = 1e-9,
    _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    guard let actual else { return XCTFail("nil point \(message)", file: file, line: line) }
    XCTAssertEqual(actual.x, expected.x, accuracy: accuracy, "x \(message)", file: file, line: line)
    XCTAssertEqual(actual.y, expected.y, accuracy: accuracy, "y \(message)", file: file, line: line)
}

/// Asserts two rectangles agree within `accuracy` on every edge.
func assertRect(
    _ actual: CGRect, _ expected: CGRect, accuracy: CGFloat = 1e-9,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(actual.minX, expected.minX, accuracy: accuracy, "minX", file: file, line: line)
    XCTAssertEqual(actual.minY, expected.minY, accuracy: accuracy, "minY", file: file, line: line)
    XCTAssertEqual(actual.maxX, expected.maxX, accuracy: accuracy, "maxX", file: file, line: line)
    XCTAssertEqual(actual.maxY, expected.maxY, accuracy: accuracy, "maxY", file: file, line: line)
}

/// Asserts two element lists match point-wise within `accuracy`.
func assertElements(
    _ actual: [PathElement], _ expected: [PathElement], accuracy: CGFloat = 1e-9,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(actual.map(\.type), expected.map(\.type), "element kinds", file: file, line: line)
    guard actual.map(\.type) == expected.map(\.type) else { return }
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        for (p, q) in zip(a.points, e.points) {
            assertPoint(p, q, accuracy: accuracy, "element \(index)", file: file, line: line)
        }
    }
}

func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

/// Composite Simpson integration of |B′(t)| with `n` panels: an independent length check.
func simpsonLength(_ s: PathSegment, panels n: Int = 20_000) -> CGFloat {
    func speed(_ t: CGFloat) -> CGFloat {
        let h: CGFloat = 1e-7
        let a = s.point(at: t - h), b = s.point(at: t + h)  // central difference, not tangent(at:)
        return hypot(b.x - a.x, b.y - a.y) / (2 * h)
    }
    let h = 1 / CGFloat(n)
    var sum = speed(0) + speed(1)
    for i in 1..<n { sum += speed(CGFloat(i) * h) * (i % 2 == 1 ? 4 : 2) }
    return sum * h / 3
}
