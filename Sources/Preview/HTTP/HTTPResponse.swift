import Foundation

/// A response of the preview server: a status, headers and a body sent whole.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.body = body
        self.headers = [("Content-Type", contentType)] + headers
    }

    /// A UTF-8 text body.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: Array(text.utf8))
    }

    /// A JSON body (already encoded).
    public static func json(_ json: String, status: Int = 200) -> HTTPResponse {
        text(json, status: status, contentType: "application/json")
    }

    /// An error: the status and one line saying why, as plain text.
    public static func error(_ status: Int, _ reason: String) -> HTTPResponse {
        text("\(status) \(reasonPhrase(status)): \(reason)\n", status: status)
    }

    /// The status line, headers and (unless `includesBody` is false, for HEAD) the body.
    public func serialized(includesBody: Bool = true, keepsAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        // No page of the preview is meant to be framed, sniffed or cached across scene edits.
        head += "X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nCache-Control: no-store\r\n"
        head += keepsAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        return Array(head.utf8) + (includesBody ? body : [])
    }

    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
