import Foundation
import Rendering
import Layers
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The image file formats `ImageFile` recognizes by their first bytes.
public enum ImageFormat: String, Sendable {
    case png = "PNG"
    case jpeg = "JPEG"

    /// The format whose signature `bytes` start with: PNG `89 50 4E 47 0D 0A 1A 0A`,
    /// JPEG `FF D8 FF`; `nil` for anything else.
    public static func sniff<C: Collection>(_ bytes: C) -> ImageFormat? where C.Element == UInt8 {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }
}

/// Reading image files and writing PNG files atomically.
public enum ImageFile {
    /// Reads a PNG or JPEG file (recognized by its signature, not its name) into a premultiplied
    /// RGBA8 image. Errors name the file.
    public static func read(contentsOf url: URL) throws(ImageIOError) -> Image {
        let path = url.path
        let bytes = try readBytes(path)
        do throws(ImageIOError) {
            return try decode(bytes)
        } catch {
            throw error.withPath(path)
        }
    }

    /// Decodes PNG or JPEG bytes, recognized by their signature. Errors name the file
    /// `ImageIOError.inMemory`.
    public static func decode(_ bytes: [UInt8]) throws(ImageIOError) -> Image {
        switch ImageFormat.sniff(bytes) {
        case .png: return try PNGCodec.decode(bytes)
        case .jpeg: return try JPEGCodec.decode(bytes)
        case nil: throw .notAnImage(path: ImageIOError.inMemory)
        }
    }

    /// Writes `image` as a PNG file, atomically.
    ///
    /// The PNG goes to a temporary file in the same folder (`.<name>.tmp-<random>`), is synced to
    /// disk and then renamed to `url`, so readers see either no file (or the old one) or the
    /// complete new one. Without `overwrite` an existing file is an error (`.exists`) and is left
    /// as it was — checked again atomically at the final step with `link`, so a file that appears
    /// meanwhile is not replaced. On any failure the temporary file is removed and nothing new
    /// is left under `url`.
    ///
    /// - Parameter compressionLevel: see `PNGCodec.encode`; default 1 (libpng's fast mode).
    public static func writePNG(_ image: Image, to url: URL, overwrite: Bool,
                                compressionLevel: Int = 1) throws(ImageIOError) {
        let path = url.path
        if !overwrite, fileExists(path) { throw .exists(path: path) }
        let bytes: [UInt8]
        do throws(ImageIOError) {
            bytes = try PNGCodec.encode(image, compressionLevel: compressionLevel)
        } catch {
            throw error.withPath(path)
        }
        try writeAtomically(bytes, to: path, overwrite: overwrite)
    }

    /// Writes `bytes` to `path` through a synced temporary file and a rename (see `writePNG`).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, overwrite: Bool) throws(ImageIOError) {
        let (folder, name) = split(path)
        if !overwrite, fileExists(path) { throw .exists(path: path) }

        // Create the temporary file; O_EXCL so that a name collision is never shared.
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<8 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let prefix = !path.contains("/") ? "" : folder == "/" ? "/" : folder + "/"
            temporary = prefix + ".\(name).tmp-\(suffix)"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else {
            throw .cannotWriteFolder(path: path, folder: folder, reason: lastError())
        }

        func fail(_ reason: String) -> ImageIOError {
            unlink(temporary)
            return .cannotWrite(path: path, reason: reason)
        }

        // Write everything, sync, close.
        var offset = 0
        let writeError: String? = bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return lastError()
                }
                offset += n
            }
            return nil
        }
        if let writeError {
            close(fd)
            throw fail(writeError)
        }
        if fsync(fd) != 0 {
            let reason = lastError()
            close(fd)
            throw fail(reason)
        }
        if close(fd) != 0 { throw fail(lastError()) }

        // Move into place.
        if overwrite {
            if rename(temporary, path) != 0 { throw fail(lastError()) }
        } else if link(temporary, path) == 0 {
            unlink(temporary)
        } else {
            let code = errno
            if code == EEXIST {
                unlink(temporary)
                throw .exists(path: path)
            }
            // Filesystems without hard links: check, then rename (a small race remains there).
            guard code == EPERM || code == EOPNOTSUPP || code == EMLINK || code == ENOSYS else {
                throw fail(String(cString: strerror(code)))
            }
            if fileExists(path) {
                unlink(temporary)
                throw .exists(path: path)
            }
            if rename(temporary, path) != 0 { throw fail(lastError()) }
        }
        syncFolder(folder)
    }

    // MARK: - Helpers

    private static func readBytes(_ path: String) throws(ImageIOError) -> [UInt8] {
        // Never waits on a fifo, never reads a device: only regular files are images.
        let fd: Int32
        switch InputFile.open(path) {
        case .failure(let error): throw .unreadable(path: path, reason: error.reason)
        case .success(let opened): fd = opened
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: lastError()) }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: max(size, 0))
        var filled = 0
        let readError: String? = bytes.withUnsafeMutableBytes { raw in
            while filled < raw.count {
                let n = posixRead(fd, raw.baseAddress! + filled, raw.count - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    return lastError()
                }
                if n == 0 { break } // the file shrank meanwhile
                filled += n
            }
            return nil
        }
        if let readError { throw .unreadable(path: path, reason: readError) }
        bytes.removeLast(bytes.count - filled)
        if bytes.isEmpty { throw .notAnImage(path: path) }
        return bytes
    }

    private static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// (folder, last component) of a path; the folder of a bare name is ".".
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Makes the rename durable; best effort (some filesystems refuse to sync folders).
    private static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// POSIX `read` (inside `ImageFile`, `read` names `ImageFile.read(contentsOf:)`).
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
