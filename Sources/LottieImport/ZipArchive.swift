import Foundation
import Layers
import CZlib

/// A read-only zip archive in memory (the `.lottie` container): stored and deflated entries,
/// read through the central directory. Sizes are checked against `SceneLimits.Lottie` before any
/// entry is inflated.
struct ZipArchive {
    struct Entry {
        var name: String
        var method: UInt16
        var compressedSize: Int
        var size: Int
        var localHeaderOffset: Int
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let bytes: [UInt8]
    let entries: [Entry]

    /// Deflate's best case: a 258-byte match in about two bits, 1032:1 (zlib's technical notes).
    static let maximumDeflateRatio = 1032

    static func hasSignature(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    init(_ bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end-of-central-directory record is in the last 64 KiB + 22 bytes.
        var eocd = -1
        var i = bytes.count - 22
        while i >= max(0, bytes.count - 22 - 0xFFFF) {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x05, bytes[i + 3] == 0x06 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw Failure(description: "not a complete zip archive (no end of central directory)") }
        let count = u16(eocd + 10)
        let directorySize = u32(eocd + 12), directoryOffset = u32(eocd + 16)
        guard count <= SceneLimits.Lottie.maximumArchiveEntries else {
            throw Failure(description: "archive has \(count) entries, over the \(SceneLimits.Lottie.maximumArchiveEntries)-entry limit")
        }
        guard directoryOffset + directorySize <= eocd else { throw Failure(description: "zip central directory is out of bounds") }
        var entries: [Entry] = []
        var total = 0
        var p = directoryOffset
        for _ in 0..<count {
            guard p + 46 <= eocd, u32(p) == 0x0201_4B50 else { throw Failure(description: "zip central directory is damaged") }
            let method = UInt16(u16(p + 10))
            let compressed = u32(p + 20), size = u32(p + 24)
            let nameLength = u16(p + 28), extraLength = u16(p + 30), commentLength = u16(p + 32)
            let offset = u32(p + 42)
            guard p + 46 + nameLength <= eocd else { throw Failure(description: "zip entry name is out of bounds") }
            let name = String(decoding: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            // Checked from the directory, before anything is inflated: what an entry claims must
            // be what its compressed bytes can make (stored: the same bytes; deflate: at most
            // 1032 bytes per byte), so a small file cannot ask for a large buffer.
            if method == 0, size != compressed {
                throw Failure(description: "\(name): stored entry claims \(size) bytes but holds \(compressed)")
            }
            if method == 8, size > compressed * ZipArchive.maximumDeflateRatio + 64 {
                throw Failure(description: "\(name): claims to inflate to \(size) bytes, more than its \(compressed) compressed bytes can hold")
            }
            total += size
            guard total <= SceneLimits.Lottie.maximumInflatedBytes else {
                throw Failure(description: "entries inflate to more than \(SceneLimits.Lottie.maximumInflatedBytes) bytes in all (\(name) reaches \(total))")
            }
            entries.append(Entry(name: name, method: method, compressedSize: compressed, size: size, localHeaderOffset: offset))
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The bytes of an entry, inflated.
    func contents(of entry: Entry) throws(Failure) -> [UInt8] {
        guard entry.size <= SceneLimits.Lottie.maximumInflatedBytes else {
            throw Failure(description: "\(entry.name) inflates to \(entry.size) bytes, over the \(SceneLimits.Lottie.maximumInflatedBytes)-byte limit")
        }
        let h = entry.localHeaderOffset
        guard h + 30 <= bytes.count, bytes[h] == 0x50, bytes[h + 1] == 0x4B, bytes[h + 2] == 0x03, bytes[h + 3] == 0x04 else {
            throw Failure(description: "\(entry.name): zip local header is damaged")
        }
        let nameLength = Int(bytes[h + 26]) | Int(bytes[h + 27]) << 8
        let extraLength = Int(bytes[h + 28]) | Int(bytes[h + 29]) << 8
        let start = h + 30 + nameLength + extraLength
        guard start + entry.compressedSize <= bytes.count else { throw Failure(description: "\(entry.name): zip entry is cut short") }
        let data = bytes[start..<(start + entry.compressedSize)]
        switch entry.method {
        case 0:
            return Array(data)
        case 8:
            return try inflate(Array(data), size: entry.size, name: entry.name)
        default:
            throw Failure(description: "\(entry.name): unsupported zip compression method \(entry.method)")
        }
    }

    private func inflate(_ input: [UInt8], size: Int, name: String) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(1, size))
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "\(name): cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else {
            throw Failure(description: "\(name): damaged deflate data")
        }
        return output
    }

    /// The animation a `.lottie` holds: the one its manifest names first, else the first JSON
    /// under `animations/` (or anywhere).
    func firstAnimation() throws(Failure) -> (String, [UInt8]) {
        let json = entries.filter { $0.name.lowercased().hasSuffix(".json") && !$0.name.hasSuffix("/") }
        var chosen = json.first { $0.name.hasPrefix("animations/") || $0.name.hasPrefix("a/") }
        if let manifest = entries.first(where: { $0.name == "manifest.json" }),
           let data = try? contents(of: manifest),
           let object = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any],
           let animations = object["animations"] as? [[String: Any]], let id = animations.first?["id"] as? String {
            chosen = json.first { $0.name == "animations/\(id).json" || $0.name == "a/\(id).json" } ?? chosen
        }
        guard let entry = chosen ?? json.first(where: { $0.name != "manifest.json" }) else {
            throw Failure(description: "the .lottie archive holds no animation")
        }
        return (entry.name, try contents(of: entry))
    }
}
