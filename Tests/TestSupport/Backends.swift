import XCTest
import Lamina

/// The GPU backend for tests: one GL renderer per process, made on first use. XCTest runs test
/// methods serially on one thread, so the context stays current where it was made.
public enum TestBackends {
    nonisolated(unsafe) private static var made: Result<GLRenderer, GLContextError>?

    /// The shared GL renderer; skips the test when no EGL display can be made (only a machine
    /// with no EGL at all lands there: CI has Mesa, so it never skips there).
    public static func gpu() throws -> GLRenderer {
        if made == nil {
            do { made = .success(try GLRenderer()) } catch { made = .failure(error) }
        }
        switch made! {
        case .success(let renderer): return renderer
        case .failure(let error): throw XCTSkip("no EGL display: \(error)")
        }
    }
}
