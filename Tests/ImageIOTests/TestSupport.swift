import Foundation
import Rendering
import XCTest
@testable import ImageIO

/// The checked-in fixture files (Tests/ImageIOTests/Fixtures); see Fixtures/README.md.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name)))
    }
}

/// A fresh empty folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("imageio-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Deterministic pseudo-random bytes (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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

/// Building PNG files byte by byte, for headers no encoder would write.
enum PNGBytes {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// Signature, IHDR (8-bit RGBA) with the given size, a small IDAT and IEND — a header that
    /// claims `width × height` pixels without carrying them.
    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        // A zlib stream holding one empty stored block.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
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

/// Pixel values as (r, g, b, a) tuples, for readable assertions.
func pixelList(_ image: Image) -> [[UInt8]] {
    stride(from: 0, to: image.pixels.count, by: 4).map { Array(image.pixels[$0..<$0 + 4]) }
}
