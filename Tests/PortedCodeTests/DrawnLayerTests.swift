import XCTest
import Lamina

/// How drawn layers reach the screen: contents scale, the timeline's displays, inspection,
/// the content cache, and transitions.
final class DrawnLayerTests: XCTestCase {
    func testContentsScaleSizesTheBackingStoreAndInspectShowsIt() {
        let pie = PieChartLayer()
        pie.bounds = CGRect(x: 0, y: 0, width: 80, height: 40)
        pie.contentsScale = 2
        pie.progress = 0.5
        let tree = PresentationTree.evaluate(pie, at: 0)
        XCTAssertEqual(tree.layers[0].drawing?.pixelSize.width, 160)
        XCTAssertEqual(tree.layers[0].drawing?.pixelSize.height, 80)
        XCTAssertTrue(PresentationJSON().line(for: tree).contains("\"drawnContentsSize\": [160, 80]"))
        let image = tree.layers[0].drawing?.draw()
        XCTAssertEqual(image?.width, 160, "drawn at contentsScale pixels per point")
    }

    func testATimelineFrameDisplaysMarkedLayersIntoTheirContents() {
        let previous = CATransaction.mediaClock
        CATransaction.mediaClock = ManualMediaClock(time: 0)
        // The clock it found is put back: a host clock left behind made later suites' animations
        // (added with beginTime 0) start at the host's time.
        defer { CATransaction.mediaClock = previous }
        let card = CardLayer()
        card.bounds = CGRect(x: 0, y: 0, width: 60, height: 40)
        XCTAssertTrue(card.needsDisplay())
        XCTAssertNil(card.contents)
        let timeline = LayerTimeline(root: card, time: 0)
        timeline.advance(to: 1.0 / 30)
        XCTAssertFalse(card.needsDisplay())
        let contents = card.contents as? CGImage
        XCTAssertEqual(contents?.width, 60)
        XCTAssertEqual(contents?.height, 40)
        XCTAssertNil(PresentationTree.evaluate(card, at: 1).layers[0].drawing, "the model's contents hold the drawing now")
        card.fillColor = .green
        card.setNeedsDisplay()
        XCTAssertNotNil(PresentationTree.evaluate(card, at: 1).layers[0].drawing, "marked again: drawn by the renderer")
    }

    func testStaticDrawnLayersAreDrawnOnceAndRedrawnWhenMarked() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        let card = CardLayer()
        card.frame = root.bounds
        root.addSublayer(card)
        let renderer = try FrameRenderer(width: 40, height: 40, backend: .cpu)
        for t in [0.0, 0.5, 1, 1.5] { _ = renderer.render(root, at: t) }
        XCTAssertEqual(renderer.contentCache.statistics.misses, 1, "one drawing for four frames")
        card.setNeedsDisplay()
        _ = renderer.render(root, at: 2)
        XCTAssertEqual(renderer.contentCache.statistics.misses, 2, "setNeedsDisplay draws it again")
        card.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        _ = renderer.render(root, at: 2)
        XCTAssertEqual(renderer.contentCache.statistics.misses, 3, "a new size is a new drawing")
    }

    func testADrawnLayerTakesPartInATransition() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        root.position = CGPoint(x: 20, y: 20)
        let pie = PieChartLayer()
        pie.frame = root.bounds
        pie.progress = 1
        pie.sliceColor = .green
        root.addSublayer(pie)
        let fade = CATransition()
        fade.duration = 1
        fade.beginTime = 1e-100
        pie.add(fade, forKey: kCATransition)
        pie.sliceColor = .red
        pie.setNeedsDisplay()
        let renderer = try FrameRenderer(width: 40, height: 40, backend: .cpu)
        let half = try XCTUnwrap(renderer.render(root, at: 0.5))
        let centre = half[20, 20]
        XCTAssertEqual(Int(centre.r), 128, accuracy: 3, "half the new red drawing")
        XCTAssertEqual(Int(centre.g), 128, accuracy: 3, "over half the old green one")
    }
}
