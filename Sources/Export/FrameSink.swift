import Foundation
import Synchronization
import Rendering

/// Where rendered frames go: PNG files, an encoder, a contact sheet, memory.
///
/// `FrameRenderer.render(_:frames:clock:inputs:into:)` calls `begin` once, `consume` for each
/// frame in order, then `finish` — or `cancel` after a failure or cancellation, after which the
/// sink leaves nothing under its output's name.
public protocol FrameSink: AnyObject {
    /// Called before the first frame renders: a sink that cannot take the frames (an output that
    /// exists, a folder that cannot be written) fails here, before any work.
    func begin(frames: ClosedRange<Int>) throws(ExportError)
    /// Takes frame `index` (premultiplied RGBA, top row first).
    func consume(_ index: Int, _ image: Image) throws(ExportError)
    /// Every frame was given: complete the output.
    func finish() throws(ExportError)
    /// Stop and remove what was written.
    func cancel()
}

extension FrameSink {
    public func begin(frames: ClosedRange<Int>) throws(ExportError) {}
}

/// Keeps every frame in memory, in order: for tests and for programs that process frames themselves.
public final class MemorySink: FrameSink, @unchecked Sendable {
    private let stored = Mutex<[(index: Int, image: Image)]>([])
    /// Whether `finish` was called (and `cancel` not).
    public private(set) var isFinished = false

    public init() {}

    /// The frames consumed so far, with their indexes.
    public var frames: [(index: Int, image: Image)] { stored.withLock { $0 } }
    /// The images consumed so far.
    public var images: [Image] { frames.map(\.image) }

    public func consume(_ index: Int, _ image: Image) throws(ExportError) { stored.withLock { $0.append((index, image)) } }
    public func finish() throws(ExportError) { isFinished = true }
    public func cancel() {
        stored.withLock { $0.removeAll() }
        isFinished = false
    }
}

/// Hands every frame to several sinks in turn (an encoder and a contact sheet).
public final class FanOutSink: FrameSink {
    public let sinks: [any FrameSink]

    public init(_ sinks: [any FrameSink]) { self.sinks = sinks }

    public func begin(frames: ClosedRange<Int>) throws(ExportError) {
        for sink in sinks { try sink.begin(frames: frames) }
    }

    public func consume(_ index: Int, _ image: Image) throws(ExportError) {
        for sink in sinks { try sink.consume(index, image) }
    }

    public func finish() throws(ExportError) {
        for sink in sinks { try sink.finish() }
    }

    public func cancel() {
        for sink in sinks { sink.cancel() }
    }
}
