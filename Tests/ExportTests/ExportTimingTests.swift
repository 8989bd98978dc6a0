import XCTest
import Lamina

/// The export-timing lint (Apple's two pitfalls) and `AVSynchronizedLayer`.
final class ExportTimingTests: XCTestCase {
    func fade(begin: Double, duration: Double = 1, removed: Bool) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0
        a.toValue = 1
        a.beginTime = begin
        a.duration = duration
        a.isRemovedOnCompletion = removed
        return a
    }

    func testBeginTimeZeroReplacedByHostTimeIsNamed() {
        let root = CALayer()
        let title = CALayer()
        title.name = "title"
        root.addSublayer(title)
        // Added while a host clock reads 5000 s: beginTime 0 becomes 5000.
        title.add(fade(begin: 0, removed: false), forKey: "fadeIn", atMediaTime: 5000)
        let warnings = ExportLint.warnings(root, from: 0, to: 10)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("root/title"), warnings[0])
        XCTAssertTrue(warnings[0].contains("\"fadeIn\" on opacity"), warnings[0])
        XCTAssertTrue(warnings[0].contains("AVCoreAnimationBeginTimeAtZero"), warnings[0])
    }

    func testRemovedOnCompletionBeforeTheEndIsNamed() {
        let root = CALayer()
        root.add(fade(begin: AVCoreAnimationBeginTimeAtZero, removed: true), forKey: nil, atMediaTime: 0)
        let warnings = ExportLint.warnings(root, from: 0, to: 2)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("(no key)"), warnings[0])
        XCTAssertTrue(warnings[0].contains("isRemovedOnCompletion = false"), warnings[0])
    }

    func testExportReadyAnimationsPass() {
        let root = CALayer()
        root.add(fade(begin: AVCoreAnimationBeginTimeAtZero, removed: false), forKey: "a", atMediaTime: 0)
        root.add(fade(begin: 1, duration: 5, removed: true), forKey: "b", atMediaTime: 0)  // outlasts the video
        XCTAssertEqual(ExportLint.warnings(root, from: 0, to: 3), [])
    }

    func testSynchronizedLayerFollowsTheTimeline() {
        let root = CALayer()
        let synchronized = AVSynchronizedLayer(timeline: PlaybackTimeline(itemTime: 2, rate: 1, hostTime: 10))
        root.addSublayer(synchronized)
        let child = CALayer()
        synchronized.addSublayer(child)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0
        move.toValue = 100
        move.duration = 4
        move.beginTime = AVCoreAnimationBeginTimeAtZero
        child.add(move, forKey: "move", atMediaTime: 0)
        func x(at t: Double) -> CGFloat { PresentationTree.evaluate(root, at: t).layers[2].properties.position.x }
        XCTAssertEqual(x(at: 11), 75, accuracy: 1e-9)  // item time 3
        XCTAssertEqual(x(at: 10), 50, accuracy: 1e-9)  // item time 2
        synchronized.timeline = PlaybackTimeline(itemTime: 1, rate: 0, hostTime: 10)  // paused at 1 s
        XCTAssertEqual(x(at: 10), 25, accuracy: 1e-9)
        XCTAssertEqual(x(at: 500), 25, accuracy: 1e-9)
        synchronized.timeline = PlaybackTimeline(itemTime: 0, rate: 2, hostTime: 0)  // double speed
        XCTAssertEqual(x(at: 1), 50, accuracy: 1e-9)
        XCTAssertEqual(PlaybackTimeline(itemTime: 1, rate: 2, hostTime: 3).itemTime(at: 4), 3)
    }
}
