import XCTest
import Geometry
import Animation
import Layers
import Presentation
import Timing

/// Emitter particles in closed form (§15.5, examples C11–C12).
final class ParticleSystemTests: XCTestCase {
    /// Animations added with `beginTime` 0 start at the media clock's "now": start every test at
    /// 0, whatever timelines earlier tests drove.
    override func setUp() {
        super.setUp()
        CATransaction.mediaClock = ManualMediaClock()
    }

    private let image = CGImage(width: 8, height: 4, source: nil)

    private func cell(birthRate: Float = 10, lifetime: Float = 2) -> EmitterCellProperties {
        var c = EmitterCellProperties()
        c.birthRate = birthRate
        c.lifetime = lifetime
        c.contents = image
        return c
    }

    private func emitter(_ cells: [EmitterCellProperties], seed: UInt32 = 0) -> EmitterProperties {
        var e = EmitterProperties()
        e.emitterCells = cells
        e.seed = seed
        return e
    }

    private func all(_ e: EmitterProperties, _ t: Double) -> [Particle] {
        ParticleSystem.particles(of: e, at: t).flatMap { $0 }
    }

    /// A cell with a spread of every random quantity.
    private func randomCell() -> EmitterCellProperties {
        var c = cell(birthRate: 40, lifetime: 1.5)
        c.lifetimeRange = 1
        c.velocity = 80
        c.velocityRange = 60
        c.emissionRange = .pi
        c.spin = 1
        c.spinRange = 2
        c.scaleRange = 0.5
        c.redRange = 0.4
        c.alphaSpeed = -0.3
        c.yAcceleration = 30
        return c
    }

    func testAFrameDependsOnlyOnItsTime() {
        var e = emitter([randomCell(), randomCell()], seed: 7)
        e.emitterShape = .rectangle
        e.emitterSize = CGSize(width: 100, height: 40)
        let alone = all(e, 1.7)
        var last: [Particle] = []
        for step in 0...16 { last = all(e, Double(step) / 10) }
        XCTAssertFalse(last.isEmpty)
        XCTAssertEqual(all(e, 1.7), alone)
        XCTAssertFalse(alone.isEmpty)

        // The same through the presentation tree, in any order of evaluation.
        let layer = CAEmitterLayer()
        layer.emitterCells = [CAEmitterCell(), CAEmitterCell()].map { c in
            c.properties = randomCell()
            return c
        }
        layer.seed = 7
        let first = PresentationTree.evaluate(layer, at: 1.7)
        _ = PresentationTree.evaluate(layer, at: 0.3)
        _ = PresentationTree.evaluate(layer, at: 5)
        let second = PresentationTree.evaluate(layer, at: 1.7)
        XCTAssertGreaterThan(first.layers.count, 50)
        XCTAssertEqual(first.layers.map(\.properties), second.layers.map(\.properties))
        XCTAssertEqual(first.layers.map { $0.particle }, second.layers.map { $0.particle })
    }

    func testSteadyStateCountIsBirthRateTimesLifetime() {
        // Births at k/10, lifetime 2: at τ = 5 births 3.1 … 5.0 are alive (b = 3.0 has age 2).
        let e = emitter([cell(birthRate: 10, lifetime: 2)])
        let particles = all(e, 5)
        XCTAssertEqual(particles.count, 20)
        XCTAssertEqual(particles.map(\.index), Array(31...50))
        // Layer multipliers (C11 without a range): 2·10 births/s, lifetime 1.5·2 = 3 → 60.
        var m = e
        m.birthRate = 2
        m.lifetime = 1.5
        XCTAssertEqual(all(m, 10).count, 60)
        // Before the lifetime has passed, everything born so far: b_0 = 0 … 0.5.
        XCTAssertEqual(all(e, 0.5).count, 6)
    }

    func testLifetimeRangeFollowsTheHeaderRule() {
        // C11: lifetimes uniform in [2.25, 3.75] under layer lifetime 1.5; 20 births/s.
        var c = cell(birthRate: 10, lifetime: 2)
        c.lifetimeRange = 1
        var e = emitter([c], seed: 3)
        e.birthRate = 2
        e.lifetime = 1.5
        let t = 20.0
        let particles = all(e, t)
        let ages = particles.map { t - $0.birthTime }
        XCTAssertLessThan(ages.max() ?? 0, 3.75)
        // Everything younger than the shortest lifetime is alive: births after t − 2.25.
        XCTAssertEqual(ages.filter { $0 < 2.25 }.count, Int((2.25 * 20).rounded(.up)))
        XCTAssertEqual(Double(particles.count), 60, accuracy: 10)
    }

