import Foundation
import Synchronization
import Export

/// What the preview shows of a frame: one backend's picture, or their difference.
public enum PreviewView: String, Sendable, CaseIterable {
    case gpu, cpu
    /// The amplified difference image of the GPU and CPU frames (`ImageComparison.differenceImage`).
    case diff

    /// The backend that draws this view (nil for the difference, which needs both).
    var backend: BackendKind? {
        switch self {
        case .gpu: .gpu
        case .cpu: .cpu
        case .diff: nil
        }
    }
}

/// Identifies a frame picture: scene version, time, view (backend) and output size.
struct FrameKey: Hashable, Sendable {
    var version: Int
    /// The frame's time, as `FrameClock` computed it.
    var time: Double
    var view: PreviewView
    var width: Int
    var height: Int
}

/// Encoded frames, least recently used dropped first once they pass a byte budget.
final class FrameCache: Sendable {
    private struct Entry { var bytes: [UInt8]; var lastUse: UInt64 }
    private struct Store { var entries: [FrameKey: Entry] = [:]; var total = 0; var clock: UInt64 = 0 }
    private let store = Mutex(Store())
    let budget: Int

    init(budget: Int) { self.budget = budget }

    subscript(key: FrameKey) -> [UInt8]? {
        store.withLock { s in
            guard var entry = s.entries[key] else { return nil }
            s.clock += 1
            entry.lastUse = s.clock
            s.entries[key] = entry
            return entry.bytes
        }
    }

    func insert(_ bytes: [UInt8], for key: FrameKey) {
        store.withLock { s in
            guard bytes.count <= budget else { return }
            s.clock += 1
            if let old = s.entries.updateValue(Entry(bytes: bytes, lastUse: s.clock), forKey: key) { s.total -= old.bytes.count }
            s.total += bytes.count
            while s.total > budget, let oldest = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                s.total -= oldest.value.bytes.count
                s.entries[oldest.key] = nil
            }
        }
    }

    /// Drops every frame of versions before `version` (they can no longer be asked for).
    func removeVersions(before version: Int) {
        store.withLock { s in
            for (key, entry) in s.entries where key.version < version {
                s.total -= entry.bytes.count
                s.entries[key] = nil
            }
        }
    }

    var byteCount: Int { store.withLock { $0.total } }
    var count: Int { store.withLock { $0.entries.count } }
}
