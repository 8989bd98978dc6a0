import XCTest
import Foundation
@testable import SceneFormat
import Lamina
@_exported import TestSupport

// Shared helpers of the scene-file tests: temporary scene folders, minimal image files, and a
// layer-by-layer comparison of presentation trees through `PresentationJSON`.

enum SceneTestSupport {
    /// This folder (`Tests/SceneFormatTests`), found from the source file so no SwiftPM resources are needed.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let malformedDirectory = testsDirectory.appendingPathComponent("Malformed", isDirectory: true)

    /// A PNG signature, IHDR for `width`×`height` (8-bit RGBA) and IEND: enough for a header reader.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] { PNGBytes.headerOnly(width: width, height: height) }

    /// A baseline JPEG's SOI, an APP0 segment and an SOF0 header for `width`×`height`.
    static func jpegHeader(width: UInt16, height: UInt16) -> [UInt8] { PNGBytes.jpegHeader(width: width, height: height) }

    /// A fresh empty folder under the temporary directory.
    static func makeTemporaryDirectory() throws -> URL { try TemporaryFolder(prefix: "lamina-scene-tests").url }

    /// Writes `files` (relative paths → bytes) under `directory`, creating folders.
    static func write(_ files: [String: [UInt8]], in directory: URL) throws {
        for (path, bytes) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
    }

    /// Images print as the last component of their source path, so a scene's asset and the
    /// `CGImage` Swift code makes for the same file print alike.
    static var encoder: PresentationJSON {
        PresentationJSON(imageName: { image in image.source.map { URL(fileURLWithPath: $0).lastPathComponent } })
    }

    /// The `lamina inspect` line of `root` at `time`.
    static func line(_ root: CALayer, at time: Double) -> String {
        encoder.line(for: PresentationTree.evaluate(root, at: time))
    }

    /// The layers of an inspect line as dictionaries (JSONSerialization), or nil when it does not parse.
    static func layers(ofLine line: String) -> [[String: Any]]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["layers"] as? [[String: Any]]
    }

    /// `value` as compact JSON text, for messages.
    static func text(_ value: Any?) -> String {
        guard let value else { return "(absent)" }
        if let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]),
           let s = String(data: data, encoding: .utf8) {
            return String(s.dropFirst().dropLast())
        }
        return "\(value)"
    }
}

extension XCTestCase {
    /// Loads `json` saved as `scene.json` in a new temporary folder holding `files`; fails the test
    /// with every problem when it does not load.
    func loadScene(_ json: String, files: [String: [UInt8]] = [:],
                   file: StaticString = #filePath, line: UInt = #line) -> Scene? {
        do {
            let directory = try SceneTestSupport.makeTemporaryDirectory()
            addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
            try SceneTestSupport.write(files.merging(["scene.json": Array(json.utf8)]) { $1 }, in: directory)
            return try SceneLoader.load(contentsOf: directory.appendingPathComponent("scene.json"))
        } catch let error as SceneLoadError {
            XCTFail("the scene did not load:\n\(error.description)", file: file, line: line)
        } catch {
            XCTFail("could not write the scene: \(error)", file: file, line: line)
        }
        return nil
    }

    /// The problems loading `json` reports (as printed), or [] with a test failure when it loads.
    func problems(_ json: String, fileName: String = "scene.json",
                  file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            _ = try SceneLoader.load(bytes: Array(json.utf8), fileName: fileName,
                                     baseDirectory: FileManager.default.temporaryDirectory)
            XCTFail("the scene loaded but should have been refused", file: file, line: line)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// Asserts that the scene's tree and `expected` (built by Swift calls) present identically at
    /// every time: the same layers in the same order with the same value for every inspect field.
    func assertSameTree(_ scene: Scene?, _ expected: CALayer, at times: [Double],
                        file: StaticString = #filePath, line: UInt = #line) {
        guard let scene else { return }
        for t in times {
            let loadedLine = SceneTestSupport.line(scene.root, at: t)
            let expectedLine = SceneTestSupport.line(expected, at: t)
            if loadedLine == expectedLine { continue }
            guard let loaded = SceneTestSupport.layers(ofLine: loadedLine),
                  let wanted = SceneTestSupport.layers(ofLine: expectedLine) else {
                XCTFail("at t = \(t) the inspect lines differ and do not parse:\n\(loadedLine)\n\(expectedLine)", file: file, line: line)
                continue
            }
            var differences: [String] = []
            if loaded.count != wanted.count {
                differences.append("\(loaded.count) layers loaded, \(wanted.count) built in Swift")
            }
            for (a, b) in zip(loaded, wanted) {
                let path = (b["path"] as? String) ?? "?"
                for key in Set(a.keys).union(b.keys).sorted() {
                    if let x = a[key], let y = b[key], NSArray(object: x).isEqual(NSArray(object: y)) { continue }
                    differences.append("\(path).\(key): scene \(SceneTestSupport.text(a[key])), Swift \(SceneTestSupport.text(b[key]))")
                }
            }
            XCTFail("at t = \(t) the loaded tree differs from the Swift one:\n" + differences.joined(separator: "\n"),
                    file: file, line: line)
        }
    }
}
