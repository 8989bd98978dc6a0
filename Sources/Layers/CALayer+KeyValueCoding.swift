import Foundation
import Geometry
import Animation
import Timing

// Key-value coding on layers: Core Animation's own properties by key path, and arbitrary keys,
// which is how Apple stores `@NSManaged` properties — and the Linux way to declare a custom
// animatable property:
//
//     class PieLayer: CALayer {
//         var progress: CGFloat {
//             get { value(forKey: "progress") as? CGFloat ?? 0 }
//             set { setValue(newValue, forKey: "progress") }
//         }
//         override class func needsDisplay(forKey key: String) -> Bool {
//             key == "progress" || super.needsDisplay(forKey: key)
//         }
//     }
//
// Such a value is copied by `init(layer:)`, animated by `CABasicAnimation(keyPath: "progress")`
// and, with `needsDisplay(forKey:)` answering true, redrawn with the presentation value.

extension CALayer {
    /// Sets a property by key path (`"position.x"`, `"transform.rotation.z"`, `"opacity"`, …),
    /// or stores the value under a key the layer does not know: numbers, Booleans, points,
    /// sizes, rectangles, colours, transforms and paths as animatable custom properties, other
    /// values as they are. A change runs the key's action (custom keys get no implicit
    /// animation, as on Apple) and marks the layer for display when `needsDisplay(forKey:)` says so.
    func setKeyValue(_ value: Any?, forKeyPath keyPath: String) {
        if let path = LayerKeyPath(keyPath), properties.value(for: path.key) != nil {
            guard let converted = AnimatableValue(converting: value, to: path.kind) else { return }
            var updated = properties
            updated.setValue(converted, at: path)
            guard let new = updated.value(for: path.key), let old = properties.value(for: path.key), new != old else { return }
            properties = updated
            didChange(path.key.rawValue)
            didChangeValue(forKey: path.key, from: old)
            return
        }
        setCustomValue(value, forKey: keyPath)
    }

    /// Reads a property by key path, or a value stored under another key; numbers come back as
    /// `NSNumber`, readable as `CGFloat`, `Double`, `Float` or `NSNumber` alike.
    func keyValue(forKeyPath keyPath: String) -> Any? {
        if let path = LayerKeyPath(keyPath), let value = properties.value(at: path) { return value.anyValue }
        if let custom = properties.customValues[keyPath] { return custom.anyValue }
        return userValues[keyPath]
    }

    private func setCustomValue(_ value: Any?, forKey key: String) {
        let old = properties.customValues[key]
        if let value, let animatable = AnimatableValue(inferring: value) {
            userValues[key] = nil
            guard animatable != old else { return }
            properties.customValues[key] = animatable
        } else {
            let wasStored = old != nil || userValues[key] != nil
            properties.customValues[key] = nil
            userValues[key] = value
            guard wasStored || value != nil else { return }
        }
        didChange(key)
        guard isInLiveTree, !CATransaction.disableActions() else { return }
        action(forKey: key)?.run(forKey: key, object: self, arguments: nil)
    }

    /// After a property called `key` changed: marks the layer for display when the class
    /// redraws on that key, or on bounds changes with `needsDisplayOnBoundsChange`.
    func didChange(_ key: String?) {
        guard let key else { return }
        if Swift.type(of: self).needsDisplay(forKey: key) || (key == "bounds" && needsDisplayOnBoundsChange) {
            setNeedsDisplay()
        }
    }

    /// Core Animation's default for a key (`+defaultValueForKey:`), as measured on Apple: the
    /// class's non-zero defaults and its Boolean ones; nil for keys whose default is zero or
    /// nil (`bounds`, `position`, `shadowOpacity`, `timeOffset`, …) and for Swift spellings
    /// (`isHidden`) and unknown keys.
    static func defaultKeyValue(forKey key: String) -> Any? {
        switch key {
        case "anchorPoint": return CGPoint(x: 0.5, y: 0.5)
        case "transform", "sublayerTransform": return CATransform3DIdentity
        case "contentsRect", "contentsCenter": return CGRect(x: 0, y: 0, width: 1, height: 1)
        case "contentsGravity": return CALayerContentsGravity.resize
        case "contentsScale", "rasterizationScale": return CGFloat(1)
        case "minificationFilter", "magnificationFilter": return CALayerContentsFilter.linear
        case "maskedCorners": return CACornerMask.all
        case "cornerCurve": return CALayerCornerCurve.circular
        case "opacity": return Float(1)
        case "hidden", "masksToBounds", "geometryFlipped", "opaque", "shouldRasterize", "drawsAsynchronously",
             "needsDisplayOnBoundsChange", "allowsEdgeAntialiasing":
            return false
        case "doubleSided", "allowsGroupOpacity": return true
        case "shadowOffset": return CGSize(width: 0, height: -3)
        case "shadowRadius": return CGFloat(3)
        case "borderColor", "shadowColor": return CGColor.black
        case "duration": return CFTimeInterval.infinity
        case "speed": return Float(1)
        case "fillMode": return CAMediaTimingFillMode.removed
        default: return nil
        }
    }
}
