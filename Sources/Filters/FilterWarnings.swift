import Foundation
import Synchronization

/// Warnings about filters Lamina cannot draw: Core Animation ignores such filters silently;
/// Lamina ignores them too but says so once per message on standard error.
public enum FilterWarnings {
    private static let state = Mutex<(seen: Set<String>, recent: [String])>(([], []))

    /// Prints `message` the first time it is reported.
    public static func report(_ message: String) {
        let isNew = state.withLock { state -> Bool in
            state.recent.append(message)
            if state.recent.count > 64 { state.recent.removeFirst() }
            return state.seen.insert(message).inserted
        }
        if isNew { FileHandle.standardError.write(Data("warning: \(message)\n".utf8)) }
    }

    /// The last reported messages (repeats included), oldest first; for tests.
    public static var recent: [String] { state.withLock { $0.recent } }
}
