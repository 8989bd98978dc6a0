import XCTest
import Lamina
@_exported import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Small scenes, temporary folders and ffprobe/ffmpeg readers shared by the export tests.
enum VideoTestSupport {
    /// A fresh temporary folder, removed by the test's teardown block.
    static func folder(_ test: XCTestCase) throws -> URL { try TemporaryFolder(for: test, prefix: "lamina-video-tests").url }

    /// 64×48 points: an orange block moving right over a teal field, plus a translucent white card.
    ///
    /// Edges are hard (layers are not edge-antialiased), and orange against teal is a strong chroma
    /// edge, which 4:2:0 (one chroma sample per 2×2 pixels) cannot keep when it falls inside a pixel
    /// pair: even losslessly coded, that column pair mixes both colours (measured at qp 20: 29 dB on
    /// frames whose edge fell on an odd column, 42 dB on the others). So every edge lies on the
    /// 2-pixel chroma grid: even sizes and offsets, and the block moves 2 pixels a frame at 30 fps
    /// (60 points/s, x from 14 to 50 over 0.6 s, then it holds).
    static func movingScene(width: CGFloat = 64, height: CGFloat = 48, opaque: Bool = true) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.position = CGPoint(x: width / 2, y: height / 2)
        if opaque { root.backgroundColor = CGColor(red: 0.1, green: 0.5, blue: 0.55, alpha: 1) }
        let block = CALayer()
        block.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        block.position = CGPoint(x: 14, y: 24)
        block.backgroundColor = CGColor(red: 0.95, green: 0.6, blue: 0.2, alpha: 1)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 14
        move.toValue = 50
        move.duration = 0.6
        move.fillMode = .both
        move.isRemovedOnCompletion = false
        block.add(move, forKey: "move", atMediaTime: 0)
        root.addSublayer(block)
        let card = CALayer()
        card.frame = CGRect(x: 8, y: 4, width: 24, height: 12)
        card.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
        root.addSublayer(card)
        return root
    }

    /// ffprobe's view of the first stream of `type` (`v` or `a`), frames counted.
    static func probe(_ url: URL, stream: String = "v") throws -> [String: Any]? { try MediaFiles.probe(url, stream: stream) }

    /// Every decoded frame as straight RGBA (`-c:v libvpx-vp9` first for WebM, to keep alpha).
    static func decode(_ url: URL, width: Int, height: Int, vp9Alpha: Bool = false) throws -> [[UInt8]] {
        try MediaFiles.decode(url, width: width, height: height, vp9Alpha: vp9Alpha)
    }

    /// The per-frame MD5s of the decoded video (`-f framemd5`), without the header lines.
    static func frameHashes(_ url: URL) throws -> [String] {
        let out = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-i", url.path, "-map", "0:v", "-f", "framemd5", "pipe:1"])
        return String(decoding: out, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// The MD5 of every coded video packet as stored (`-c copy -f framemd5`): equal lists mean
    /// byte-identical coded frames, whatever the container around them.
    static func packetHashes(_ url: URL) throws -> [String] {
        let out = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-i", url.path, "-map", "0:v", "-c", "copy",
                                                    "-f", "framemd5", "pipe:1"])
        return String(decoding: out, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// A generated clip: `filter` from ffmpeg's lavfi sources, with a sine tone as audio.
    static func clip(_ url: URL, video filter: String, seconds: Double, audio: Bool = true) throws {
        try MediaFiles.clip(url, video: filter, seconds: seconds, audio: audio)
    }

    /// Files in `folder` other than `keep` (temporary files must not survive an export).
    static func leftovers(_ folder: URL, keep: Set<String> = []) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !keep.contains($0) }
    }

    /// ffprobe's view of a file: its first video stream (frames counted) and its container.
    /// `inputFormat` forces a demuxer (`image2` for a PNG sequence pattern).
    static func probeFile(_ url: URL, inputFormat: String? = nil) throws -> (stream: [String: Any], format: [String: Any]) {
        var args = ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_streams", "-show_format", "-print_format", "json"]
        if let inputFormat { args += ["-f", inputFormat] }
        args.append(url.path)
        let out = try FFmpegProcess.run(program: "ffprobe", arguments: args)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        let stream = try XCTUnwrap((json["streams"] as? [[String: Any]])?.first, "no video stream in \(url.lastPathComponent)")
        let format = try XCTUnwrap(json["format"] as? [String: Any])
        return (stream, format)
    }

    /// Each decoded frame (straight RGBA from ffmpeg, premultiplied here when `straight`) against
    /// the frame rendered directly at the same time on the CPU backend: the PSNRs in dB.
    static func psnrs(_ decoded: [[UInt8]], of root: CALayer, width: Int = 64, height: Int = 48, fps: Double,
                      background: CGColor?, straight: Bool = false) throws -> [Double] {
        let renderer = try FrameRenderer(width: width, height: height, background: background, backend: .cpu)
        return try decoded.enumerated().map { index, bytes in
            var pixels = bytes
            if straight { PremultipliedAlpha.premultiply(&pixels) }
            let frame = try XCTUnwrap(Image(width: width, height: height, pixels: pixels))
            let reference = try XCTUnwrap(renderer.render(root, at: Double(index) / fps))
            return try XCTUnwrap(ImageComparison.compare(frame, reference)).psnr
        }
    }

    /// A folder `fake-ffmpeg` in `folder` holding an `ffmpeg` that runs `script` (sh) and the real
    /// `ffprobe` beside it (`LAMINA_FFMPEG` takes ffprobe from the same folder); returns the
    /// script's path, for `LAMINA_FFMPEG`.
    static func fakeFFmpeg(in folder: URL, script: String) throws -> String {
        let bin = folder.appendingPathComponent("fake-ffmpeg")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let program = bin.appendingPathComponent("ffmpeg")
        try Data("#!/bin/sh\n\(script)\n".utf8).write(to: program)
        XCTAssertEqual(chmod(program.path, 0o755), 0)
        let probe = bin.appendingPathComponent("ffprobe")
        if let real = FFmpegProcess.locate("ffprobe"), !FileManager.default.fileExists(atPath: probe.path) {
            try FileManager.default.createSymbolicLink(at: probe, withDestinationURL: real)
        }
        return program.path
    }

    // MARK: - The lamina executable

    static func lamina(_ arguments: [String], in folder: URL, environment: [String: String] = [:], timeout: Double = 120) throws -> LaminaProcess.Run {
        try LaminaProcess.run(arguments, in: folder, environment: environment, timeout: timeout)
    }

    /// Runs `/bin/sh -c command` in `folder` (a `ulimit` around lamina), at most 120 s.
    static func shell(_ command: String, in folder: URL) throws -> LaminaProcess.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-test-shell-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let err = try FileHandle(forWritingTo: errURL)
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? err.close()
        wait(120) { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return LaminaProcess.Run(status: process.terminationStatus, stdout: "",
                                 stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }

    /// Processes whose command line contains `fragment` (from `/proc/PID/cmdline`).
    static func processes(commandLineContaining fragment: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != getpid(),
                  let bytes = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let commandLine = String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return commandLine.contains(fragment) ? pid : nil
        }
    }

    /// Waits up to `timeout` seconds for `condition`.
    @discardableResult
    static func wait(_ timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }
}
