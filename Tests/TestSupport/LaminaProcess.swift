import Foundation
import XCTest

/// Runs the built `lamina` executable as a user would, its output through files (no pipe can fill).
public enum LaminaProcess {
    /// `lamina` next to the test bundle (`.build/<triple>/debug/`), or under the package's `.build`.
    public static let executable: URL? = {
        var folders: [URL] = []
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        folders += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        folders.append(Repository.root.appendingPathComponent(".build/debug"))
        folders.append(Repository.root.appendingPathComponent(".build/release"))
        return folders.map { $0.appendingPathComponent("lamina") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// What a finished run printed and returned.
    public struct Run {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
        public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status; self.stdout = stdout; self.stderr = stderr
        }
    }

    /// A started `lamina` whose standard error goes to a file (read it while it runs).
    public struct Started {
        public var process: Process
        public var stdoutURL: URL
        public var stderrURL: URL
        public var stderr: String { String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self) }

        /// Waits for the end (killing it after `timeout` seconds) and collects its output.
        public func finish(timeout: Double = 120) -> Run {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let out = String(decoding: (try? Data(contentsOf: stdoutURL)) ?? Data(), as: UTF8.self)
            try? FileManager.default.removeItem(at: stdoutURL)
            let err = stderr
            try? FileManager.default.removeItem(at: stderrURL)
            return Run(status: process.terminationStatus, stdout: out, stderr: err)
        }
    }

    /// Starts `lamina arguments` in `folder` with `environment` added to this process's; its
    /// output goes to files outside `folder` (so that `folder` holds only what lamina writes).
    public static func start(_ arguments: [String], in folder: URL, environment: [String: String] = [:],
                             file: StaticString = #filePath, line: UInt = #line) throws -> Started {
        guard let executable else {
            XCTFail("the lamina executable was not found next to the tests; run `swift build --build-tests` first", file: file, line: line)
            throw XCTSkip("no lamina executable")
        }
        let temp = FileManager.default.temporaryDirectory
        let outURL = temp.appendingPathComponent("lamina-test-stdout-\(UUID().uuidString)")
        let errURL = temp.appendingPathComponent("lamina-test-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Started(process: process, stdoutURL: outURL, stderrURL: errURL)
    }

    /// Runs `lamina arguments` in `folder` to its end (at most `timeout` seconds).
    public static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:], timeout: Double = 120,
                           file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        try start(arguments, in: folder, environment: environment, file: file, line: line).finish(timeout: timeout)
    }
}
