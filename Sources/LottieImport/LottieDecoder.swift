import Foundation
import Geometry
import SceneFormat

/// Reads a parsed Lottie JSON tree into the document model, collecting every problem with its
/// JSON path. Lottie files carry many keys the importer has no use for: unknown keys are
/// ignored, but a known key of the wrong type or out of range is an error.
final class LottieDecoder {
    let file: String
    let baseDirectory: URL?
    /// Whether external images may lie outside `baseDirectory` (`--allow-assets-outside`).
    let allowsAssetsOutsideFolder: Bool
    private(set) var problems: [SceneProblem] = []
    private(set) var omittedProblems = 0
    /// Features the importer ignores, as lottie-ios's Core Animation engine does: reported once each.
    private(set) var warnings: [String] = []
    /// Images supplied by a `.lottie` archive, by path inside it.
    var archiveImages: [String: [UInt8]] = [:]
    /// The fonts text layers name (`f`), for `FontFiles`.
    var fontNames: Set<String> = []

    var keyframeCount = 0
    var layerCount = 0
    var shapeItemCount = 0
    /// Set once a limit is exceeded: decoding stops producing more of what it bounds.
    private(set) var limitExceeded = false
    static let problemLimit = 200

    init(file: String, baseDirectory: URL?, options: SceneLoadOptions = SceneLoadOptions()) {
        self.file = file
        self.baseDirectory = baseDirectory
        allowsAssetsOutsideFolder = options.allowsAssetsOutsideFolder
    }

    func fail(_ node: JSONNode?, _ path: String, _ reason: String) {
        guard problems.count < Self.problemLimit else { omittedProblems += 1; return }
        problems.append(SceneProblem(file: file, location: node?.location, path: path, reason: reason))
    }

    func warn(_ feature: String) {
        if !warnings.contains(feature) { warnings.append(feature) }
    }

    /// Records that a limit was crossed (once) and tells the caller to stop.
    func exceed(_ node: JSONNode?, _ path: String, _ reason: String) {
        if !limitExceeded { fail(node, path, reason) }
        limitExceeded = true
    }

    // MARK: - Values

    func object(_ node: JSONNode, _ path: String) -> JSONObject? {
        guard case .object(let members) = node.value else {
            fail(node, path, "expected an object, found \(node.value.typeName)")
            return nil
        }
        return JSONObject(node: node, path: path, members: members)
    }

    func array(_ node: JSONNode, _ path: String) -> [JSONNode]? {
        guard case .array(let items) = node.value else {
            fail(node, path, "expected an array, found \(node.value.typeName)")
            return nil
        }
        return items
    }

    func number(_ node: JSONNode, _ path: String, in range: ClosedRange<Double>? = nil) -> Double? {
        var value: Double
        if case .number(let n) = node.value {
            value = n
        } else if case .array(let items) = node.value, items.count == 1, case .number(let n) = items[0].value {
            // Some exporters write one-element arrays where a number belongs.
            value = n
        } else {
            fail(node, path, "expected a number, found \(node.value.typeName)")
            return nil
        }
        if let range, !range.contains(value) {
            fail(node, path, "\(format(value)) is outside \(format(range.lowerBound))…\(format(range.upperBound))")
            return nil
        }
        return value
    }

    func integer(_ node: JSONNode, _ path: String, in range: ClosedRange<Int>) -> Int? {
        guard let v = number(node, path) else { return nil }
        guard v.rounded() == v, v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
            fail(node, path, "\(format(v)) must be an integer in \(range.lowerBound)…\(range.upperBound)")
            return nil
        }
        return Int(v)
    }

    /// A number or an array of numbers, as a list.
    func numbers(_ node: JSONNode, _ path: String) -> [Double]? {
        switch node.value {
        case .number(let n): return [n]
        case .array(let items):
            var result: [Double] = []
            result.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                guard case .number(let n) = item.value else {
                    fail(item, "\(path)[\(i)]", "expected a number, found \(item.value.typeName)")
                    return nil
                }
                result.append(n)
            }
            return result
        default:
            fail(node, path, "expected a number or an array of numbers, found \(node.value.typeName)")
            return nil
        }
    }

    func string(_ node: JSONNode, _ path: String) -> String? {
        guard case .string(let s) = node.value else {
            fail(node, path, "expected a string, found \(node.value.typeName)")
            return nil
        }
        return s
    }

    /// Booleans are written as `true`/`false` or `1`/`0`.
    func bool(_ node: JSONNode, _ path: String) -> Bool? {
        switch node.value {
        case .bool(let b): return b
        case .number(let n): return n != 0
        default:
            fail(node, path, "expected a boolean, found \(node.value.typeName)")
            return nil
        }
    }

    func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}

/// An object's members by key (the first of duplicates), with its JSON path.
struct JSONObject {
    let node: JSONNode
    let path: String
    let members: [JSONMember]

    subscript(key: String) -> JSONNode? {
        members.first { $0.key == key }?.value
    }

    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    func has(_ key: String) -> Bool { self[key] != nil }
}
