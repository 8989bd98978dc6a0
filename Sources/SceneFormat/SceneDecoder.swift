import Foundation
import Geometry

/// Reads JSON nodes into typed values, collecting every problem instead of stopping at the first.
final class SceneDecoder {
    let file: String
    let baseDirectory: URL
    private(set) var problems: [SceneProblem] = []
    /// What Core Animation tolerates but the author likely did not mean (ignored keyTimes).
    private(set) var warnings: [SceneProblem] = []
    let options: SceneLoadOptions
    /// The scene's assets, once read (animations of `contents` name them).
    var assets: [String: SceneAsset] = [:]
    /// Every name under `assets`, loadable or not.
    var declaredAssetNames: Set<String> = []
    /// Problems past the cap, counted so the list can say how many were left out.
    private(set) var omittedProblems = 0
    /// Makers of layer types from later stages, by type name.
    var layerImporters: [String: SceneLayerImporter] = [:]
    /// Problems are capped so a pathological file cannot produce unbounded output.
    static let problemLimit = 200

    init(file: String, baseDirectory: URL, options: SceneLoadOptions = SceneLoadOptions()) {
        self.file = file
        self.baseDirectory = baseDirectory
        self.options = options
    }

    func warn(_ node: JSONNode?, _ path: String, _ reason: String) {
        warn(SceneProblem(file: file, location: node?.location, path: path, reason: reason))
    }

    func warn(_ warning: SceneProblem) {
        guard warnings.count < Self.problemLimit else { return }
        warnings.append(warning)
    }

    func fail(_ problem: SceneProblem) { record(problem) }

    func fail(_ node: JSONNode?, _ path: String, _ reason: String) {
        record(SceneProblem(file: file, location: node?.location, path: path, reason: reason))
    }

    func fail(at location: JSONLocation, _ path: String, _ reason: String) {
        record(SceneProblem(file: file, location: location, path: path, reason: reason))
    }

    private func record(_ problem: SceneProblem) {
        guard problems.count < Self.problemLimit else {
            omittedProblems += 1
            return
        }
        problems.append(problem)
    }

    /// Element `i` of an array node (the node itself when it is not an array that long).
    func element(_ node: JSONNode, _ i: Int) -> JSONNode {
        if case .array(let items) = node.value, i < items.count { return items[i] }
        return node
    }

    /// An object's members with unknown-key and duplicate-key checking.
    func object(_ node: JSONNode, _ path: String) -> ObjectReader? {
        guard case .object(let members) = node.value else {
            fail(node, path, "expected an object, found \(node.value.typeName)")
            return nil
        }
        var seen: Set<String> = []
        var unique: [JSONMember] = []
        for member in members {
            if seen.insert(member.key).inserted {
                unique.append(member)
            } else {
                fail(at: member.keyLocation, join(path, member.key), "duplicate key \"\(member.key)\"")
            }
        }
        return ObjectReader(decoder: self, node: node, path: path, members: unique)
    }

    func array(_ node: JSONNode, _ path: String) -> [JSONNode]? {
        guard case .array(let items) = node.value else {
            fail(node, path, "expected an array, found \(node.value.typeName)")
            return nil
        }
        return items
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    // MARK: - Scalars

    /// A finite number (or `"infinity"` where allowed) within `range`.
    func number(_ node: JSONNode, _ path: String, in range: ClosedRange<Double>? = nil,
                allowInfinity: Bool = false) -> Double? {
        let value: Double
        switch node.value {
        case .number(let n): value = n
        case .string("infinity") where allowInfinity: value = .infinity
        case .string(let s) where s.lowercased() == "nan" || s.lowercased().contains("inf"):
            fail(node, path, allowInfinity ? "\"\(s)\" is not a number (only \"infinity\" is allowed)" : "\"\(s)\" is not allowed here (expected a finite number)")
            return nil
        default:
            fail(node, path, "expected a number, found \(node.value.typeName)")
            return nil
        }
        if let range, !(range.contains(value) || (allowInfinity && value == .infinity)) {
            fail(node, path, "\(Self.format(value)) is out of range \(Self.format(range.lowerBound))…\(Self.format(range.upperBound))")
            return nil
        }
        return value
    }

    func integer(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let n) = node.value else {
            fail(node, path, "expected an integer, found \(node.value.typeName)")
            return nil
        }
        guard n.rounded() == n, abs(n) < 1e15 else {
            fail(node, path, "expected an integer, found \(Self.format(n))")
            return nil
        }
        guard range.contains(Int(n)) else {
            fail(node, path, "\(Int(n)) is out of range \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return Int(n)
    }

    func bool(_ node: JSONNode, _ path: String) -> Bool? {
        guard case .bool(let b) = node.value else {
            fail(node, path, "expected true or false, found \(node.value.typeName)")
            return nil
        }
        return b
    }

    func string(_ node: JSONNode, _ path: String) -> String? {
        guard case .string(let s) = node.value else {
            fail(node, path, "expected a string, found \(node.value.typeName)")
            return nil
        }
        return s
    }

    /// One of a fixed set of names.
    func choice(_ node: JSONNode, _ path: String, _ options: [String]) -> String? {
        guard let s = string(node, path) else { return nil }
        guard options.contains(s) else {
            fail(node, path, "unknown value \"\(s)\" (expected one of: \(options.map { "\"\($0)\"" }.joined(separator: ", ")))")
            return nil
        }
        return s
    }

    /// A fixed-length list of finite numbers.
    func numbers(_ node: JSONNode, _ path: String, count: Int, what: String) -> [Double]? {
        guard case .array(let items) = node.value else {
            fail(node, path, "expected \(what), found \(node.value.typeName)")
            return nil
        }
        guard items.count == count else {
            fail(node, path, "expected \(what) (\(count) numbers), found \(items.count) element\(items.count == 1 ? "" : "s")")
            return nil
        }
        var result: [Double] = []
        for (i, item) in items.enumerated() {
            guard let n = number(item, "\(path)[\(i)]") else { return nil }
            result.append(n)
        }
        return result
    }

    static func format(_ value: Double) -> String {
        if value.isInfinite { return value > 0 ? "infinity" : "-infinity" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}

/// Reads an object's members by name and reports the ones nobody asked for.
final class ObjectReader {
    let decoder: SceneDecoder
    let node: JSONNode
    let path: String
    let members: [JSONMember]
    private var used: Set<String> = []

    init(decoder: SceneDecoder, node: JSONNode, path: String, members: [JSONMember]) {
        self.decoder = decoder; self.node = node; self.path = path; self.members = members
    }

    /// The member named `key`, marking it as known.
    subscript(key: String) -> JSONNode? {
        used.insert(key)
        return members.first { $0.key == key }?.value
    }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    func path(_ key: String) -> String { decoder.join(path, key) }

    /// Reports members that no reader asked for, with a hint when a known key is close.
    func reportUnknownKeys(known: Set<String> = []) {
        for member in members where !used.contains(member.key) {
            let candidates = used.union(known)
            let hint = candidates.min { editDistance($0, member.key) < editDistance($1, member.key) }
                .flatMap { editDistance($0, member.key) <= 2 ? " (did you mean \"\($0)\"?)" : nil } ?? ""
            decoder.fail(at: member.keyLocation, path(member.key), "unknown key \"\(member.key)\"\(hint)")
        }
    }
}

/// Levenshtein distance, bounded work for short keys (keys longer than 64 are not compared).
func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a.utf8.prefix(64)), y = Array(b.utf8.prefix(64))
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var previous = Array(0...y.count)
    var current = previous
    for i in 1...x.count {
        current[0] = i
        for j in 1...y.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[y.count]
}
