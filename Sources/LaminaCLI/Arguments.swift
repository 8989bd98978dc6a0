import Foundation
import Lamina

/// A usage error: printed as one `lamina: …` line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
}

/// A job failure: printed as `lamina: …` lines, exit status 1.
struct JobFailure: Error, CustomStringConvertible {
    var description: String

    init(description: String) { self.description = description }

    /// A failed render or export; where the GPU cannot be had, the way out too.
    init(failure: ExportError) {
        if case .backendUnavailable = failure {
            description = "\(failure); try --backend cpu"
        } else {
            description = failure.description
        }
    }
}

/// A small hand-written argument reader: positional arguments plus `--name value` options,
/// where an option may repeat.
struct Arguments {
    private(set) var positional: [String] = []
    private(set) var options: [String: [String]] = [:]
    private(set) var flags: Set<String> = []

    /// Splits `arguments` given which options take a value and which are plain flags.
    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument == "--" {
                positional.append(contentsOf: arguments[(i + 1)...])
                break
            }
            if argument.hasPrefix("-"), argument.count > 1 {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                if valued.contains(name) {
                    guard let value = inlineValue ?? (i + 1 < arguments.count ? arguments[i + 1] : nil) else {
                        throw UsageError(description: "option \(name) needs a value")
                    }
                    options[name, default: []].append(value)
                    i += inlineValue == nil ? 2 : 1
                    continue
                }
                if known.contains(name), inlineValue == nil {
                    flags.insert(name)
                    i += 1
                    continue
                }
                throw UsageError(description: "unknown option \(argument)")
            }
            positional.append(argument)
            i += 1
        }
    }

    func values(_ name: String) -> [String] { options[name] ?? [] }
}
