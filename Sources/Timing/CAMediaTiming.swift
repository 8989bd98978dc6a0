import Foundation

/// Seconds, as Core Animation's `CFTimeInterval`.
public typealias CFTimeInterval = Double

/// What an animation shows outside its active window. Core Animation: `CAMediaTimingFillMode`.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// No effect outside the active window (the default).
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    /// Hold the end value after the window.
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    /// Hold the start value before the window.
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    /// Both `forwards` and `backwards`.
    public static let both = CAMediaTimingFillMode(rawValue: "both")

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// The timing properties shared by layers and animations. Core Animation: `CAMediaTiming`.
public protocol CAMediaTiming: AnyObject {
    /// Start in the parent's time space, seconds. Default 0.
    var beginTime: CFTimeInterval { get set }
    /// Length of one cycle, seconds. Animations: 0 means "substitute the transaction's duration".
    var duration: CFTimeInterval { get set }
    /// Rate of local time relative to the parent's. Default 1.
    var speed: Float { get set }
    /// Offset added to local time (already in local units). Default 0.
    var timeOffset: CFTimeInterval { get set }
    /// Number of cycles, may be fractional; 0 means one; ≥ `Float.greatestFiniteMagnitude` repeats forever.
    var repeatCount: Float { get set }
    /// Repeat for this many seconds instead of a count; 0 means unused.
    var repeatDuration: CFTimeInterval { get set }
    /// Play each cycle forward then backward.
    var autoreverses: Bool { get set }
    /// What shows outside the active window.
    var fillMode: CAMediaTimingFillMode { get set }
}

/// The value Core Animation's `beginTime` takes to mean "time zero of the parent" rather than "now".
///
/// AVFoundation exports it as a tiny positive number; 1e-100 is the commonly reported value.
public let AVCoreAnimationBeginTimeAtZero: CFTimeInterval = 1e-100
