import Foundation

// Core Foundation names that Apple code spells and Linux Foundation lacks.

/// What `[CGColor] as CFArray` becomes: Core Graphics calls that take a `CFArray`
/// (`CGGradient(colorsSpace:colors:locations:)`) take an array of values here, so the
/// expression Apple code writes compiles unchanged.
public typealias CFArray = [Any]

/// Core Foundation's string type, as the colour-space names (`CGColorSpace.sRGB`) are typed.
public typealias CFString = String

/// Lets an `NSNumber` read back as a `CGFloat` (`value(forKey:) as? CGFloat`), as it does on
/// Apple platforms, where key-value coding hands numbers back boxed in `NSNumber`; Linux
/// Foundation bridges `NSNumber` to `Double` and `Float` but not to `CGFloat`.
extension CGFloat: @retroactive _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = NSNumber

    public func _bridgeToObjectiveC() -> NSNumber { NSNumber(value: Double(self)) }

    public static func _forceBridgeFromObjectiveC(_ source: NSNumber, result: inout CGFloat?) {
        result = CGFloat(source.doubleValue)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSNumber, result: inout CGFloat?) -> Bool {
        result = CGFloat(source.doubleValue)
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSNumber?) -> CGFloat {
        CGFloat(source?.doubleValue ?? 0)
    }
}
