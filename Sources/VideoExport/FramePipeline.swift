import Foundation
import Synchronization
import Rendering
import ImageIO

/// Hands rendered frames to an encoder on a writer thread of its own, so that drawing frame n+1
/// overlaps with encoding frame n.
///
/// A bounded queue (default 3 frames) between the two gives back-pressure: when the encoder is
/// slower the render loop waits, and at most `depth` frames are ever held, so memory stays flat
/// however long the video. With `depth` 0 the frames are written on the caller's thread
/// (sequential, for comparison).
final class FramePipeline: @unchecked Sendable {
    private let encoder: FFmpegProcess
    private let straightAlpha: Bool
    private let queue: BoundedQueue<(Int, Image)>?
    private let observer: (@Sendable (Int, Image) -> Void)?
    private let writerDone = DispatchSemaphore(value: 0)
    private let failure = Mutex<ExportError?>(nil)
    private let times = Mutex<(convert: Double, write: Double)>((0, 0))

    /// - Parameters:
    ///   - depth: frames that may wait for the encoder; 0 writes synchronously.
    ///   - observer: sees every frame (premultiplied, before conversion) on the writer thread.
    init(encoder: FFmpegProcess, straightAlpha: Bool, depth: Int, observer: (@Sendable (Int, Image) -> Void)?) {
        self.encoder = encoder
        self.straightAlpha = straightAlpha
        self.observer = observer
        queue = depth > 0 ? BoundedQueue(capacity: depth) : nil
        if let queue {
            let thread = Thread { [self] in
                while let (index, image) = queue.take() {
                    if failure.withLock({ $0 != nil }) { continue }  // drain after a failure
                    do throws(ExportError) { try write(index, image) } catch { failure.withLock { $0 = error }; queue.abandon() }
                }
                writerDone.signal()
            }
            thread.name = "lamina frame writer"
            thread.start()
        } else {
            writerDone.signal()
        }
    }

    /// Queues (or writes) frame `index`; throws the writer's error once it has failed.
    func submit(_ index: Int, _ image: Image) throws(ExportError) {
        if let error = failure.withLock({ $0 }) { throw error }
        if let queue {
            if !queue.put((index, image)), let error = failure.withLock({ $0 }) { throw error }
        } else {
            try write(index, image)
        }
    }

    /// Waits for the queued frames to be written and the encoder to finish the file.
    func finish() throws(ExportError) {
        queue?.close()
        waitForWriter()
        if let error = failure.withLock({ $0 }) {
            encoder.terminate()
            throw error
        }
        try encoder.finish()
    }

    /// Drops queued frames and stops the encoder (failure or cancellation).
    func abandon() {
        queue?.abandon()
        encoder.terminate()
        waitForWriter()
    }

    /// Waits until the writer thread has ended (any number of times).
    private func waitForWriter() {
        writerDone.wait()
        writerDone.signal()
    }

    /// Seconds the render side waited for room in the queue (the encoder was the limit).
    var renderWaitSeconds: Double { queue?.putWait ?? 0 }
    /// Seconds the writer waited for frames (rendering was the limit).
    var writerWaitSeconds: Double { queue?.takeWait ?? 0 }
    /// Seconds spent un-premultiplying and writing into the encoder's pipe (blocked while it encodes).
    var convertSeconds: Double { times.withLock { $0.convert } }
    var writeSeconds: Double { times.withLock { $0.write } }

    private func write(_ index: Int, _ image: Image) throws(ExportError) {
        observer?(index, image)
        let t0 = BoundedQueue<Int>.now()
        var pixels = image.pixels
        if straightAlpha { PremultipliedAlpha.unpremultiply(&pixels) }
        let t1 = BoundedQueue<Int>.now()
        let result: Result<Void, ExportError> = pixels.withUnsafeBytes { raw in Result { () throws(ExportError) in try encoder.write(raw) } }
        try result.get()
        let t2 = BoundedQueue<Int>.now()
        times.withLock { $0.convert += t1 - t0; $0.write += t2 - t1 }
    }
}
