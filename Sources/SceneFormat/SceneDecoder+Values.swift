import Foundation
import Geometry
import Animation
import Layers

// Value formats of scene-format.md: points, sizes, rects, colours, transforms, paths, images.

extension SceneDecoder {
    func point(_ node: JSONNode, _ path: String) -> CGPoint? {
        numbers(node, path, count: 2, what: "a point [x, y]").map { CGPoint(x: $0[0], y: $0[1]) }
    }

    func size(_ node: JSONNode, _ path: String) -> CGSize? {
        numbers(node, path, count: 2, what: "a size [w, h]").map { CGSize(width: $0[0], height: $0[1]) }
    }

    func rect(_ node: JSONNode, _ path: String) -> CGRect? {
        numbers(node, path, count: 4, what: "a rect [x, y, w, h]").map { CGRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }

    /// `"#RRGGBB"`, `"#RRGGBBAA"`, `[r, g, b, a]` in 0…1, or `null` where `nullable`.
    func color(_ node: JSONNode, _ path: String, nullable: Bool) -> CGColor?? {
        switch node.value {
        case .null:
            if nullable { return .some(nil) }
            fail(node, path, "a colour is required here (null is not allowed)")
            return nil
        case .string(let s):
            guard let c = CGColor(hex: s) else {
                fail(node, path, "invalid colour \"\(s)\" (expected \"#RRGGBB\" or \"#RRGGBBAA\")")
                return nil
            }
            return .some(c)
        case .array:
            guard let v = numbers(node, path, count: 4, what: "a colour [r, g, b, a]") else { return nil }
            for (i, c) in v.enumerated() where !(0...1).contains(c) {
                fail(element(node, i), "\(path)[\(i)]", "colour component \(SceneDecoder.format(c)) is out of range 0…1")
                return nil
            }
            return .some(CGColor(red: v[0], green: v[1], blue: v[2], alpha: v[3]))
        default:
            fail(node, path, "expected a colour (\"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a]), found \(node.value.typeName)")
            return nil
        }
    }

    /// 16 numbers (row-major) or a list of operations applied in order.
    func transform(_ node: JSONNode, _ path: String) -> CATransform3D? {
        guard let items = array(node, path) else { return nil }
        // Anything but objects means a matrix was meant: check it as one.
        if items.contains(where: { if case .object = $0.value { false } else { true } }) {
            guard items.count == 16 else {
                let allNumbers = items.allSatisfy { if case .number = $0.value { true } else { false } }
                let noun = allNumbers ? "number" : "element"
                fail(node, path, "expected 16 numbers or a list of transform operations, found \(items.count) \(noun)\(items.count == 1 ? "" : "s")")
                return nil
            }
            return numbers(node, path, count: 16, what: "16 numbers").flatMap { CATransform3D(rowMajor: $0) }
        }
        var result = CATransform3D.identity
        var ok = true
        for (i, item) in items.enumerated() {
            let itemPath = "\(path)[\(i)]"
            guard let reader = object(item, itemPath) else { ok = false; continue }
            guard reader.members.count == 1, let member = reader.members.first else {
                fail(item, itemPath, "a transform operation has exactly one key: translate, scale, rotate or perspective")
                ok = false
                continue
            }
            let opPath = decoder(itemPath, member.key)
            var op: CATransform3D?
            switch member.key {
            case "translate":
                op = numbers(member.value, opPath, count: 3, what: "[x, y, z]").map { CATransform3DMakeTranslation($0[0], $0[1], $0[2]) }
            case "scale":
                op = numbers(member.value, opPath, count: 3, what: "[x, y, z]").map { CATransform3DMakeScale($0[0], $0[1], $0[2]) }
            case "rotate":
                op = numbers(member.value, opPath, count: 4, what: "[radians, x, y, z]").map { CATransform3DMakeRotation($0[0], $0[1], $0[2], $0[3]) }
            case "perspective":
                if let d = number(member.value, opPath) {
                    if d == 0 { fail(member.value, opPath, "perspective distance must not be 0") } else { op = CATransform3DMakePerspective(d) }
                }
            default:
                fail(at: member.keyLocation, opPath, "unknown transform operation \"\(member.key)\" (expected translate, scale, rotate or perspective)")
            }
            if let op { result = result.concatenating(op) } else { ok = false }
        }
        return ok ? result : nil
    }

    private func decoder(_ path: String, _ key: String) -> String { join(path, key) }

    /// An SVG path-data string or `{"rect": …}`, `{"ellipse": …}`, `{"roundedRect": …, "radius": r}`.
    func path(_ node: JSONNode, _ path: String) -> CGPath? {
        switch node.value {
        case .string(let data):
            do {
                return try CGPath.parsing(svgPathData: data)
            } catch {
                fail(node, path, "invalid path data: \(error)")
                return nil
            }
        case .object:
            guard let reader = object(node, path) else { return nil }
            defer { reader.reportUnknownKeys() }
            if let r = reader["rect"] { return rect(r, reader.path("rect")).map { CGPath(rect: $0, transform: nil) } }
            if let r = reader["ellipse"] { return rect(r, reader.path("ellipse")).map { CGPath(ellipseIn: $0, transform: nil) } }
            if let r = reader["roundedRect"] {
                let radiusNode = reader["radius"]
                guard let box = rect(r, reader.path("roundedRect")) else { return nil }
                guard let radiusNode else {
                    fail(node, path, "roundedRect needs \"radius\"")
                    return nil
                }
                guard let radius = number(radiusNode, reader.path("radius"), in: 0...1e9) else { return nil }
                let clamped = min(radius, min(box.width, box.height) / 2)
                return CGPath(roundedRect: box, cornerWidth: clamped, cornerHeight: clamped, transform: nil)
            }
            fail(node, path, "expected a path: SVG path data, {\"rect\": …}, {\"ellipse\": …} or {\"roundedRect\": …, \"radius\": r}")
            return nil
        case .null:
            return nil
        default:
            fail(node, path, "expected a path (SVG path data or an object), found \(node.value.typeName)")
            return nil
        }
    }
}