    func testMotionFollowsVelocityAccelerationAndSpin() {
        // C12: velocity 100 along +x, yAcceleration 50, spin 1 × layer spin 2, age 2 → (200, 100), 4 rad.
        var c = cell(birthRate: 1, lifetime: 10)
        c.velocity = 100
        c.yAcceleration = 50
        c.spin = 1
        var e = emitter([c])
        e.spin = 2
        e.emitterPosition = CGPoint(x: 10, y: 20)
        let particles = all(e, 2)
        XCTAssertEqual(particles.map(\.index), [0, 1, 2])
        let p0 = particles[0]
        XCTAssertEqual(p0.position.x, 210, accuracy: 1e-9)
        XCTAssertEqual(p0.position.y, 120, accuracy: 1e-9)
        XCTAssertEqual(p0.rotation, 4, accuracy: 1e-9)
        let p1 = particles[1]  // born at 1, age 1
        XCTAssertEqual(p1.position.x, 110, accuracy: 1e-9)
        XCTAssertEqual(p1.position.y, 45, accuracy: 1e-9)
        XCTAssertEqual(particles[2].position.x, 10, accuracy: 1e-9)  // just born
        // Longitude −π/2 sends particles up (−y).
        c.emissionLongitude = -.pi / 2
        c.yAcceleration = 0
        let up = all(emitter([c]), 2)[0]
        XCTAssertEqual(up.position.x, 0, accuracy: 1e-9)
        XCTAssertEqual(up.position.y, -200, accuracy: 1e-9)
    }

    func testScaleAndColourChangeWithAge() {
        var c = cell(birthRate: 1, lifetime: 10)
        c.scale = 2
        c.scaleSpeed = -0.5
        c.color = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        c.alphaSpeed = -0.25
        c.greenSpeed = 0.5
        var e = emitter([c])
        e.scale = 3
        let p = all(e, 2)[0]
        XCTAssertEqual(p.scale, 3 * (2 - 1), accuracy: 1e-9)
        XCTAssertEqual(p.color.x, 1, accuracy: 1e-6)
        XCTAssertEqual(p.color.y, 1, accuracy: 1e-6)   // 0.5 + 2·0.5, clamped at 1
        XCTAssertEqual(p.color.z, 0, accuracy: 1e-6)
        XCTAssertEqual(p.color.w, 0.5, accuracy: 1e-6)
        XCTAssertEqual(all(e, 5)[0].scale, 0, "scale stops at 0")
    }

    func testSeedsChangeTheParticles() {
        let a = all(emitter([randomCell()], seed: 1), 3)
        let b = all(emitter([randomCell()], seed: 2), 3)
        XCTAssertNotEqual(a.map(\.position), b.map(\.position))
        // Two cells with equal settings differ too (the cell index is part of the key).
        let twins = ParticleSystem.particles(of: emitter([randomCell(), randomCell()], seed: 1), at: 3)
        XCTAssertNotEqual(twins[0].first?.position, twins[1].first?.position)
    }

    func testShapesAndModes() {
        var c = cell(birthRate: 50, lifetime: 5)
        c.velocity = 0
        var e = emitter([c], seed: 9)
        e.emitterPosition = CGPoint(x: 100, y: 50)
        e.emitterSize = CGSize(width: 40, height: 20)
        func starts(_ shape: CAEmitterLayerEmitterShape, _ mode: CAEmitterLayerEmitterMode) -> [SIMD3<Double>] {
            e.emitterShape = shape
            e.emitterMode = mode
            return all(e, 4).map(\.position)
        }
        for p in starts(.rectangle, .surface) {
            XCTAssertTrue((80...120).contains(p.x) && (40...60).contains(p.y))
        }
        let corners = Set(starts(.rectangle, .points).map { [$0.x, $0.y] })
        XCTAssertEqual(corners, [[80, 40], [120, 40], [80, 60], [120, 60]])
        for p in starts(.rectangle, .outline) {
            let onEdge = abs(p.x - 80) < 1e-9 || abs(p.x - 120) < 1e-9 || abs(p.y - 40) < 1e-9 || abs(p.y - 60) < 1e-9
            XCTAssertTrue(onEdge, "\(p)")
        }
        for p in starts(.circle, .outline) {   // radius = width
            XCTAssertEqual(((p.x - 100) * (p.x - 100) + (p.y - 50) * (p.y - 50)).squareRoot(), 40, accuracy: 1e-9)
        }
        for p in starts(.circle, .volume) {
            XCTAssertLessThanOrEqual(((p.x - 100) * (p.x - 100) + (p.y - 50) * (p.y - 50)).squareRoot(), 40 + 1e-9)
        }
        XCTAssertEqual(Set(starts(.line, .points).map(\.x)), [80, 120])
        for p in starts(.line, .outline) { XCTAssertEqual(p.y, 50); XCTAssertTrue((80...120).contains(p.x)) }
        XCTAssertEqual(Set(starts(.point, .volume).map { [$0.x, $0.y] }), [[100, 50]])
    }

