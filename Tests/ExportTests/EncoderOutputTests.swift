import XCTest
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// An encoder that says it succeeded is believed only when its file is a video of every frame;
/// leftovers of exports that died are cleared at the next export to the same output.
final class EncoderOutputTests: XCTestCase {
    let scene = """
    {"format": 1, "size": [64, 48], "fps": 30, "duration": 0.2, "background": "#101010",
     "root": {"sublayers": [{"bounds": [0, 0, 20, 20], "position": [32, 24], "backgroundColor": "#ff0000"}]}}
    """

    func folder() throws -> URL {
        let folder = try VideoTestSupport.folder(self)
        try Data(scene.utf8).write(to: folder.appendingPathComponent("scene.json"))
        return folder
    }

    func render(in folder: URL, encoder: String, output: String = "out.mp4") throws -> LaminaProcess.Run {
        try VideoTestSupport.lamina(["render", "scene.json", "-o", output, "--backend", "cpu"], in: folder,
                                    environment: [FFmpegProcess.programVariable: encoder])
    }

    func assertFailed(_ run: LaminaProcess.Run, mentions needles: [String], folder: URL, keep: Set<String>,
                      file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 1, run.stderr, file: file, line: line)
        XCTAssertEqual(run.stderrLines.count, 1, run.stderr, file: file, line: line)
        for needle in needles { XCTAssertTrue(run.stderr.contains(needle), "\"\(needle)\" in \(run.stderr)", file: file, line: line) }
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), keep, "no output, no temporary file", file: file, line: line)
    }

    /// `LAMINA_FFMPEG=/bin/true`: no longer "true failed (exit status 0)", and no 0-byte output.
    func testAnEncoderThatExitsAtOnceWithStatusZeroFails() throws {
        let folder = try folder()
        let run = try render(in: folder, encoder: "/bin/true")
        XCTAssertFalse(run.stderr.contains("failed (exit status 0)"), run.stderr)
        // Either it was gone before the frames (a write failed) or it wrote nothing: both say so.
        let early = run.stderr.contains("true stopped reading frames and exited with status 0 before the video was complete")
        let empty = run.stderr.contains("/bin/true exited without an error but wrote nothing (0 bytes)")
        XCTAssertTrue(early || empty, run.stderr)
        assertFailed(run, mentions: ["lamina: "], folder: folder, keep: ["scene.json"])
    }

    func testAnEncoderThatReadsEverythingAndWritesNothingFails() throws {
        let folder = try folder()
        let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: "cat > /dev/null\nexit 0")
        let run = try render(in: folder, encoder: fake)
        assertFailed(run, mentions: [folder.appendingPathComponent("out.mp4").path + ": ", "exited without an error but wrote nothing (0 bytes)"],
                     folder: folder, keep: ["scene.json", "fake-ffmpeg"])
    }

    func testAnEncoderThatWritesNoVideoFails() throws {
        let folder = try folder()
        let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: """
        cat > /dev/null
        for last in "$@"; do :; done
        echo 'not a video' > "$last"
        exit 0
        """)
        let run = try render(in: folder, encoder: fake)
        assertFailed(run, mentions: ["wrote no video ffprobe can read"], folder: folder, keep: ["scene.json", "fake-ffmpeg"])
    }

    func testAnEncoderThatWritesTheWrongFrameCountFails() throws {
        let folder = try folder()
        let other = folder.appendingPathComponent("other.mp4")
        try JoinCheckTests.segment(other, frames: 2)
        let fake = try VideoTestSupport.fakeFFmpeg(in: folder, script: """
        cat > /dev/null
        for last in "$@"; do :; done
        cp '\(other.path)' "$last"
        exit 0
        """)
        let run = try render(in: folder, encoder: fake)
        assertFailed(run, mentions: ["wrote 2 frames, not 6"], folder: folder, keep: ["scene.json", "fake-ffmpeg", "other.mp4"])
    }

    /// A temporary file of an export whose process died (`kill -9`) goes at the next export to
    /// the same output; one of a process still alive, or of another output, stays.
    func testStaleTemporariesOfDeadExportsAreRemoved() throws {
        let folder = try folder()
        // A pid that is no process: one past the largest the kernel hands out.
        let maximum = (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 4_194_304
        let dead = ".out.lamina-\(maximum + 1)-1a2b3c.mp4", deadPalette = ".out.palette.lamina-\(maximum + 1)-77.png"
        let alive = ".out.lamina-\(getpid())-4d5e6f.mp4", otherOutput = ".other.lamina-\(maximum + 1)-99.mp4"
        for name in [dead, deadPalette, alive, otherOutput] {
            try Data("partial".utf8).write(to: folder.appendingPathComponent(name))
        }
        // An old-style name (no process id) from before this process started.
        let old = ".out.lamina-abcdef.mp4"
        try Data("partial".utf8).write(to: folder.appendingPathComponent(old))
        var past = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, folder.appendingPathComponent(old).path, &past, 0), 0)

        let run = try VideoTestSupport.lamina(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), ["scene.json", "out.mp4", alive, otherOutput])
        for name in [dead, deadPalette, old] {
            XCTAssertTrue(run.stderrLines.contains("lamina: removed \(name), left by an export that did not finish"), run.stderr)
        }
    }

    /// Two exports to one output at once, without --overwrite: one wins, the other fails and
    /// leaves nothing (a case that held before and must keep holding).
    func testTwoExportsToOneOutput() throws {
        let folder = try folder()
        let first = try LaminaProcess.start(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu"], in: folder)
        let second = try LaminaProcess.start(["render", "scene.json", "-o", "out.mp4", "--backend", "cpu"], in: folder)
        let runs = [first.finish(timeout: 60), second.finish(timeout: 60)]
        XCTAssertEqual(runs.filter { $0.status == 0 }.count, 1, runs.map(\.stderr).joined())
        let loser = try XCTUnwrap(runs.first { $0.status != 0 })
        XCTAssertEqual(loser.status, 1)
        XCTAssertEqual(loser.stderrLines.count, 1, loser.stderr)
        XCTAssertTrue(loser.stderr.contains("out.mp4: already exists"), loser.stderr)
        XCTAssertEqual(Set(VideoTestSupport.leftovers(folder)), ["scene.json", "out.mp4"])
        XCTAssertEqual(try VideoTestSupport.probe(folder.appendingPathComponent("out.mp4"))?["nb_read_frames"] as? String, "6")
    }
}
