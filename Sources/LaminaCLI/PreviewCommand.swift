import Foundation
import Lamina
import Preview

/// `lamina preview SCENE`: a local web page to scrub, play and compare a scene while editing it.
enum PreviewCommand {
    static let usage = """
    usage: lamina preview SCENE [--port N] [--backend gpu|cpu] [--size WxH] [--host ADDR]
                          [--allow-assets-outside]

    Serves a page at http://127.0.0.1:PORT/ to look at SCENE while you edit it: the frame at
    any frame of the timeline (scrub, play at the scene's fps, step ±1 frame, loop), the GPU
    frame, the CPU frame or their difference with PSNR and largest difference, and the
    presentation tree (click a layer to outline it). When the scene file or one of its assets
    changes the page shows the new frame within a second; a scene with errors shows them, and
    the last good frame stays. Ctrl-C stops it.
    options:
      --port N            port (default 8000; 0 picks a free one); the URL is printed
      --backend gpu|cpu   the view the page starts in (default gpu)
      --size WxH          output size in pixels (default: the scene's); the scene is scaled to fit
      --host ADDR         serve on ADDR (an IPv4 address of this machine) instead of 127.0.0.1,
                          and answer requests for any host name. The preview has no
                          authentication: anyone who can reach ADDR can see the scene.
      --allow-assets-outside  let asset paths lead outside the scene's folder (trusted scenes only)
    Without --host only loopback (127.0.0.1) is served, and other bind addresses are refused.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["--port", "--backend", "--size", "--host"], flags: ["--help", "-h", "--allow-assets-outside"])
        if args.flags.contains("--help") || args.flags.contains("-h") {
            print(usage)
            return 0
        }
        guard args.positional.count == 1, let file = args.positional.first else {
            throw UsageError(description: args.positional.isEmpty ? "preview needs a scene file" : "preview takes one scene file")
        }
        let (host, port) = try address(port: args.values("--port").last, host: args.values("--host").last)
        let backendName = args.values("--backend").last ?? "gpu"
        guard let view = PreviewView(rawValue: backendName), view != .diff else {
            throw UsageError(description: "--backend must be gpu or cpu, not \(backendName)")
        }
        let size = try args.values("--size").last.map(RenderCommand.size)
        if let size, !(1...SceneLimits.maximumOutputSide).contains(size.0) || !(1...SceneLimits.maximumOutputSide).contains(size.1) {
            throw UsageError(description: "--size \(size.0)x\(size.1) is outside 1…\(SceneLimits.maximumOutputSide)")
        }
        let url = URL(fileURLWithPath: file)
        guard FileManager.default.fileExists(atPath: url.path) else { throw JobFailure(description: "\(file): no such file") }

        let options = SceneLoadOptions(allowsAssetsOutsideFolder: args.flags.contains("--allow-assets-outside"))
        let session = PreviewSession(scene: url, size: size.map { (width: $0.0, height: $0.1) },
                                     loader: { url throws(SceneLoadError) in try LottieImporter.loadScene(contentsOf: url, options: options) },
                                     log: { message in fail(message) })
        let server: PreviewServer
        do {
            server = try PreviewServer(session: session, host: host ?? "127.0.0.1", port: port, allowsAnyHost: host != nil, view: view)
        } catch {
            throw JobFailure(description: "\(error)")
        }
        server.start()
        if let host, host != "localhost", !host.hasPrefix("127.") {
            fail("warning: serving on \(host):\(server.port), not only on this machine's loopback: anyone who can reach "
                 + "that address can see the scene (the preview has no authentication)")
        }
        FileHandle.standardOutput.write(Data("lamina preview: \(file) at \(server.url) (Ctrl-C stops)\n".utf8))
        while true { sleep(3600) }
    }

    /// The address to bind: `--port N` (or `--port 127.0.0.1:N`) and `--host`. An address
    /// other than loopback is refused unless it comes through `--host`.
    static func address(port portText: String?, host: String?) throws(UsageError) -> (host: String?, port: Int) {
        var text = portText ?? "8000"
        if let colon = text.lastIndex(of: ":") {
            let named = String(text[..<colon])
            guard ["127.0.0.1", "localhost"].contains(named) || named == host else {
                throw UsageError(description: "refusing to serve on \(named): the preview serves 127.0.0.1 only; "
                                 + "give --host \(named) to serve on another address (it has no authentication)")
            }
            text = String(text[text.index(after: colon)...])
        }
        guard let port = Int(text), (0...65535).contains(port) else {
            throw UsageError(description: "--port \(portText ?? "") is not a port number (0…65535)")
        }
        return (host, port)
    }
}
