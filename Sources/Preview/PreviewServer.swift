import Foundation
import Synchronization

/// `lamina preview`: a page to scrub, play and compare a scene, served over HTTP while the
/// scene file is edited.
///
/// A fixed route table — the page, its script and styles (embedded at build time) and four
/// JSON/PNG endpoints over a `PreviewSession` — and nothing else: any other path is 404, so no
/// file can be reached through it, whatever the path says.
public final class PreviewServer: Sendable {
    public let session: PreviewSession
    private let server: HTTPServer
    private let watching = Atomic<Bool>(false)

    /// Seconds between looks at the scene's files (an edit shows within about this plus a render).
    public static let pollInterval = 0.2

    /// Binds `host:port` (loopback by default) for `session`; `start()` serves.
    ///
    /// - Parameters:
    ///   - allowsAnyHost: answer requests naming any host (given `--host`); by default only
    ///     loopback names are answered.
    ///   - view: the view the page starts in (`--backend`).
    public init(session: PreviewSession, host: String = "127.0.0.1", port: Int = 0, allowsAnyHost: Bool = false,
                view: PreviewView = .gpu) throws(HTTPServerError) {
        self.session = session
        server = try HTTPServer(host: host, port: port, allowedHostNames: allowsAnyHost ? nil : HTTPServer.loopbackNames) {
            [session] request in Self.respond(to: request, session: session, view: view)
        }
    }

    /// The page's address.
    public var url: String { server.url }
    public var port: Int { server.port }

    /// Serves, and watches the scene's files, until `stop()`.
    public func start() {
        server.start()
        watching.store(true, ordering: .releasing)
        Thread.detachNewThread { [self] in
            while watching.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: Self.pollInterval)
                if watching.load(ordering: .acquiring) { session.reloadIfChanged() }
            }
        }
    }

    public func stop() {
        watching.store(false, ordering: .releasing)
        server.stop()
    }

    /// The route table.
    static func respond(to request: HTTPRequest, session: PreviewSession, view startView: PreviewView = .gpu) -> HTTPResponse {
        switch request.path {
        case "/": return page("index.html", "text/html; charset=utf-8")
        case "/preview.js": return page("preview.js", "text/javascript; charset=utf-8")
        case "/preview.css": return page("preview.css", "text/css; charset=utf-8")
        case "/api/status": return .json(session.status.json(view: startView))
        case "/api/frame":
            return frameArguments(request).flatMap { (version, frame) in
                guard let view = PreviewView(rawValue: request.query["view"] ?? "gpu") else {
                    return .failure(PreviewError(status: 400, message: "view must be gpu, cpu or diff"))
                }
                return session.frame(version: version, frame: frame, view: view).map { encoded in
                    HTTPResponse(status: 200, contentType: "image/png", body: encoded.png,
                                 headers: [("X-Lamina-Version", "\(encoded.version)"), ("X-Lamina-Frame", "\(encoded.frame)"),
                                           ("X-Lamina-Time", "\(encoded.time)")])
                }
            }.answer
        case "/api/compare":
            return frameArguments(request).flatMap { session.comparison(version: $0, frame: $1).map { .json($0.json) } }.answer
        case "/api/tree":
            return frameArguments(request).flatMap { session.tree(version: $0, frame: $1).map { .json($0) } }.answer
        default:
            return .error(404, "no such page (the preview serves /, its script and styles and /api/status, /api/frame, "
                          + "/api/compare and /api/tree; it serves no files)")
        }
    }

    private static func page(_ name: String, _ type: String) -> HTTPResponse {
        guard let bytes = pageFiles[name] else { return .error(500, "\(name) is missing from this build") }
        return HTTPResponse(status: 200, contentType: type, body: bytes)
    }

    /// The page's files, decoded once.
    static let pageFiles: [String: [UInt8]] = EmbeddedPreviewPage.files.compactMapValues { base64 in
        Data(base64Encoded: base64).map { [UInt8]($0) }
    }

    /// `v` (scene version) and `frame` of a request.
    private static func frameArguments(_ request: HTTPRequest) -> Result<(Int, Int), PreviewError> {
        guard let text = request.query["v"], let version = Int(text) else {
            return .failure(PreviewError(status: 400, message: "v (the scene version) must be an integer"))
        }
        guard let text = request.query["frame"], let frame = Int(text) else {
            return .failure(PreviewError(status: 400, message: "frame must be an integer"))
        }
        return .success((version, frame))
    }
}

extension Result where Success == HTTPResponse, Failure == PreviewError {
    /// The response, or the error's status and message.
    var answer: HTTPResponse {
        switch self {
        case .success(let response): response
        case .failure(let error): .error(error.status, error.message)
        }
    }
}
