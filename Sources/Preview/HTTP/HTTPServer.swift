import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Layers

/// Why the server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A minimal HTTP/1.1 server on POSIX sockets, for `lamina preview` only.
///
/// Hand-written because SwiftPM cannot fetch packages here, and kept small on purpose: IPv4,
/// GET and HEAD only (anything else is 405), no request bodies, requests bounded in size and
/// header count (`SceneLimits.maximumRequestBytes`, `maximumRequestHeaders`), a deadline for
/// each request's headers and for idle kept-alive connections, a bounded number of connections,
/// and no file serving: every request goes to `handler`, which answers from a fixed route table.
/// One thread per connection (blocking reads with `poll` deadlines); the handler runs on it.
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The address bound (dotted IPv4).
    public let host: String
    /// The port bound (the one the system chose, when 0 was asked for).
    public let port: Int
    /// Host header names served (lowercase, without port); nil serves any.
    public let allowedHostNames: Set<String>?
    private let listener: Int32
    private let handler: Handler
    private let stopped = Atomic<Bool>(false)
    private let open = Mutex<Set<Int32>>([])

    /// The names a browser on this machine sends for a loopback server.
    public static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    /// Binds `host:port` (IPv4; `localhost` is 127.0.0.1) and listens; `start()` serves.
    ///
    /// - Parameter allowedHostNames: requests whose `Host` header names another host are
    ///   refused with 403, so that a web page elsewhere cannot reach the server through a name
    ///   that resolves to this machine (DNS rebinding). Nil accepts any.
    public init(host: String = "127.0.0.1", port: Int = 0, allowedHostNames: Set<String>? = HTTPServer.loopbackNames,
                handler: @escaping Handler) throws(HTTPServerError) {
        let address = host == "localhost" ? "127.0.0.1" : host
        var ip = in_addr()
        guard inet_pton(AF_INET, address, &ip) == 1 else {
            throw HTTPServerError("\(host) is not an IPv4 address (the preview serves IPv4, such as 127.0.0.1)")
        }
        guard (0...65535).contains(port) else { throw HTTPServerError("port \(port) is outside 0…65535") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError("cannot make a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr = ip
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if bound != 0 {
            let code = errno
            close(fd)
            switch code {
            case EADDRINUSE: throw HTTPServerError("port \(port) on \(address) is in use (--port 0 picks a free one)")
            case EADDRNOTAVAIL: throw HTTPServerError("\(address) is not an address of this machine")
            case EACCES: throw HTTPServerError("port \(port) needs privileges (use a port above 1023)")
            default: throw HTTPServerError("cannot bind \(address):\(port): \(String(cString: strerror(code)))")
            }
        }
        guard listen(fd, 64) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw HTTPServerError("cannot listen on \(address):\(port): \(message)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.host = address
        self.port = Int(UInt16(bigEndian: actual.sin_port))
        self.allowedHostNames = allowedHostNames
        self.listener = fd
        self.handler = handler
    }

    /// `http://host:port/`.
    public var url: String { "http://\(host):\(port)/" }

    /// Serves on a thread of its own until `stop()`.
    public func start() {
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting, ends open connections and closes the listening socket.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // shutdown wakes the blocked accept (it fails with EINVAL); the accept thread closes it.
        shutdown(listener, Int32(SHUT_RDWR))
        open.withLock { fds in for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopped.load(ordering: .acquiring) {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if stopped.load(ordering: .acquiring) { return }
                if errno == EINTR || errno == ECONNABORTED { continue }
                usleep(50_000)  // out of descriptors: wait for connections to end
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // not inherited by programs the process starts (ffmpeg)
            let admitted = open.withLock { fds -> Bool in
                guard fds.count < SceneLimits.maximumConnections else { return false }
                fds.insert(fd)
                return true
            }
            guard admitted else {
                _ = send(fd, HTTPResponse.error(503, "too many connections").serialized(keepsAlive: false))
                close(fd)
                continue
            }
            Thread.detachNewThread { [self] in
                serve(fd)
                open.withLock { _ = $0.remove(fd) }
                close(fd)
            }
        }
    }

    /// Reads requests from one connection and answers each, until the client closes, a deadline
    /// passes, a request is refused or the server stops.
    private func serve(_ fd: Int32) {
        var buffer: [UInt8] = []
        var served = 0
        while served < 1000, !stopped.load(ordering: .acquiring) {
            var started = !buffer.isEmpty
            var deadline = ProcessInfo.processInfo.systemUptime
                + (started || served == 0 ? SceneLimits.requestReadTimeout : SceneLimits.connectionIdleTimeout)
            var request: HTTPRequest?
            while request == nil {
                switch HTTPRequest.parse(buffer[...], maximumBytes: SceneLimits.maximumRequestBytes,
                                         maximumHeaders: SceneLimits.maximumRequestHeaders) {
                case .request(let parsed, let consumed):
                    buffer.removeFirst(consumed)
                    request = parsed
                case .invalid(let status, let reason):
                    _ = send(fd, HTTPResponse.error(status, reason).serialized(keepsAlive: false))
                    return
                case .incomplete:
                    let remaining = deadline - ProcessInfo.processInfo.systemUptime
                    guard remaining > 0 else {
                        if started { _ = send(fd, HTTPResponse.error(408, "request not complete in time").serialized(keepsAlive: false)) }
                        return
                    }
                    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000) + 1)
                    if ready < 0, errno != EINTR { return }
                    if ready <= 0 { continue }
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { return }
                    if !started {
                        started = true
                        deadline = ProcessInfo.processInfo.systemUptime + SceneLimits.requestReadTimeout
                    }
                    buffer += chunk[..<n]
                }
            }
            guard let request else { return }
            served += 1
            let response = respond(to: request)
            let keepsAlive = request.keepsAlive && response.status < 400 && !stopped.load(ordering: .acquiring)
            guard send(fd, response.serialized(includesBody: request.method != "HEAD", keepsAlive: keepsAlive)), keepsAlive else { return }
        }
    }

    /// The checks every request passes before the handler: the method, then the Host header.
    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.error(405, "\(request.method) is not served (GET and HEAD only)")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        if let allowed = allowedHostNames {
            let name = Self.hostName(request.header("host") ?? "")
            // HTTP/1.0 requests may omit Host; a present one must name this server.
            if request.header("host") != nil, !allowed.contains(name) {
                return .error(403, "Host \"\(request.header("host") ?? "")\" refused: this preview answers only to "
                              + "\(allowed.sorted().joined(separator: ", ")) (start it with --host to serve other names)")
            }
        }
        return handler(request)
    }

    /// The host part of a Host header, lowercased (`LocalHost:8000` → `localhost`, `[::1]:80` → `[::1]`).
    static func hostName(_ header: String) -> String {
        let lower = header.lowercased()
        if lower.hasPrefix("["), let close = lower.firstIndex(of: "]") { return String(lower[...close]) }
        return String(lower.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Sends all of `bytes`; false when the peer went away (no SIGPIPE: MSG_NOSIGNAL).
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, 30_000) > 0 else { return false }
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }
}
