import XCTest
import Foundation
import Geometry
import Animation
@testable import Layers

// An animated layer's presentation writes into the geometry block of an earlier frame once no
// presentation holds it any more (`CALayer.reusableGeometry`). A reused block must never be one
// a live presentation still reads: each test keeps or drops earlier results and checks their
// values (exact numbers, computed by hand from the animation) after later evaluations.

final class ReusableGeometryTests: XCTestCase {
    /// position.x from 0 to 100 over 1 s (linear), opacity from 1 to 0: at t, x = 100 t.
    private func animatedLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.position = CGPoint(x: 5, y: 7)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0; move.toValue = 100.0; move.duration = 1
        layer.add(move, forKey: "move")
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0; fade.toValue = 0.0; fade.duration = 1
        layer.add(fade, forKey: "fade")
        return layer
    }

    func testALivePresentationKeepsItsValuesWhileLaterFramesAreEvaluated() {
        let layer = animatedLayer()
        let first = layer.presentationProperties(atLocalTime: 0.25)
        let second = layer.presentationProperties(atLocalTime: 0.5)
        let third = layer.presentationProperties(atLocalTime: 0.75)
        XCTAssertEqual(first.position.x, 25)
        XCTAssertEqual(second.position.x, 50)
        XCTAssertEqual(third.position.x, 75)
        XCTAssertEqual(first.opacity, 0.75)
        XCTAssertFalse(first.geometry === second.geometry, "a block still held must not be written again")
        XCTAssertFalse(second.geometry === third.geometry)
        XCTAssertEqual(layer.properties.position, CGPoint(x: 5, y: 7), "the model is untouched")
        XCTAssertEqual(layer.properties.opacity, 1)
    }

    func testAReleasedFramesBlockIsWrittenAgainWithTheNewValues() {
        let layer = animatedLayer()
        var first: LayerProperties? = layer.presentationProperties(atLocalTime: 0.25)
        let firstBlock = ObjectIdentifier(first!.geometry)
        first = nil
        let second = layer.presentationProperties(atLocalTime: 0.5)
        XCTAssertEqual(ObjectIdentifier(second.geometry), firstBlock, "the released frame's block is reused")
        XCTAssertEqual(second.position, CGPoint(x: 50, y: 7))
        XCTAssertEqual(second.opacity, 0.5)
        XCTAssertEqual(second.bounds, CGRect(x: 0, y: 0, width: 10, height: 10), "unanimated values come from the model")
        XCTAssertFalse(second.geometry === layer.properties.geometry)
    }

    func testAModelChangeBetweenFramesReachesTheReusedBlock() {
        let layer = animatedLayer()
        _ = layer.presentationProperties(atLocalTime: 0.25)
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 40)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let next = layer.presentationProperties(atLocalTime: 0.5)
        XCTAssertEqual(next.bounds, CGRect(x: 0, y: 0, width: 30, height: 40))
        XCTAssertEqual(next.backgroundColor?.red, 1)
        XCTAssertEqual(next.position.x, 50)
    }

    func testLayersWithoutGeometryAnimationsShareTheModelBlock() {
        let layer = CALayer()
        let spin = CABasicAnimation(keyPath: "sublayerTransform.rotation.z")
        spin.fromValue = 0.0; spin.toValue = 1.0; spin.duration = 1
        layer.add(spin, forKey: "spin")
        let presented = layer.presentationProperties(atLocalTime: 0.5)
        XCTAssertTrue(presented.geometry === layer.properties.geometry, "nothing in the geometry block is animated")
        XCTAssertNil(layer.reusableGeometry.load(ordering: .relaxed))
    }

    func testConcurrentEvaluationsOfOneLayerAgreeWithSerialOnes() {
        nonisolated(unsafe) let layer = animatedLayer()
        let times: [Double] = (0..<64).map { Double($0) / 64 }
        let rounds = 50
        let expected: [Double] = times.map { layer.presentationProperties(atLocalTime: $0).position.x }
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Double>.allocate(capacity: times.count * rounds)
        defer { results.deallocate() }
        nonisolated(unsafe) var heldMismatches = 0
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: rounds) { round in
            for i in times.indices {
                // Some results are held while others are taken: both paths race on the slot.
                let held = layer.presentationProperties(atLocalTime: times[i])
                results[round * times.count + i] = layer.presentationProperties(atLocalTime: times[i]).position.x
                if held.position.x != expected[i] { lock.lock(); heldMismatches += 1; lock.unlock() }
            }
        }
        XCTAssertEqual(heldMismatches, 0)
        for round in 0..<rounds {
            XCTAssertEqual(Array(results[(round * times.count)..<((round + 1) * times.count)]), expected)
        }
    }
}
