import XCTest
import Lamina

/// Small scenes, temporary folders and ffprobe/ffmpeg readers shared by the export tests.
enum VideoTestSupport {
    /// A fresh temporary folder, removed by the test's teardown block.
    static func folder(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamina-video-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// 64×48 points: a soft-edged orange block moving right over a teal field (no hard chroma
    /// edges, so 4:2:0 does not dominate the error), plus a translucent white card.
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
        move.duration = 1
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
    static func probe(_ url: URL, stream: String = "v") throws -> [String: Any]? {
        let out = try FFmpegProcess.run(program: "ffprobe", arguments: [
            "-v", "error", "-count_frames", "-select_streams", "\(stream):0", "-show_streams", "-print_format", "json", url.path])
        let json = try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any]
        return (json?["streams"] as? [[String: Any]])?.first
    }

    /// Every decoded frame as straight RGBA (`-c:v libvpx-vp9` first for WebM, to keep alpha).
    static func decode(_ url: URL, width: Int, height: Int, vp9Alpha: Bool = false) throws -> [[UInt8]] {
        var args = ["-v", "error", "-nostdin"]
        if vp9Alpha { args += ["-c:v", "libvpx-vp9"] }
        args += ["-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"]
        let bytes = try FFmpegProcess.run(arguments: args)
        let frame = width * height * 4
        return stride(from: 0, to: bytes.count - frame + 1, by: frame).map { Array(bytes[$0..<($0 + frame)]) }
    }

    /// The per-frame MD5s of the decoded video (`-f framemd5`), without the header lines.
    static func frameHashes(_ url: URL) throws -> [String] {
        let out = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-i", url.path, "-map", "0:v", "-f", "framemd5", "pipe:1"])
        return String(decoding: out, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// A generated clip: `filter` from ffmpeg's lavfi sources, with a sine tone as audio.
    static func clip(_ url: URL, video filter: String, seconds: Double, audio: Bool = true) throws {
        var args = ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", filter]
        if audio { args += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"] }
        args += ["-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv444p"]
        if audio { args += ["-c:a", "aac"] }
        args.append(url.path)
        _ = try FFmpegProcess.run(arguments: args)
    }

    /// Files in `folder` other than `keep` (temporary files must not survive an export).
    static func leftovers(_ folder: URL, keep: Set<String> = []) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !keep.contains($0) }
    }
}
