import Foundation

/// Why SVG path data could not be parsed, and where.
public struct SVGPathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The UTF-8 byte offset in the input where the problem was found.
    public var offset: Int
    /// What went wrong, without the offset (e.g. `expected a number after 'L'`).
    public var message: String

    /// Creates an error.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The message with its position, e.g. `expected a number after 'L' at offset 7`.
    public var description: String { "\(message) at offset \(offset)" }
}

extension CGPath {
    /// Creates a path from SVG path data (the `d` attribute), e.g. `"M0 0 L10 0 Z"`.
    ///
    /// Supports every SVG 1.1 command (M L H V C S Q T A Z, absolute and relative) with
    /// implicit repeats. Coordinates are taken as-is (no y-flip). Elliptical arcs become
    /// cubic Béziers of ≤ 90° each. Throws ``SVGPathError`` on the first syntax error.
    public convenience init(svgPathData: String) throws(SVGPathError) {
        var parser = SVGPathParser(svgPathData)
        self.init(elements: try parser.parse())
    }

    /// Parses SVG path data into a path; see ``init(svgPathData:)``.
    public static func parsing(svgPathData: String) throws(SVGPathError) -> CGPath {
        try CGPath(svgPathData: svgPathData)
    }
}

/// A single-pass parser over UTF-8 bytes; every loop iteration consumes input or throws.
struct SVGPathParser {
    private let bytes: [UInt8]
    private var index = 0
    private var elements: [PathElement] = []
    private var current = CGPoint.zero
    private var subpathStart = CGPoint.zero
    /// Second control point of the previous C/S, for S's reflection.
    private var lastCubicControl: CGPoint?
    /// Control point of the previous Q/T, for T's reflection.
    private var lastQuadControl: CGPoint?

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    mutating func parse() throws(SVGPathError) -> [PathElement] {
        var command: UInt8?
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if command == nil, byte != UInt8(ascii: "M"), byte != UInt8(ascii: "m") {
                throw error("path data must start with a moveto ('M' or 'm'), found '\(character(at: index))'")
            }
            if Self.argumentCounts[byte] != nil {
                index += 1
                command = byte
                skipWhitespace()
                try run(byte)
            } else if let previous = command, byte == UInt8(ascii: ",") || isNumberStart(byte) {
                if Self.argumentCounts[previous] == 0 {
                    let letter = Character(UnicodeScalar(previous))
                    throw error("unexpected number after '\(letter)', which takes no arguments")
                }
                if byte == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                }
                // Extra coordinate pairs after a moveto are linetos.
                let repeated = previous == UInt8(ascii: "M") ? UInt8(ascii: "L")
                    : previous == UInt8(ascii: "m") ? UInt8(ascii: "l") : previous
                try run(repeated)
            } else {
                throw error("unexpected character '\(character(at: index))'")
            }
        }
        return elements
    }

    /// Number of arguments per command letter.
    private static let argumentCounts: [UInt8: Int] = {
        var table: [UInt8: Int] = [:]
        let counts: [(Unicode.Scalar, Int)] = [
            ("M", 2), ("L", 2), ("T", 2), ("H", 1), ("V", 1), ("C", 6), ("S", 4), ("Q", 4), ("A", 7), ("Z", 0),
        ]
        for (letter, count) in counts {
            let upper = UInt8(ascii: letter)
            table[upper] = count
            table[upper | 0x20] = count  // lower case: relative
        }
        return table
    }()

    /// Reads one argument set for `command` (positioned at its first argument) and emits it.
    private mutating func run(_ command: UInt8) throws(SVGPathError) {
        let argumentsStart = index
        let relative = command >= UInt8(ascii: "a")
        let letter = command & ~0x20  // upper case
        let count = Self.argumentCounts[command] ?? 0
        var values: [CGFloat] = []
        var flags: [Bool] = []
        for position in 0..<count {
            if position > 0 { skipCommaWhitespace() }
            if letter == UInt8(ascii: "A"), position == 3 || position == 4 {
                flags.append(try flag(after: command))
            } else {
                values.append(try number(after: command))
            }
        }
        let origin = relative ? current : .zero
        func point(_ i: Int) -> CGPoint {
            CGPoint(x: origin.x + values[i], y: origin.y + values[i + 1])
        }
        var cubicControl: CGPoint?
        var quadControl: CGPoint?
        switch letter {
        case UInt8(ascii: "M"):
            let p = point(0)
            elements.append(.move(to: p))
            current = p
            subpathStart = p
        case UInt8(ascii: "L"): lineTo(point(0))
        case UInt8(ascii: "H"): lineTo(CGPoint(x: origin.x + values[0], y: current.y))
        case UInt8(ascii: "V"): lineTo(CGPoint(x: current.x, y: origin.y + values[0]))
        case UInt8(ascii: "C"), UInt8(ascii: "S"):
            let c1: CGPoint, c2: CGPoint, end: CGPoint
            if letter == UInt8(ascii: "C") {
                (c1, c2, end) = (point(0), point(2), point(4))
            } else {
                c1 = reflected(lastCubicControl)
                (c2, end) = (point(0), point(2))
            }
            append(.curve(to: end, control1: c1, control2: c2))
            current = end
            cubicControl = c2
        case UInt8(ascii: "Q"), UInt8(ascii: "T"):
            let control = letter == UInt8(ascii: "Q") ? point(0) : reflected(lastQuadControl)
            let end = letter == UInt8(ascii: "Q") ? point(2) : point(0)
            append(.quadCurve(to: end, control: control))
            current = end
            quadControl = control
        case UInt8(ascii: "A"):
            arcTo(point(3), radii: CGSize(width: values[0], height: values[1]),
                  rotation: values[2], largeArc: flags[0], sweep: flags[1])
        default:  // Z
            if let last = elements.last, last != .closeSubpath { elements.append(.closeSubpath) }
            current = subpathStart
        }
        lastCubicControl = cubicControl
        lastQuadControl = quadControl
        // Relative coordinates can overflow even when every number is finite.
        guard current.x.isFinite, current.y.isFinite,
              elements.suffix(8).allSatisfy(\.isFinite) else {
            throw error("coordinates out of range after '\(Character(UnicodeScalar(command)))'", at: argumentsStart)
        }
    }

    /// The previous control point mirrored through the current point, or the current point.
    private func reflected(_ control: CGPoint?) -> CGPoint {
        guard let control else { return current }
        return CGPoint(x: 2 * current.x - control.x, y: 2 * current.y - control.y)
    }

    /// Appends a drawing element, first re-opening the subpath after a `Z` with a move.
    private mutating func append(_ element: PathElement) {
        if elements.last == .closeSubpath { elements.append(.move(to: subpathStart)) }
        elements.append(element)
    }

    private mutating func lineTo(_ p: CGPoint) {
        append(.line(to: p))
        current = p
    }

    /// Converts an SVG elliptical arc to cubics (SVG 1.1 appendix F.6).
    private mutating func arcTo(
        _ end: CGPoint, radii: CGSize, rotation: CGFloat, largeArc: Bool, sweep: Bool
    ) {
        let start = current
        if start == end { return }  // F.6.2: omit the arc entirely
        var rx = abs(radii.width), ry = abs(radii.height)
        guard rx > 0, ry > 0 else { return lineTo(end) }
        let phi = rotation.truncatingRemainder(dividingBy: 360) * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let hx = (start.x - end.x) / 2, hy = (start.y - end.y) / 2
        let x1 = cosPhi * hx + sinPhi * hy, y1 = -sinPhi * hx + cosPhi * hy
        // Work in radius units (X, Y) so huge radii cannot overflow rx²·ry².
        let unitX = x1 / rx, unitY = y1 / ry
        let lambda = unitX * unitX + unitY * unitY
        if lambda > 1 {  // F.6.6: radii too small, scale them up
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        }
        // F.6.5.2 with numerator and denominator divided by rx²·ry²: √((1 − Λ) / Λ).
        let root = lambda < 1 ? ((1 - lambda) / lambda).squareRoot() : 0
        let coefficient = largeArc != sweep ? root : -root
        let cx1 = coefficient * rx * (y1 / ry), cy1 = -coefficient * ry * (x1 / rx)
        let ux = (x1 - cx1) / rx, uy = (y1 - cy1) / ry
        let theta = atan2(uy, ux)
        // Sweep from the chord's half-length in unit space: stable even for nearly flat arcs.
        let small = 2 * asin(min(1, lambda.squareRoot()))
        let magnitude = largeArc ? 2 * .pi - small : small
        let delta = sweep ? magnitude : -magnitude
        guard theta.isFinite, delta.isFinite, rx.isFinite, ry.isFinite else {
            return lineTo(end)  // radii so large the arc is indistinguishable from its chord
        }
        // Points are computed relative to `start` (cos(θ+σ) − cos θ = −2 sin(θ+σ/2) sin(σ/2), …)
        // so that a huge radius does not cancel away the arc's small offsets.
        func map(_ x: CGFloat, _ y: CGFloat) -> CGPoint {
            CGPoint(x: start.x + rx * cosPhi * x - ry * sinPhi * y,
                    y: start.y + rx * sinPhi * x + ry * cosPhi * y)
        }
        func offset(_ sigma: CGFloat) -> (x: CGFloat, y: CGFloat) {
            let s = sin(sigma / 2)
            return (-2 * sin(theta + sigma / 2) * s, 2 * cos(theta + sigma / 2) * s)
        }
        let count = min(4, max(1, Int((abs(delta) / (.pi / 2) - 1e-9).rounded(.up))))
        let step = delta / CGFloat(count)
        let k = 4 / 3 * tan(step / 4)
        for i in 0..<count {
            let s0 = step * CGFloat(i), s1 = step * CGFloat(i + 1)
            let a0 = theta + s0, a1 = theta + s1
            let d0 = offset(s0), d1 = offset(s1)
            let c1 = map(d0.x - k * sin(a0), d0.y + k * cos(a0))
            let c2 = map(d1.x + k * sin(a1), d1.y - k * cos(a1))
            let p = i == count - 1 ? end : map(d1.x, d1.y)
            append(.curve(to: p, control1: c1, control2: c2))
        }
        current = end
    }

    // MARK: - Lexing

    private mutating func number(after command: UInt8) throws(SVGPathError) -> CGFloat {
        let start = index
        var i = index
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while i < bytes.count, isDigit(bytes[i]) { i += 1; digits += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            var j = i + 1
            while j < bytes.count, isDigit(bytes[j]) { j += 1; digits += 1 }
            if digits > 0 { i = j }
        }
        guard digits > 0 else {
            throw error("expected a number after '\(Character(UnicodeScalar(command)))'", at: start)
        }
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            guard j < bytes.count, isDigit(bytes[j]) else {
                throw error("expected digits in the exponent of a number", at: j)
            }
            while j < bytes.count, isDigit(bytes[j]) { j += 1 }
            i = j
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number '\(text)' is out of range", at: start)
        }
        index = i
        return CGFloat(value)
    }

    private mutating func flag(after command: UInt8) throws(SVGPathError) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
            throw error("expected a flag (0 or 1) after '\(Character(UnicodeScalar(command)))'")
        }
        index += 1
        return bytes[index - 1] == UInt8(ascii: "1")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
    }

    /// Skips `wsp* ","? wsp*`, the separator allowed between arguments.
    private mutating func skipCommaWhitespace() {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
        }
    }

    private func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private func isNumberStart(_ b: UInt8) -> Bool {
        isDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
    }

    /// The whole (possibly multi-byte) character starting at byte `offset`, for messages.
    private func character(at offset: Int) -> String {
        let lead = bytes[offset]
        let width = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        return String(decoding: bytes[offset..<min(bytes.count, offset + width)], as: UTF8.self)
    }

    private func error(_ message: String, at offset: Int? = nil) -> SVGPathError {
        SVGPathError(offset: offset ?? index, message: message)
    }
}
