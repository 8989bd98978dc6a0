import Foundation
import Synchronization
import XCTest
#if canImport(Testing)
import Testing
#endif

/// When snapshot assertions write references instead of comparing.
/// swift-snapshot-testing's `SnapshotTestingConfiguration.Record`.
public enum SnapshotRecordMode: String, Sendable {
    /// Write every reference anew (each assertion fails, so nothing goes in unseen).
    case all
    /// Write references that do not exist yet, and fail those assertions (the default).
    case missing
    /// Write the references of assertions that fail (and still fail them).
    case failed
    /// Never write: a missing reference is a failure.
    case never

    /// The mode in effect: `withSnapshotTesting(record:)`, else the environment variable
    /// `SNAPSHOT_TESTING_RECORD` (`all`, `missing`, `failed`, `never`), else `.missing`.
    public static var current: SnapshotRecordMode {
        if let scoped = SnapshotTestingScope.record { return scoped }
        if let value = ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"], let mode = SnapshotRecordMode(rawValue: value) {
            return mode
        }
        return .missing
    }
}

enum SnapshotTestingScope {
    @TaskLocal static var record: SnapshotRecordMode?
}

/// Runs `body` with snapshot assertions in `record` mode (scoped: other tests are unaffected).
public func withSnapshotTesting<T>(record: SnapshotRecordMode, operation body: () throws -> T) rethrows -> T {
    try SnapshotTestingScope.$record.withValue(record, operation: body)
}

/// Asserts that `value`'s snapshot matches its reference file, in the shape of
/// swift-snapshot-testing's `assertSnapshot`. Works under XCTest and Swift Testing.
///
/// The reference is `__Snapshots__/<TestFile>/<testName>.<n>.<ext>` beside the test file, where
/// n counts this test's assertions from 1, or `<testName>.<name>.<ext>` when `named` is given.
/// On the first run (no reference) the snapshot is recorded and the assertion fails with the
/// path; on a mismatch the actual snapshot and a difference (for images `.actual.png` and
/// `.diff.png`) are written beside the reference and named in the failure.
public func assertSnapshot<Value, Format>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value, Format>,
    named name: String? = nil,
    record: SnapshotRecordMode? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    let failure = verifySnapshot(of: try value(), as: snapshotting, named: name, record: record, file: filePath, testName: testName)
    guard let failure else { return }
    #if canImport(Testing)
    if Test.current != nil {
        Issue.record(Comment(rawValue: failure), sourceLocation: SourceLocation(
            fileID: String(describing: fileID), filePath: String(describing: filePath), line: Int(line), column: Int(column)))
        return
    }
    #endif
    XCTFail(failure, file: filePath, line: line)
}

/// `assertSnapshot`'s check without reporting: nil when the snapshot matches, else the failure
/// message (after recording or writing the difference files as `assertSnapshot` does).
///
/// - Parameter snapshotDirectory: where references live (default `__Snapshots__/<TestFile>`
///   beside the test file).
public func verifySnapshot<Value, Format>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value, Format>,
    named name: String? = nil,
    record: SnapshotRecordMode? = nil,
    snapshotDirectory: String? = nil,
    file filePath: StaticString = #filePath,
    testName: String = #function
) -> String? {
    let mode = record ?? SnapshotRecordMode.current
    let testFile = URL(fileURLWithPath: String(describing: filePath))
    let folder = snapshotDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__", isDirectory: true)
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent, isDirectory: true)
    let test = sanitizedName(testName)
    let identifier = name.map(sanitizedName) ?? String(SnapshotCounter.next(folder.path + "/" + test))
    let reference = folder.appendingPathComponent("\(test).\(identifier).\(snapshotting.pathExtension)")
    let artifactBase = folder.appendingPathComponent("\(test).\(identifier)")

    let snapshot: Format
    do { snapshot = try snapshotting.snapshot(value()) } catch { return "cannot take the snapshot: \(error)" }
    func write() -> String? {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try snapshotting.diffing.toData(snapshot).write(to: reference, options: .atomic)
            return nil
        } catch {
            return "cannot record \(reference.path): \(error)"
        }
    }
    let exists = FileManager.default.fileExists(atPath: reference.path)
    if mode == .all || (!exists && mode != .never) {
        if let problem = write() { return problem }
        return "recorded a snapshot at \(reference.path)\(exists ? " (record mode)" : " (there was none)"); "
            + "look at it, then run again without recording"
    }
    guard exists else {
        return "no reference at \(reference.path) and recording is off (SNAPSHOT_TESTING_RECORD=never)"
    }
    let stored: Format
    do { stored = try snapshotting.diffing.fromData(Data(contentsOf: reference)) } catch {
        return "cannot read the reference \(reference.path): \(error)"
    }
    guard let (message, artifacts) = snapshotting.diffing.diff(stored, snapshot) else {
        removeStaleArtifacts(folder: folder, base: artifactBase.lastPathComponent)
        return nil
    }
    var written: [String] = []
    for artifact in artifacts {
        let url = URL(fileURLWithPath: artifactBase.path + "." + artifact.suffix)
        if (try? artifact.data.write(to: url, options: .atomic)) != nil { written.append(url.path) }
    }
    var text = "snapshot does not match \(reference.path): \(message)"
    if !written.isEmpty { text += "\n" + written.map { "  wrote \($0)" }.joined(separator: "\n") }
    if mode == .failed {
        if let problem = write() { return text + "\n" + problem }
        text += "\n  recorded the new snapshot (record mode failed)"
    }
    return text
}

/// `testFoo()` → `testFoo`; other characters that do not belong in file names become `_`.
func sanitizedName(_ name: String) -> String {
    let trimmed = name.hasSuffix("()") ? String(name.dropLast(2)) : name
    return String(trimmed.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" })
}

/// Files a previous failure left beside a reference (`NAME.actual.png`, `NAME.diff.png` …).
private func removeStaleArtifacts(folder: URL, base: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    for file in names where file.hasPrefix(base + ".actual.") || file.hasPrefix(base + ".diff.") {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(file))
    }
}

/// Numbers the unnamed assertions of each test: 1, 2, 3 … in the order they run.
enum SnapshotCounter {
    private static let counts = Mutex<[String: Int]>([:])

    static func next(_ key: String) -> Int {
        counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }
}
