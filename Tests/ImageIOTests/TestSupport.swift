import Foundation
import Rendering
import XCTest
@_exported import TestSupport
@testable import ImageIO

/// The checked-in fixture files (Tests/ImageIOTests/Fixtures); see Fixtures/README.md.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name)))
    }
}

enum TestImages {
    /// Random opaque pixels.
    static func opaque(width: Int, height: Int, seed: UInt64) -> Image {
        var rng = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            for k in 0..<3 { pixels[i * 4 + k] = UInt8.random(in: 0...255, using: &rng) }
        }
        return Image(width: width, height: height, pixels: pixels)!
    }

    /// Random valid premultiplied pixels (every channel ≤ alpha), alpha drawn from `alphas`.
    static func premultiplied(width: Int, height: Int, seed: UInt64, alphas: [UInt8]) -> Image {
        var rng = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let a = alphas.randomElement(using: &rng)!
            for k in 0..<3 { pixels[i * 4 + k] = UInt8.random(in: 0...a, using: &rng) }
            pixels[i * 4 + 3] = a
        }
        return Image(width: width, height: height, pixels: pixels)!
    }
}

/// Asserts that `body` throws an `ImageIOError` and returns it.
func assertThrowsImageIOError<T>(_ body: () throws(ImageIOError) -> T,
                                 file: StaticString = #filePath, line: UInt = #line) -> ImageIOError? {
    do {
        _ = try body()
        XCTFail("expected an ImageIOError", file: file, line: line)
        return nil
    } catch {
        return error
    }
}
