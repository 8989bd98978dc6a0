import Foundation

/// Pixel size read from an image file's header, without decoding pixels (decoding belongs to the
/// renderers' image stage; the model only needs the size and a name).
package enum ImageHeader {
    package enum Format { case png, jpeg }

    package struct Problem: Error { package var reason: String }

    /// The format and size, or a reason the header is unusable.
    package static func read(_ bytes: [UInt8]) -> Result<(format: Format, width: Int, height: Int), Problem> {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if bytes.starts(with: png) {
            // IHDR is always the first chunk: length(4) "IHDR"(4) width(4) height(4).
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return .failure(Problem(reason: "truncated PNG header")) }
            let width = bigEndian(bytes, 16), height = bigEndian(bytes, 20)
            guard width > 0, height > 0 else { return .failure(Problem(reason: "PNG has zero width or height")) }
            return .success((.png, width, height))
        }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            // Walk the markers to the first start-of-frame (SOF0…SOF15 except DHT/JPG/DAC).
            var i = 2
            while i + 9 < bytes.count {
                guard bytes[i] == 0xFF else { return .failure(Problem(reason: "corrupt JPEG marker")) }
                let marker = bytes[i + 1]
                if marker == 0xFF { i += 1; continue }
                let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                    let width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                    guard width > 0, height > 0 else { return .failure(Problem(reason: "JPEG has zero width or height")) }
                    return .success((.jpeg, width, height))
                }
                guard length >= 2 else { return .failure(Problem(reason: "corrupt JPEG segment")) }
                i += 2 + length
            }
            return .failure(Problem(reason: "no JPEG frame header found"))
        }
        return .failure(Problem(reason: "not a PNG or JPEG image"))
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }
}
