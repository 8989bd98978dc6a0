import XCTest
@testable import Preview

/// The request reader: what it accepts, and what it refuses before reading further.
final class HTTPRequestTests: XCTestCase {
    private func parse(_ text: String, maximumBytes: Int = 16 << 10, maximumHeaders: Int = 64) -> HTTPRequest.Parse {
        HTTPRequest.parse(Array(text.utf8)[...], maximumBytes: maximumBytes, maximumHeaders: maximumHeaders)
    }

    func testAGetWithAQueryIsReadAndWhatFollowsIsLeft() throws {
        let text = "GET /api/frame?v=2&frame=17&view=diff HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept: */*\r\n\r\nGET / HTTP/1.1\r\n"
        guard case .request(let request, let consumed) = parse(text) else { return XCTFail("\(parse(text))") }
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.path, "/api/frame")
        XCTAssertEqual(request.query, ["v": "2", "frame": "17", "view": "diff"])
        XCTAssertEqual(request.header("host"), "127.0.0.1:8000")
        XCTAssertTrue(request.keepsAlive)
        XCTAssertEqual(String(decoding: Array(text.utf8)[consumed...], as: UTF8.self), "GET / HTTP/1.1\r\n", "the next request stays in the buffer")
    }

    func testIncompleteHeadersWaitForMore() {
        XCTAssertEqual(parse("GET / HTTP/1.1\r\nHost: x\r\n"), .incomplete)
    }

    func testPercentEscapesAreDecodedAndBrokenOnesRefused() throws {
        guard case .request(let request, _) = parse("GET /a%2Fb?name=two+words%21 HTTP/1.0\r\n\r\n") else { return XCTFail() }
        XCTAssertEqual(request.path, "/a/b")
        XCTAssertEqual(request.query["name"], "two words!")
        XCTAssertFalse(request.keepsAlive, "HTTP/1.0 closes unless asked to keep alive")
        XCTAssertEqual(parse("GET /a%2 HTTP/1.1\r\nHost: x\r\n\r\n"), .invalid(status: 400, reason: "malformed path"))
        XCTAssertEqual(parse("GET /%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n"), .invalid(status: 400, reason: "malformed path"))
    }

    func testOversizedRequestsAreRefusedBeforeTheirEnd() {
        // No blank line yet, but already over the limit: refused without waiting for the rest.
        let long = "GET /" + String(repeating: "a", count: 200) + " HTTP/1.1\r\nHost: x\r\n"
        XCTAssertEqual(parse(long, maximumBytes: 100), .invalid(status: 431, reason: "request headers over 100 bytes"))
        let headers = (0..<5).map { "X-\($0): y\r\n" }.joined()
        XCTAssertEqual(parse("GET / HTTP/1.1\r\nHost: x\r\n\(headers)\r\n", maximumHeaders: 4),
                       .invalid(status: 431, reason: "more than 4 header lines"))
    }

    func testBodiesAbsoluteTargetsAndOtherProtocolsAreRefused() {
        XCTAssertEqual(parse("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"),
                       .invalid(status: 413, reason: "request bodies are not accepted"))
        XCTAssertEqual(parse("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
                       .invalid(status: 413, reason: "request bodies are not accepted"))
        XCTAssertEqual(parse("GET http://evil.example/ HTTP/1.1\r\nHost: x\r\n\r\n"),
                       .invalid(status: 400, reason: "request target must be a path"))
        XCTAssertEqual(parse("GET / HTTP/2.0\r\n\r\n"), .invalid(status: 505, reason: "only HTTP/1.0 and HTTP/1.1 are served"))
        XCTAssertEqual(parse("GET / HTTP/1.1\r\n\r\n"), .invalid(status: 400, reason: "HTTP/1.1 request without a Host header"))
        XCTAssertEqual(parse("GET  / HTTP/1.1\r\nHost: x\r\n\r\n"), .invalid(status: 400, reason: "malformed request line"))
        XCTAssertEqual(parse("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n"), .invalid(status: 400, reason: "malformed header line"))
    }

    func testHostNamesAreComparedWithoutPortOrCase() {
        XCTAssertEqual(HTTPServer.hostName("LocalHost:8000"), "localhost")
        XCTAssertEqual(HTTPServer.hostName("[::1]:8000"), "[::1]")
        XCTAssertEqual(HTTPServer.hostName("127.0.0.1"), "127.0.0.1")
    }
}
