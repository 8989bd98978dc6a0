import Foundation
import Layers

/// The ratios the performance goals are stated in (issue 16), computed from one run's rows so a
/// change that loses one shows in a single run: evaluation time per animation, each textured
/// scene against the hand-written GL floor, and rounded cards with borders against plain ones.
extension RenderBench {
    /// One row's ratios (each nil where the run has no figure for it).
    public struct Ratios: Codable, Equatable {
        /// The scene's evaluation time per frame over its animations, in nanoseconds (the GPU
        /// run's, else the CPU run's; nil for a scene without animations).
        public var evaluateNanosecondsPerAnimation: Double?
        /// GPU frames/s over the floor's (goal ≥ 0.8 on every textured scene).
        public var gpuVersusFloor: Double?
        /// This scene's time per frame over the same size's "plain cards" scene with the same
        /// count, per backend (the rounded + borders rows; goal ≤ 1.3).
        public var gpuTimeVersusPlainCards: Double?
        public var cpuTimeVersusPlainCards: Double?

        public init() {}

        var isEmpty: Bool { self == Ratios() }
    }

    /// The animations attached anywhere in `root`'s tree (groups count once).
    static func animationCount(_ root: CALayer) -> Int {
        var count = 0
        root.forEachLayerInTree { count += $0.animationKeys()?.count ?? 0 }
        return count
    }

    /// `rows` with their ratios filled in; `animations` gives each scene's animation count by name.
    static func withRatios(_ rows: [Row], animations: [String: Int]) -> [Row] {
        rows.map { row in
            var ratios = Ratios()
            if let count = animations[row.scene], count > 0, let m = row.gpu ?? row.cpu {
                ratios.evaluateNanosecondsPerAnimation = m.evaluateMs * 1e6 / Double(count)
            }
            if let gpu = row.gpu, let floor = row.floorFramesPerSecond, floor > 0 {
                ratios.gpuVersusFloor = gpu.framesPerSecond / floor
            }
            if let twin = BenchScenes.plainTwin(of: row.scene), let plain = rows.first(where: { $0.size == row.size && $0.scene == twin }) {
                func timeRatio(_ a: Measurement?, _ b: Measurement?) -> Double? {
                    guard let a, let b, a.framesPerSecond > 0 else { return nil }
                    return b.framesPerSecond / a.framesPerSecond
                }
                ratios.gpuTimeVersusPlainCards = timeRatio(row.gpu, plain.gpu)
                ratios.cpuTimeVersusPlainCards = timeRatio(row.cpu, plain.cpu)
            }
            var result = row
            result.ratios = ratios.isEmpty ? nil : ratios
            return result
        }
    }

    /// The ratios of `rows` as lines under the table.
    static func ratioLines(_ rows: [Row]) -> String {
        rows.compactMap { row -> String? in
            guard let r = row.ratios else { return nil }
            var parts: [String] = []
            if let v = r.evaluateNanosecondsPerAnimation { parts.append(String(format: "eval %.0f ns/animation", v)) }
            // Interleaved: the compared runs of frames alternated on that backend.
            func together(_ m: Measurement?, _ other: String) -> String {
                m?.interleavedWith?.contains(other) == true ? ", interleaved" : ""
            }
            if let v = r.gpuVersusFloor {
                parts.append(String(format: "gpu %.2f× the floor (goal ≥ 0.80×%@)", v, together(row.gpu, floorName)))
            }
            let plainCards = BenchScenes.plainTwin(of: row.scene) ?? ""
            if let v = r.gpuTimeVersusPlainCards {
                parts.append(String(format: "gpu %.2f× plain cards' time (goal ≤ 1.30×%@)", v, together(row.gpu, plainCards)))
            }
            if let v = r.cpuTimeVersusPlainCards {
                parts.append(String(format: "cpu %.2f× plain cards' time (goal ≤ 1.30×%@)", v, together(row.cpu, plainCards)))
            }
            return parts.isEmpty ? nil : "  \(row.scene) at \(row.size): " + parts.joined(separator: ", ")
        }.joined(separator: "\n")
    }
}
