import Foundation
import Geometry
import Layers

extension SceneDecoder {
    func emitterProperties(_ r: ObjectReader, _ layer: CAEmitterLayer) {
        if let n = r["emitterPosition"], let v = point(n, r.path("emitterPosition")) { layer.emitterPosition = v }
        if let n = r["emitterZPosition"], let v = number(n, r.path("emitterZPosition")) { layer.emitterZPosition = v }
        if let n = r["emitterSize"], let v = size(n, r.path("emitterSize")) { layer.emitterSize = v }
        if let n = r["emitterDepth"], let v = number(n, r.path("emitterDepth")) { layer.emitterDepth = v }
        if let n = r["emitterShape"], let v = choice(n, r.path("emitterShape"), ["point", "line", "rectangle", "cuboid", "circle", "sphere"]) {
            layer.emitterShape = CAEmitterLayerEmitterShape(rawValue: v)
        }
        if let n = r["emitterMode"], let v = choice(n, r.path("emitterMode"), ["points", "outline", "surface", "volume"]) {
            layer.emitterMode = CAEmitterLayerEmitterMode(rawValue: v)
        }
        if let n = r["renderMode"], let v = choice(n, r.path("renderMode"), ["unordered", "oldestFirst", "oldestLast", "backToFront", "additive"]) {
            layer.renderMode = CAEmitterLayerRenderMode(rawValue: v)
        }
        let multipliers: [(String, ReferenceWritableKeyPath<CAEmitterLayer, Float>)] = [
            ("birthRate", \.birthRate), ("lifetime", \.lifetime), ("velocity", \.velocity), ("scale", \.scale), ("spin", \.spin)]
        for (key, path) in multipliers {
            if let n = r[key], let v = number(n, r.path(key), in: 0...1e6) { layer[keyPath: path] = Float(v) }
        }
        if let n = r["seed"], let v = integer(n, r.path("seed"), in: 0...Int(UInt32.max)) { layer.seed = UInt32(v) }
        if let n = r["emitterCells"], let items = array(n, r.path("emitterCells")) {
            layer.emitterCells = items.enumerated().compactMap { emitterCell($1, "\(r.path("emitterCells"))[\($0)]", depth: 0) }
        }
    }

    private func emitterCell(_ node: JSONNode, _ path: String, depth: Int) -> CAEmitterCell? {
        guard depth < 8 else {
            fail(node, path, "emitter cells nested deeper than 8")
            return nil
        }
        guard let r = object(node, path) else { return nil }
        defer { r.reportUnknownKeys() }
        let cell = CAEmitterCell()
        if let n = r["name"], let v = string(n, r.path("name")) { cell.name = v }
        if let n = r["enabled"], let v = bool(n, r.path("enabled")) { cell.isEnabled = v }
        let floats: [(String, ReferenceWritableKeyPath<CAEmitterCell, Float>, ClosedRange<Double>)] = [
            ("birthRate", \.birthRate, 0...1e6), ("lifetime", \.lifetime, 0...1e6), ("lifetimeRange", \.lifetimeRange, 0...1e6),
            ("redRange", \.redRange, 0...1), ("greenRange", \.greenRange, 0...1), ("blueRange", \.blueRange, 0...1),
            ("alphaRange", \.alphaRange, 0...1), ("redSpeed", \.redSpeed, -100...100), ("greenSpeed", \.greenSpeed, -100...100),
            ("blueSpeed", \.blueSpeed, -100...100), ("alphaSpeed", \.alphaSpeed, -100...100)]
        for (key, keyPath, range) in floats {
            if let n = r[key], let v = number(n, r.path(key), in: range) { cell[keyPath: keyPath] = Float(v) }
        }
        let doubles: [(String, ReferenceWritableKeyPath<CAEmitterCell, CGFloat>)] = [
            ("emissionLatitude", \.emissionLatitude), ("emissionLongitude", \.emissionLongitude), ("emissionRange", \.emissionRange),
            ("velocity", \.velocity), ("velocityRange", \.velocityRange), ("xAcceleration", \.xAcceleration),
            ("yAcceleration", \.yAcceleration), ("zAcceleration", \.zAcceleration), ("scale", \.scale), ("scaleRange", \.scaleRange),
            ("scaleSpeed", \.scaleSpeed), ("spin", \.spin), ("spinRange", \.spinRange)]
        for (key, keyPath) in doubles {
            if let n = r[key], let v = number(n, r.path(key), in: -1e6...1e6) { cell[keyPath: keyPath] = v }
        }
        if let n = r["color"], let v = color(n, r.path("color"), nullable: true) { cell.color = v }
        if let n = r["contents"], let image = image(n, r.path("contents")) { cell.contents = image }
        if let n = r["contentsRect"], let v = rect(n, r.path("contentsRect")) { cell.contentsRect = v }
        if let n = r["contentsScale"], let v = number(n, r.path("contentsScale"), in: 0.01...64) { cell.contentsScale = v }
        if let n = r["beginTime"], let v = number(n, r.path("beginTime")) { cell.beginTime = v }
        if let n = r["duration"], let v = number(n, r.path("duration"), in: 0...1e9) { cell.duration = v }
        if let n = r["emitterCells"], let items = array(n, r.path("emitterCells")) {
            cell.emitterCells = items.enumerated().compactMap { emitterCell($1, "\(r.path("emitterCells"))[\($0)]", depth: depth + 1) }
        }
        return cell
    }
}
