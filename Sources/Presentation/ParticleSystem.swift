import Foundation
import Geometry
import Layers

/// One live particle at the evaluated time.
public struct Particle: Sendable, Equatable {
    /// Index of its cell in the emitter's `emitterCells`.
    public var cell: Int
    /// Birth number k within its cell (§15.5 `b_k`), its stable identity.
    public var index: Int
    /// Birth time in the emitter's local time.
    public var birthTime: Double
    /// Centre in the emitter layer's bounds space (z from `emitterZPosition` and the motion).
    public var position: SIMD3<Double>
    /// Rotation about z in radians (positive turns +x toward +y).
    public var rotation: Double
    /// Factor on the cell image's logical size (≥ 0).
    public var scale: Double
    /// Straight RGBA multiplier of the image, each channel in 0…1.
    public var color: SIMD4<Float>
}

/// The particles of a `CAEmitterLayer` in closed form (§15.5 "Our model"): particle k of a cell
/// is born at `b_k`, its random values come from `DeterministicRandom` keyed by (seed, cell, k),
/// and its state at time τ is a formula of its age. A frame depends only on τ, whatever frames
/// were evaluated before or in which order.
///
/// Limits and simplifications:
/// * at most `maximumLiveParticles` particles per emitter; when more are alive the newest are
///   kept, cells in array order taking from one shared budget, and at most
///   `maximumVisitedBirths` birth slots are examined per emitter;
/// * sub-cells (`emitterCells` of a cell) are not emitted, and a cell without `contents` (which
///   would draw nothing itself) is skipped;
/// * a cell's timing is reduced to its emission window `[beginTime, beginTime + duration)`
///   (duration 0: no end); its speed, repeats and offsets are ignored;
/// * `additive` is ordered like `unordered` (composited source-over by today's renderers);
/// * when the emitter layer's properties are animated, birth rates are integrated on a fixed
///   1/240 s grid from τ = 0 (cost grows with τ); past `animatedHorizon` seconds the grid starts
///   at the latest multiple of the horizon that leaves a full horizon before τ, so particles
///   older than the horizon are dropped and particle numbering restarts there.
public enum ParticleSystem {
    /// Live particles per emitter are capped here.
    public static let maximumLiveParticles = SceneLimits.maximumLiveParticles
    /// Birth slots examined per emitter (dead ones included) are capped here.
    public static let maximumVisitedBirths = 400_000
    /// Grid step for integrating animated birth rates.
    public static let gridStep = 1.0 / 240
    /// Longest stretch of grid walked for an animated emitter (see the type's notes).
    public static let animatedHorizon = 60.0

    /// The live particles at emitter local time `time`, in drawing order for `renderMode`.
    ///
    /// `sample` gives the emitter's (animated) properties at another local time; nil when they
    /// are constant, which allows the exact schedule `b_k = start + k/B`.
    public static func particles(of emitter: EmitterProperties, at time: Double,
                                 sample: ((Double) -> EmitterProperties)? = nil) -> [[Particle]] {
        guard let cells = emitter.emitterCells, !cells.isEmpty, time >= 0, time.isFinite else { return [] }
        var budget = Budget()
        var perCell: [[Particle]]
        if let sample {
            perCell = animatedParticles(cells, at: time, sample: sample, budget: &budget)
        } else {
            perCell = cells.indices.map { c in
                constantParticles(cells[c], cell: c, emitter: emitter, at: time, budget: &budget)
            }
        }
        // Generated newest first; drawing starts with the oldest.
        for c in perCell.indices { perCell[c].reverse() }
        return perCell
    }

    /// The particles of `particles(of:at:sample:)` flattened into the drawing order of `mode`.
    public static func drawingOrder(_ perCell: [[Particle]], mode: CAEmitterLayerRenderMode) -> [Particle] {
        var all = perCell.flatMap { $0 }
        switch mode {
        case .oldestFirst:
            all.sort { ($0.birthTime, $0.cell, $0.index) < ($1.birthTime, $1.cell, $1.index) }
        case .oldestLast:
            all.sort { ($0.birthTime, $0.cell, $0.index) > ($1.birthTime, $1.cell, $1.index) }
        case .backToFront:
            // Farthest (smallest z) first; ties by birth.
            all.sort { ($0.position.z, $0.birthTime, $0.cell, $0.index) < ($1.position.z, $1.birthTime, $1.cell, $1.index) }
        default:
            break  // unordered and additive: cells in array order, each oldest first
        }
        return all
    }