    func testEmissionConeHalfAngle() {
        var c = cell(birthRate: 100, lifetime: 2)
        c.velocity = 1
        c.emissionRange = .pi / 2      // ±45° around +x
        let particles = all(emitter([c], seed: 4), 1.5)
        XCTAssertGreaterThan(particles.count, 100)
        for p in particles.dropLast() {
            let age = 1.5 - p.birthTime
            let u = p.position / age
            XCTAssertGreaterThanOrEqual(u.x, cos(Double.pi / 4) - 1e-9)
        }
    }

    func testLiveParticlesAreCapped() {
        var e = emitter([cell(birthRate: 1_000_000, lifetime: 1)])
        e.birthRate = 1
        let particles = all(e, 2)
        XCTAssertEqual(particles.count, ParticleSystem.maximumLiveParticles)
        // The newest are kept.
        XCTAssertEqual(particles.last?.index, 2_000_000)
    }

    func testCellWindowDisabledCellsAndCellsWithoutContents() {
        var c = cell(birthRate: 10, lifetime: 100)
        c.timing.beginTime = 1
        c.timing.duration = 0.5
        XCTAssertEqual(all(emitter([c]), 3).map(\.birthTime).count, 5)   // 1.0 … 1.4
        c.isEnabled = false
        XCTAssertTrue(all(emitter([c]), 3).isEmpty)
        var bare = cell()
        bare.contents = nil
        XCTAssertTrue(all(emitter([bare]), 3).isEmpty)
        XCTAssertTrue(all(emitter([cell()]), -1).isEmpty)
    }

    func testRenderModesOrderParticles() {
        let e = emitter([cell(birthRate: 4, lifetime: 1), cell(birthRate: 3, lifetime: 1)])
        let perCell = ParticleSystem.particles(of: e, at: 2.1)
        let unordered = ParticleSystem.drawingOrder(perCell, mode: .unordered)
        XCTAssertEqual(unordered.map(\.cell), perCell[0].map { _ in 0 } + perCell[1].map { _ in 1 })
        let oldestFirst = ParticleSystem.drawingOrder(perCell, mode: .oldestFirst).map(\.birthTime)
        XCTAssertEqual(oldestFirst, oldestFirst.sorted())
        let oldestLast = ParticleSystem.drawingOrder(perCell, mode: .oldestLast).map(\.birthTime)
        XCTAssertEqual(oldestLast, oldestLast.sorted(by: >))
    }

