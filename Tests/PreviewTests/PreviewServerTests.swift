import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Lamina
@testable import Preview
import TestSupport

/// The preview's HTTP side over a real loopback socket: its fixed routes, what it refuses, and
/// that the page it serves needs nothing from outside.
final class PreviewServerTests: XCTestCase {
    /// Sends `request` (raw bytes) to 127.0.0.1:`port` and reads until the server closes.
    static func exchange(_ request: String, port: Int) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw XCTSkip("cannot connect to the test server") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += chunk[..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }

    private func startedServer() throws -> PreviewServer {
        let folder = try TemporaryFolder(for: self)
        let url = folder.file("scene.json")
        try Data(PreviewSessionTests.scene().utf8).write(to: url)
        let server = try PreviewServer(session: PreviewSession(scene: url), view: .cpu)
        server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func get(_ path: String, _ server: PreviewServer, host: String = "127.0.0.1") throws -> String {
        try Self.exchange("GET \(path) HTTP/1.1\r\nHost: \(host):\(server.port)\r\nConnection: close\r\n\r\n", port: server.port)
    }

    func testThePageAndItsAPIAreServed() throws {
        let server = try startedServer()
        XCTAssertTrue(server.url.hasPrefix("http://127.0.0.1:"))
        let page = try get("/", server)
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 200 OK\r\n"), page)
        XCTAssertTrue(page.contains("Content-Type: text/html"), page)
        XCTAssertTrue(page.contains("<script src=\"/preview.js\"></script>"))
        XCTAssertTrue(try get("/preview.js", server).contains("function show("))
        XCTAssertTrue(try get("/preview.css", server).contains("Content-Type: text/css"))
        let status = try get("/api/status", server)
        XCTAssertTrue(status.contains("\"view\": \"cpu\""), status)
        XCTAssertTrue(status.contains("\"frameCount\": 10"), status)
        let frame = try get("/api/frame?v=1&frame=2&view=cpu", server)
        XCTAssertTrue(frame.contains("Content-Type: image/png\r\n"), frame)
        XCTAssertTrue(frame.contains("X-Lamina-Time: 0.2\r\n"), frame)
        XCTAssertTrue(try get("/api/frame?v=1&frame=99&view=cpu", server).hasPrefix("HTTP/1.1 404 "))
        XCTAssertTrue(try get("/api/frame?v=1&frame=2&view=sideways", server).hasPrefix("HTTP/1.1 400 "))
        XCTAssertTrue(try get("/api/tree?v=1&frame=2", server).contains("\"boxes\": ["))
    }

    /// No file can be reached: every path outside the route table is 404, however it is spelled.
    func testPathsOutsideTheRoutesAreNotFound() throws {
        let server = try startedServer()
        for path in ["/../Package.swift", "/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd", "/preview.js/../../../etc/passwd",
                     "/Sources/Preview/Page/index.html", "/index.html", "/api", "/api/frame/../../scene.json", "//etc/passwd"] {
            let answer = try get(path, server)
            XCTAssertTrue(answer.hasPrefix("HTTP/1.1 404 Not Found\r\n"), "\(path): \(answer.prefix(80))")
            XCTAssertTrue(answer.contains("it serves no files"), path)
            XCTAssertFalse(answer.contains("root:"), path)
        }
        XCTAssertTrue(try get("*", server).hasPrefix("HTTP/1.1 400 "))
    }

    func testOtherMethodsHostsAndOversizedRequestsAreRefused() throws {
        let server = try startedServer()
        let post = try Self.exchange("POST /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n", port: server.port)
        XCTAssertTrue(post.hasPrefix("HTTP/1.1 405 "), post)
        XCTAssertTrue(post.contains("Allow: GET, HEAD\r\n"))
        let rebound = try get("/api/status", server, host: "attacker.example")
        XCTAssertTrue(rebound.hasPrefix("HTTP/1.1 403 "), rebound)
        XCTAssertTrue(rebound.contains("--host"), rebound)
        XCTAssertTrue(try get("/api/status", server, host: "localhost").hasPrefix("HTTP/1.1 200 "))
        let huge = "GET /?" + String(repeating: "x", count: SceneLimits.maximumRequestBytes) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        XCTAssertTrue(try Self.exchange(huge, port: server.port).hasPrefix("HTTP/1.1 431 "))
        let headers = (0...SceneLimits.maximumRequestHeaders).map { "X-\($0): 1\r\n" }.joined()
        XCTAssertTrue(try Self.exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n", port: server.port).hasPrefix("HTTP/1.1 431 "))
    }

    func testKeptAliveConnectionsServeSeveralRequestsAndHeadHasNoBody() throws {
        let server = try startedServer()
        let two = try Self.exchange("HEAD /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                                    port: server.port)
        let responses = two.components(separatedBy: "HTTP/1.1 200 OK\r\n")
        XCTAssertEqual(responses.count, 3, two)
        XCTAssertTrue(responses[1].hasSuffix("Connection: keep-alive\r\n\r\n"), "HEAD: headers only: \(responses[1])")
        XCTAssertTrue(responses[2].hasSuffix("}"), responses[2])
    }

    /// The page is whole in the binary: no script, style or font from elsewhere.
    func testThePageNeedsNothingFromOutside() throws {
        XCTAssertEqual(Set(PreviewServer.pageFiles.keys), ["index.html", "preview.js", "preview.css"])
        for (name, bytes) in PreviewServer.pageFiles {
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertFalse(text.contains("://"), "\(name) names an outside address")
            XCTAssertFalse(text.contains("@import"), name)
        }
    }

    func testTheFrameCacheDropsTheLeastRecentlyUsedPastItsBudget() {
        let cache = FrameCache(budget: 100)
        func key(_ t: Double, _ version: Int = 1) -> FrameKey { FrameKey(version: version, time: t, view: .gpu, width: 1, height: 1) }
        cache.insert([UInt8](repeating: 1, count: 40), for: key(0))
        cache.insert([UInt8](repeating: 2, count: 40), for: key(1))
        XCTAssertNotNil(cache[key(0)])          // frame 0 is now the more recent
        cache.insert([UInt8](repeating: 3, count: 40), for: key(2))
        XCTAssertNil(cache[key(1)], "the least recently used went")
        XCTAssertEqual(cache[key(0)]?.first, 1)
        XCTAssertEqual(cache.byteCount, 80)
        cache.insert([UInt8](repeating: 4, count: 101), for: key(3))
        XCTAssertNil(cache[key(3)], "larger than the whole budget: not kept")
        cache.insert([UInt8](repeating: 5, count: 10), for: key(0, 2))
        cache.removeVersions(before: 2)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.byteCount, 10)
    }
}
