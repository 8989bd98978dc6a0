import Foundation
import Synchronization
import Geometry
import Rendering

/// A frame ready for the backend: its render plan and the input images it was planned with.
struct PlannedFrame {
    var plan: RenderPlan
    /// The frame's inputs (an input video's frames), which the backend may forget once drawn.
    var inputs: [ObjectIdentifier: CGImage]
}

/// Plans the frames of a run on a thread of its own, ahead of the backend: frame n + 1's
/// evaluation, render plan and content rasterization overlap frame n's drawing, as WebRender
/// builds frames beside its renderer. Its output is the frames in order, each exactly what
/// planning it on the calling thread gives (a frame depends only on the tree and its time).
///
/// The thread reads the layer tree and the content cache while the caller draws: nothing else
/// may use them until `stop` returns. At most two planned frames wait (the queue's one and the
/// one being handed over).
final class PlanAhead: @unchecked Sendable {
    /// The drawing thread, which waits here for its next frame, watches the queue a few tens of
    /// microseconds before it sleeps.
    private let queue = BoundedQueue<Result<PlannedFrame, ExportError>>(capacity: 1, spins: 20_000)
    /// Frames drawn, handed back to be freed on the planning thread: their memory came from its
    /// malloc arena, and freeing it on the drawing thread would contend for that arena's lock.
    private let spent = Mutex<[PlannedFrame]>([])
    private let finished = DispatchSemaphore(value: 0)
    private let plan: (Int) throws(ExportError) -> PlannedFrame
    /// Whether planning paces the frames taken so far.
    private var pace = PlanningPace()

    /// Starts planning `frames` in order with `plan`, which runs on the new thread only.
    init(frames: ClosedRange<Int>, plan: @escaping (Int) throws(ExportError) -> PlannedFrame) {
        self.plan = plan
        // The thread holds the object until it has signalled `finished`.
        let thread = Thread { [self] in
            for index in frames {
                _ = spent.withLock { frames -> [PlannedFrame] in defer { frames = [] }; return frames }
                let frame: Result<PlannedFrame, ExportError>
                do throws(ExportError) { frame = .success(try self.plan(index)) } catch { frame = .failure(error) }
                guard queue.put(frame), case .success = frame else { break }
            }
            finished.signal()
        }
        thread.name = "lamina planner"  // at most 15 bytes: what Linux keeps of a thread name
        thread.start()
    }

    /// The next frame in order, waiting for it; throws what planning it threw.
    func next() throws(ExportError) -> PlannedFrame {
        // The thread stops only after a failure it queued, so a frame asked for always comes.
        let (frame, waited) = queue.takeNotingWait()
        pace.noteFrame(waitedFor: waited)
        guard let frame else { throw .cancelled }
        return try frame.get()
    }

    /// Whether planning is what the frames wait for (`PlanningPace`). Drawing faster then gains
    /// nothing, while the drawing's threads take cores from the planning thread. (Called from
    /// the drawing thread only.)
    var pacesFrames: Bool { pace.paces }

    /// Hands a drawn frame back, for the planning thread to free.
    func recycle(_ frame: PlannedFrame) {
        spent.withLock { $0.append(frame) }
    }

    /// Drops what is planned and waits until the thread has let go of the tree.
    func stop() {
        queue.abandon()
        finished.wait()
    }
}

/// Whether planning paces a run's frames, from whether each frame asked for had to be waited
/// for: from when three of the last four were until eight in a row were not. Slower to leave
/// than to enter, since drawn on fewer threads frames are ready now and then while planning is
/// still what they wait for.
struct PlanningPace {
    /// Whether each of the last eight frames had to be waited for (bit 0: the latest).
    private var waits: UInt8 = 0
    private(set) var paces = false

    mutating func noteFrame(waitedFor waited: Bool) {
        waits = waits << 1 | (waited ? 1 : 0)
        paces = paces ? waits != 0 : (waits & 0b1111).nonzeroBitCount >= 3
    }
}
