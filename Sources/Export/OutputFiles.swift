import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files an export writes beside its output, and the checks made before and after: the
/// output's folder before the first frame, the finished file before it is renamed into place,
/// and leftovers of exports that died (`kill -9`, a crash) at the next export to the same name.
public enum OutputFiles {
    /// `.NAME.lamina-PID-RANDOM.EXT` beside `url` (the extension kept so that tools recognise
    /// it); the process id tells a later export whether the file's writer is still alive.
    public static func temporaryPath(for url: URL) -> String {
        let folder = url.deletingLastPathComponent().path
        let ext = url.pathExtension
        let base = url.deletingPathExtension().lastPathComponent
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return (folder as NSString).appendingPathComponent(".\(base).lamina-\(getpid())-\(random)" + (ext.isEmpty ? "" : ".\(ext)"))
    }

    /// Checks that `url` can be written before any work: its folder exists, is a folder and
    /// takes new files; the output itself is not a folder, and exists only with `overwrite`.
    /// Errors name the output `named` (default: its path).
    public static func checkWritable(_ url: URL, overwrite: Bool, named: String? = nil) throws(ExportError) {
        let path = named ?? url.path
        var info = stat()
        if lstat(url.path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .cannotWrite(path: path, reason: "is a folder") }
            if !overwrite { throw .outputExists(path: path) }
        }
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw .cannotWrite(path: path, reason: "no folder \(folder)")
        }
        guard isFolder.boolValue else { throw .cannotWrite(path: path, reason: "\(folder) is a file, not a folder") }
        // A file made and removed now: a folder that refuses new files (permissions, a read-only
        // file system) fails here, naming the output, before any frame renders.
        let probe = temporaryPath(for: url)
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .cannotWrite(path: path, reason: "cannot create a file in \(folder): \(String(cString: strerror(errno)))")
        }
        close(fd)
        unlink(probe)
    }

    /// Removes the temporary files of earlier exports to `url` whose process is gone
    /// (`.NAME.lamina-PID-…`, `.NAME.palette.lamina-PID-…`, `.NAME.concat.lamina-PID-…`, and
    /// names without a process id older than this process); returns the names removed. A file
    /// whose process id is alive stays, unless that process started after the file was last
    /// written (the id was reused).
    @discardableResult
    public static func removeStaleTemporaries(for url: URL) -> [String] {
        let folder = url.deletingLastPathComponent().path
        let base = url.deletingPathExtension().lastPathComponent
        let prefixes = ["", ".palette", ".concat"].map { ".\(base)\($0).lamina-" }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let prefix = prefixes.first(where: { name.hasPrefix($0) }) else { continue }
            let path = (folder as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            let rest = name.dropFirst(prefix.count)
            let stale: Bool
            if let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]) {
                stale = pid != getpid() && !isAlive(pid, since: modified)
            } else {
                stale = modified < (processStartTime(getpid()) ?? 0)
            }
            if stale, unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Whether process `pid` exists and could have written a file last modified at `modified`.
    static func isAlive(_ pid: pid_t, since modified: Double) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let started = processStartTime(pid) else { return true }
        return started <= modified + 1
    }

    /// When process `pid` started, in seconds since 1970 (from /proc), nil when unknown.
    static func processStartTime(_ pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")"),
              let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let boot = Double(bootLine.dropFirst(6).trimmingCharacters(in: .whitespaces)) else { return nil }
        // Fields after the command name: state is field 3, starttime field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Checks a file an encoder reported as written (`path`, the temporary of the output `named`):
    /// not empty, and (where ffprobe can be run) a video stream with `frames` frames. Throws
    /// `.invalidOutput` naming the output otherwise.
    public static func verifyVideo(_ path: String, named output: String, demuxer: String, frames: Int, encoder: String,
                                   cancellation: Cancellation? = nil) throws(ExportError) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else {
            throw .invalidOutput(path: output, reason: "\(encoder) exited without an error but wrote nothing (0 bytes)")
        }
        // Without ffprobe (LAMINA_FFMPEG naming a lone ffmpeg) the size check is all there is.
        guard FFmpegProcess.locate(FFmpegProcess.resolve("ffprobe")) != nil else { return }
        let input = ["-f", demuxer, "-protocol_whitelist", VideoContainer.protocols, "file:" + path]
        let probed: [UInt8]
        do {
            probed = try FFmpegProcess.run(program: "ffprobe", arguments: [
                "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries", "stream=nb_read_packets,codec_type",
                "-print_format", "json"] + input, cancellation: cancellation)
        } catch {
            if error == .cancelled { throw error }
            throw .invalidOutput(path: output, reason: "\(encoder) exited without an error but wrote no video ffprobe can read")
        }
        let json = try? JSONSerialization.jsonObject(with: Data(probed)) as? [String: Any]
        guard let stream = (json?["streams"] as? [[String: Any]])?.first else {
            throw .invalidOutput(path: output, reason: "\(encoder) exited without an error but wrote no video stream")
        }
        let count = (stream["nb_read_packets"] as? String).flatMap(Int.init) ?? (stream["nb_read_packets"] as? Int) ?? -1
        guard count == frames else {
            throw .invalidOutput(path: output, reason: "\(encoder) exited without an error but wrote \(count) frame\(count == 1 ? "" : "s"), not \(frames)")
        }
    }
}
