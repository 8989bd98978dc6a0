import Foundation

/// One HTTP/1.1 request as the preview server reads it: a request line and headers, no body.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The request target as sent (`/api/frame?frame=3`).
    public var target: String
    /// The target's path, percent-decoded (`/api/frame`).
    public var path: String
    /// The query's `name=value` pairs, percent-decoded; a repeated name keeps its last value.
    public var query: [String: String]
    /// Header names lowercased, in the order sent.
    public var headers: [(name: String, value: String)]
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    /// The last value of header `name` (lowercase).
    public func header(_ name: String) -> String? { headers.last { $0.name == name }?.value }

    /// Whether the client asks to keep the connection open after the response (HTTP/1.1's
    /// default, HTTP/1.0's `Connection: keep-alive`).
    public var keepsAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        return version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// What reading the start of a buffer gave.
    public enum Parse: Equatable {
        /// The headers have not ended yet (read more, within the limits).
        case incomplete
        /// A request, and how many bytes of the buffer it took.
        case request(HTTPRequest, consumed: Int)
        /// A request that will not be served: the status to answer with and why.
        case invalid(status: Int, reason: String)
    }

    /// Reads one request from the start of `bytes`, refusing (before reading further) one whose
    /// line and headers pass `maximumBytes` or `maximumHeaders`, or that carries a body.
    public static func parse(_ bytes: ArraySlice<UInt8>, maximumBytes: Int, maximumHeaders: Int) -> Parse {
        guard let end = headerEnd(bytes) else {
            if bytes.count > maximumBytes { return .invalid(status: 431, reason: "request headers over \(maximumBytes) bytes") }
            return .incomplete
        }
        let headEnd = end - 4
        if headEnd - bytes.startIndex > maximumBytes {
            return .invalid(status: 431, reason: "request headers over \(maximumBytes) bytes")
        }
        // Bytes are read as Latin-1 so that any byte decodes; a target must be ASCII anyway.
        let head = String(bytes[bytes.startIndex..<headEnd].map { Character(Unicode.Scalar($0)) })
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .invalid(status: 400, reason: "malformed request line")
        }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .invalid(status: 505, reason: "only HTTP/1.0 and HTTP/1.1 are served")
        }
        guard method.allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == "-") }) else {
            return .invalid(status: 400, reason: "malformed method")
        }
        guard lines.count <= maximumHeaders else {
            return .invalid(status: 431, reason: "more than \(maximumHeaders) header lines")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  !line[..<colon].contains(where: { $0 == " " || $0 == "\t" }) else {
                return .invalid(status: 400, reason: "malformed header line")
            }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        // GET and HEAD carry no body; a request announcing one is refused rather than read.
        if headers.contains(where: { $0.name == "transfer-encoding" })
            || headers.contains(where: { $0.name == "content-length" && $0.value != "0" }) {
            return .invalid(status: 413, reason: "request bodies are not accepted")
        }
        if version == "HTTP/1.1", !headers.contains(where: { $0.name == "host" }) {
            return .invalid(status: 400, reason: "HTTP/1.1 request without a Host header")
        }
        // Origin form only (`/path?query`): no absolute URLs, no `*`.
        guard target.hasPrefix("/"), target.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            return .invalid(status: 400, reason: "request target must be a path")
        }
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = percentDecoded(String(pathPart[0])) else { return .invalid(status: 400, reason: "malformed path") }
        var query: [String: String] = [:]
        if pathPart.count == 2 {
            for pair in pathPart[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = percentDecoded(String(kv[0]), plusIsSpace: true),
                      let value = percentDecoded(kv.count == 2 ? String(kv[1]) : "", plusIsSpace: true) else {
                    return .invalid(status: 400, reason: "malformed query")
                }
                query[name] = value
            }
        }
        let request = HTTPRequest(method: method, target: target, path: path, query: query, headers: headers, version: version)
        return .request(request, consumed: end - bytes.startIndex)
    }

    /// The index just past the blank line that ends the headers, if it is there.
    static func headerEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var i = bytes.startIndex
        while i + 3 < bytes.endIndex {
            if bytes[i] == 13, bytes[i + 1] == 10, bytes[i + 2] == 13, bytes[i + 3] == 10 { return i + 4 }
            i += 1
        }
        return nil
    }

    /// `%XX` escapes (and in queries `+` as a space) decoded; nil for a broken escape or bytes
    /// that are not UTF-8.
    static func percentDecoded(_ text: String, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            switch byte {
            case UInt8(ascii: "%"):
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
