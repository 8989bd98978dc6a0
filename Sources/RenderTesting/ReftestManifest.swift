import Foundation

/// One side of a reftest: a scene file (optionally rendered at a fixed time) or a golden PNG.
public struct ReftestSide: Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable { case scene, golden }
    public var kind: Kind
    /// The file, resolved against the manifest's folder.
    public var url: URL
    /// `A.json@T`: this side is always rendered at `T`, whatever the entry's `time(...)` list says.
    public var pinnedTime: Double?

    public init(kind: Kind, url: URL, pinnedTime: Double? = nil) {
        self.kind = kind; self.url = url; self.pinnedTime = pinnedTime
    }

    public var description: String {
        url.lastPathComponent + (pinnedTime.map { "@\(ReftestManifest.format($0))" } ?? "")
    }
}

/// One line of a `reftest.list`.
public struct ReftestEntry: CustomStringConvertible {
    public enum Relation: String, Sendable { case equal = "==", notEqual = "!=" }
    /// `fuzzy(maxDifference, maxPixels)`: channels may differ by up to `maxDifference`/255 on up to `maxPixels` pixels.
    public struct Fuzz: Equatable, Sendable {
        public var maxDifference: Int
        public var maxPixels: Int

        public init(maxDifference: Int, maxPixels: Int) { self.maxDifference = maxDifference; self.maxPixels = maxPixels }
    }

    public var manifest: URL
    public var line: Int
    public var relation: Relation
    /// Times at which both sides are rendered (default `[0]`).
    public var times: [Double]
    /// nil: exact (every byte equal).
    public var fuzz: Fuzz?
    public var left: ReftestSide
    public var right: ReftestSide
    /// The `# …` comment, if any.
    public var reason: String?

    /// `group/reftest.list:LINE`.
    public var location: String {
        "\(manifest.deletingLastPathComponent().lastPathComponent)/\(manifest.lastPathComponent):\(line)"
    }

    public var description: String { "\(location): \(left) \(relation.rawValue) \(right)" }

    /// Whether two frames that differ as `difference` (counted with tolerance 0) satisfy the entry's tolerance.
    public func withinTolerance(maxChannelDifference: Int, differingPixels: Int) -> Bool {
        guard let fuzz else { return maxChannelDifference == 0 }
        return maxChannelDifference <= fuzz.maxDifference && differingPixels <= fuzz.maxPixels
    }
}

/// A manifest problem: the file, the line and why.
public struct ReftestManifestError: Error, CustomStringConvertible {
    public var manifest: URL
    public var line: Int
    public var reason: String
    public var description: String {
        "\(manifest.deletingLastPathComponent().lastPathComponent)/\(manifest.lastPathComponent):\(line): \(reason)"
    }
}

