import Foundation

/// How to snapshot a value: turn it into a `Format` (an image, text) and compare two of those.
/// The shape of pointfreeco/swift-snapshot-testing's `Snapshotting`, so suites written against
/// it read the same; strategies for layers are `.image`, `.frames`, `.presentation` and `.video`.
public struct Snapshotting<Value, Format> {
    /// The reference file's extension (`png`, `json`, `txt`).
    public var pathExtension: String
    /// How references are stored and compared.
    public var diffing: Diffing<Format>
    /// The value's snapshot.
    public var snapshot: (Value) throws -> Format

    public init(pathExtension: String, diffing: Diffing<Format>, snapshot: @escaping (Value) throws -> Format) {
        self.pathExtension = pathExtension
        self.diffing = diffing
        self.snapshot = snapshot
    }

    /// This strategy for values that `transform` turns into this strategy's values.
    public func pullback<NewValue>(_ transform: @escaping (NewValue) throws -> Value) -> Snapshotting<NewValue, Format> {
        let snapshot = self.snapshot
        return Snapshotting<NewValue, Format>(pathExtension: pathExtension, diffing: diffing) { try snapshot(transform($0)) }
    }
}

/// Storing and comparing snapshots of one format.
public struct Diffing<Value> {
    /// The bytes of a reference file.
    public var toData: (Value) throws -> Data
    /// A reference file's value.
    public var fromData: (Data) throws -> Value
    /// nil when `actual` matches `reference`; otherwise why not, and files that show the
    /// difference (`name suffix` → bytes, e.g. `"diff.png"`), written beside the reference.
    public var diff: (_ reference: Value, _ actual: Value) -> (message: String, artifacts: [(suffix: String, data: Data)])?

    public init(toData: @escaping (Value) throws -> Data, fromData: @escaping (Data) throws -> Value,
                diff: @escaping (_ reference: Value, _ actual: Value) -> (message: String, artifacts: [(suffix: String, data: Data)])?) {
        self.toData = toData
        self.fromData = fromData
        self.diff = diff
    }
}

extension Diffing where Value == String {
    /// Text compared line by line; a failure shows the first lines that differ.
    public static var lines: Diffing { Diffing(
        toData: { Data($0.utf8) },
        fromData: { String(decoding: $0, as: UTF8.self) },
        diff: { reference, actual in
            guard reference != actual else { return nil }
            let old = reference.split(separator: "\n", omittingEmptySubsequences: false)
            let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
            var report: [String] = []
            for i in 0..<max(old.count, new.count) where report.count < 12 {
                let a = i < old.count ? String(old[i]) : nil, b = i < new.count ? String(new[i]) : nil
                guard a != b else { continue }
                if let a { report.append("−\(i + 1): \(a.prefix(300))") }
                if let b { report.append("+\(i + 1): \(b.prefix(300))") }
            }
            return ("\(report.count / 2 + report.count % 2) line(s) differ, first ones:\n" + report.joined(separator: "\n"),
                    [(suffix: "actual.txt", data: Data(actual.utf8))])
        })
    }
}
