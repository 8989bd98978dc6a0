/// A position in JSON source text.
///
/// `line` and `column` are 1-based. `column` counts Unicode scalars from the
/// start of the line, so a multi-byte character such as `é` or `😀` advances it
/// by one; a tab also counts as one. `offset` is the 0-based UTF-8 byte offset
/// from the start of the input (a leading byte order mark counts toward
/// `offset` but not toward `column`). Lines end at LF, CR LF, or a lone CR.
public struct JSONLocation: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int
    /// The 0-based byte offset from the start of the input.
    public var offset: Int

    /// Creates a location from its line, column, and byte offset.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The location as `line:column`, ready to follow a file name.
    public var description: String { "\(line):\(column)" }
}

/// One parsed JSON value together with where it starts.
public struct JSONNode: Sendable, Equatable {
    /// The parsed value.
    public var value: JSONValue
    /// The location of the value's first character.
    public var location: JSONLocation
    /// Whether the value is a number written without a fraction or exponent.
    ///
    /// This describes the literal's spelling only: `1.0` is `false` and
    /// `123456789012345678901234567890` is `true`. Callers that need an `Int`
    /// must still check that the `Double` is in range and integral.
    public var isIntegerLiteral: Bool

    /// Creates a node; `isIntegerLiteral` should be `true` only for numbers.
    public init(value: JSONValue, location: JSONLocation, isIntegerLiteral: Bool = false) {
        self.value = value
        self.location = location
        self.isIntegerLiteral = isIntegerLiteral
    }

    /// The first member named `key` if this node is an object, otherwise `nil`.
    public func member(_ key: String) -> JSONMember? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The decoded key.
    public var key: String
    /// The location of the key's opening quote.
    public var keyLocation: JSONLocation
    /// The member's value.
    public var value: JSONNode

    /// Creates a member from its key, the key's location, and its value.
    public init(key: String, keyLocation: JSONLocation, value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

/// A JSON value whose children carry their own source locations.
public enum JSONValue: Sendable, Equatable {
    /// The literal `null`.
    case null
    /// The literal `true` or `false`.
    case bool(Bool)
    /// A finite number; see `JSONNode.isIntegerLiteral` for how it was written.
    case number(Double)
    /// A string with all escapes decoded.
    case string(String)
    /// An array's elements in source order.
    case array([JSONNode])
    /// An object's members in source order, duplicates kept so callers can report them.
    case object([JSONMember])

    /// The JSON type name for messages: "null", "boolean", "number", "string", "array", or "object".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