/// Reads `reftest.list` files (format in `Reftests/README.md`):
///
///     [time(T1,T2,…)] [fuzzy(MAXDIFF,MAXPIXELS)] == A.json[@TA] B.json|B.png[@TB]  # reason
public enum ReftestManifest {
    /// Parses a manifest file; every problem is reported (file, line, reason), none is skipped.
    public static func parse(contentsOf url: URL, checkFilesExist: Bool = true) -> (entries: [ReftestEntry], errors: [ReftestManifestError]) {
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            return ([], [ReftestManifestError(manifest: url, line: 0, reason: "cannot read the manifest")])
        }
        return parse(text, manifest: url, checkFilesExist: checkFilesExist)
    }

    public static func parse(_ text: String, manifest: URL, checkFilesExist: Bool = true) -> (entries: [ReftestEntry], errors: [ReftestManifestError]) {
        var entries: [ReftestEntry] = []
        var errors: [ReftestManifestError] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do {
                if let entry = try parseLine(String(rawLine), manifest: manifest, line: index + 1, checkFilesExist: checkFilesExist) {
                    entries.append(entry)
                }
            } catch {
                errors.append(error)
            }
        }
        return (entries, errors)
    }

    /// One line; nil for blank and comment-only lines.
    public static func parseLine(_ raw: String, manifest: URL, line: Int, checkFilesExist: Bool) throws(ReftestManifestError) -> ReftestEntry? {
        func fail(_ reason: String) -> ReftestManifestError { ReftestManifestError(manifest: manifest, line: line, reason: reason) }

        var body = Substring(raw)
        var reason: String?
        if let hash = raw.firstIndex(of: "#") {
            body = raw[..<hash]
            let comment = raw[raw.index(after: hash)...].trimmingCharacters(in: .whitespaces)
            reason = comment.isEmpty ? nil : comment
        }
        let tokens = body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard !tokens.isEmpty else { return nil }

        var times: [Double]?
        var fuzz: ReftestEntry.Fuzz?
        var i = 0
        while i < tokens.count, tokens[i] != "==", tokens[i] != "!=" {
            let token = tokens[i]
            if let arguments = arguments(of: token, name: "time") {
                guard times == nil else { throw fail("time(...) given twice") }
                guard !arguments.isEmpty else { throw fail("time() needs at least one time") }
                times = try arguments.map { (argument: String) throws(ReftestManifestError) -> Double in
                    guard let t = Double(argument), t.isFinite, t >= 0 else { throw fail("time \"\(argument)\" is not a number ≥ 0") }
                    return t
                }
            } else if let arguments = arguments(of: token, name: "fuzzy") {
                guard fuzz == nil else { throw fail("fuzzy(...) given twice") }
                guard arguments.count == 2 else { throw fail("fuzzy needs two numbers: fuzzy(MAXDIFF,MAXPIXELS)") }
                guard let d = Int(arguments[0]), (0...255).contains(d) else {
                    throw fail("fuzzy MAXDIFF \"\(arguments[0])\" is not an integer in 0…255")
                }
                guard let n = Int(arguments[1]), n >= 0 else { throw fail("fuzzy MAXPIXELS \"\(arguments[1])\" is not an integer ≥ 0") }
                fuzz = .init(maxDifference: d, maxPixels: n)
            } else {
                throw fail("unknown option \"\(token)\" (expected time(...), fuzzy(...), == or !=)")
            }
            i += 1
        }
        guard i < tokens.count, let relation = ReftestEntry.Relation(rawValue: tokens[i]) else {
            throw fail("missing == or !=")
        }
        let operands = tokens[(i + 1)...]
        guard operands.count == 2 else {
            throw fail("expected two files after \(relation.rawValue), found \(operands.count)")
        }
        if fuzz != nil, reason == nil {
            throw fail("a fuzzy entry needs a \"# reason\" comment saying why the frames may differ")
        }
        let folder = manifest.deletingLastPathComponent()
        let left = try side(operands[operands.startIndex], folder: folder, allowGolden: false, fail)
        let right = try side(operands[operands.startIndex + 1], folder: folder, allowGolden: true, fail)
        if checkFilesExist {
            for s in [left, right] where s.kind == .scene || ProcessInfo.processInfo.environment["LAMINA_RECORD"] != "1" {
                guard FileManager.default.fileExists(atPath: s.url.path) else {
                    let hint = s.kind == .golden ? " (record goldens with LAMINA_RECORD=1)" : ""
                    throw fail("no file \(s.url.lastPathComponent) next to the manifest\(hint)")
                }
            }
        }
        return ReftestEntry(manifest: manifest, line: line, relation: relation, times: times ?? [0], fuzz: fuzz,
                            left: left, right: right, reason: reason)
    }

    /// `name(a,b,…)` → ["a", "b", …]; nil when `token` is not a call of `name`.
    private static func arguments(of token: String, name: String) -> [String]? {
        guard token.hasPrefix(name + "("), token.hasSuffix(")") else { return nil }
        let inside = token.dropFirst(name.count + 1).dropLast()
        if inside.isEmpty { return [] }
        return inside.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
    }

    private static func side(_ token: String, folder: URL, allowGolden: Bool,
                             _ fail: (String) -> ReftestManifestError) throws(ReftestManifestError) -> ReftestSide {
        var name = Substring(token)
        var pinned: Double?
        if let at = token.lastIndex(of: "@") {
            name = token[..<at]
            let value = token[token.index(after: at)...]
            guard let t = Double(value), t.isFinite, t >= 0 else { throw fail("time \"@\(value)\" of \(name) is not a number ≥ 0") }
            pinned = t
        }
        guard !name.isEmpty, !name.hasPrefix("/") else { throw fail("bad file name \"\(token)\"") }
        let url = folder.appendingPathComponent(String(name))
        switch url.pathExtension {
        case "json":
            return ReftestSide(kind: .scene, url: url, pinnedTime: pinned)
        case "png" where allowGolden:
            guard pinned == nil else { throw fail("a golden image has no time: \"\(token)\"") }
            return ReftestSide(kind: .golden, url: url, pinnedTime: nil)
        case "png":
            throw fail("the left side must be a scene (.json), not \(name)")
        default:
            throw fail("\"\(name)\" is neither a scene (.json) nor a golden image (.png)")
        }
    }

    public static func format(_ t: Double) -> String {
        t == t.rounded() && abs(t) < 1e9 ? String(Int(t)) : String(t)
    }
}