    func testAnimatedEmitterMatchesTheConstantScheduleAndStaysDeterministic() {
        let layer = CAEmitterLayer()
        let spark = CAEmitterCell()
        spark.properties = cell(birthRate: 10, lifetime: 2)
        spark.name = "spark"
        spark.velocity = 50
        layer.emitterCells = [spark]
        let constant = PresentationTree.evaluate(layer, at: 3.05)
        // An animation that keeps birthRate at 1 takes the grid path and must agree.
        let hold = CABasicAnimation(keyPath: "birthRate")
        hold.fromValue = 1
        hold.toValue = 1
        hold.duration = 100
        layer.add(hold, forKey: "hold")
        let animated = PresentationTree.evaluate(layer, at: 3.05)
        XCTAssertEqual(animated.layers.map { $0.particle }, constant.layers.map { $0.particle })
        for (a, b) in zip(animated.layers, constant.layers) {
            XCTAssertEqual(a.properties.position.x, b.properties.position.x, accuracy: 1e-6)
        }
        // Birth rate 1 → 0 over 2 s: births slow down, then stop; no particles once all are dead.
        layer.removeAllAnimations()
        let stop = CABasicAnimation(keyPath: "birthRate")
        stop.fromValue = 1
        stop.toValue = 0
        stop.duration = 2
        stop.fillMode = .forwards
        stop.isRemovedOnCompletion = false
        layer.add(stop, forKey: "stop")
        let early = PresentationTree.evaluate(layer, at: 1.9).layers.count - 1
        XCTAssertEqual(early, 10, "∫₀^1.9 10·(1 − t/2) dt = 9.975 → births 0 … 9")
        XCTAssertEqual(PresentationTree.evaluate(layer, at: 4.5).layers.count, 1)
        let a = PresentationTree.evaluate(layer, at: 2.5)
        _ = PresentationTree.evaluate(layer, at: 0.7)
        XCTAssertEqual(PresentationTree.evaluate(layer, at: 2.5).layers.map(\.properties), a.layers.map(\.properties))
    }

    func testParticlesArePresentedAfterTheSublayers() {
        let layer = CAEmitterLayer()
        layer.name = "fx"
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.position = CGPoint(x: 50, y: 50)
        layer.emitterPosition = CGPoint(x: 30, y: 40)
        layer.sublayerTransform = CATransform3DMakeTranslation(5, 0, 0)
        let spark = CAEmitterCell()
        spark.properties = cell(birthRate: 2, lifetime: 1)
        spark.name = "spark"
        spark.contentsScale = 2
        spark.scale = 3
        spark.color = CGColor(red: 1, green: 0.5, blue: 1, alpha: 0.8)
        layer.emitterCells = [spark]
        layer.addSublayer(CALayer())
        let tree = PresentationTree.evaluate(layer, at: 1.25)
        XCTAssertEqual((0..<tree.layers.count).map { tree.path(of: $0) }, ["fx", "fx/#0", "fx/spark@1", "fx/spark@2"])
        XCTAssertEqual(tree.layers[0].sublayersInDrawingOrder, [1, 2, 3])
        let p = tree.layers[3]
        XCTAssertEqual(p.typeName, "particle")
        XCTAssertEqual(p.particle, PresentedParticle(cell: 0, index: 2))
        XCTAssertEqual(p.layerID, ObjectIdentifier(layer))
        XCTAssertEqual(p.properties.bounds.size, CGSize(width: 12, height: 6))   // 8×4 px / 2 × 3
        XCTAssertEqual(p.properties.position, CGPoint(x: 30, y: 40))
        XCTAssertEqual(p.properties.contents.image, image)
        XCTAssertEqual(p.properties.opacity, 0.8, accuracy: 1e-6)
        XCTAssertEqual(p.tint, SIMD4(1, 0.5, 1, 1))
        // In the emitter's bounds space: its sublayerTransform moves sublayers, not particles.
        let centre = p.transformToRoot.transform(x: 6, y: 3)
        XCTAssertEqual(centre.x / centre.w, 30, accuracy: 1e-9)
        layer.isHidden = true
        XCTAssertEqual(PresentationTree.evaluate(layer, at: 1.25).layers.count, 2)
    }

    func testEmitterInsideAReplicatorGetsTintedDelayedParticles() {
        let replicator = CAReplicatorLayer()
        replicator.instanceCount = 2
        replicator.instanceDelay = 0.5
        replicator.instanceAlphaOffset = -0.5
        let layer = CAEmitterLayer()
        layer.name = "fx"
        let spark = CAEmitterCell()
        spark.properties = cell(birthRate: 2, lifetime: 10)
        layer.emitterCells = [spark]
        replicator.addSublayer(layer)
        let tree = PresentationTree.evaluate(replicator, at: 1)
        let paths = (0..<tree.layers.count).map { tree.path(of: $0) }
        XCTAssertEqual(paths, ["#0", "#0/fx", "#0/fx/#cell0@0", "#0/fx/#cell0@1", "#0/fx/#cell0@2",
                               "#0/fx~1", "#0/fx~1/#cell0@0", "#0/fx~1/#cell0@1"])
        XCTAssertEqual(tree.layers[6].tint, SIMD4(1, 1, 1, 0.5))
        XCTAssertNotEqual(tree.layers[6].replicaKey, tree.layers[2].replicaKey)
    }
}
