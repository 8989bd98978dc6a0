import XCTest
import Geometry
import Layers
import Presentation

/// `PresentationTree.outputBounds(of:scale:)`: each layer's bounds as a box in output pixels.
final class OutputBoundsTests: XCTestCase {
    func testNestedMovesRotationsAndScale() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.position = CGPoint(x: 100, y: 50)
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        card.position = CGPoint(x: 60, y: 30)
        card.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)   // 40×20 turned to 20×40 about its centre
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        dot.position = CGPoint(x: 2, y: 2)                             // the card's top-left corner
        root.addSublayer(card)
        card.addSublayer(dot)
        let tree = PresentationTree.evaluate(root, at: 0)
        XCTAssertEqual(tree.outputBounds(of: 0), CGRect(x: 0, y: 0, width: 200, height: 100))
        let turned = try XCTUnwrap(tree.outputBounds(of: 1, scale: 2))
        XCTAssertEqual(turned.minX, 100, accuracy: 1e-9)
        XCTAssertEqual(turned.minY, 20, accuracy: 1e-9)
        XCTAssertEqual(turned.width, 40, accuracy: 1e-9)
        XCTAssertEqual(turned.height, 80, accuracy: 1e-9)
        // The card's top-left corner (−20, −10 from its centre) turns to (+10, −20): (70, 10) in points.
        let corner = try XCTUnwrap(tree.outputBounds(of: 2))
        XCTAssertEqual(corner.maxX, 70, accuracy: 1e-9)
        XCTAssertEqual(corner.minY, 10, accuracy: 1e-9)
        XCTAssertEqual(corner.width, 4, accuracy: 1e-9)
    }

    func testPerspectiveBoxesAndTheEye() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 100
        root.sublayerTransform = perspective
        let near = CALayer()
        near.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        near.position = CGPoint(x: 50, y: 50)
        near.zPosition = 50                         // halfway to the eye: drawn twice as large
        let behind = CALayer()
        behind.bounds = near.bounds
        behind.position = near.position
        behind.zPosition = 150                      // behind the eye (at z = 100)
        root.addSublayer(near)
        root.addSublayer(behind)
        let tree = PresentationTree.evaluate(root, at: 0)
        let box = try XCTUnwrap(tree.outputBounds(of: 1))
        XCTAssertEqual(box.width, 40, accuracy: 1e-9)
        XCTAssertEqual(box.midX, 50, accuracy: 1e-9)
        XCTAssertNil(tree.outputBounds(of: 2))
    }
}