    private struct Budget {
        var live = ParticleSystem.maximumLiveParticles
        var visits = ParticleSystem.maximumVisitedBirths
        var isSpent: Bool { live <= 0 || visits <= 0 }
    }

    /// When the cell emits, in the emitter's local time: births only at τ ≥ 0.
    private static func emissionWindow(_ cell: EmitterCellProperties) -> (start: Double, end: Double) {
        let begin = cell.timing.beginTime
        let end = cell.timing.duration > 0 ? begin + cell.timing.duration : .infinity
        return (max(0, begin), end)
    }

    /// Longest possible life of a particle of `cell` under `emitter`.
    private static func maximumLifetime(_ cell: EmitterCellProperties, _ emitter: EmitterProperties) -> Double {
        (Double(cell.lifetime) + abs(Double(cell.lifetimeRange)) / 2) * Double(emitter.lifetime)
    }

    private static func emits(_ cell: EmitterCellProperties) -> Bool {
        cell.isEnabled && cell.contents != nil && cell.birthRate > 0 && cell.lifetime + abs(cell.lifetimeRange) / 2 > 0
    }

    /// Constant layer values: births at exactly `start + k/B`.
    private static func constantParticles(_ cell: EmitterCellProperties, cell c: Int, emitter: EmitterProperties,
                                          at time: Double, budget: inout Budget) -> [Particle] {
        let rate = Double(emitter.birthRate) * Double(cell.birthRate)
        guard emits(cell), rate > 0, !budget.isSpent else { return [] }
        let (start, end) = emissionWindow(cell)
        guard time >= start else { return [] }
        func birth(_ k: Int) -> Double { start + Double(k) / rate }
        // Newest birth: the last k with b_k ≤ τ and b_k < end, found by a float estimate, fixed up.
        let limit = min(time, end)
        guard time.isFinite else { return [] }
        var newest = Int(min(Double(Int.max / 2), ((limit - start) * rate).rounded(.down)))
        while birth(newest + 1) <= time, birth(newest + 1) < end { newest += 1 }
        while newest >= 0, birth(newest) > time || birth(newest) >= end { newest -= 1 }
        guard newest >= 0 else { return [] }
        let oldestAlive = time - maximumLifetime(cell, emitter)
        var out: [Particle] = []
        var k = newest
        while k >= 0, !budget.isSpent {
            let b = birth(k)
            if b <= oldestAlive { break }
            budget.visits -= 1
            if let p = particle(cell, cell: c, stream: c, index: k, birth: b, at: time, emitter: emitter) {
                out.append(p)
                budget.live -= 1
            }
            k -= 1
        }
        return out
    }

    /// One grid step of an animated emitter in which a cell was born: its schedule and the layer
    /// values its particles read.
    private struct Step {
        var start: Double, end: Double
        /// Births counted before `start`; births are the integers k in [count, count + rate·(end − start)).
        var count: Double
        var rate: Double
        var emitter: EmitterProperties
    }

