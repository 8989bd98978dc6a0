import Foundation
import Geometry
import Drawing
import Animation
import Timing
import Synchronization

// Custom drawing: `setNeedsDisplay()` gives the layer a new display generation; `display()`
// draws it into a bitmap that becomes `contents`. Frames never change the model: the renderer
// asks each marked layer for a `LayerDrawing` — what to draw at the frame's time — and the
// content cache draws it once per distinct key (layer, generation, size, scale, and the values
// of animated keys for which `needsDisplay(forKey:)` is true), on a copy of the layer.

/// Display generations are unique across all layers, so a (layer, generation) key never
/// matches a layer that reused a freed layer's address.
private let generations = Atomic<UInt64>(0)

extension CALayer {
    func markNeedsDisplay() {
        displayGeneration = generations.add(1, ordering: .relaxed).newValue
    }

    /// The default display: `draw(in:)` into a bitmap of the bounds at `contentsScale`, which
    /// becomes `contents` (a drawing that draws nothing clears an earlier drawing and leaves
    /// assigned contents alone). Called by `display()`, and by a delegate's default `display(_:)`.
    public func drawContents() {
        drawContents(flipped: drawsFlipped ?? contentsFlippedByAncestors)
    }

    func drawContents(flipped: Bool) {
        let b = bounds
        guard b.width > 0, b.height > 0, let ctx = Self.context(for: b, scale: contentsScale, opaque: isOpaque, flipped: flipped)
        else { return }
        UIGraphicsPushContext(ctx)
        draw(in: ctx)
        UIGraphicsPopContext()
        if ctx.operationCount == 0 {
            if let drawn = displayedImage, properties.contents.image === drawn { properties.contents = ContentsValue(image: nil) }
            return
        }
        let image = ctx.makeImage()
        displayedImage = image
        properties.contents = ContentsValue(image: image)  // not an animated change
    }

    /// A context over `bounds` at `scale` pixels per point whose user space is the bounds
    /// space: y down on screen (origin at the top left), or y up where an odd number of
    /// ancestors flip their geometry (the renderer mirrors such contents to keep them upright).
    static func context(for bounds: CGRect, scale: CGFloat, opaque: Bool, flipped: Bool) -> CGContext? {
        let k = backingScale(bounds.size, scale)
        guard flipped else { return CGContext(size: bounds.size, origin: bounds.origin, scale: k, opaque: opaque) }
        let (width, height) = backingSize(bounds.size, scale)
        return CGContext(width: width, height: height, opaque: opaque,
                         transform: CGAffineTransform(a: k, b: 0, c: 0, d: k, tx: -bounds.minX * k, ty: -bounds.minY * k))
    }

    /// Pixels per point of a drawing: `contentsScale` (at most 16), lowered so that no side
    /// exceeds 8192 pixels.
    static func backingScale(_ size: CGSize, _ scale: CGFloat) -> CGFloat {
        let s = scale.isFinite && scale > 0 ? min(scale, 16) : 1
        return s * min(1, 8192 / max(size.width * s, size.height * s, 1e-9))
    }

    /// The pixel size of a drawing of `size` points.
    static func backingSize(_ size: CGSize, _ scale: CGFloat) -> (width: Int, height: Int) {
        let k = backingScale(size, scale)
        return (CGContext.pixelCount(size.width * k), CGContext.pixelCount(size.height * k))
    }

    /// Whether an odd number of ancestors flip their geometry.
    var contentsFlippedByAncestors: Bool {
        var flips = 0
        var layer = superlayer
        while let l = layer {
            if l.properties.isGeometryFlipped { flips += 1 }
            layer = l.superlayer
        }
        return flips % 2 == 1
    }

    /// What the renderer must draw for this layer at its local time `t`, given its presentation
    /// values there; nil when the layer does not draw itself or its model `contents` already
    /// hold its drawing. Content layers (text, shapes, …) draw through their own rasterizers.
    public func drawing(atLocalTime t: CFTimeInterval, presented: LayerProperties, flippedByAncestors: Bool) -> LayerDrawing? {
        guard displayGeneration != 0, case .plain = properties.content else { return nil }
        var animatedKeys: [String] = []
        for item in attached where !item.redrawKeys.isEmpty
            && item.program.hasEffect(parentTime: t, removedOnCompletion: item.isRemovedOnCompletion) {
            for key in item.redrawKeys where !animatedKeys.contains(key) { animatedKeys.append(key) }
        }
        guard !animatedKeys.isEmpty || needsDisplay() else { return nil }
        // A redraw during an animation of a display key uses every presentation value, as Apple
        // draws the presentation layer; otherwise the model is drawn.
        var values = animatedKeys.isEmpty ? properties : presented
        values.transition = nil
        values.contents = properties.contents
        let key = LayerDrawing.Key(layer: ObjectIdentifier(self), generation: displayGeneration, size: values.bounds.size,
                                   scale: values.contentsScale, flipped: flippedByAncestors,
                                   values: animatedKeys.sorted().map { values.value(named: $0) })
        return LayerDrawing(key: key, layer: self, properties: values)
    }
}

/// One drawing of a custom-drawn layer: its key (equal keys draw equal pixels) and how to draw
/// it. Drawing works on a fresh copy of the layer made with `init(layer:)` that holds the values
/// to draw with, so drawings of one layer at different times can run on several threads.
public final class LayerDrawing: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// What the drawing depends on.
    public struct Key: Hashable, Sendable {
        public var layer: ObjectIdentifier
        public var generation: UInt64
        public var size: CGSize
        public var scale: CGFloat
        public var flipped: Bool
        /// The values of the animated keys the class redraws on, sorted by key.
        public var values: [AnimatableValue?]
    }

    public let key: Key
    /// The drawing's size in pixels (the layer's backing store).
    public var pixelSize: (width: Int, height: Int) { CALayer.backingSize(key.size, key.scale) }
    /// Held weakly: a cache keeps keys, not layers.
    private weak var layer: CALayer?
    private let properties: LayerProperties

    init(key: Key, layer: CALayer, properties: LayerProperties) {
        self.key = key
        self.layer = layer
        self.properties = properties
    }

    /// Draws the layer with the drawing's values; nil when the layer is gone or drew nothing.
    public func draw() -> CGImage? {
        guard let model = layer else { return nil }
        let copy = Swift.type(of: model).init(_copying: model)
        copy.properties = properties
        copy.modelLayerReference = model
        copy.delegate = model.delegate
        copy.displayedImage = nil
        copy.drawsFlipped = key.flipped
        if let delegate = copy.delegate {
            delegate.display(copy)
        } else {
            copy.drawContents(flipped: key.flipped)
        }
        guard let image = copy.properties.contents.image, image !== properties.contents.image else { return nil }
        return image
    }

    public static func == (a: LayerDrawing, b: LayerDrawing) -> Bool { a.key == b.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
    public var description: String { "LayerDrawing(generation \(key.generation), \(key.size) @\(key.scale)x)" }
}
