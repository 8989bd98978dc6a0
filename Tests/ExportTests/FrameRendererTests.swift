import XCTest
import Lamina
import Demo
import TestSupport

/// `FrameRenderer` as the one frame loop: frames into sinks, inputs into the plan (never the
/// model), cancellation and failure leaving nothing, and the stage times it measures.
final class FrameRendererTests: XCTestCase {
    /// A 16×8 root with a block moving right 1 point a frame at 30 fps.
    private func movingBlock() -> CALayer { ExportTests.movingBlock(width: 16, frames: 10) }

    /// The x of the first red column of row 4.
    private func redColumn(_ image: Image) -> Int? { (0..<image.width).first { image[$0, 4].r > 128 } }

    func testFramesGoToTheSinkInOrderAtTheClocksTimes() throws {
        let renderer = try FrameRenderer(width: 16, height: 8, backend: .cpu)
        let sink = MemorySink()
        try renderer.render(movingBlock(), frames: 3...6, clock: FrameClock(framesPerSecond: 30), into: sink)
        XCTAssertTrue(sink.isFinished)
        XCTAssertEqual(sink.frames.map(\.index), [3, 4, 5, 6])
        // Frame n is at n/30 s: the block's left edge is at x = n.
        XCTAssertEqual(sink.images.map(redColumn), [3, 4, 5, 6])
        // The same frames rendered one by one, in another order, are the same bytes.
        for (index, image) in sink.frames.reversed() {
            XCTAssertEqual(renderer.render(movingBlock(), at: FrameClock(framesPerSecond: 30).time(ofFrame: index))?.pixels, image.pixels)
        }
    }

    /// A cancelled loop stops at the next frame, cancels the sink (a PNG sequence removes what
    /// it wrote) and throws `.cancelled`.
    func testCancellingRemovesThePNGsWritten() throws {
        let folder = try TemporaryFolder(for: self)
        let renderer = try FrameRenderer(width: 16, height: 8, backend: .cpu)
        let sink = PNGSink(pattern: folder.url.path + "/f%03d.png")
        var done = 0
        XCTAssertThrowsError(try renderer.render(movingBlock(), frames: 0...9, clock: FrameClock(), into: sink,
                                                 isCancelled: { done >= 4 }, progress: { done = $0 })) { error in
            XCTAssertEqual(error as? ExportError, .cancelled)
        }
        XCTAssertEqual(done, 4)
        XCTAssertEqual(try folder.contents(), [])
    }

    func testAPNGSequenceRefusesExistingFramesBeforeRendering() throws {
        let folder = try TemporaryFolder(for: self)
        try Data([1]).write(to: folder.file("f002.png"))
        let renderer = try FrameRenderer(width: 16, height: 8, backend: .cpu)
        var rendered = 0
        XCTAssertThrowsError(try renderer.render(movingBlock(), frames: 0...3, clock: FrameClock(),
                                                 into: PNGSink(pattern: folder.url.path + "/f%03d.png"), progress: { rendered = $0 })) { error in
            XCTAssertEqual((error as? ExportError)?.description, "\(folder.file("f002.png").path): already exists (use --overwrite to replace it)")
        }
        XCTAssertEqual(rendered, 0)
        XCTAssertEqual(try folder.contents(), ["f002.png"])
        // With overwrite the sequence is written, each file a PNG of its frame.
        try renderer.render(movingBlock(), frames: 0...3, clock: FrameClock(),
                            into: PNGSink(pattern: folder.url.path + "/f%03d.png", overwrite: true))
        XCTAssertEqual(try folder.contents(), ["f000.png", "f001.png", "f002.png", "f003.png"])
        XCTAssertEqual(redColumn(try ImageFile.read(contentsOf: folder.file("f002.png"))), 2)
    }

    /// A sink that fails at frame 2: the loop cancels every sink and throws the failure.
    func testASinkFailureCancelsTheOthers() throws {
        final class Failing: FrameSink {
            func consume(_ index: Int, _ image: Image) throws(ExportError) { if index == 2 { throw .renderFailed(frame: 2) } }
            func finish() throws(ExportError) {}
            func cancel() {}
        }
        let memory = MemorySink()
        let renderer = try FrameRenderer(width: 16, height: 8, backend: .cpu)
        XCTAssertThrowsError(try renderer.render(movingBlock(), frames: 0...5, clock: FrameClock(), into: FanOutSink([memory, Failing()]))) {
            XCTAssertEqual($0 as? ExportError, .renderFailed(frame: 2))
        }
        XCTAssertFalse(memory.isFinished)
        XCTAssertTrue(memory.frames.isEmpty, "cancelled sinks drop what they held")
    }

