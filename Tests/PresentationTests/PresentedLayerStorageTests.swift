import XCTest
import Geometry
import Layers
import Presentation

/// `PresentedLayer` stores its indices as 32-bit numbers with -1 for none and derives its type
/// name: what it reads back must be what was presented (exact values), and optional indices
/// must round-trip nil and numbers alike through their setters.
final class PresentedLayerStorageTests: XCTestCase {
    func testIndicesAndOptionalIndicesReadBackAsPresented() {
        let root = CALayer()
        let group = CALayer(), shape = CAShapeLayer(), mask = CALayer()
        root.addSublayer(group)
        group.addSublayer(CALayer())
        group.addSublayer(shape)
        shape.mask = mask
        let tree = PresentationTree.evaluate(root, at: 0)
        // Pre-order: root 0, group 1, plain 2, shape 3, its mask 4.
        XCTAssertEqual(tree.layers.map(\.index), [0, 1, 2, 3, 4])
        XCTAssertEqual(tree.layers.map(\.parent), [nil, 0, 1, 1, 3])
        XCTAssertEqual(tree.layers.map(\.depth), [0, 1, 2, 2, 3])
        XCTAssertEqual(tree.layers.map(\.siblingIndex), [0, 0, 0, 1, 0])
        XCTAssertEqual(tree.layers.map(\.mask), [nil, nil, nil, 4, nil])
        XCTAssertEqual(tree.layers.map(\.renderingContext), [nil, 0, 1, 1, 3])
        XCTAssertEqual(tree.layers.map(\.typeName), ["layer", "layer", "layer", "shape", "layer"])
        XCTAssertEqual(tree.layers.map(\.isMask), [false, false, false, false, true])
    }

    func testSettersRoundTripNilAndNumbers() {
        let tree = PresentationTree.evaluate(CALayer(), at: 0)
        var layer = tree.layers[0]
        XCTAssertNil(layer.parent)
        layer.parent = 70_000
        layer.mask = 0
        layer.renderingContext = 12
        layer.replicaInstance = 3
        XCTAssertEqual(layer.parent, 70_000)
        XCTAssertEqual(layer.mask, 0, "index 0 is an index, not none")
        XCTAssertEqual(layer.renderingContext, 12)
        XCTAssertEqual(layer.replicaInstance, 3)
        layer.parent = nil
        layer.mask = nil
        XCTAssertNil(layer.parent)
        XCTAssertNil(layer.mask)
    }

    func testParticlesAreNamedParticle() {
        let emitter = CAEmitterLayer()
        emitter.emitterPosition = CGPoint(x: 10, y: 10)
        let cell = CAEmitterCell()
        cell.birthRate = 50
        cell.lifetime = 5
        cell.contents = CGImage(width: 4, height: 4, source: nil)
        emitter.emitterCells = [cell]
        let tree = PresentationTree.evaluate(emitter, at: 1)
        let particles = tree.layers.filter { $0.particle != nil }
        XCTAssertFalse(particles.isEmpty)
        XCTAssertTrue(particles.allSatisfy { $0.typeName == "particle" })
        XCTAssertEqual(tree.layers[0].typeName, "emitter")
    }
}
