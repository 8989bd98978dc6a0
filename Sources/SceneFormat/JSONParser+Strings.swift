// String literals of the JSON reader: escapes, surrogate pairs and UTF-8 validation.

extension JSONReader {
    /// Reads a string starting at its opening quote and leaves the cursor after the closing one.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        index += 1
        var segmentStart = index
        var hasEscapes = false
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: quote) }
            let byte = bytes[index]
            if byte == JSONByte.quote { break }
            if byte == JSONByte.backslash {
                if !hasEscapes {
                    stringBuffer.removeAll(keepingCapacity: true)
                    hasEscapes = true
                }
                stringBuffer.append(contentsOf: bytes[segmentStart..<index])
                try parseEscape(quote: quote)
                segmentStart = index
            } else if byte < 0x20 {
                throw error("control character \(scalarName(UInt32(byte))) in string must be escaped", at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                guard let length = utf8Length(at: index) else { throw error("invalid UTF-8", at: index) }
                index += length
            }
        }
        let string: String
        if hasEscapes {
            stringBuffer.append(contentsOf: bytes[segmentStart..<index])
            string = String(decoding: stringBuffer, as: UTF8.self)
        } else {
            // Already validated, so decoding never substitutes replacement characters.
            string = String(decoding: bytes[segmentStart..<index], as: UTF8.self)
        }
        index += 1
        return string
    }

    /// Decodes the escape at the cursor into `stringBuffer`.
    mutating func parseEscape(quote: Int) throws(JSONSyntaxError) {
        let escape = index
        guard index + 1 < bytes.count else { throw error("unterminated string", at: quote) }
        let letter = bytes[index + 1]
        let decoded: UInt8? = switch letter {
        case JSONByte.quote, JSONByte.backslash, UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): JSONByte.lineFeed
        case UInt8(ascii: "r"): JSONByte.carriageReturn
        case UInt8(ascii: "t"): JSONByte.tab
        default: nil
        }
        if let decoded {
            stringBuffer.append(decoded)
            index += 2
        } else if letter == UInt8(ascii: "u") {
            try parseUnicodeEscape(quote: quote)
        } else {
            let shown = letter > 0x20 && letter < 0x7F ? " '\\\(Character(Unicode.Scalar(letter)))'" : " sequence"
            throw error("invalid escape\(shown)", at: escape)
        }
    }

    /// Decodes `\uXXXX`, pairing surrogates, into `stringBuffer`.
    mutating func parseUnicodeEscape(quote: Int) throws(JSONSyntaxError) {
        let escape = index
        var scalar = try hexQuad(escape: escape, quote: quote)
        index += 6
        if (0xDC00...0xDFFF).contains(scalar) {
            throw error("invalid \\u escape: unpaired surrogate", at: escape)
        }
        if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed directly by an escaped low one.
            let hasLow = index + 1 < bytes.count
                && bytes[index] == JSONByte.backslash && bytes[index + 1] == UInt8(ascii: "u")
            let low = hasLow ? try hexQuad(escape: index, quote: quote) : 0
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("invalid \\u escape: unpaired surrogate", at: escape)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            index += 6
        }
        appendUTF8(scalar)
    }

    /// Reads the four hex digits after the `\u` at `escape`.
    mutating func hexQuad(escape: Int, quote: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for position in (escape + 2)..<(escape + 6) {
            guard position < bytes.count else { throw error("unterminated string", at: quote) }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case JSONByte.zero...JSONByte.nine: digit = byte - JSONByte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape: expected 4 hex digits", at: escape)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    mutating func appendUTF8(_ value: UInt32) {
        // Callers have ruled out surrogates, so the scalar always exists.
        guard let scalar = Unicode.Scalar(value) else { return }
        UTF8.encode(scalar) { stringBuffer.append($0) }
    }

    // MARK: UTF-8

    /// The length of the well-formed UTF-8 sequence at `position`, or `nil` (Unicode Table 3-7).
    func utf8Length(at position: Int) -> Int? {
        func byte(_ offset: Int, in range: ClosedRange<UInt8>) -> Bool {
            position + offset < bytes.count && range.contains(bytes[position + offset])
        }
        let tail: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[position] {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return byte(1, in: tail) ? 2 : nil
        case 0xE0: return byte(1, in: 0xA0...0xBF) && byte(2, in: tail) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF: return byte(1, in: tail) && byte(2, in: tail) ? 3 : nil
        case 0xED: return byte(1, in: 0x80...0x9F) && byte(2, in: tail) ? 3 : nil
        case 0xF0: return byte(1, in: 0x90...0xBF) && byte(2, in: tail) && byte(3, in: tail) ? 4 : nil
        case 0xF1...0xF3: return byte(1, in: tail) && byte(2, in: tail) && byte(3, in: tail) ? 4 : nil
        case 0xF4: return byte(1, in: 0x80...0x8F) && byte(2, in: tail) && byte(3, in: tail) ? 4 : nil
        default: return nil
        }
    }

    // MARK: Whitespace and locations
}
