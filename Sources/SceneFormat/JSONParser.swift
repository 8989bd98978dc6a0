/// A JSON syntax error and the location of the character that caused it.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the offending character is (or the end of input).
    public var location: JSONLocation
    /// A short lowercase message saying what was wrong or expected.
    public var message: String

    /// Creates an error at `location` with `message`.
    public init(location: JSONLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// The error as `line:column: message`, ready to follow a file name.
    public var description: String { "\(location): \(message)" }
}

/// A strict RFC 8259 JSON reader that records the source location of every value and key.
///
/// The parser is iterative, so deep nesting never grows the call stack, and no
/// input makes it trap; `maxDepth` caps how many containers may be open at once.
public enum JSONParser {
    /// The nesting limit used when none is given.
    public static let defaultMaxDepth = 512

    /// Parses one JSON document from UTF-8 bytes, skipping a leading byte order mark.
    ///
    /// - Parameter maxDepth: The most arrays and objects that may be open at once.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONNode {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        return try reader.parseDocument()
    }

    /// Parses one JSON document from a string.
    public static func parse(_ string: String, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONNode {
        try parse(Array(string.utf8), maxDepth: maxDepth)
    }
}

/// ASCII bytes the grammar cares about.
enum JSONByte {
    static let tab = UInt8(ascii: "\t"), lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r"), space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+"), dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
    static let lowerE = UInt8(ascii: "e"), upperE = UInt8(ascii: "E")
}

/// Exact powers of ten for the fast number path (all representable in a `Double`).
private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// An array or object whose members are still being read.
struct OpenContainer {
    var location: JSONLocation
    var isObject: Bool
    var elements: [JSONNode] = []
    var members: [JSONMember] = []
    /// The key of the object member whose value is read next.
    var key = ""
    var keyLocation = JSONLocation(line: 1, column: 1, offset: 0)
}

/// A number's significant digits, exact while at most 19 of them (they then fit a UInt64).
struct Digits {
    var mantissa: UInt64 = 0
    var count = 0
    var isExact = true

    mutating func append(_ digit: UInt8) {
        guard mantissa != 0 || digit != 0 else { return }  // leading zeros are not significant
        guard count < 19 else { isExact = false; return }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        count += 1
    }
}

