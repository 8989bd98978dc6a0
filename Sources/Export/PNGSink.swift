import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Rendering
import ImageIO

/// Frames as PNG files: one file, or a numbered sequence named by a `printf`-style pattern
/// (`frames/%05d.png`, frame i to `frames/00012.png` for i = 12).
///
/// Each file is written under a temporary name and renamed into place (`ImageFile.writePNG`).
/// Before anything renders, every frame's folder must exist and take new files, no frame's name
/// may be a folder, and without `overwrite` none may exist. Cancelling (a failure, Ctrl-C,
/// SIGTERM, SIGHUP) removes the frames this sink wrote, so an interrupted sequence leaves no
/// partial run behind: frames appear under their own names as they are written (a viewer can
/// follow a long render) and go again if the render does not complete.
public final class PNGSink: FrameSink {
    /// The file of frame `index`.
    public let path: (Int) -> String
    public let overwrite: Bool
    /// zlib level (default 1: PNG sequences are bound by compression; 6 is ≈5× slower).
    public var compressionLevel = 1
    /// The files written so far, in order.
    public private(set) var written: [String] = []

    /// Frames to the paths `path` gives.
    public init(path: @escaping (Int) -> String, overwrite: Bool = false) {
        self.path = path
        self.overwrite = overwrite
    }

    /// Frame i to `String(format: pattern, i)` when `pattern` holds a `%d`-style field, else every
    /// frame to `pattern` itself (a single frame).
    public convenience init(pattern: String, overwrite: Bool = false) {
        let numbered = Self.isSequencePattern(pattern)
        self.init(path: { numbered ? String(format: pattern, $0) : pattern }, overwrite: overwrite)
    }

    /// Whether `pattern` numbers its files (`%d`, `%05d` …).
    public static func isSequencePattern(_ pattern: String) -> Bool {
        pattern.range(of: #"%0?\d*d"#, options: .regularExpression) != nil
    }

    public func begin(frames: ClosedRange<Int>) throws(ExportError) {
        var folders: Set<String> = []
        for index in frames {
            let name = path(index)
            let file = URL(fileURLWithPath: name)
            let folder = file.deletingLastPathComponent().path
            if folders.insert(folder).inserted {
                // The first frame in each folder: the folder itself is checked (exists, is one, writable).
                try OutputFiles.checkWritable(file, overwrite: overwrite, named: name)
            } else {
                var info = stat()
                guard lstat(file.path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR { throw .cannotWrite(path: name, reason: "is a folder") }
                if !overwrite { throw .outputExists(path: name) }
            }
        }
    }

    public func consume(_ index: Int, _ image: Image) throws(ExportError) {
        let file = path(index)
        do {
            try ImageFile.writePNG(image, to: URL(fileURLWithPath: file), overwrite: overwrite, compressionLevel: compressionLevel)
        } catch {
            throw .imageOutput(error)
        }
        written.append(file)
    }

    public func finish() throws(ExportError) {}

    public func cancel() {
        for file in written { unlink(file) }
        written = []
    }
}
