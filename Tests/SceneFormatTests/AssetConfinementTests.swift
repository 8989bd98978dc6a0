import XCTest
@testable import SceneFormat
import Lamina
#if canImport(Glibc)
import Glibc
#endif

/// Asset paths resolve inside the scene's folder, symlinks followed on both sides, the answer
/// the same whether a file exists or not (`AssetPath`); scene warnings and limits.
final class AssetConfinementTests: XCTestCase {
    func testResolutionFollowsSymlinksWhereTheyExist() throws {
        let folder = try TemporaryFolder(for: self).url.resolvingSymlinksInPath()
        let inside = folder.appendingPathComponent("scene")
        try FileManager.default.createDirectory(at: inside.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: inside.appendingPathComponent("out").path, withDestinationPath: folder.path)
        try fm.createSymbolicLink(atPath: inside.appendingPathComponent("dangling").path, withDestinationPath: "/nonexistent/x.png")
        try fm.createSymbolicLink(atPath: inside.appendingPathComponent("loop").path, withDestinationPath: "loop")
        try fm.createSymbolicLink(atPath: inside.appendingPathComponent("sub/back").path, withDestinationPath: "../sub")
        // The folder itself behind a symlink: resolved too.
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("alias").path, withDestinationPath: inside.path)
        let base = inside.path
        XCTAssertEqual(AssetPath.confined("a.png", in: base), base + "/a.png")
        XCTAssertEqual(AssetPath.confined("sub/back/back/a.png", in: base), base + "/sub/a.png")
        XCTAssertEqual(AssetPath.confined("missing/../a.png", in: base), base + "/a.png")
        XCTAssertEqual(AssetPath.confined("a.png", in: folder.appendingPathComponent("alias").path), base + "/a.png")
        for outside in ["../x.png", "out/x.png", "dangling", "/etc/hostname", "sub/../../x.png", "missing/../../x.png", "loop"] {
            XCTAssertNil(AssetPath.confined(outside, in: base), outside)
        }
        XCTAssertEqual(AssetPath.resolve("dangling", base: base), "/nonexistent/x.png", "a dangling symlink still says where it points")
    }

    func testKeyTimesCoreAnimationIgnoresAreWarningsNotErrors() throws {
        let json = """
        {"format": 1, "size": [8, 8], "root": {"animations": [
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.5, 1], "duration": 1},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.7, 0.4], "duration": 1},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0.1, 0.5, 1], "duration": 1},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.5, 0.9], "duration": 1},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 1], "calculationMode": "paced", "duration": 1},
          {"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 0.5], "calculationMode": "discrete", "duration": 1}]}}
        """
        let scene = try SceneLoader.load(bytes: Array(json.utf8), fileName: "k.json", baseDirectory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(scene.warnings.map { "\($0.path): \($0.reason)" }, [
            "root.animations[1].keyTimes: keyTimes decrease at [2] (0.4 after 0.7); Core Animation ignores them and spaces the keyframes evenly",
            "root.animations[2].keyTimes: the first keyTime must be 0; Core Animation ignores them and spaces the keyframes evenly",
            "root.animations[3].keyTimes: the last keyTime must be 1; Core Animation ignores them and spaces the keyframes evenly",
            "root.animations[4].keyTimes: keyTimes are ignored in paced mode (times follow the distance)",
        ], "valid arrays (including discrete's common n-entry form) warn nothing")
    }

    func testAScenesLimitsLowerItsBudget() throws {
        let json = """
        {"format": 1, "size": [8, 8], "limits": {"presentedLayers": 10, "offscreenPixels": 0, "keyframeValues": 5, "pathElements": 7}, "root": {}}
        """
        let scene = try SceneLoader.load(bytes: Array(json.utf8), fileName: "l.json", baseDirectory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(scene.limits, SceneLimits.Budget(presentedLayers: 10, offscreenPixels: 0, keyframeValues: 5, pathElements: 7))
        let plain = try SceneLoader.load(bytes: Array(#"{"format": 1, "size": [8, 8], "root": {}}"#.utf8), fileName: "p.json",
                                         baseDirectory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(plain.limits, .standard)
        XCTAssertEqual(SceneLimits.Budget.standard.lowered(to: SceneLimits.Budget(presentedLayers: 3, memoryBytes: 5)),
                       SceneLimits.Budget(presentedLayers: 3, memoryBytes: 5))
    }
}
