import XCTest
import Geometry
import Timing
import Animation

// §4 keyframes (E31–E40, E42, E68): keyframe values, mode and key times + local times → the
// presented position. Same shape and driver as +Values.

extension WorkedExamplesTests {
    static var keyframeValueExamples: [ValueExample] {
        [
            ValueExample("E31 no keyTimes", keyframes([0, 10, 30], duration: 2), x: [(0.5, 5), (1.5, 20)]),
            ValueExample("E32", keyframes([0, 10, 30], keyTimes: [0, 0.25, 1]), x: [(0.5, 16.666667)]),
            ValueExample("E33 discrete, no keyTimes", keyframes([0, 10, 30], mode: .discrete),
                         x: [(0.2, 0), (0.5, 10), (0.9, 30)]),
            ValueExample("E33 discrete, keyTimes [0,0.5,0.75,1]", keyframes([0, 10, 30], mode: .discrete, keyTimes: [0, 0.5, 0.75, 1]),
                         x: [(0.6, 10), (0.8, 30)]),
            ValueExample("E34 paced", points([(0, 0), (10, 0), (110, 0)], mode: .paced, duration: 2), x: [(0.2, 11), (1.0, 55)]),
            ValueExample("E34 linear mode would give 10 at t=1", points([(0, 0), (10, 0), (110, 0)], mode: .linear, duration: 2),
                         x: [(1.0, 10)]),
            ValueExample("E35", points([(0, 0), (30, 40), (30, 100)], mode: .paced), position: [(0.5, 30, 45), (0.25, 16.5, 22)]),
            ValueExample("E36", keyframes([0, 1, 101], mode: .paced), x: [(0.5, 50.5)]),
            ValueExample("E37 Catmull–Rom, ends extrapolated as Apple does", keyframes([0, 1, 0], mode: .cubic), x: [(0.25, 0.625)]),
            ValueExample("E38 cubic", keyframes([0, 10, 20, 80], mode: .cubic), x: [(0.5, 11.875)]),
            ValueExample("E38 linear: 15", keyframes([0, 10, 20, 80], mode: .linear), x: [(0.5, 15)]),
            ValueExample("E39 tension 1 at all keys", keyframes([0, 10, 20, 80], mode: .cubic, tension: [1, 1, 1, 1]),
                         x: [(0.5, 15)]),
            ValueExample("E39 continuity −1", keyframes([0, 10, 20, 80], mode: .cubic, continuity: [-1, -1, -1, -1]),
                         x: [(0.5, 15)]),
            ValueExample("E40 per-segment easeIn", keyframes([0, 100], keyTimes: [0, 1], segmentCurves: [.easeIn]),
                         x: [(0.5, 31.5357)], accuracy: 5e-5),
            // Control points are stored as floats (§2.1): easeInEaseOut(0.25) moves by 8e-9, ×200 = 1.5e-6,
            // beyond the 5e-6 half-digit of the printed value; allow the float-math 1e-5 of E17.
            ValueExample("E40 animation-level easeInEaseOut", keyframes([0, 100, 0], curve: .easeInEaseOut),
                         x: [(0.25, 25.83238)], accuracy: 1e-5),
            ValueExample("E42 linear mode", path(arch), position: [(0.25, 15.625, 56.25)]),
            // Exact arc length (printed to 4 decimals; our arc-length approximation is allowed 1e-3).
            ValueExample("E42 paced, exact arc length", path(arch, mode: .paced), position: [(0.25, 10.5893, 48.3525)],
                         accuracy: 1e-3),
            ValueExample("E42 paced, Apple's own arc-length approximation", path(arch, mode: .paced),
                         position: [(0.25, 10.6478, 48.4605)], accuracy: 0.15),
            ValueExample("E68 keyTimes [0,0.6,0.5] not monotonic: ignored", keyframes([0, 10, 30], keyTimes: [0, 0.6, 0.5]),
                         x: [(0.25, 5)]),
            ValueExample("E68 keyTimes [0,0.5] wrong count: ignored", keyframes([0, 10, 30], keyTimes: [0, 0.5]),
                         x: [(0.75, 20)]),
        ]
    }

    func testKeyframeValueExamples() { run(Self.keyframeValueExamples) }
}
