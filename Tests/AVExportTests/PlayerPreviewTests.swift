import XCTest
import Lamina

/// Preview code: an AVPlayer plays an item, and an AVSynchronizedLayer(playerItem:) gives its
/// subtree the item's time, so the same title layer previews at the item's time.
final class PlayerPreviewTests: XCTestCase {
    var clock: ManualMediaClock!
    var previous: (any MediaClock)!

    override func setUp() {
        previous = CATransaction.mediaClock
        clock = ManualMediaClock(time: 100)
        CATransaction.mediaClock = clock
    }

    override func tearDown() { CATransaction.mediaClock = previous }

    func testSynchronizedLayerFollowsThePlayer() throws {
        let folder = try AVTestSupport.folder(self)
        let clip = try AVTestSupport.clip(folder, "clip.mp4", "color=c=black:s=32x24:r=30", seconds: 6, audio: false)
        let item = AVPlayerItem(url: clip)
        let player = AVPlayer(playerItem: item)
        XCTAssertEqual(item.status, .readyToPlay)
        XCTAssertEqual(item.duration.seconds, 6, accuracy: 0.05)

        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 32, height: 24)
        root.position = CGPoint(x: 16, y: 12)
        let synchronized = AVSynchronizedLayer(playerItem: item)
        synchronized.frame = root.bounds
        root.addSublayer(synchronized)
        let title = CALayer()
        title.frame = synchronized.bounds
        title.backgroundColor = UIColor.white.cgColor
        title.opacity = 0
        let fade = CAKeyframeAnimation(keyPath: "opacity")
        fade.values = [Float(0), Float(1), Float(1), Float(0)]
        fade.keyTimes = [0, 0.2, 0.8, 1]
        fade.beginTime = 1
        fade.duration = 5
        fade.isRemovedOnCompletion = false
        title.add(fade, forKey: "fade")
        synchronized.addSublayer(title)

        func opacity(at host: Double) -> Float {
            PresentationTree.evaluate(root, at: host).layers[2].properties.opacity
        }
        XCTAssertEqual(opacity(at: 100), 0, "paused at item time 0, before the fade")
        player.play()
        XCTAssertEqual(player.rate, 1)
        XCTAssertEqual(opacity(at: 101.5), 0.5, accuracy: 1e-5, "item time 1.5: halfway into the fade-in")
        XCTAssertEqual(opacity(at: 104), 1, accuracy: 1e-5)
        clock.currentTime = 103
        XCTAssertEqual(player.currentTime().seconds, 3, accuracy: 1e-3)
        player.pause()
        XCTAssertEqual(opacity(at: 200), 1, accuracy: 1e-5, "paused at item time 3")
        player.seek(to: CMTimeMake(value: 11, timescale: 2))
        XCTAssertEqual(opacity(at: 200), 0.5, accuracy: 1e-5, "item time 5.5: halfway into the fade-out")
        player.rate = 2
        clock.currentTime = 103.25
        XCTAssertEqual(player.currentTime().seconds, 6, accuracy: 1e-3, "twice as fast from 5.5")

        // The same tree renders the preview frame at a host time.
        let renderer = try FrameRenderer(width: 32, height: 24, backend: .cpu)
        player.seek(to: CMTimeMake(value: 3, timescale: 1))
        player.pause()
        let frame = try XCTUnwrap(renderer.render(root, at: 500))
        XCTAssertPixel(frame, 16, 12, (255, 255, 255, 255))
    }
}
