import Foundation
import Geometry
import Animation
import Filters

// Reading and writing layer properties as `AnimatableValue`s, for animations and key-value coding.

extension LayerProperties {
    /// The value of `key`, or `nil` when the layer's class has no such property.
    public func value(for key: LayerKey) -> AnimatableValue? {
        switch key {
        case .bounds: return .rect(bounds)
        case .position: return .point(position)
        case .zPosition: return .number(zPosition)
        case .anchorPoint: return .point(anchorPoint)
        case .anchorPointZ: return .number(anchorPointZ)
        case .transform: return .transform(transform)
        case .sublayerTransform: return .transform(sublayerTransform)
        case .opacity: return .number(Double(opacity))
        case .hidden: return .bool(isHidden)
        case .backgroundColor: return .color(backgroundColor)
        case .cornerRadius: return .number(cornerRadius)
        case .borderWidth: return .number(borderWidth)
        case .borderColor: return .color(borderColor)
        case .contents: return .contents(contents)
        case .contentsRect: return .rect(contentsRect)
        case .contentsCenter: return .rect(contentsCenter)
        case .contentsScale: return .number(contentsScale)
        case .masksToBounds: return .bool(masksToBounds)
        case .doubleSided: return .bool(isDoubleSided)
        case .shadowColor: return .color(shadowColor)
        case .shadowOpacity: return .number(Double(shadowOpacity))
        case .shadowOffset: return .size(shadowOffset)
        case .shadowRadius: return .number(shadowRadius)
        case .shadowPath: return .path(shadowPath)
        case .shouldRasterize: return .bool(shouldRasterize)
        case .rasterizationScale: return .number(rasterizationScale)
        case .minificationFilterBias: return .number(Double(minificationFilterBias))
        case .compositingFilter: return .filter(compositingFilter)
        case .filters: return .filters(filters)
        case .backgroundFilters: return .filters(backgroundFilters)
        default: return contentValue(for: key)
        }
    }

    private func contentValue(for key: LayerKey) -> AnimatableValue? {
        switch content {
        case .shape(let s):
            switch key {
            case .path: return .path(s.path)
            case .fillColor: return .color(s.fillColor)
            case .strokeColor: return .color(s.strokeColor)
            case .strokeStart: return .number(s.strokeStart)
            case .strokeEnd: return .number(s.strokeEnd)
            case .lineWidth: return .number(s.lineWidth)
            case .miterLimit: return .number(s.miterLimit)
            case .lineDashPhase: return .number(s.lineDashPhase)
            case .lineDashPattern: return .numbers(s.lineDashPattern ?? [])
            default: return nil
            }
        case .text(let t):
            switch key {
            case .fontSize: return .number(t.fontSize)
            case .foregroundColor: return .color(t.foregroundColor)
            default: return nil
            }
        case .gradient(let g):
            switch key {
            case .colors: return .colors(g.colors ?? [])
            case .locations: return .numbers(g.locations ?? [])
            case .startPoint: return .point(g.startPoint)
            case .endPoint: return .point(g.endPoint)
            default: return nil
            }
        case .replicator(let r):
            switch key {
            case .instanceCount: return .number(Double(r.instanceCount))
            case .instanceDelay: return .number(r.instanceDelay)
            case .instanceTransform: return .transform(r.instanceTransform)
            case .instanceColor: return .color(r.instanceColor)
            case .instanceRedOffset: return .number(Double(r.instanceRedOffset))
            case .instanceGreenOffset: return .number(Double(r.instanceGreenOffset))
            case .instanceBlueOffset: return .number(Double(r.instanceBlueOffset))
            case .instanceAlphaOffset: return .number(Double(r.instanceAlphaOffset))
            default: return nil
            }
        case .emitter(let e):
            switch key {
            case .emitterPosition: return .point(e.emitterPosition)
            case .emitterZPosition: return .number(e.emitterZPosition)
            case .emitterSize: return .size(e.emitterSize)
            case .emitterDepth: return .number(e.emitterDepth)
            case .birthRate: return .number(Double(e.birthRate))
            case .lifetime: return .number(Double(e.lifetime))
            case .velocity: return .number(Double(e.velocity))
            case .scale: return .number(Double(e.scale))
            case .spin: return .number(Double(e.spin))
            default: return nil
            }
        case .plain, .transformLayer, .video:
            return nil
        }
    }