    /// Frame inputs become a layer's contents in the plan only: the model keeps its contents.
    func testFrameInputsAreDrawnWithoutTouchingTheModel() throws {
        final class Solid: FrameInputs {
            let layer: CALayer
            init(_ layer: CALayer) { self.layer = layer }
            func images(forFrame index: Int) throws(ExportError) -> [ObjectIdentifier: CGImage] {
                // Frame n: a 1×1 image whose green is n × 50.
                [ObjectIdentifier(layer): CGImage(width: 1, height: 1, premultipliedRGBA: [0, UInt8(index * 50), 0, 255])!]
            }
        }
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        root.position = CGPoint(x: 4, y: 4)
        let screen = CALayer()
        screen.frame = root.bounds
        root.addSublayer(screen)
        let sink = MemorySink()
        try FrameRenderer(width: 8, height: 8, backend: .cpu).render(root, frames: 1...3, clock: FrameClock(), inputs: Solid(screen), into: sink)
        XCTAssertEqual(sink.images.map { $0[4, 4].g }, [50, 100, 150])
        XCTAssertNil(screen.contents, "the model layer was not written")
    }

    /// The stopwatch gets every render stage; without one nothing is measured.
    func testTheStopwatchCollectsTheStages() throws {
        let renderer = try FrameRenderer(width: 64, height: 64, backend: .cpu)
        let root = CAShapeLayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        root.position = CGPoint(x: 32, y: 32)
        root.path = CGPath(ellipseIn: CGRect(x: 4, y: 4, width: 56, height: 56), transform: nil)
        root.fillColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let stopwatch = Stopwatch()
        let image = try XCTUnwrap(renderer.render(root, at: 0, stopwatch: stopwatch))
        XCTAssertEqual(image[32, 32].b, 255)
        let first = stopwatch.times
        XCTAssertGreaterThan(first.evaluate, 0)
        XCTAssertGreaterThan(first.plan, 0)
        XCTAssertEqual(first.raster, 0, "the first frame draws the new path a band at a time, without a raster of its own")
        XCTAssertGreaterThan(first.composite, 0)
        XCTAssertEqual(first.readback, 0, "the CPU backend reads nothing back")
        let second = try XCTUnwrap(renderer.render(root, at: 1, stopwatch: stopwatch))
        XCTAssertGreaterThan(stopwatch[.raster], 0, "asked for again, the unchanged path is rasterized and kept")
        XCTAssertEqual(second.pixels, image.pixels)
        let kept = stopwatch[.raster]
        _ = renderer.render(root, at: 2, stopwatch: stopwatch)
        XCTAssertEqual(stopwatch[.raster], kept, "and not rasterized again")
        XCTAssertGreaterThan(stopwatch[.composite], first.composite)
    }

    /// `lamina render` of every example scene writes the bytes `FrameRenderer` + `PNGSink` write
    /// (the CLI has no frame loop of its own), at several times and on both backends.
    func testTheCLIAndFrameRendererWriteTheSameBytesForEveryExample() throws {
        let folder = try TemporaryFolder(for: self)
        let scenes = try FileManager.default.contentsOfDirectory(atPath: Repository.examples.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThanOrEqual(scenes.count, 12)
        for name in scenes {
            let url = Repository.examples.appendingPathComponent(name)
            let scene = try SceneLoader.load(contentsOf: url)
            for backend in BackendKind.allCases {
                let target = SceneOutput(scene: scene)
                let renderer = backend == .gpu
                    ? FrameRenderer(width: target.width, height: target.height, scale: target.scale, background: scene.background,
                                    backend: try TestBackends.gpu())
                    : try target.makeRenderer(backend: backend)
                for time in [0, 1.25] {
                    let cli = folder.file("\(name)-\(backend)-\(time)-cli.png"), library = folder.file("\(name)-\(backend)-\(time)-library.png")
                    let run = try LaminaProcess.run(["render", url.path, "-o", cli.path, "--time", String(time), "--backend", backend.rawValue],
                                                    in: folder.url)
                    XCTAssertEqual(run.status, 0, run.stderr)
                    try renderer.render(scene.root, at: time, into: PNGSink(pattern: library.path))
                    XCTAssertEqual(try Data(contentsOf: cli), try Data(contentsOf: library), "\(name) at \(time) on \(backend)")
                }
            }
        }
    }

    /// The demo is `Examples/demo.json` as embedded at build time: the same tree as the file.
    func testTheDemoSceneIsTheExampleFile() throws {
        let folder = try TemporaryFolder(for: self)
        let embedded = try DemoJob.loadScene(into: folder.url)
        let file = try SceneLoader.load(contentsOf: Repository.examples.appendingPathComponent("demo.json"))
        let encoder = { (scene: Scene) in PresentationJSON(imageName: scene.assetNamer()) }
        for t in [0.0, 1.7, 6.2] {
            XCTAssertEqual(encoder(embedded).line(for: PresentationTree.evaluate(embedded.root, at: t)),
                           encoder(file).line(for: PresentationTree.evaluate(file.root, at: t)), "t = \(t)")
        }
        XCTAssertEqual(embedded.duration, 10)
        XCTAssertEqual([embedded.width, embedded.height], [1280, 720])
    }
}
