import Foundation

/// Building PNG and JPEG files byte by byte, for headers no encoder would write.
public enum PNGBytes {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk: length, type, data, CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// Signature, IHDR (8-bit RGBA) with the given size, a small IDAT and IEND — a header that
    /// claims `width × height` pixels without carrying them.
    public static func header(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        // A zlib stream holding one empty stored block.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// Signature, IHDR and IEND only: enough for a header reader.
    public static func headerOnly(width: UInt32, height: UInt32) -> [UInt8] {
        signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]) + chunk("IEND", [])
    }

    /// A baseline JPEG's SOI, an APP0 segment and an SOF0 header for `width`×`height`.
    public static func jpegHeader(width: UInt16, height: UInt16) -> [UInt8] {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        let sof0: [UInt8] = [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                             0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        return [0xFF, 0xD8] + app0 + sof0 + [0xFF, 0xD9]
    }

    public static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