    /// Animated layer values: birth rates integrated on the fixed grid.
    private static func animatedParticles(_ cells: [EmitterCellProperties], at time: Double,
                                          sample: (Double) -> EmitterProperties, budget: inout Budget) -> [[Particle]] {
        let dt = gridStep
        let anchor = time > animatedHorizon ? ((time - animatedHorizon) / animatedHorizon).rounded(.down) * animatedHorizon : 0
        let era = Int(anchor / animatedHorizon)
        var counts = [Double](repeating: 0, count: cells.count)
        var steps = [[Step]](repeating: [], count: cells.count)
        let windows = cells.map(emissionWindow)
        var g = 0
        while true {
            let t0 = anchor + Double(g) * dt
            guard t0 <= time else { break }
            g += 1
            let e = sample(t0)
            for c in cells.indices where emits(cells[c]) {
                let (start, end) = windows[c]
                let lo = max(t0, start), hi = min(t0 + dt, end)
                let rate = Double(e.birthRate) * Double(cells[c].birthRate)
                guard hi > lo, rate > 0 else { continue }
                // Only steps whose particles can still be alive are kept.
                if time - hi < maximumLifetime(cells[c], e) {
                    steps[c].append(Step(start: lo, end: hi, count: counts[c], rate: rate, emitter: e))
                }
                counts[c] += rate * (hi - lo)
            }
        }
        return cells.indices.map { c in
            var out: [Particle] = []
            let stream = c | era << 24
            for step in steps[c].reversed() {
                guard !budget.isSpent else { break }
                // Integers k with count ≤ k < count + rate·(end − start), newest first.
                let first = Int(step.count.rounded(.up))
                var k = Int((step.count + step.rate * (step.end - step.start)).rounded(.up)) - 1
                while k >= first, !budget.isSpent {
                    let b = step.start + (Double(k) - step.count) / step.rate
                    if b < step.end, b <= time {
                        budget.visits -= 1
                        if let p = particle(cells[c], cell: c, stream: stream, index: k, birth: b, at: time, emitter: step.emitter) {
                            out.append(p)
                            budget.live -= 1
                        }
                    }
                    k -= 1
                }
            }
            return out
        }
    }

    /// Particle k of a cell at emitter time τ, or nil when it is not alive then.
    public static func particle(_ cell: EmitterCellProperties, cell c: Int, stream: Int, index k: Int, birth: Double,
                                at time: Double, emitter e: EmitterProperties) -> Particle? {
        let age = time - birth
        guard age >= 0 else { return nil }
        @inline(__always) func r(_ j: Int) -> Double { DeterministicRandom.unit(seed: e.seed, stream: stream, index: k, draw: j) }
        @inline(__always) func draw(_ mean: Double, _ range: Double, _ j: Int) -> Double {
            DeterministicRandom.draw(mean, range, r(j))
        }
        let lifetime = draw(Double(cell.lifetime), Double(cell.lifetimeRange), 0) * Double(e.lifetime)
        guard age < lifetime else { return nil }
        let center = SIMD3(Double(e.emitterPosition.x), Double(e.emitterPosition.y), Double(e.emitterZPosition))
        let start = EmitterGeometry.startPoint(shape: e.emitterShape, mode: e.emitterMode, center: center,
                                               size: e.emitterSize, r(1), r(2), r(3))
        let direction = EmitterGeometry.direction(longitude: Double(cell.emissionLongitude),
                                                  latitude: Double(cell.emissionLatitude),
                                                  range: Double(cell.emissionRange), r(4), r(5))
        let speed = draw(Double(cell.velocity), Double(cell.velocityRange), 6) * Double(e.velocity)
        let acceleration = SIMD3(Double(cell.xAcceleration), Double(cell.yAcceleration), Double(cell.zAcceleration))
        let position = start + direction * (speed * age) + acceleration * (0.5 * age * age)
        let scale = max(0, Double(e.scale) * (draw(Double(cell.scale), Double(cell.scaleRange), 7) + Double(cell.scaleSpeed) * age))
        let rotation = draw(Double(cell.spin), Double(cell.spinRange), 8) * Double(e.spin) * age
        let base = cell.color ?? .white
        func channel(_ mean: CGFloat, _ range: Float, _ speed: Float, _ j: Int) -> Float {
            Float(max(0, min(1, draw(Double(mean), Double(range), j) + Double(speed) * age)))
        }
        let color = SIMD4(channel(base.red, cell.redRange, cell.redSpeed, 9),
                          channel(base.green, cell.greenRange, cell.greenSpeed, 10),
                          channel(base.blue, cell.blueRange, cell.blueSpeed, 11),
                          channel(base.alpha, cell.alphaRange, cell.alphaSpeed, 12))
        return Particle(cell: c, index: k, birthTime: birth, position: position, rotation: rotation, scale: scale, color: color)
    }
}
