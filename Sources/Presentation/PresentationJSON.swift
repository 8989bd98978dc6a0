import Foundation
import Geometry
import Animation
import Filters
import Layers

/// Writes presentation trees as the JSON lines of `lamina inspect` (scene-format.md): one object
/// per time, layers in depth-first order, values in the scene format's value formats (transforms
/// as 16 numbers, colours as `[r, g, b, a]`). Keys come in a fixed order so output can be diffed.
public struct PresentationJSON {
    /// Names images by asset, for `contents`.
    public var imageName: (CGImage) -> String?

    public init(imageName: @escaping (CGImage) -> String? = { $0.source }) { self.imageName = imageName }


    /// One line: `{"time": T, "layers": [...]}`.
    public func line(for tree: PresentationTree) -> String {
        var out = "{\"time\": \(Self.number(tree.time)), \"layers\": ["
        for index in tree.layers.indices {
            if index > 0 { out += ", " }
            out += layerObject(tree, index)
        }
        return out + "]}"
    }

    private func layerObject(_ tree: PresentationTree, _ index: Int) -> String {
        let layer = tree.layers[index]
        let p = layer.properties
        var fields: [(String, String)] = [("path", Self.string(tree.path(of: index))), ("type", Self.string(layer.typeName))]
        func add(_ key: String, _ value: String) { fields.append((key, value)) }
        add("name", p.name.map(Self.string) ?? "null")
        add("bounds", Self.rect(p.bounds))
        add("position", Self.point(p.position))
        add("zPosition", Self.number(p.zPosition))
        add("anchorPoint", Self.point(p.anchorPoint))
        add("anchorPointZ", Self.number(p.anchorPointZ))
        add("frame", Self.rect(p.frame))
        add("transform", Self.transform(p.transform))
        add("sublayerTransform", Self.transform(p.sublayerTransform))
        add("opacity", Self.number(Double(p.opacity)))
        add("hidden", p.isHidden ? "true" : "false")
        add("backgroundColor", Self.color(p.backgroundColor))
        add("cornerRadius", Self.number(p.cornerRadius))
        add("maskedCorners", Self.corners(p.maskedCorners))
        add("cornerCurve", Self.string(p.cornerCurve.rawValue))
        add("borderWidth", Self.number(p.borderWidth))
        add("borderColor", Self.color(p.borderColor))
        add("contents", p.contents.image.flatMap(imageName).map(Self.string) ?? "null")
        if let fading = p.contents.fadingTo {
            add("contentsFade", "{\"to\": \(imageName(fading).map(Self.string) ?? "null"), \"fraction\": \(Self.number(p.contents.fraction))}")
        }
        if let drawing = layer.drawing {
            // A layer that draws itself: the size of its backing store, in pixels.
            add("drawnContentsSize", "[\(drawing.pixelSize.width), \(drawing.pixelSize.height)]")
        }
        add("contentsRect", Self.rect(p.contentsRect))
        add("contentsCenter", Self.rect(p.contentsCenter))
        add("contentsGravity", Self.string(p.contentsGravity.rawValue))
        add("contentsScale", Self.number(p.contentsScale))
        add("minificationFilter", Self.string(p.minificationFilter.rawValue))
        add("magnificationFilter", Self.string(p.magnificationFilter.rawValue))
        add("masksToBounds", Self.bool(p.masksToBounds))
        add("doubleSided", Self.bool(p.isDoubleSided))
        add("geometryFlipped", Self.bool(p.isGeometryFlipped))
        add("allowsEdgeAntialiasing", Self.bool(p.allowsEdgeAntialiasing))
        add("allowsGroupOpacity", Self.bool(p.allowsGroupOpacity))
        add("shadowColor", Self.color(p.shadowColor))
        add("shadowOpacity", Self.number(Double(p.shadowOpacity)))
        add("shadowOffset", Self.size(p.shadowOffset))
        add("shadowRadius", Self.number(p.shadowRadius))
        add("shadowPath", Self.path(p.shadowPath))
        // Filters print only when set, so scenes without them print as before.
        if let filter = p.compositingFilter { add("compositingFilter", Self.string(filter.name)) }
        if !p.filters.isEmpty { add("filters", Self.filters(p.filters)) }
        if !p.backgroundFilters.isEmpty { add("backgroundFilters", Self.filters(p.backgroundFilters)) }
        add("speed", Self.number(p.timing.speed))
        add("timeOffset", Self.number(p.timing.timeOffset))
        add("beginTime", Self.number(p.timing.beginTime))
        switch p.content {
        case .text(let t):
            if let runs = t.runs {
                add("string", "[" + runs.map { run in
                    var parts = ["\"text\": \(Self.string(run.text))"]
                    if let f = run.font { parts.append("\"font\": \(Self.string(f))") }
                    if let s = run.fontSize { parts.append("\"fontSize\": \(Self.number(s))") }
                    if let c = run.color { parts.append("\"color\": \(Self.color(c))") }
                    return "{" + parts.joined(separator: ", ") + "}"
                }.joined(separator: ", ") + "]")
            } else {
                add("string", t.string.map(Self.string) ?? "null")
            }
            add("font", Self.string(t.font))
            add("fontSize", Self.number(t.fontSize))
            add("foregroundColor", Self.color(t.foregroundColor))
            add("alignmentMode", Self.string(t.alignmentMode.rawValue))
            add("isWrapped", Self.bool(t.isWrapped))
            add("truncationMode", Self.string(t.truncationMode.rawValue))
        case .shape(let s):
            add("shapePath", Self.path(s.path))  // "path" is the layer's own path here
            add("fillColor", Self.color(s.fillColor))
            add("fillRule", Self.string(s.fillRule == .evenOdd ? "evenOdd" : "nonZero"))
            add("strokeColor", Self.color(s.strokeColor))
            add("lineWidth", Self.number(s.lineWidth))
            add("lineCap", Self.string(s.lineCap.rawValue))
            add("lineJoin", Self.string(s.lineJoin.rawValue))
            add("miterLimit", Self.number(s.miterLimit))
            add("lineDashPattern", s.lineDashPattern.map(Self.numbers) ?? "null")
            add("lineDashPhase", Self.number(s.lineDashPhase))
            add("strokeStart", Self.number(s.strokeStart))
            add("strokeEnd", Self.number(s.strokeEnd))
        case .gradient(let g):
            add("colors", g.colors.map { "[" + $0.map { Self.color($0) }.joined(separator: ", ") + "]" } ?? "null")
            add("locations", g.locations.map(Self.numbers) ?? "null")
            add("startPoint", Self.point(g.startPoint))
            add("endPoint", Self.point(g.endPoint))
            add("gradientType", Self.string(g.type.rawValue))
        case .replicator(let r):
            add("instanceCount", String(r.instanceCount))
            add("instanceTransform", Self.transform(r.instanceTransform))
            add("instanceDelay", Self.number(r.instanceDelay))
            add("instanceColor", Self.color(r.instanceColor))
            add("instanceRedOffset", Self.number(Double(r.instanceRedOffset)))
            add("instanceGreenOffset", Self.number(Double(r.instanceGreenOffset)))
            add("instanceBlueOffset", Self.number(Double(r.instanceBlueOffset)))
            add("instanceAlphaOffset", Self.number(Double(r.instanceAlphaOffset)))
        case .emitter(let e):
            add("emitterPosition", Self.point(e.emitterPosition))
            add("emitterSize", Self.size(e.emitterSize))
            add("emitterShape", Self.string(e.emitterShape.rawValue))
            add("emitterMode", Self.string(e.emitterMode.rawValue))
            add("birthRate", Self.number(Double(e.birthRate)))
            add("lifetime", Self.number(Double(e.lifetime)))
            add("seed", String(e.seed))
            add("emitterCells", String(e.emitterCells?.count ?? 0))
        case .plain, .transformLayer, .video:
            break
        }
        // Replicator copies and particles (absent on ordinary layers, so their output is unchanged).
        if layer.replicaInstance > 0 { add("replicaInstance", String(layer.replicaInstance)) }
        if let tint = layer.tint {
            // Through the Float's shortest form, so 0.7 prints as 0.7 rather than 0.699999988079.
            add("tint", Self.numbers([tint.x, tint.y, tint.z, tint.w].map { Double("\($0)") ?? Double($0) }))
        }
        if let transition = p.transition {
            add("transition", "{\"type\": \(Self.string(transition.type.rawValue)), \"subtype\": \(transition.subtype.map { Self.string($0.rawValue) } ?? "null"), \"progress\": \(Self.number(transition.progress))}")
        }
        return "{" + fields.map { "\(Self.string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// Numbers print with 12 significant digits (enough to compare, free of float noise);
    /// infinities as the strings `"infinity"`, `"-infinity"`, NaN as null.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "null" : (value > 0 ? "\"infinity\"" : "\"-infinity\"") }
        if value == 0 { return "0" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        var text = String(format: "%.12g", value)
        if text.contains("e") { return text }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
    static func number(_ value: CGFloat) -> String { number(Double(value)) }
    static func numbers(_ values: [Double]) -> String { "[" + values.map { number($0) }.joined(separator: ", ") + "]" }
    static func bool(_ value: Bool) -> String { value ? "true" : "false" }
    static func point(_ p: CGPoint) -> String { numbers([p.x, p.y]) }
    static func size(_ s: CGSize) -> String { numbers([s.width, s.height]) }
    static func rect(_ r: CGRect) -> String { numbers([r.origin.x, r.origin.y, r.size.width, r.size.height]) }
    static func transform(_ t: CATransform3D) -> String { numbers(t.rowMajor) }
    static func color(_ c: CGColor?) -> String { c.map { numbers([$0.red, $0.green, $0.blue, $0.alpha]) } ?? "null" }
    static func path(_ p: CGPath?) -> String { p.map { string($0.description) } ?? "null" }
    /// Filters as the scene format writes them: `{"type": KIND, "name": NAME, INPUT: value, …}`.
    static func filters(_ list: [LayerFilter]) -> String {
        "[" + list.map { f in
            var members = [("type", string(f.kind.rawValue)), ("name", string(f.name))]
            for key in f.parameters.keys.sorted() {
                switch f.parameters[key]! {
                case .number(let v): members.append((key, number(v)))
                case .vector(let v): members.append((key, numbers(v)))
                }
            }
            return "{" + members.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }.joined(separator: ", ") + "]"
    }
    static func corners(_ m: CACornerMask) -> String {
        let names: [(CACornerMask, String)] = [(.layerMinXMinYCorner, "minXMinY"), (.layerMaxXMinYCorner, "maxXMinY"),
                                               (.layerMinXMaxYCorner, "minXMaxY"), (.layerMaxXMaxYCorner, "maxXMaxY")]
        return "[" + names.filter { m.contains($0.0) }.map { string($0.1) }.joined(separator: ", ") + "]"
    }

    /// A JSON string literal.
    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
