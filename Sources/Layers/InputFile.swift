import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What an input file (a scene, an image, a video, a segment) may be: a regular file. A fifo
/// would block the reader for ever, a device can stream without end, a socket cannot be opened
/// by name; each is refused by type before anything waits on it.
public enum InputFile {
    /// Why `path` is not a readable regular file, or nil when it is one (symlinks followed).
    /// Reasons read after the path: `"no such file"`, `"is a pipe (fifo), not a regular file"` …
    public static func problem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? "no such file" : "cannot read the file: \(String(cString: strerror(errno)))"
        }
        return typeProblem(info.st_mode)
    }

    /// Opens `path` for reading without ever blocking on it: `O_NONBLOCK` so that a fifo opens
    /// at once (and is then refused by `fstat`), cleared again for the regular file.
    /// Returns the descriptor (the caller closes it) or why it cannot be read.
    public static func open(_ path: String) -> Result<Int32, InputFileError> {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let reason = errno == ENOENT || errno == ENOTDIR ? "no such file"
                : errno == ENXIO ? "is a socket, not a regular file" : "cannot read the file: \(String(cString: strerror(errno)))"
            return .failure(InputFileError(path: path, reason: reason))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = "cannot read the file: \(String(cString: strerror(errno)))"
            close(fd)
            return .failure(InputFileError(path: path, reason: reason))
        }
        if let reason = typeProblem(info.st_mode) {
            close(fd)
            return .failure(InputFileError(path: path, reason: reason))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    /// The whole of `path` (after the checks of `open`), refused without being read when it is
    /// over `limit` bytes (`SceneLimits.maximumFileBytes` for scenes and their files).
    public static func read(_ path: String, limit: Int) -> Result<[UInt8], InputFileError> {
        switch open(path) {
        case .failure(let error): return .failure(error)
        case .success(let fd):
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            var info = stat()
            if fstat(fd, &info) == 0, Int(info.st_size) > limit {
                return .failure(InputFileError(path: path, reason: "file is \(info.st_size) bytes, over the \(limit)-byte limit"))
            }
            guard let data = try? handle.read(upToCount: limit + 1) ?? Data() else {
                return .failure(InputFileError(path: path, reason: "cannot read the file"))
            }
            guard data.count <= limit else { return .failure(InputFileError(path: path, reason: "file is over the \(limit)-byte limit")) }
            return .success([UInt8](data))
        }
    }

    /// Up to `limit` bytes from the start of `path` (after the checks of `open`).
    public static func readPrefix(_ path: String, limit: Int) -> Result<[UInt8], InputFileError> {
        switch open(path) {
        case .failure(let error): return .failure(error)
        case .success(let fd):
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: max(0, limit))
            var filled = 0
            while filled < bytes.count {
                let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
                if n < 0, errno == EINTR { continue }
                if n < 0 { return .failure(InputFileError(path: path, reason: "cannot read the file: \(String(cString: strerror(errno)))")) }
                if n == 0 { break }
                filled += n
            }
            bytes.removeLast(bytes.count - filled)
            return .success(bytes)
        }
    }

    private static func typeProblem(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a folder, not a file"
        case S_IFIFO: "is a pipe (fifo), not a regular file"
        case S_IFSOCK: "is a socket, not a regular file"
        case S_IFCHR, S_IFBLK: "is a device, not a regular file"
        default: "is not a regular file"
        }
    }
}

/// An input that is not a readable regular file.
public struct InputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { "\(path): \(reason)" }
}
