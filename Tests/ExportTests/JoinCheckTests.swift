import XCTest
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// `lamina join` checks its inputs before joining anything: every segment is a regular file of a
/// known video container with the first one's codec, size, frame rate and pixel format; names
/// go into the concat list safely; the joined file holds the sum of the segments' frames.
final class JoinCheckTests: XCTestCase {
    /// An H.264 MP4 segment of `frames` frames (a test pattern), `size` and `rate` as given.
    static func segment(_ url: URL, frames: Int, size: String = "64x48", rate: Int = 30, pixelFormat: String = "yuv420p",
                        codec: [String] = ["-c:v", "libx264", "-preset", "ultrafast"]) throws {
        _ = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=\(rate)",
                                              "-frames:v", String(frames)] + codec + ["-pix_fmt", pixelFormat, url.path])
    }

    /// One `lamina: ` line naming `needles`, exit 1, and nothing new in the folder.
    func assertRefused(_ arguments: [String], in folder: URL, mentions needles: [String],
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let before = Set(VideoTestSupport.leftovers(folder))
        let started = Date()
        let run = try VideoTestSupport.lamina(arguments, in: folder, timeout: 30)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "refused without waiting", file: file, line: line)
        XCTAssertEqual(run.status, 1, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("lamina: "), run.stderr, file: file, line: line)
        for needle in needles { XCTAssertTrue(run.stderr.contains(needle), "\"\(needle)\" in \(run.stderr)", file: file, line: line) }
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), before, "nothing written", file: file, line: line)
    }

    func testSegmentsThatAreNoVideoAreRefused() throws {
        let folder = try VideoTestSupport.folder(self)
        try Self.segment(folder.appendingPathComponent("a.mp4"), frames: 10)
        try Data("{\"format\": 1}".utf8).write(to: folder.appendingPathComponent("scene.json"))
        try Data("just some text\n".utf8).write(to: folder.appendingPathComponent("text.mp4"))
        try Data("#EXTM3U\n#EXTINF:1,\na.mp4\n".utf8).write(to: folder.appendingPathComponent("playlist.mp4"))
        try Data("ffconcat version 1.0\nfile a.mp4\n".utf8).write(to: folder.appendingPathComponent("list.mp4"))
        _ = try FFmpegProcess.run(arguments: ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "sine=duration=0.5",
                                              "-c:a", "aac", folder.appendingPathComponent("audio.mp4").path])
        let cases: [(String, String)] = [
            ("scene.json", "is not an MP4/MOV, Matroska/WebM or AVI video file"),
            ("text.mp4", "is not an MP4/MOV, Matroska/WebM or AVI video file"),
            ("playlist.mp4", "is an HLS/M3U playlist"),
            ("list.mp4", "is an ffmpeg concat list"),
            ("audio.mp4", "has no video stream"),
            ("missing.mp4", "no such file"),
        ]
        for (name, reason) in cases {
            try assertRefused(["join", "a.mp4", name, "-o", "joined.mp4"], in: folder, mentions: [name, reason])
        }
    }

    /// A fifo (join used to wait on it for ever), a folder, a device.
    func testAFifoFolderOrDeviceSegmentIsRefusedWithoutWaiting() throws {
        let folder = try VideoTestSupport.folder(self)
        try Self.segment(folder.appendingPathComponent("a.mp4"), frames: 10)
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("pipe.mp4").path, 0o644), 0)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.mp4"), withIntermediateDirectories: false)
        try assertRefused(["join", "a.mp4", "pipe.mp4", "-o", "joined.mp4"], in: folder, mentions: ["pipe.mp4", "is a pipe (fifo)"])
        try assertRefused(["join", "a.mp4", "dir.mp4", "-o", "joined.mp4"], in: folder, mentions: ["dir.mp4", "is a folder"])
        try assertRefused(["join", "a.mp4", "/dev/zero", "-o", "joined.mp4"], in: folder, mentions: ["/dev/zero", "is a device"])
    }

    func testSegmentsOfOtherSettingsAreRefused() throws {
        let folder = try VideoTestSupport.folder(self)
        try Self.segment(folder.appendingPathComponent("a.mp4"), frames: 10)
        try Self.segment(folder.appendingPathComponent("small.mp4"), frames: 10, size: "32x32")
        try Self.segment(folder.appendingPathComponent("fast.mp4"), frames: 10, rate: 60)
        try Self.segment(folder.appendingPathComponent("444.mp4"), frames: 10, pixelFormat: "yuv444p")
        try Self.segment(folder.appendingPathComponent("mpeg4.mp4"), frames: 10, codec: ["-c:v", "mpeg4"])
        for (name, what) in [("small.mp4", "size is 32×32, not 64×48"), ("fast.mp4", "frame rate is 60/1, not 30/1"),
                             ("444.mp4", "pixel format is yuv444p, not yuv420p"), ("mpeg4.mp4", "codec is mpeg4, not h264")] {
            try assertRefused(["join", "a.mp4", name, "-o", "joined.mp4"], in: folder, mentions: [name, "its video \(what) as in a.mp4"])
        }
    }

    /// A line break in a name would end the concat list's line: refused, never written into it.
    func testANameTheConcatListCannotHoldIsRefused() throws {
        let folder = try VideoTestSupport.folder(self)
        try Self.segment(folder.appendingPathComponent("a.mp4"), frames: 10)
        let odd = "b\nfile 'a.mp4'\n.mp4"
        try FileManager.default.copyItem(at: folder.appendingPathComponent("a.mp4"), to: folder.appendingPathComponent(odd))
        try assertRefused(["join", "a.mp4", odd, "-o", "joined.mp4"], in: folder, mentions: ["line break", "rename it"])
        // Quotes and spaces are fine: they are escaped.
        let quoted = "it's a segment.mp4"
        try Self.segment(folder.appendingPathComponent(quoted), frames: 5)
        let run = try VideoTestSupport.lamina(["join", "a.mp4", quoted, "-o", "joined.mp4"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try VideoTestSupport.probe(folder.appendingPathComponent("joined.mp4"))?["nb_read_frames"] as? String, "15")
    }

    /// An ffmpeg that exits 0 without writing the joined file (or writing fewer frames) fails.
    func testAJoinerThatWritesTooLittleFails() throws {
        let folder = try VideoTestSupport.folder(self)
        for name in ["a.mp4", "b.mp4", "short.mp4"] { try Self.segment(folder.appendingPathComponent(name), frames: name == "short.mp4" ? 4 : 10) }
        // The fake ffmpeg copies one 4-frame file over its last argument (the output) and says it succeeded.
        let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: """
        for last in "$@"; do :; done
        cp '\(folder.appendingPathComponent("short.mp4").path)' "$last"
        exit 0
        """)
        let run = try VideoTestSupport.lamina(["join", "a.mp4", "b.mp4", "-o", "joined.mp4"], in: folder,
                                              environment: [FFmpegProcess.programVariable: fake])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("wrote 4 frames, not 20"), run.stderr)
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), ["a.mp4", "b.mp4", "short.mp4", "fake-ffmpeg"])
        // With the real ffmpeg the two segments join into 20 frames.
        let good = try VideoTestSupport.lamina(["join", "a.mp4", "b.mp4", "-o", "joined.mp4"], in: folder)
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(try VideoTestSupport.probe(folder.appendingPathComponent("joined.mp4"))?["nb_read_frames"] as? String, "20")
    }

    func testProbeReadsTheSegmentsVideo() throws {
        let folder = try VideoTestSupport.folder(self)
        let url = folder.appendingPathComponent("a.mp4")
        try Self.segment(url, frames: 12)
        let segment = try SegmentJoiner.probe(url)
        XCTAssertEqual([segment.codec, segment.frameRate, segment.pixelFormat], ["h264", "30/1", "yuv420p"])
        XCTAssertEqual([segment.width, segment.height, segment.frames], [64, 48, 12])
    }
}
