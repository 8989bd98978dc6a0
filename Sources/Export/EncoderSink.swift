import Foundation
import Synchronization
import Rendering
import ImageIO

/// Frames into an ffmpeg process's standard input (raw RGBA), written by a thread of its own so
/// that drawing frame n+1 overlaps with encoding frame n.
///
/// A bounded queue (default 3 frames) between the two gives back-pressure: when the encoder is
/// slower the render loop waits, and at most `depth` frames are ever held, so memory stays flat
/// however long the video. With `depth` 0 the frames are written on the caller's thread
/// (sequential, for comparison). The sink writes only what ffmpeg's arguments name; the
/// `VideoExporter` around it owns the output file (temporary name, rename when complete).
public final class EncoderSink: FrameSink, @unchecked Sendable {
    private let encoder: FFmpegProcess
    private let straightAlpha: Bool
    private let queue: BoundedQueue<(Int, Image)>?
    private let stopwatch: Stopwatch?
    private let writerDone = DispatchSemaphore(value: 0)
    private let failure = Mutex<ExportError?>(nil)

    /// Starts ffmpeg with `arguments` (which read raw RGBA frames from standard input).
    ///
    /// - Parameters:
    ///   - straightAlpha: un-premultiply frames before writing them (outputs that keep alpha).
    ///   - depth: frames that may wait for the encoder; 0 writes synchronously.
    ///   - stopwatch: gets `encoderWait`, `writerWait`, `convert` and `write`.
    public init(arguments: [String], straightAlpha: Bool, depth: Int = 3, stopwatch: Stopwatch? = nil) throws(ExportError) {
        encoder = try FFmpegProcess(arguments: arguments, writesInput: true)
        self.straightAlpha = straightAlpha
        self.stopwatch = stopwatch
        queue = depth > 0 ? BoundedQueue(capacity: depth, waits: stopwatch.map { ($0, .encoderWait, .writerWait) }) : nil
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
    public func consume(_ index: Int, _ image: Image) throws(ExportError) {
        if let error = failure.withLock({ $0 }) { throw error }
        if let queue {
            if !queue.put((index, image)), let error = failure.withLock({ $0 }) { throw error }
        } else {
            try write(index, image)
        }
    }

    /// Waits for the queued frames to be written and the encoder to finish the file.
    public func finish() throws(ExportError) {
        queue?.close()
        waitForWriter()
        if let error = failure.withLock({ $0 }) {
            encoder.terminate()
            throw error
        }
        try encoder.finish()
    }

    /// Frees the render loop and the writer where they wait on an encoder that stopped reading
    /// (from any thread, for a cancellation); `cancel()` then stops the encoder.
    public func interrupt() {
        failure.withLock { if $0 == nil { $0 = .cancelled } }
        queue?.abandon()
        encoder.interrupt()
    }

    /// Drops queued frames and stops the encoder (failure or cancellation).
    public func cancel() {
        queue?.abandon()
        encoder.terminate()
        waitForWriter()
    }

    /// Waits until the writer thread has ended (any number of times).
    private func waitForWriter() {
        writerDone.wait()
        writerDone.signal()
    }

    private func write(_ index: Int, _ image: Image) throws(ExportError) {
        var pixels = image.pixels
        if straightAlpha { stopwatch.measure(.convert) { PremultipliedAlpha.unpremultiply(&pixels) } }
        try stopwatch.measure(.write) { () throws(ExportError) in
            let result: Result<Void, ExportError> = pixels.withUnsafeBytes { raw in Result { () throws(ExportError) in try encoder.write(raw) } }
            try result.get()
        }
    }
}