    /// Sets `key` from a value of the right kind; values of another kind are ignored.
    public mutating func setValue(_ value: AnimatableValue, for key: LayerKey) {
        switch (key, value) {
        case (.bounds, .rect(let v)): bounds = v
        case (.position, .point(let v)): position = v
        case (.zPosition, .number(let v)): zPosition = v
        case (.anchorPoint, .point(let v)): anchorPoint = v
        case (.anchorPointZ, .number(let v)): anchorPointZ = v
        case (.transform, .transform(let v)): transform = v
        case (.sublayerTransform, .transform(let v)): sublayerTransform = v
        case (.opacity, .number(let v)): opacity = Float(v)
        case (.hidden, .bool(let v)): isHidden = v
        case (.backgroundColor, .color(let v)): backgroundColor = v
        case (.cornerRadius, .number(let v)): cornerRadius = v
        case (.borderWidth, .number(let v)): borderWidth = v
        case (.borderColor, .color(let v)): borderColor = v
        case (.contents, .contents(let v)): contents = v
        case (.contentsRect, .rect(let v)): contentsRect = v
        case (.contentsCenter, .rect(let v)): contentsCenter = v
        case (.contentsScale, .number(let v)): contentsScale = v
        case (.masksToBounds, .bool(let v)): masksToBounds = v
        case (.doubleSided, .bool(let v)): isDoubleSided = v
        case (.shadowColor, .color(let v)): shadowColor = v
        case (.shadowOpacity, .number(let v)): shadowOpacity = Float(v)
        case (.shadowOffset, .size(let v)): shadowOffset = v
        case (.shadowRadius, .number(let v)): shadowRadius = v
        case (.shadowPath, .path(let v)): shadowPath = v
        case (.shouldRasterize, .bool(let v)): shouldRasterize = v
        case (.rasterizationScale, .number(let v)): rasterizationScale = v
        case (.minificationFilterBias, .number(let v)): minificationFilterBias = Float(v)
        case (.compositingFilter, .filter(let v)): compositingFilter = v
        case (.filters, .filters(let v)): filters = v
        case (.backgroundFilters, .filters(let v)): backgroundFilters = v
        default: setContentValue(value, for: key)
        }
    }

