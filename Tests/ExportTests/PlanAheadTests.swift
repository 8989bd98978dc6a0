import XCTest
import Synchronization
import Lamina
@testable import Export
import TestSupport

/// `FrameRenderer.plansAhead`: frames planned on a second thread while the one before draws are
/// the frames planning them in turn gives, failures and cancellations arrive at the frame they
/// belong to, and the planning thread has let go of the tree when the render returns.
final class PlanAheadTests: XCTestCase {
    private let clock = FrameClock(framesPerSecond: 30)

    /// A 32×8 root with a block moving right 1 point a frame, and a shape layer whose path grows.
    private func scene() -> CALayer {
        let root = movingBlock(width: 32, frames: 20)
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        shape.fillColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        let grow = CABasicAnimation(keyPath: "path")
        grow.fromValue = CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 4, height: 4), transform: nil)
        grow.toValue = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 8), transform: nil)
        grow.duration = 20.0 / 30
        grow.fillMode = .both
        grow.isRemovedOnCompletion = false
        shape.add(grow, forKey: "grow", atMediaTime: 0)
        root.insertSublayer(shape, at: 0)
        return root
    }

    private func renderer(planningAhead: Bool) throws -> FrameRenderer {
        let renderer = try FrameRenderer(width: 32, height: 8, backend: .cpu)
        renderer.plansAhead = planningAhead
        renderer.planningAheadThreshold = 0  // from the first frame, however quick it is to plan
        return renderer
    }

    func testFramesPlannedAheadAreTheFramesPlannedInTurn() throws {
        let root = scene()
        let ahead = MemorySink(), inTurn = MemorySink()
        try renderer(planningAhead: true).render(root, frames: 0...20, clock: clock, into: ahead)
        try renderer(planningAhead: false).render(root, frames: 0...20, clock: clock, into: inTurn)
        XCTAssertTrue(ahead.isFinished)
        XCTAssertEqual(ahead.frames.map(\.index), Array(0...20))
        XCTAssertEqual(ahead.images.map(\.pixels), inTurn.images.map(\.pixels))
        // The block's left edge is at x = n in frame n (not one frame's picture repeated).
        XCTAssertEqual(ahead.images.map { image in (0..<image.width).first { image[$0, 4].r > 128 } },
                       (0...20).map { Optional($0) })
    }

    /// Inputs that draw with the render's backend (an AVFoundation composition's tracks) are
    /// asked for on the drawing thread, and nothing is planned ahead.
    func testInputsThatUseTheBackendKeepFramesOnTheDrawingThread() throws {
        let inputs = RecordingInputs(readableAhead: false)
        let sink = MemorySink()
        try renderer(planningAhead: true).render(scene(), frames: 0...9, clock: clock, inputs: inputs, into: sink)
        XCTAssertEqual(inputs.calls.map(\.frame), Array(0...9))
        XCTAssertTrue(inputs.calls.allSatisfy { $0.thread == pthread_self() })
        XCTAssertEqual(sink.frames.map(\.index), Array(0...9))
    }

    func testInputsAreAskedForOnThePlanningThreadInOrder() throws {
        let inputs = RecordingInputs()
        try renderer(planningAhead: true).render(scene(), frames: 0...9, clock: clock, inputs: inputs, into: MemorySink())
        XCTAssertEqual(inputs.calls.map(\.frame), Array(0...9))
        XCTAssertTrue(inputs.calls.allSatisfy { $0.thread != pthread_self() })

        // Below the threshold every frame is planned on the calling thread.
        let quick = RecordingInputs()
        let renderer = try FrameRenderer(width: 32, height: 8, backend: .cpu)
        renderer.planningAheadThreshold = 60  // a minute per frame
        try renderer.render(scene(), frames: 0...9, clock: clock, inputs: quick, into: MemorySink())
        XCTAssertEqual(quick.calls.map(\.frame), Array(0...9))
        XCTAssertTrue(quick.calls.allSatisfy { $0.thread == pthread_self() })
    }

    /// Each backend sets the default: the CPU backend plans ahead from a run's first frame (GL:
    /// `GLRendererTests.testPlanningAheadWaitsOnlyOnSoftwareRasterizers`).
    func testTheBackendSetsWhenARunPlansAhead() throws {
        let cpu = try FrameRenderer(width: 32, height: 8, backend: .cpu)
        XCTAssertEqual(cpu.planningAheadThreshold, 0)
        let inputs = RecordingInputs()
        try cpu.render(scene(), frames: 0...9, clock: clock, inputs: inputs, into: MemorySink())
        XCTAssertTrue(inputs.calls.allSatisfy { $0.thread != pthread_self() }, "every frame planned ahead")
    }

    /// A run starts on the calling thread and moves to the planning thread once three frames in a
    /// row took long enough to plan (here from frame 5 on, whose inputs take 10 ms to come).
    func testARunPlansAheadOnceFramesTakeLongEnough() throws {
        let inputs = RecordingInputs(slowFrom: 5)
        let renderer = try FrameRenderer(width: 32, height: 8, backend: .cpu)
        renderer.planningAheadThreshold = 3e-3
        try renderer.render(scene(), frames: 0...15, clock: clock, inputs: inputs, into: MemorySink())
        let calls = inputs.calls
        XCTAssertEqual(calls.map(\.frame), Array(0...15))
        XCTAssertTrue(calls.prefix(3).allSatisfy { $0.thread == pthread_self() }, "timed on the calling thread first")
        XCTAssertTrue(calls[5...7].allSatisfy { $0.thread == pthread_self() }, "the slow frames timed there too")
        XCTAssertTrue(calls[8...].allSatisfy { $0.thread != pthread_self() }, "then planned ahead")
    }

    /// Planning that takes 10 ms a frame paces a quick draw: from the third frame waited for on
    /// the backend is told so (and leaves a core to the planning thread); a draw that takes 10 ms
    /// a frame paces planning, and the backend is never told it waits. Told false when the run
    /// ends.
    func testTheBackendIsToldWhenPlanningPacesTheFrames() throws {
        for slowPlanning in [true, false] {
            let backend = PacingRecorder(drawing: slowPlanning ? 0 : 0.01)
            let renderer = FrameRenderer(width: 32, height: 8, backend: backend)
            renderer.planningAheadThreshold = 0
            try renderer.render(scene(), frames: 0...11, clock: clock, inputs: RecordingInputs(slowFrom: slowPlanning ? 0 : nil),
                                into: MemorySink())
            let told = backend.told
            XCTAssertEqual(told.count, 12 + 1, "once per frame and once at the end")
            XCTAssertEqual(told.last, false)
            if slowPlanning {
                XCTAssertEqual(told.prefix(2), [false, false], "two waits are not yet three of the last four")
                XCTAssertEqual(Array(told[3..<12]), Array(repeating: true, count: 9))
                XCTAssertEqual(backend.threadsDrawing.prefix(2), [2, 2])
                XCTAssertEqual(Array(backend.threadsDrawing[3...]), Array(repeating: 1, count: 9), "a core left to planning")
                XCTAssertEqual(backend.cpu.drawingThreads, 2, "all threads again after the run")
            } else {
                // The first frame is waited for (nothing is planned before the run starts); after
                // that each frame is ready before it is asked for.
                XCTAssertEqual(told.filter { $0 }.count, 0)
                XCTAssertEqual(backend.threadsDrawing, Array(repeating: 2, count: 12))
            }
        }
    }

    /// Pacing starts at the third of four frames waited for and ends only after eight in a row
    /// were ready: a frame now and then ready does not end it.
    func testPlanningPacesFromThreeWaitsInFourUntilEightFramesAreReady() {
        var pace = PlanningPace()
        var seen: [Bool] = []
        for waited in [true, false, true, false, true, true, false, true, false, false, false, false, false, false, false, false, false] {
            pace.noteFrame(waitedFor: waited)
            seen.append(pace.paces)
        }
        // Frames 0–4: at most two waits in any four; 5: the third; 15: the eighth ready in a row (8–15).
        XCTAssertEqual(seen, Array(repeating: false, count: 5) + Array(repeating: true, count: 10) + [false, false])
    }

    /// A failure while planning frame 6 ahead arrives after frames 0–5 are drawn, as it does
    /// planning in turn, and the sink is cancelled.
    func testAFailurePlanningAheadArrivesAtItsFrame() throws {
        for planningAhead in [true, false] {
            let sink = MemorySink()
            var done = 0
            XCTAssertThrowsError(try renderer(planningAhead: planningAhead).render(
                scene(), frames: 0...20, clock: clock, inputs: RecordingInputs(failingAt: 6), into: sink,
                progress: { done = $0 })) { error in
                XCTAssertEqual(error as? ExportError, .badInput(path: "input.mov", reason: "frame 6 cannot be decoded"))
            }
            XCTAssertEqual(done, 6, "planning ahead: \(planningAhead)")
            XCTAssertTrue(sink.frames.isEmpty)
            XCTAssertFalse(sink.isFinished)
        }
    }

    /// Cancelled after 3 frames: the render throws `.cancelled`, and once it returns nothing
    /// plans any more (at most the two frames after the last drawn were planned).
    func testCancellingStopsThePlanningThreadBeforeReturning() throws {
        let inputs = RecordingInputs()
        var done = 0
        XCTAssertThrowsError(try renderer(planningAhead: true).render(
            scene(), frames: 0...200, clock: clock, inputs: inputs, into: MemorySink(),
            isCancelled: { done >= 3 }, progress: { done = $0 })) { error in
            XCTAssertEqual(error as? ExportError, .cancelled)
        }
        let planned = inputs.calls.count
        XCTAssertGreaterThanOrEqual(planned, 3)
        XCTAssertLessThanOrEqual(planned, 3 + 2)
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(inputs.calls.count, planned)
    }
}

