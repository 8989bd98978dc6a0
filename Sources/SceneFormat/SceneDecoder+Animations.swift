import Foundation
import Geometry
import Animation
import Layers
import Timing

extension SceneDecoder {
    static let animationTypes = ["basic", "keyframe", "spring", "group", "transition"]
    static let timingFunctionNames = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]

    /// Decodes one animation for `layer`; group children are decoded with `allowKey: false`.
    func animation(_ node: JSONNode, _ path: String, layer: CALayer, allowKey: Bool, depth: Int = 0) -> (key: String?, animation: CAAnimation)? {
        guard depth < 32 else {
            fail(node, path, "animation groups nested deeper than 32")
            return nil
        }
        guard let r = object(node, path) else { return nil }
        var stoppedEarly = true
        defer { if !stoppedEarly { r.reportUnknownKeys() } }
        var key: String?
        if allowKey, let n = r["key"] { key = string(n, r.path("key")) }
        guard let typeNode = r["type"] else {
            fail(node, path, "missing required key \"type\" (one of: \(Self.animationTypes.joined(separator: ", ")))")
            return nil
        }
        guard let type = choice(typeNode, r.path("type"), Self.animationTypes) else { return nil }

        let animation: CAAnimation
        switch type {
        case "group":
            let group = CAAnimationGroup()
            if let n = r["animations"], let items = array(n, r.path("animations")) {
                group.animations = items.enumerated().compactMap {
                    self.animation($1, "\(r.path("animations"))[\($0)]", layer: layer, allowKey: false, depth: depth + 1)?.animation
                }
            }
            animation = group
        case "transition":
            let transition = CATransition()
            if let n = r["transitionType"], let v = choice(n, r.path("transitionType"), ["fade", "moveIn", "push", "reveal"]) {
                transition.type = CATransitionType(rawValue: v)
            }
            if let n = r["subtype"], let v = choice(n, r.path("subtype"), ["fromLeft", "fromRight", "fromTop", "fromBottom"]) {
                transition.subtype = CATransitionSubtype(rawValue: v)
            }
            let start = r["startProgress"].flatMap { number($0, r.path("startProgress"), in: 0...1) }
            let end = r["endProgress"].flatMap { number($0, r.path("endProgress"), in: 0...1) }
            if let start { transition.startProgress = Float(start) }
            if let end { transition.endProgress = Float(end) }
            if let start, let end, end < start {
                fail(r["endProgress"], r.path("endProgress"), "endProgress \(SceneDecoder.format(end)) is less than startProgress \(SceneDecoder.format(start))")
            }
            animation = transition
        default:
            guard let property = propertyAnimation(r, type: type, layer: layer) else { return nil }
            animation = property
        }
        timing(r, animation)
        if let spring = animation as? CASpringAnimation, !r.has("duration") {
            spring.duration = spring.settlingDuration  // a spring without a duration lasts until it settles
        }
        stoppedEarly = false
        return (key, animation)
    }

    private func timing(_ r: ObjectReader, _ a: CAAnimation) {
        if let n = r["beginTime"], let v = number(n, r.path("beginTime")) { a.beginTime = v }
        if let n = r["duration"], let v = number(n, r.path("duration"), in: 0...1e9) { a.duration = v }
        if let n = r["speed"], let v = number(n, r.path("speed"), in: -1e6...1e6) { a.speed = Float(v) }
        if let n = r["timeOffset"], let v = number(n, r.path("timeOffset")) { a.timeOffset = v }
        if let n = r["repeatCount"], let v = number(n, r.path("repeatCount"), in: 0...1e9, allowInfinity: true) { a.repeatCount = Float(v) }
        if let n = r["repeatDuration"], let v = number(n, r.path("repeatDuration"), in: 0...1e9, allowInfinity: true) { a.repeatDuration = v }
        if let n = r["autoreverses"], let v = bool(n, r.path("autoreverses")) { a.autoreverses = v }
        if let n = r["fillMode"], let v = choice(n, r.path("fillMode"), ["removed", "forwards", "backwards", "both"]) {
            a.fillMode = CAMediaTimingFillMode(rawValue: v)
        }
        if let n = r["removedOnCompletion"], let v = bool(n, r.path("removedOnCompletion")) { a.isRemovedOnCompletion = v }
        if let n = r["timingFunction"] { a.timingFunction = timingFunction(n, r.path("timingFunction")) }
    }

    func timingFunction(_ node: JSONNode, _ path: String) -> CAMediaTimingFunction? {
        switch node.value {
        case .string:
            return choice(node, path, Self.timingFunctionNames).map { CAMediaTimingFunction(name: CAMediaTimingFunctionName(rawValue: $0)) }
        case .array:
            guard let v = numbers(node, path, count: 4, what: "control points [x1, y1, x2, y2]") else { return nil }
            for i in [0, 2] where !(0...1).contains(v[i]) {
                fail(element(node, i), "\(path)[\(i)]", "control point x \(SceneDecoder.format(v[i])) is out of range 0…1")
                return nil
            }
            return CAMediaTimingFunction(controlPoints: Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]))
        default:
            fail(node, path, "expected a timing function name or [x1, y1, x2, y2], found \(node.value.typeName)")
            return nil
        }
    }

    private func propertyAnimation(_ r: ObjectReader, type: String, layer: CALayer) -> CAPropertyAnimation? {
        guard let keyPathNode = r["keyPath"] else {
            fail(r.node, r.path, "missing required key \"keyPath\"")
            return nil
        }
        guard let keyPath = string(keyPathNode, r.path("keyPath")) else { return nil }
        guard let parsed = LayerKeyPath(keyPath) else {
            fail(keyPathNode, r.path("keyPath"), "unknown key path \"\(keyPath)\"")
            return nil
        }
        guard layer.properties.value(for: parsed.key) != nil else {
            fail(keyPathNode, r.path("keyPath"), "key path \"\(keyPath)\" does not apply to a layer of type \"\(layer.properties.content.typeName)\"")
            return nil
        }
        if let problem = filterInputProblem(parsed, layer: layer) {
            fail(keyPathNode, r.path("keyPath"), "key path \"\(keyPath)\": \(problem)")
            return nil
        }
        var valueFunction: CAValueFunction?
        if let n = r["valueFunction"], let name = choice(n, r.path("valueFunction"), ["rotateX", "rotateY", "rotateZ", "scale", "scaleX", "scaleY", "scaleZ", "translate", "translateX", "translateY", "translateZ"]) {
            if parsed.kind != .transform {
                fail(n, r.path("valueFunction"), "a value function needs a transform key path, not \"\(keyPath)\"")
            }
            valueFunction = CAValueFunction(name: CAValueFunctionName(rawValue: name))
        }
        let kind: AnimatableValueKind = valueFunction.map { $0.takesVector ? .numbers : .number } ?? parsed.kind
        let vectorCount = valueFunction?.takesVector == true ? 3 : nil

        let animation: CAPropertyAnimation
        switch type {
        case "keyframe":
            let keyframe = CAKeyframeAnimation(keyPath: keyPath)
            if let n = r["values"], let items = array(n, r.path("values")) {
                keyframe.values = items.enumerated().compactMap { value($1, "\(r.path("values"))[\($0)]", kind: kind, vectorCount: vectorCount, layer: layer) }
            }
            if let n = r["path"] {
                if parsed.kind != .point {
                    fail(n, r.path("path"), "a keyframe path needs a point key path, not \"\(keyPath)\"")
                } else if let p = path(n, r.path("path")) {
                    keyframe.path = p
                }
            }
            if !r.has("values"), !r.has("path") { fail(r.node, r.path, "a keyframe animation needs \"values\" or \"path\"") }
            if let n = r["keyTimes"] { keyframe.keyTimes = unitNumbers(n, r.path("keyTimes")) }
            for (key, setter) in [("tensionValues", \CAKeyframeAnimation.tensionValues), ("continuityValues", \.continuityValues), ("biasValues", \.biasValues)] {
                if let n = r[key], let items = array(n, r.path(key)) {
                    keyframe[keyPath: setter] = items.enumerated().compactMap { number($1, "\(r.path(key))[\($0)]", in: -1...1) }.map { NSNumber(value: $0) }
                }
            }
            if let n = r["timingFunctions"], let items = array(n, r.path("timingFunctions")) {
                keyframe.timingFunctions = items.enumerated().compactMap { timingFunction($1, "\(r.path("timingFunctions"))[\($0)]") }
            }
            if let n = r["calculationMode"], let v = choice(n, r.path("calculationMode"), ["linear", "discrete", "paced", "cubic", "cubicPaced"]) {
                keyframe.calculationMode = CAAnimationCalculationMode(rawValue: v)
            }
            if let n = r["rotationMode"], let v = choice(n, r.path("rotationMode"), ["auto", "autoReverse"]) {
                if !r.has("path") { fail(n, r.path("rotationMode"), "rotationMode needs a \"path\"") }
                keyframe.rotationMode = CAAnimationRotationMode(rawValue: v)
            }
            // Key times that do not fit are ignored by Core Animation (§4.1, E68): a warning, not an error.
            if let n = r["keyTimes"], let given = keyframe.keyTimes?.map(\.doubleValue) {
                let count = keyframe.path.map { $0.segments.count + 1 } ?? keyframe.values?.count ?? 0
                if count > 0, let reason = KeyTimes.resolve(given, mode: keyframe.calculationMode, count: count,
                                                           alongPath: keyframe.path != nil).ignored {
                    warn(n, r.path("keyTimes"), reason)
                }
            }
            animation = keyframe
        default:
            let basic = type == "spring" ? CASpringAnimation() : CABasicAnimation()
            basic.keyPath = keyPath
            for (key, setter) in [("fromValue", \CABasicAnimation.fromValue), ("toValue", \.toValue), ("byValue", \.byValue)] {
                if let n = r[key], let v = value(n, r.path(key), kind: kind, vectorCount: vectorCount, layer: layer) {
                    basic[keyPath: setter] = v
                }
            }
            if let spring = basic as? CASpringAnimation {
                if let n = r["mass"], let v = number(n, r.path("mass"), in: 1e-6...1e6) { spring.mass = v }
                if let n = r["stiffness"], let v = number(n, r.path("stiffness"), in: 1e-6...1e9) { spring.stiffness = v }
                if let n = r["damping"], let v = number(n, r.path("damping"), in: 0...1e9) { spring.damping = v }
                if let n = r["initialVelocity"], let v = number(n, r.path("initialVelocity"), in: -1e6...1e6) { spring.initialVelocity = v }
            }
            animation = basic
        }
        if let n = r["additive"], let v = bool(n, r.path("additive")) { animation.isAdditive = v }
        if let n = r["cumulative"], let v = bool(n, r.path("cumulative")) { animation.isCumulative = v }
        animation.valueFunction = valueFunction
        return animation
    }

    private func unitNumbers(_ node: JSONNode, _ path: String) -> [NSNumber]? {
        guard let items = array(node, path) else { return nil }
        let values = items.enumerated().compactMap { number($1, "\(path)[\($0)]", in: 0...1) }
        return values.count == items.count ? values.map { NSNumber(value: $0) } : nil
    }

    /// A value of the animated property's type, as the Swift API would be given it.
    private func value(_ node: JSONNode, _ path: String, kind: AnimatableValueKind, vectorCount: Int?, layer: CALayer) -> Any? {
        switch kind {
        case .number: return number(node, path).map { CGFloat($0) }
        case .bool: return bool(node, path)
        case .point: return point(node, path)
        case .size: return size(node, path)
        case .rect: return rect(node, path)
        case .color:
            guard let c = color(node, path, nullable: true) else { return nil }
            return c as Any?
        case .transform: return transform(node, path)
        case .path:
            if case .null = node.value { return nil }
            return self.path(node, path)
        case .contents:
            return image(node, path)
        case .numbers:
            guard let items = array(node, path) else { return nil }
            if let vectorCount, items.count != vectorCount {
                fail(node, path, "expected \(vectorCount) numbers, found \(items.count)")
                return nil
            }
            let values = items.enumerated().compactMap { number($1, "\(path)[\($0)]") }
            return values.count == items.count ? values.map { CGFloat($0) } : nil
        case .colors:
            guard let items = array(node, path) else { return nil }
            let colors = items.enumerated().compactMap { color($1, "\(path)[\($0)]", nullable: false) ?? nil }
            return colors.count == items.count ? colors : nil
        case .filter:
            return compositingFilter(node, path) as Any?
        case .filters:
            return filterList(node, path)
        }
    }
}
