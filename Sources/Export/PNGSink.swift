import Foundation
import Rendering
import ImageIO

/// Frames as PNG files: one file, or a numbered sequence named by a `printf`-style pattern
/// (`frames/%05d.png`, frame i to `frames/00012.png` for i = 12).
///
/// Each file is written under a temporary name and renamed into place (`ImageFile.writePNG`).
/// Without `overwrite`, an existing file among the frames' names is an error before anything
/// renders. Cancelling removes the frames this sink wrote, so an interrupted sequence leaves
/// no partial run behind.
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
        guard !overwrite, let existing = frames.lazy.map(path).first(where: { FileManager.default.fileExists(atPath: $0) }) else { return }
        throw .outputExists(path: existing)
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
