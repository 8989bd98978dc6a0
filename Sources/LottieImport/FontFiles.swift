import CFontconfig
import Foundation

/// Font files that travel with a Lottie file. lottie-ios draws text with the font its name
/// names (`CTFontCreateWithName`), which apps make available by registering the font files they
/// ship; here the files are found beside the animation and added to fontconfig's application
/// fonts, where text layers' font matching finds them.
///
/// A font named `NAME` (a text document's `f`, or a `fonts.list` entry's `fName`/`fFamily`) is
/// the file `NAME.ttf`, `NAME.otf` or `NAME.ttc` in the animation's folder or a `fonts`/`Fonts`
/// folder in it or in the folder above it (animations in sibling folders sharing one).
enum FontFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: Set<String> = []

    /// Registers the files found for `names` near `directory`; returns the names that have one.
    @discardableResult
    static func register(_ names: Set<String>, near directory: URL) -> Set<String> {
        let folders = [directory, directory.appendingPathComponent("fonts"), directory.appendingPathComponent("Fonts"),
                       directory.deletingLastPathComponent().appendingPathComponent("fonts"),
                       directory.deletingLastPathComponent().appendingPathComponent("Fonts")]
        var found: Set<String> = []
        for name in names where !name.isEmpty && !name.contains("/") && !name.hasPrefix(".") {
            let stems = Set([name, name.trimmingCharacters(in: .whitespaces), name.replacingOccurrences(of: " ", with: "")])
            search: for folder in folders {
                for stem in stems {
                    for ext in ["ttf", "otf", "ttc", "TTF", "OTF"] {
                        let path = folder.appendingPathComponent("\(stem).\(ext)").standardizedFileURL.path
                        guard isRegularFile(path) else { continue }
                        if add(path) { found.insert(name) }
                        break search
                    }
                }
            }
        }
        return found
    }

    /// The ascent, as a fraction of the size, of the face `name` resolves to (registered files
    /// included); nil when fontconfig finds no face.
    static func ascent(of name: String) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        if let known = ascents[name] { return known }
        let value = lamina_font_ascent(name)
        let result = value > 0 && value < 4 ? value : nil
        ascents[name] = result
        return result
    }
    nonisolated(unsafe) private static var ascents: [String: Double?] = [:]

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func add(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if registered.contains(path) { return true }
        guard FcConfigAppFontAddFile(nil, path) != 0 else { return false }
        registered.insert(path)
        ascents = [:]
        return true
    }
}