/// The parser's cursor and line bookkeeping over one input.
struct JSONReader {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0
    var line = 1
    var lineStart = 0
    // Columns are counted incrementally from the last location asked for,
    // so long single-line documents stay linear.
    var cachedOffset = 0
    var cachedColumn = 1
    /// Reused scratch space for strings that contain escapes.
    var stringBuffer: [UInt8] = []

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            // The byte order mark is invisible, so the first column starts after it.
            (index, lineStart, cachedOffset) = (3, 3, 3)
        }
        skipWhitespace()
        guard index < bytes.count else { throw error("empty document", at: index) }
        let root = try parseTree()
        skipWhitespace()
        guard index == bytes.count else { throw mismatch("unexpected trailing characters") }
        return root
    }

    /// Reads one value, iterating over nested containers with an explicit stack.
    mutating func parseTree() throws(JSONSyntaxError) -> JSONNode {
        var containers: [OpenContainer] = []
        while true {
            skipWhitespace()
            let first = try current()
            let here = location(at: index)
            var node: JSONNode
            switch first {
            case JSONByte.openBracket, JSONByte.openBrace:
                let isObject = first == JSONByte.openBrace
                guard containers.count < maxDepth else {
                    throw JSONSyntaxError(location: here, message: "nesting deeper than \(maxDepth)")
                }
                index += 1
                skipWhitespace()
                if peek() == (isObject ? JSONByte.closeBrace : JSONByte.closeBracket) {
                    index += 1
                    node = JSONNode(value: isObject ? .object([]) : .array([]), location: here)
                } else {
                    var container = OpenContainer(location: here, isObject: isObject)
                    if isObject { (container.key, container.keyLocation) = try parseKey() }
                    containers.append(container)
                    continue
                }
            case JSONByte.quote:
                node = JSONNode(value: .string(try parseString()), location: here)
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                node = try parseLiteral(at: here)
            case JSONByte.minus, JSONByte.zero...JSONByte.nine:
                node = try parseNumber(at: here)
            default:
                throw unexpectedCharacter()
            }

            // Hand the finished value to its container; close every container it completes.
            while !containers.isEmpty {
                let top = containers.count - 1
                let isObject = containers[top].isObject
                if isObject {
                    let (key, keyLocation) = (containers[top].key, containers[top].keyLocation)
                    containers[top].members.append(JSONMember(key: key, keyLocation: keyLocation, value: node))
                } else {
                    containers[top].elements.append(node)
                }
                skipWhitespace()
                let closer = isObject ? JSONByte.closeBrace : JSONByte.closeBracket
                if try current() == JSONByte.comma {
                    let commaLocation = location(at: index)
                    index += 1
                    skipWhitespace()
                    if peek() == closer {
                        let what = isObject ? "object" : "array"
                        throw JSONSyntaxError(location: commaLocation, message: "trailing comma in \(what)")
                    }
                    if isObject { (containers[top].key, containers[top].keyLocation) = try parseKey() }
                    break
                }
                guard bytes[index] == closer else {
                    throw mismatch(isObject
                        ? "expected ',' or '}' after object member"
                        : "expected ',' or ']' after array element")
                }
                index += 1
                let done = containers.removeLast()
                let value: JSONValue = isObject ? .object(done.members) : .array(done.elements)
                node = JSONNode(value: value, location: done.location)
            }
            if containers.isEmpty { return node }
        }
    }

    /// Reads `"key" :` and leaves the cursor before the value.
    mutating func parseKey() throws(JSONSyntaxError) -> (String, JSONLocation) {
        guard try current() == JSONByte.quote else { throw mismatch("expected string key") }
        let keyLocation = location(at: index)
        let key = try parseString()
        skipWhitespace()
        guard try current() == JSONByte.colon else { throw mismatch("expected ':' after object key") }
        index += 1
        return (key, keyLocation)
    }

    /// Reads `true`, `false`, or `null`, whichever the first letter announces.
    mutating func parseLiteral(at here: JSONLocation) throws(JSONSyntaxError) -> JSONNode {
        let (literal, value): (StaticString, JSONValue) = switch bytes[index] {
        case UInt8(ascii: "t"): ("true", .bool(true))
        case UInt8(ascii: "f"): ("false", .bool(false))
        default: ("null", .null)
        }
        for offset in 0..<literal.utf8CodeUnitCount {
            let expected = literal.withUTF8Buffer { $0[offset] }
            guard try current() == expected else { throw mismatch("invalid literal, expected '\(literal)'") }
            index += 1
        }
        return JSONNode(value: value, location: here)
    }

    // MARK: Numbers

    mutating func parseNumber(at here: JSONLocation) throws(JSONSyntaxError) -> JSONNode {
        let start = index
        let isNegative = bytes[index] == JSONByte.minus
        if isNegative { index += 1 }
        var digits = Digits()
        if try current() == JSONByte.zero {
            index += 1
            if let next = peek(), isDigit(next) { throw error("leading zeros are not allowed", at: index - 1) }
        } else if isDigit(bytes[index]) {
            readDigits(into: &digits)
        } else {
            throw mismatch("expected digit after '-'")
        }
        var isInteger = true
        var fractionDigits = 0
        if peek() == JSONByte.dot {
            isInteger = false
            index += 1
            guard isDigit(try current()) else { throw mismatch("expected digit after '.'") }
            fractionDigits = readDigits(into: &digits)
        }
        var exponent = 0
        if peek() == JSONByte.lowerE || peek() == JSONByte.upperE {
            isInteger = false
            index += 1
            let sign = peek()
            if sign == JSONByte.plus || sign == JSONByte.minus { index += 1 }
            guard isDigit(try current()) else { throw mismatch("expected digit in exponent") }
            while let byte = peek(), isDigit(byte) {
                // Saturate: exponents this large only matter to the slow path anyway.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(byte &- JSONByte.zero) }
                index += 1
            }
            if sign == JSONByte.minus { exponent = -exponent }
        }

        var value: Double
        let scale = exponent - fractionDigits
        if digits.isExact, digits.mantissa <= 1 << 53, (-22...22).contains(scale) {
            // Both operands are exact doubles, so one IEEE operation rounds correctly.
            value = Double(digits.mantissa)
            value = scale < 0 ? value / powersOfTen[-scale] : value * powersOfTen[scale]
            if isNegative { value = -value }
        } else {
            // The grammar above is a subset of what Double(_:) accepts.
            value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? .infinity
        }
        guard value.isFinite else { throw JSONSyntaxError(location: here, message: "number out of range") }
        return JSONNode(value: .number(value), location: here, isIntegerLiteral: isInteger)
    }

    /// Reads a run of digits into `digits` and returns its length.
    @discardableResult
    mutating func readDigits(into digits: inout Digits) -> Int {
        let start = index
        while let byte = peek(), isDigit(byte) {
            digits.append(byte &- JSONByte.zero)
            index += 1
        }
        return index - start
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= JSONByte.zero && byte <= JSONByte.nine }

    // MARK: Strings

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case JSONByte.space, JSONByte.tab:
                index += 1
            case JSONByte.lineFeed:
                index += 1
                startLine(at: index)
            case JSONByte.carriageReturn:
                index += 1
                // In CR LF the LF starts the line.
                if index >= bytes.count || bytes[index] != JSONByte.lineFeed { startLine(at: index) }
            default:
                return
            }
        }
    }

    mutating func startLine(at offset: Int) {
        line += 1
        lineStart = offset
        cachedOffset = offset
        cachedColumn = 1
    }

    mutating func location(at offset: Int) -> JSONLocation {
        if offset < cachedOffset {
            cachedOffset = lineStart
            cachedColumn = 1
        }
        var column = cachedColumn
        var position = cachedOffset
        while position < offset, position < bytes.count {
            // Every byte except a UTF-8 continuation byte starts a new scalar.
            if bytes[position] & 0xC0 != 0x80 { column += 1 }
            position += 1
        }
        cachedOffset = position
        cachedColumn = column
        return JSONLocation(line: line, column: column, offset: offset)
    }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The byte at the cursor; running out of input here is an error.
    mutating func current() throws(JSONSyntaxError) -> UInt8 {
        guard index < bytes.count else { throw endOfInput() }
        return bytes[index]
    }

    // MARK: Errors

    mutating func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(location: location(at: offset), message: message)
    }

    mutating func endOfInput() -> JSONSyntaxError {
        error("unexpected end of input", at: bytes.count)
    }

    /// An error at the cursor with `message`, unless the cursor is on invalid UTF-8.
    mutating func mismatch(_ message: String) -> JSONSyntaxError {
        guard index < bytes.count else { return endOfInput() }
        if bytes[index] >= 0x80, utf8Length(at: index) == nil { return error("invalid UTF-8", at: index) }
        return error(message, at: index)
    }

    /// An "unexpected character" error naming the character at the cursor.
    mutating func unexpectedCharacter() -> JSONSyntaxError {
        let byte = bytes[index]
        if byte > 0x20, byte < 0x7F {
            return error("unexpected character '\(Character(Unicode.Scalar(byte)))'", at: index)
        }
        guard let length = utf8Length(at: index) else { return error("invalid UTF-8", at: index) }
        // Decode the validated sequence only to name it.
        let scalars = String(decoding: bytes[index..<index + length], as: UTF8.self).unicodeScalars
        let value = scalars.first.map { $0.value } ?? UInt32(byte)
        return error("unexpected character \(scalarName(value))", at: index)
    }

    func scalarName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
