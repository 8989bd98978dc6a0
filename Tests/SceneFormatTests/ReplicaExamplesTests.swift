import XCTest
import Geometry
import Layers
import Presentation
import SceneFormat

/// The replicator and emitter scene files in Examples/ load and present their copies and particles.
final class ReplicaExamplesTests: XCTestCase {
    private func example(_ name: String) throws -> Scene {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples").appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("no Examples folder next to the tests") }
        return try SceneLoader.load(contentsOf: url)
    }

    func testSpinnerPresentsTwelveDelayedDots() throws {
        let scene = try example("replicator-spinner.json")
        let tree = PresentationTree.evaluate(scene.root, at: 0.5)
        let dots = tree.layers.filter { $0.properties.name == "dot" }
        XCTAssertEqual(dots.map { tree.path(of: $0.index) },
                       ["view/spinner/dot"] + (1..<12).map { "view/spinner/dot~\($0)" })
        // Copy k runs k/12 s behind: opacity 1 → 0.15 over 1 s, the model value (0.15) before it starts.
        for (k, dot) in dots.enumerated() {
            let t = 0.5 - Double(k) / 12
            let expected = t < 0 ? 0.15 : 1 - 0.85 * t
            XCTAssertEqual(Double(dot.properties.opacity), expected, accuracy: 1e-5, "copy \(k)")
        }
        let line = PresentationJSON(imageName: scene.assetNamer()).line(for: tree)
        XCTAssertTrue(line.contains("\"path\": \"view/spinner/dot~11\""))
        XCTAssertTrue(line.contains("\"replicaInstance\": 11"))
    }

    func testConfettiIsDeterministicAndStopsEmitting() throws {
        let scene = try example("confetti.json")
        let at = { (t: Double) in PresentationTree.evaluate(scene.root, at: t) }
        let direct = at(2.5)
        _ = at(0.1); _ = at(4)
        let again = at(2.5)
        XCTAssertEqual(direct.layers.map(\.properties), again.layers.map(\.properties))
        let particles = direct.layers.filter { $0.particle != nil }
        XCTAssertGreaterThan(particles.count, 50)
        XCTAssertEqual(Set(particles.map(\.properties.name)), ["red", "yellow", "blue"])
        XCTAssertTrue(particles.allSatisfy { $0.properties.contents.image != nil && $0.typeName == "particle" })
        // birthRate falls to 0 between 2 s and 3 s: nothing is born after 3 s.
        let late = at(5).layers.compactMap(\.particle)
        let lateCount = late.count
        XCTAssertEqual(at(5.5).layers.compactMap(\.particle).filter { p in !late.contains(p) }.count, 0)
        XCTAssertGreaterThan(lateCount, 0)
    }
}
