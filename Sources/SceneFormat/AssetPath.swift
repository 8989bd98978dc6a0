import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a scene file's asset paths may lead: inside the scene file's folder, after every
/// symlink is followed (both the folder's and the asset's), so that a scene cannot read other
/// files of the machine it is rendered on (`"../x.png"`, `"/etc/…"`, a symlink pointing out).
///
/// The check resolves the path component by component, following symlinks where they exist and
/// keeping the rest as written where they do not, so a path that leads outside is refused the
/// same way whether or not its target exists: the answer never tells what is on the machine.
package enum AssetPath {
    /// The resolved absolute path of `path` (relative to `folder`, or absolute), or nil when
    /// it leads outside `folder` (or through more than 40 symlinks).
    package static func confined(_ path: String, in folder: String) -> String? {
        guard let root = resolve(folder, base: "/"), let resolved = resolve(path, base: root) else { return nil }
        if root == "/" { return resolved }
        return resolved == root || resolved.hasPrefix(root + "/") ? resolved : nil
    }

    /// `path` (absolute, or relative to the absolute `base`) with `.`, `..` and every symlink
    /// resolved; components that do not exist are kept as written. nil past 40 symlinks.
    static func resolve(_ path: String, base: String) -> String? {
        var pending = components(path).reversed() as [String]
        var resolved: [String] = path.hasPrefix("/") ? [] : components(base)
        var hops = 0
        while let component = pending.popLast() {
            if component == "." { continue }
            if component == ".." {
                if !resolved.isEmpty { resolved.removeLast() }
                continue
            }
            let candidate = "/" + (resolved + [component]).joined(separator: "/")
            var info = stat()
            guard lstat(candidate, &info) == 0 else {
                resolved.append(component)
                continue
            }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                resolved.append(component)
                continue
            }
            hops += 1
            guard hops <= 40, let target = readLink(candidate) else { return nil }
            if target.hasPrefix("/") { resolved = [] }
            pending.append(contentsOf: components(target).reversed())
        }
        return "/" + resolved.joined(separator: "/")
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
