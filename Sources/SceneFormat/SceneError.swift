import Foundation

/// One problem in a scene file, located as `file:line:column: JSON path: reason`.
public struct SceneProblem: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var location: JSONLocation?
    /// Dotted JSON path such as `root.sublayers[2].animations[0].keyPath`.
    public var path: String
    public var reason: String

    public init(file: String, location: JSONLocation?, path: String, reason: String) {
        self.file = file; self.location = location; self.path = path; self.reason = reason
    }

    public var description: String {
        let place = location.map { "\(file):\($0.line):\($0.column)" } ?? file
        return path.isEmpty ? "\(place): \(reason)" : "\(place): \(path): \(reason)"
    }
}

/// A scene that could not be loaded, with every problem found (nothing is rendered).
public struct SceneLoadError: Error, Sendable, CustomStringConvertible {
    public var problems: [SceneProblem]
    public init(problems: [SceneProblem]) { self.problems = problems }
    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
