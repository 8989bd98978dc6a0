import Foundation
import XCTest

/// A fresh empty folder under the temporary directory.
public struct TemporaryFolder {
    public let url: URL

    /// Makes the folder; `prefix` names it for whoever finds one left behind.
    public init(prefix: String = "lamina-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A folder removed by `test`'s teardown.
    public init(for test: XCTestCase, prefix: String = "lamina-tests") throws {
        try self.init(prefix: prefix)
        let url = self.url
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The names in the folder, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Places in the repository, found from this source file (no SwiftPM resources needed).
public enum Repository {
    /// The package's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Examples/`: the seed programs' scene files and the demo.
    public static let examples = root.appendingPathComponent("Examples", isDirectory: true)
    /// `Sources/`.
    public static let sources = root.appendingPathComponent("Sources", isDirectory: true)
}

/// Deterministic pseudo-random numbers (SplitMix64), so failures reproduce.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