/// Frame inputs with no images that record which frame was asked for on which thread, fail at
/// one frame, or take 10 ms from one frame on.
private final class RecordingInputs: FrameInputs, @unchecked Sendable {
    private let recorded = Mutex<[(frame: Int, thread: pthread_t)]>([])
    private let failingAt: Int?
    private let slowFrom: Int?

    init(failingAt: Int? = nil, slowFrom: Int? = nil, readableAhead: Bool = true) {
        (self.failingAt, self.slowFrom, isReadableAhead) = (failingAt, slowFrom, readableAhead)
    }

    var calls: [(frame: Int, thread: pthread_t)] { recorded.withLock { $0 } }
    let isReadableAhead: Bool

    func images(forFrame index: Int) throws(ExportError) -> [ObjectIdentifier: CGImage] {
        recorded.withLock { $0.append((index, pthread_self())) }
        if index == failingAt { throw .badInput(path: "input.mov", reason: "frame \(index) cannot be decoded") }
        if let slowFrom, index >= slowFrom { Thread.sleep(forTimeInterval: 0.01) }
        return [:]
    }

    func close() {}
}

/// The CPU backend, drawing each frame at least `drawing` seconds, recording what it is told
/// about planning pacing the frames.
private final class PacingRecorder: RenderBackend {
    let name = "cpu"
    let cpu = CPURenderer(threads: 2)
    private let drawing: Double
    private(set) var told: [Bool] = []
    /// The CPU backend's drawing threads at each frame.
    private(set) var threadsDrawing: [Int] = []
    init(drawing: Double) { self.drawing = drawing }

    func render(_ plan: RenderPlan, images: ImageProvider, stopwatch: Stopwatch?) -> Image? {
        threadsDrawing.append(cpu.drawingThreads)
        if drawing > 0 { Thread.sleep(forTimeInterval: drawing) }
        return cpu.render(plan, images: images, stopwatch: stopwatch)
    }

    func planningPacesFrames(_ paces: Bool) {
        told.append(paces)
        cpu.planningPacesFrames(paces)
    }
}
