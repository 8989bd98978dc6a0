import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a file looks like from outside: enough to notice an edit, a replacement (an editor
/// saving through a rename) or a removal without reading it.
struct FileSignature: Equatable, Sendable {
    var exists: Bool
    var size: Int64 = 0
    var modifiedSeconds: Int = 0
    var modifiedNanoseconds: Int = 0
    var inode: UInt64 = 0

    /// The file at `path` now.
    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { exists = false; return }
        exists = true
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        inode = UInt64(info.st_ino)
    }

    /// The signatures of `paths`, in order.
    static func of(_ paths: [String]) -> [FileSignature] { paths.map(FileSignature.init(path:)) }
}
