import Foundation
import Filters
import Layers

// `compositingFilter`, `filters` and `backgroundFilters` (docs/filters.md): blend-mode names and
// filter objects `{"name": "gaussianBlur", "inputRadius": 8}`. Unknown names and inputs are
// errors here (Swift code gets a warning instead, as Core Animation ignores them).

extension SceneDecoder {
    /// Where each numeric input may range: wide enough for any real use, bounded so that a
    /// typo cannot ask for a blur wider than any pass.
    static let filterInputRanges: [String: ClosedRange<Double>] = [
        kCIInputRadiusKey: 0...1000, kCIInputSaturationKey: -100...100, kCIInputBrightnessKey: -100...100,
        kCIInputContrastKey: -100...100, kCIInputIntensityKey: -100...100,
    ]

    static var compositingFilterNames: [String] {
        LayerFilter.Kind.allCases.filter(\.isCompositing).map(\.rawValue)
    }

    static var imageFilterNames: [String] {
        LayerFilter.Kind.allCases.filter { !$0.isCompositing }.map(\.rawValue)
    }

    func filterProperties(_ r: ObjectReader, _ layer: CALayer) {
        if let n = r["compositingFilter"] {
            layer.compositingFilter = compositingFilter(n, r.path("compositingFilter"))
        }
        if let n = r["filters"], let list = filterList(n, r.path("filters")) { layer.filters = list }
        if let n = r["backgroundFilters"], let list = filterList(n, r.path("backgroundFilters")) { layer.backgroundFilters = list }
    }

    /// A blend-mode name (Core Animation's or Core Image's spelling) or null.
    func compositingFilter(_ node: JSONNode, _ path: String) -> LayerFilter? {
        if case .null = node.value { return nil }
        guard let name = string(node, path) else { return nil }
        guard let kind = LayerFilter.Kind(filterName: name), kind.isCompositing else {
            let hint = LayerFilter.Kind(filterName: name) != nil ? " (\(name) filters an image: put it in \"filters\")" : ""
            fail(node, path, "unknown compositing filter \"\(name)\"\(hint) (expected one of: \(Self.compositingFilterNames.joined(separator: ", ")))")
            return nil
        }
        return LayerFilter(kind, name: name)
    }

    /// A list of filter objects; nil when any of them is wrong (each problem is reported).
    func filterList(_ node: JSONNode, _ path: String) -> [LayerFilter]? {
        guard let items = array(node, path) else { return nil }
        var filters: [LayerFilter] = []
        var names: Set<String> = []
        for (i, item) in items.enumerated() {
            let itemPath = "\(path)[\(i)]"
            guard let filter = imageFilter(item, itemPath) else { continue }
            if !names.insert(filter.name).inserted {
                fail(item, itemPath, "two filters are named \"\(filter.name)\" (give one a \"name\" and its kind as \"type\")")
            }
            filters.append(filter)
        }
        return filters.count == items.count ? filters : nil
    }

    /// `{"name": KIND, INPUT: value, …}`, or `{"type": KIND, "name": NAME, …}` where the name
    /// differs from the kind (two blurs in one list).
    private func imageFilter(_ node: JSONNode, _ path: String) -> LayerFilter? {
        guard let r = object(node, path) else { return nil }
        let nameNode = r["name"], typeNode = r["type"]
        guard let kindNode = typeNode ?? nameNode else {
            fail(node, path, "missing required key \"name\" (one of: \(Self.imageFilterNames.joined(separator: ", ")))")
            return nil
        }
        let kindPath = r.path(typeNode != nil ? "type" : "name")
        guard let kindName = string(kindNode, kindPath) else { return nil }
        guard let kind = LayerFilter.Kind(filterName: kindName), !kind.isCompositing else {
            let hint = LayerFilter.Kind(filterName: kindName) != nil ? " (a blend mode goes in \"compositingFilter\")" : ""
            fail(kindNode, kindPath, "unknown filter \"\(kindName)\"\(hint) (expected one of: \(Self.imageFilterNames.joined(separator: ", ")))")
            return nil
        }
        let name = typeNode != nil ? nameNode.flatMap { string($0, r.path("name")) } : kindName
        var filter = LayerFilter(kind, name: name ?? kindName)
        for key in kind.defaults.keys.sorted() {
            guard let n = r[key] else { continue }
            switch kind.defaults[key]! {
            case .number:
                if let v = number(n, r.path(key), in: Self.filterInputRanges[key]) { filter.setValue(.number(v), forKey: key) }
            case .vector(let v):
                if let values = numbers(n, r.path(key), count: v.count, what: "a vector") {
                    filter.setValue(.vector(values), forKey: key)
                }
            }
        }
        r.reportUnknownKeys()
        return filter
    }

    /// For a `filters.NAME.INPUT` key path: the reason it does not apply to `layer`, if any.
    func filterInputProblem(_ path: LayerKeyPath, layer: CALayer) -> String? {
        guard let input = path.filterInput else { return nil }
        let list = path.key == .backgroundFilters ? layer.properties.backgroundFilters : layer.properties.filters
        guard let filter = list.first(where: { $0.name == input.filter }) else {
            let names = list.map { "\"\($0.name)\"" }
            return "the layer's \(path.key.rawValue) has no filter named \"\(input.filter)\""
                + (names.isEmpty ? " (it has none)" : " (it has \(names.joined(separator: ", ")))")
        }
        guard filter.value(forKey: input.input) != nil else {
            let inputs = filter.parameters.keys.sorted()
            return "filter \"\(input.filter)\" (\(filter.kind.rawValue)) has no input \"\(input.input)\""
                + (inputs.isEmpty ? " (it has none)" : " (expected one of: \(inputs.joined(separator: ", ")))")
        }
        return nil
    }
}