    private mutating func setContentValue(_ value: AnimatableValue, for key: LayerKey) {
        switch content {
        case .shape(var s):
            switch (key, value) {
            case (.path, .path(let v)): s.path = v
            case (.fillColor, .color(let v)): s.fillColor = v
            case (.strokeColor, .color(let v)): s.strokeColor = v
            case (.strokeStart, .number(let v)): s.strokeStart = v
            case (.strokeEnd, .number(let v)): s.strokeEnd = v
            case (.lineWidth, .number(let v)): s.lineWidth = v
            case (.miterLimit, .number(let v)): s.miterLimit = v
            case (.lineDashPhase, .number(let v)): s.lineDashPhase = v
            case (.lineDashPattern, .numbers(let v)): s.lineDashPattern = v.isEmpty ? nil : v
            default: return
            }
            content = .shape(s)
        case .text(var t):
            switch (key, value) {
            case (.fontSize, .number(let v)): t.fontSize = v
            case (.foregroundColor, .color(let v)): t.foregroundColor = v
            default: return
            }
            content = .text(t)
        case .gradient(var g):
            switch (key, value) {
            case (.colors, .colors(let v)): g.colors = v
            case (.locations, .numbers(let v)): g.locations = v.isEmpty ? nil : v
            case (.startPoint, .point(let v)): g.startPoint = v
            case (.endPoint, .point(let v)): g.endPoint = v
            default: return
            }
            content = .gradient(g)
        case .replicator(var r):
            switch (key, value) {
            // An animated count rounds to the nearest integer (§15.4).
            case (.instanceCount, .number(let v)): r.instanceCount = Int(max(-1e9, min(1e9, v.rounded())))
            case (.instanceDelay, .number(let v)): r.instanceDelay = v
            case (.instanceTransform, .transform(let v)): r.instanceTransform = v
            case (.instanceColor, .color(let v)): r.instanceColor = v
            case (.instanceRedOffset, .number(let v)): r.instanceRedOffset = Float(v)
            case (.instanceGreenOffset, .number(let v)): r.instanceGreenOffset = Float(v)
            case (.instanceBlueOffset, .number(let v)): r.instanceBlueOffset = Float(v)
            case (.instanceAlphaOffset, .number(let v)): r.instanceAlphaOffset = Float(v)
            default: return
            }
            content = .replicator(r)
        case .emitter(var e):
            switch (key, value) {
            case (.emitterPosition, .point(let v)): e.emitterPosition = v
            case (.emitterZPosition, .number(let v)): e.emitterZPosition = v
            case (.emitterSize, .size(let v)): e.emitterSize = v
            case (.emitterDepth, .number(let v)): e.emitterDepth = v
            case (.birthRate, .number(let v)): e.birthRate = Float(v)
            case (.lifetime, .number(let v)): e.lifetime = Float(v)
            case (.velocity, .number(let v)): e.velocity = Float(v)
            case (.scale, .number(let v)): e.scale = Float(v)
            case (.spin, .number(let v)): e.spin = Float(v)
            default: return
            }
            content = .emitter(e)
        case .plain, .transformLayer, .video:
            return
        }
    }

    /// The value at a key path (a field of a property, or the whole property).
    public func value(at path: LayerKeyPath) -> AnimatableValue? {
        if let input = path.filterInput {
            let list = path.key == .backgroundFilters ? backgroundFilters : filters
            switch list.first(where: { $0.name == input.filter })?.value(forKey: input.input) {
            case .number(let v)?: return .number(v)
            case .vector(let v)?: return .numbers(v)
            case nil: return nil
            }
        }
        if let field = path.field, let t = transformValue(for: path.key) { return field.read(transform: t) }
        guard let whole = value(for: path.key) else { return nil }
        return path.field.map { $0.read(from: whole) } ?? whole
    }

    /// Writes a value at a key path, leaving the property's other fields unchanged.
    public mutating func setValue(_ value: AnimatableValue, at path: LayerKeyPath) {
        if let input = path.filterInput {
            let parameter: FilterParameter
            switch value {
            case .number(let v): parameter = .number(v)
            case .numbers(let v): parameter = .vector(v)
            default: return
            }
            var list = path.key == .backgroundFilters ? backgroundFilters : filters
            guard let i = list.firstIndex(where: { $0.name == input.filter }) else { return }
            list[i].setValue(parameter, forKey: input.input)
            if path.key == .backgroundFilters { backgroundFilters = list } else { filters = list }
            return
        }
        guard let field = path.field else { return setValue(value, for: path.key) }
        // A field of a transform (`transform.rotation.z`): written into the matrix in place,
        // without boxing it as a value.
        switch path.key {
        case .transform: return transform = field.write(value, into: transform)
        case .sublayerTransform: return sublayerTransform = field.write(value, into: sublayerTransform)
        default: break
        }
        guard let whole = self.value(for: path.key) else { return }
        setValue(field.write(value, into: whole), for: path.key)
    }
}

extension LayerProperties {
    /// The layer's own transforms (`instanceTransform` goes through its content's value).
    @inline(__always)
    func transformValue(for key: LayerKey) -> CATransform3D? {
        switch key {
        case .transform: transform
        case .sublayerTransform: sublayerTransform
        default: nil
        }
    }
}

extension LayerProperties {
    /// The value of a key-value coding key: a property (or field) of the layer's class, else a
    /// custom value; nil when neither exists.
    public func value(named key: String) -> AnimatableValue? {
        if let path = LayerKeyPath(key), let value = value(at: path) { return value }
        return customValues[key]
    }
}
