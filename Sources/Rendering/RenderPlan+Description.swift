import Foundation
import Geometry

// The plan as text: one line per pass and per item, numbers rounded so the text is stable.

extension RenderPlan: CustomStringConvertible {
    public var description: String {
        var lines = ["plan \(width)x\(height)"]
        for pass in passes {
            let start = pass.startsFrom.map { "starts from pass \($0)" } ?? "clear \(pass.clearColor)"
            lines.append("pass \(pass.id) \(pass.width)x\(pass.height) \(pass.purpose) \(start)")
            for item in pass.items { lines.append("  " + item.description) }
        }
        return lines.joined(separator: "\n")
    }
}

extension DrawItem: CustomStringConvertible {
    public var description: String {
        var parts = ["\(role) \(layer)"]
        // Where the rectangle's corners land in the pass (divided by w).
        let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                       CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
        parts.append("quad " + corners.map { p -> String in
            let q = transform.projecting(p)
            return "(\(Self.format(q.x)),\(Self.format(q.y)))"
        }.joined(separator: " "))
        switch paint {
        case .solid(let c): parts.append("solid \(c)")
        case .image(let image, let source, let minification, let magnification):
            parts.append("image \(image.width)x\(image.height) uv \(Self.format(source)) filter \(minification.rawValue)/\(magnification.rawValue)")
        case .pass(let id, let source): parts.append("pass \(id) uv \(Self.format(source))")
        case .gradient(let g, let source):
            parts.append("\(g.type.rawValue) gradient \(g.colors.count) stops (\(Self.format(g.startPoint.x)),\(Self.format(g.startPoint.y)))→(\(Self.format(g.endPoint.x)),\(Self.format(g.endPoint.y))) uv \(Self.format(source))")
        case .tintedPass(let id, let color, let source): parts.append("alpha of pass \(id) uv \(Self.format(source)) tinted \(color)")
        case .shape(let shape): parts.append("shape \(shape.width)x\(shape.height) deferred")
        case .blur(let id, let sigma, let horizontal): parts.append("blur pass \(id) \(horizontal ? "horizontally" : "vertically") sigma \(Self.format(sigma))")
        }
        if opacity != 1 { parts.append("opacity \(Self.format(CGFloat(opacity)))") }
        if let shape, shape.isRounded {
            parts.append("rounded \(Self.format(shape.radius))\(shape.continuous ? " continuous" : "")\(shape.corners == .all ? "" : " corners \(shape.corners.rawValue)")")
        }
        if let borderWidth { parts.append("border \(Self.format(borderWidth))") }
        if let body {
            parts.append("cut \(Self.format(body.side))\(body.corners == .all ? "" : " corners \(body.corners.rawValue)")")
            if let band = body.band { parts.append("band \(Self.format(band.width)) \(band.color)") }
            if let pair = body.cornerPair {
                parts.append("corner pair \(pair.mask.width)x\(pair.mask.height) fill \(pair.fill) border \(pair.border)")
            }
        }
        if let borderTint { parts.append("border tint \(borderTint)") }
        if let maskPass { parts.append("mask pass \(maskPass)") }
        if let polygon {
            parts.append("piece " + polygon.map { "(\(Self.format($0.x)),\(Self.format($0.y)))" }.joined(separator: " "))
        }
        if let tint { parts.append("tint \(tint)") }
        if let colorMatrix { parts.append("color \(colorMatrix)") }
        if blendMode != .normal { parts.append("blend \(blendMode.rawValue)") }
        if antialiasEdges { parts.append("aa") }
        return parts.joined(separator: " ")
    }

    static func format(_ v: CGFloat) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int(r)) : String(format: "%g", Double(r))
    }

    static func format(_ r: CGRect) -> String {
        "[\(format(r.minX)),\(format(r.minY)),\(format(r.width)),\(format(r.height))]"
    }
}
