import Foundation
import CCrypto

/// SHA-256 digests (OpenSSL's libcrypto) as lowercase hex: what segment plans and manifests name
/// scenes, settings and rendered files by.
public enum SHA256 {
    /// The digest of `bytes`.
    public static func hex(_ bytes: some DataProtocol) -> String {
        var digest = Digest()
        for region in bytes.regions { region.withUnsafeBytes { digest.update($0) } }
        return digest.finish()
    }

    /// The digest of the file at `url`, read in 1 MiB pieces (so a large video costs no memory).
    public static func hex(ofFile url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var digest = Digest()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { digest.update($0) }
        }
        return digest.finish()
    }

    /// An incremental digest.
    struct Digest: ~Copyable {
        private let context: OpaquePointer

        init() {
            context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        }

        deinit { EVP_MD_CTX_free(context) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            EVP_DigestUpdate(context, base, bytes.count)
        }

        consuming func finish() -> String {
            var out = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &out, &length)
            return out.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
        }
    }
}
