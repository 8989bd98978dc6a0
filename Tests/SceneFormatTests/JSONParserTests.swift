import XCTest
@testable import SceneFormat

final class JSONParserTests: XCTestCase {
    // MARK: Helpers

    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONNode? {
        do {
            return try JSONParser.parse(text)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    private func parseError(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(bytes, maxDepth: maxDepth)
            return nil
        } catch {
            return error
        }
    }

    private func elements(_ node: JSONNode?) -> [JSONNode] {
        guard case .array(let elements)? = node?.value else { return [] }
        return elements
    }

    private func members(_ node: JSONNode?) -> [JSONMember] {
        guard case .object(let members)? = node?.value else { return [] }
        return members
    }

    private func position(_ location: JSONLocation?) -> String {
        location.map { "\($0.line):\($0.column)" } ?? "nil"
    }

    // MARK: Values

    func testScalarValues() {
        let cases: [(String, JSONValue)] = [
            ("null", .null), ("true", .bool(true)), ("false", .bool(false)),
            ("0", .number(0)), ("-12", .number(-12)), ("3.25", .number(3.25)),
            ("1e3", .number(1000)), ("1E-2", .number(0.01)), ("-2.5e+2", .number(-250)),
            ("0.1", .number(0.1)), ("1.7976931348623157e308", .number(.greatestFiniteMagnitude)),
            ("5e-324", .number(.leastNonzeroMagnitude)), ("1e-400", .number(0)),
            ("9007199254740993", .number(9007199254740992)),
            ("123456789012345678901234567890", .number(1.2345678901234568e29)),
            ("\"\"", .string("")), ("\"héllo 😀\"", .string("héllo 😀")),
            ("[]", .array([])), ("{}", .object([])), (" \t\r\n 7 \n", .number(7)),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(parse(text)?.value, expected, text)
        }
        if case .number(let zero)? = parse("-0")?.value { XCTAssertEqual(zero.sign, .minus) } else { XCTFail("-0") }
    }

    func testNumbersRoundTripThroughTheirShortestSpelling() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            XCTAssertEqual(parse(value.description)?.value, .number(value), value.description)
        }
        for text in ["0.3", "2.675", "1e22", "1e23", "4.35", "123.456e-7", "8.41e21", "9.5367431640625e-7"] {
            XCTAssertEqual(parse(text)?.value, .number(Double(text) ?? .nan), text)
        }
    }

    func testIntegerLiteralFlag() {
        let flags = elements(parse("[0, -0, 12, 1.0, 1e2, 1E-2, -3.25, 123456789012345678901234567890, \"1\", true]"))
        let expected = [true, true, true, false, false, false, false, true, false, false]
        XCTAssertEqual(flags.map(\.isIntegerLiteral), expected)
    }

    func testEveryEscape() {
        let text = #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \uD83D\uDE00 \u0000 \uFFFF x""#
        XCTAssertEqual(parse(text)?.value, .string("\" \\ / \u{8} \u{C} \n \r \t A é € 😀 \u{0} \u{FFFF} x"))
        XCTAssertEqual(parse(#""\ud834\udd1e""#)?.value, .string("𝄞"))
        XCTAssertEqual(parse(#""a\nb""#)?.value, .string("a\nb"))
        // Keys decode escapes too.
        XCTAssertEqual(members(parse(#"{"k\u00e9y": 1}"#)).first?.key, "kéy")
    }

    func testDuplicateKeysAreKeptInOrder() {
        let root = parse(#"{"a": 1, "b": 2, "a": 3}"#)
        XCTAssertEqual(members(root).map(\.key), ["a", "b", "a"])
        XCTAssertEqual(members(root).map(\.value.value), [.number(1), .number(2), .number(3)])
        XCTAssertEqual(root?.member("a")?.value.value, .number(1))
        XCTAssertEqual(position(root?.member("a")?.keyLocation), "1:2")
        XCTAssertNil(root?.member("c"))
        XCTAssertNil(parse("[1]")?.member("a"))
    }

    func testTypeNames() {
        let names = elements(parse(#"[null, true, 1, "s", [], {}]"#)).map(\.value.typeName)
        XCTAssertEqual(names, ["null", "boolean", "number", "string", "array", "object"])
    }

    // MARK: Locations

    func testLocationsAcrossLines() {
        let text = """
        {
          "name": "title",
          "sublayers": [
            {"x": 1, "ü": [true, null]},
        \t"café", 42
          ]
        }
        """
        let root = parse(text)
        XCTAssertEqual(position(root?.location), "1:1")
        let name = root?.member("name")
        XCTAssertEqual(position(name?.keyLocation), "2:3")
        XCTAssertEqual(position(name?.value.location), "2:11")
        let sublayers = root?.member("sublayers")
        XCTAssertEqual(position(sublayers?.keyLocation), "3:3")
        XCTAssertEqual(position(sublayers?.value.location), "3:16")
        let items = elements(sublayers?.value)
        XCTAssertEqual(items.map { position($0.location) }, ["4:5", "5:2", "5:10"])
        let layer = members(items.first)
        XCTAssertEqual(layer.map { position($0.keyLocation) }, ["4:6", "4:14"])
        XCTAssertEqual(layer.map { position($0.value.location) }, ["4:11", "4:19"])
        // Columns count scalars: "ü" is two bytes but one column.
        XCTAssertEqual(elements(layer.last?.value).map { position($0.location) }, ["4:20", "4:26"])
        XCTAssertEqual(items.last?.location.offset, Array(text.utf8).count - 8)
    }

    func testColumnsAfterMultiByteCharacters() {
        let items = elements(parse(#"["😀", 1, "日本", 2]"#))
        XCTAssertEqual(items.map { position($0.location) }, ["1:2", "1:7", "1:10", "1:16"])
        XCTAssertEqual(items.map(\.location.offset), [1, 9, 12, 22])
    }

    func testLineBreaksAndByteOrderMark() {
        let crlf = elements(parse("[\r\n1,\r\n  2,\r3]"))
        XCTAssertEqual(crlf.map { position($0.location) }, ["2:1", "3:3", "4:1"])
        let bom = try? JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
        XCTAssertEqual(bom?.location, JSONLocation(line: 1, column: 1, offset: 3))
        XCTAssertEqual(members(bom).first?.keyLocation, JSONLocation(line: 1, column: 2, offset: 4))
        XCTAssertEqual(JSONLocation(line: 14, column: 9, offset: 0).description, "14:9")
    }

    // MARK: Errors

    func testMalformedInputs() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let cases: [(input: [UInt8], message: String, at: String)] = [
            (Array("".utf8), "empty document", "1:1"),
            (Array("  \n ".utf8), "empty document", "2:2"),
            (bom, "empty document", "1:1"),
            (Array("[1,]".utf8), "trailing comma in array", "1:3"),
            (Array(#"{"a":1,}"#.utf8), "trailing comma in object", "1:7"),
            (Array("{\n  \"a\": [\n    1,\n    2,\n  ]\n}".utf8), "trailing comma in array", "4:6"),
            (Array("[1 2]".utf8), "expected ',' or ']' after array element", "1:4"),
            (Array(#"{"a":1 "b":2}"#.utf8), "expected ',' or '}' after object member", "1:8"),
            (Array("{a:1}".utf8), "expected string key", "1:2"),
            (Array(#"{"a":1, 2}"#.utf8), "expected string key", "1:9"),
            (Array(#"{"a" 1}"#.utf8), "expected ':' after object key", "1:6"),
            (Array(#"["a" : 1]"#.utf8), "expected ',' or ']' after array element", "1:6"),
            (Array("[".utf8), "unexpected end of input", "1:2"),
            (Array("{\"a\":\n".utf8), "unexpected end of input", "2:1"),
            (Array("[1,\n  ".utf8), "unexpected end of input", "2:3"),
            (Array(#""abc"#.utf8), "unterminated string", "1:1"),
            (Array(#"["ok", "ab\"#.utf8), "unterminated string", "1:8"),
            (Array("[01]".utf8), "leading zeros are not allowed", "1:2"),
            (Array("-01".utf8), "leading zeros are not allowed", "1:2"),
            (Array("+1".utf8), "unexpected character '+'", "1:1"),
            (Array(".5".utf8), "unexpected character '.'", "1:1"),
            (Array("[1.]".utf8), "expected digit after '.'", "1:4"),
            (Array("1.".utf8), "unexpected end of input", "1:3"),
            (Array("[1e]".utf8), "expected digit in exponent", "1:4"),
            (Array("[1e+]".utf8), "expected digit in exponent", "1:5"),
            (Array("[-]".utf8), "expected digit after '-'", "1:3"),
            (Array("-".utf8), "unexpected end of input", "1:2"),
            (Array("0x1F".utf8), "unexpected trailing characters", "1:2"),
            (Array("NaN".utf8), "unexpected character 'N'", "1:1"),
            (Array("[Infinity]".utf8), "unexpected character 'I'", "1:2"),
            (Array("[-Infinity]".utf8), "expected digit after '-'", "1:3"),
            (Array("1e400".utf8), "number out of range", "1:1"),
            (Array("[0, -1e999]".utf8), "number out of range", "1:5"),
            (Array(#"["\uD800"]"#.utf8), "invalid \\u escape: unpaired surrogate", "1:3"),
            (Array(#""\uDC00""#.utf8), "invalid \\u escape: unpaired surrogate", "1:2"),
            (Array(#""\uD800\u0041""#.utf8), "invalid \\u escape: unpaired surrogate", "1:2"),
            (Array(#""\uD800\n""#.utf8), "invalid \\u escape: unpaired surrogate", "1:2"),
            (Array(#""\u12G4""#.utf8), "invalid \\u escape: expected 4 hex digits", "1:2"),
            (Array(#""ab\u12""#.utf8), "invalid \\u escape: expected 4 hex digits", "1:4"),
            (Array(#""\x""#.utf8), "invalid escape '\\x'", "1:2"),
            (Array("\"a\tb\"".utf8), "control character U+0009 in string must be escaped", "1:3"),
            (Array("\"a\nb\"".utf8), "control character U+000A in string must be escaped", "1:3"),
            ([0xFF], "invalid UTF-8", "1:1"),
            ([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], "invalid UTF-8", "1:3"),
            ([0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8", "1:2"),
            ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8", "1:2"),
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8", "1:2"),
            ([0x22, 0xE2, 0x82], "invalid UTF-8", "1:2"),
            (Array("[1,\n é".utf8) + [0x80], "unexpected character U+00E9", "2:2"),
            (Array("[1] ".utf8) + [0xFE], "invalid UTF-8", "1:5"),
            (Array("tru".utf8), "unexpected end of input", "1:4"),
            (Array("[trux]".utf8), "invalid literal, expected 'true'", "1:5"),
            (Array("[nul]".utf8), "invalid literal, expected 'null'", "1:5"),
            (Array("fals".utf8), "unexpected end of input", "1:5"),
            (Array("{} {}".utf8), "unexpected trailing characters", "1:4"),
            (Array("[1]\n]".utf8), "unexpected trailing characters", "2:1"),
            (Array("{\n  \"é\": x\n}".utf8), "unexpected character 'x'", "2:8"),
            (Array("[\u{FEFF}1]".utf8), "unexpected character U+FEFF", "1:2"),
            (Array("\u{1}".utf8), "unexpected character U+0001", "1:1"),
            (Array("[1,,2]".utf8), "unexpected character ','", "1:4"),
            (Array(#"{"a":}"#.utf8), "unexpected character '}'", "1:6"),
            (Array("[\r\n1,\r\n]".utf8), "trailing comma in array", "2:2"),
            (Array("[\r1 2]".utf8), "expected ',' or ']' after array element", "2:3"),
            (Array("['a']".utf8), "unexpected character '''", "1:2"),
        ]
        for (input, message, at) in cases {
            let error = parseError(input)
            let shown = String(decoding: input, as: UTF8.self).debugDescription
            XCTAssertEqual(error?.message, message, shown)
            XCTAssertEqual(position(error?.location), at, shown)
        }
        XCTAssertEqual(parseError(Array("[1,]".utf8))?.description, "1:3: trailing comma in array")
    }

    // MARK: Depth and robustness

    func testNestingLimit() {
        let nested = { (depth: Int) in
            Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        }
        XCTAssertNil(parseError(nested(512)))
        let error = parseError(nested(513))
        XCTAssertEqual(error?.message, "nesting deeper than 512")
        XCTAssertEqual(error?.location, JSONLocation(line: 1, column: 513, offset: 512))
        XCTAssertEqual(parseError(Array(#"{"a": [[1]]}"#.utf8), maxDepth: 2)?.message, "nesting deeper than 2")
        XCTAssertEqual(position(parseError(Array(#"{"a": [[1]]}"#.utf8), maxDepth: 2)?.location), "1:8")
        XCTAssertEqual(parseError(Array("[]".utf8), maxDepth: 0)?.message, "nesting deeper than 0")
        XCTAssertNil(parseError(Array("1".utf8), maxDepth: 0))
    }

    func testHundredKilobytesNestedSixHundredDeepFails() {
        let level = "[" + String(repeating: "1,", count: 80)
        var text = String(repeating: level, count: 600) + "1" + String(repeating: "]", count: 600)
        text += String(repeating: " ", count: max(0, 100_000 - text.utf8.count))
        XCTAssertGreaterThanOrEqual(text.utf8.count, 100_000)
        let error = parseError(Array(text.utf8))
        XCTAssertEqual(error?.message, "nesting deeper than 512")
        XCTAssertEqual(error?.location, JSONLocation(line: 1, column: 512 * 161 + 1, offset: 512 * 161))
    }

    func testDeepUnclosedAndLongInputsDoNotCrash() {
        let brackets = Array(repeating: UInt8(ascii: "["), count: 200_000)
        XCTAssertEqual(parseError(brackets)?.message, "nesting deeper than 512")
        XCTAssertEqual(parseError(Array(repeating: UInt8(ascii: "["), count: 300))?.message, "unexpected end of input")
        XCTAssertEqual(parseError(Array(repeating: UInt8(ascii: "{"), count: 300))?.message, "expected string key")
        let digits = Array(repeating: UInt8(ascii: "9"), count: 400)
        XCTAssertEqual(parseError(digits)?.message, "number out of range")
        XCTAssertNil(parseError(Array("0.".utf8) + Array(repeating: UInt8(ascii: "0"), count: 100_000) + [0x31]))
        XCTAssertNil(parseError(Array("1e-99999999999999999999999".utf8)))
        XCTAssertEqual(parseError(Array("1e99999999999999999999999".utf8))?.message, "number out of range")
    }

    func testMutatedAndTruncatedDocumentsFailCleanly() {
        let sample = Array(#"{"a": [1, -2.5e3, "x\u00e9\n", true, null], "b": {"c": "日本😀"}, "d": 0}"#.utf8)
        for end in 0..<sample.count {
            let prefix = Array(sample[..<end])
            guard let error = parseError(prefix) else { continue }
            XCTAssertTrue((0...end).contains(error.location.offset), "\(end): \(error)")
        }
        var generator = SplitMix(seed: 42)
        let alphabet = Array(#"{}[],:"\/-+.eE0123456789 tfnu"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xE6, 0xF0, 0xFF]
        for _ in 0..<20_000 {
            var input = sample
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let position = Int(generator.next() % UInt64(input.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: input[position] = byte
                case 1: input.insert(byte, at: position)
                default: if input.count > 1 { input.remove(at: position) }
                }
            }
            if let error = parseError(input) {
                XCTAssertTrue((0...input.count).contains(error.location.offset))
                XCTAssertGreaterThanOrEqual(error.location.line, 1)
                XCTAssertGreaterThanOrEqual(error.location.column, 1)
                XCTAssertFalse(error.message.isEmpty)
            }
        }
    }
}

/// A small deterministic generator so mutation runs are reproducible.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
