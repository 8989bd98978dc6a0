import Foundation
import Geometry

// Interpolation and the "addition" Core Animation uses for `byValue`, `additive` and `cumulative`.
// Numbers, points, sizes, rects, colours and lists add component-wise; transforms concatenate
// (the added transform applies first, in the layer's local space). Values without an addition
// (paths, booleans, contents) take the right-hand side.

extension AnimatableValue {
    /// The value a fraction `t` of the way from `self` to `end` (semantics §3.2).
    public func interpolated(to end: AnimatableValue, fraction t: Double) -> AnimatableValue {
        switch (self, end) {
        case (.number(let a), .number(let b)): return .number(a + (b - a) * t)
        case (.point(let a), .point(let b)):
            return .point(CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
        case (.size(let a), .size(let b)):
            return .size(CGSize(width: a.width + (b.width - a.width) * t, height: a.height + (b.height - a.height) * t))
        case (.rect(let a), .rect(let b)):
            return .rect(CGRect(x: a.origin.x + (b.origin.x - a.origin.x) * t, y: a.origin.y + (b.origin.y - a.origin.y) * t,
                                width: a.size.width + (b.size.width - a.size.width) * t, height: a.size.height + (b.size.height - a.size.height) * t))
        case (.color(let a?), .color(let b?)): return .color(a.interpolated(to: b, fraction: t))
        case (.transform(let a), .transform(let b)): return .transform(a.interpolated(to: b, fraction: t))
        case (.path(let a?), .path(let b?)):
            if let blended = a.interpolated(to: b, fraction: t) { return .path(blended) }
            return t >= 0.5 ? end : self
        case (.contents(let a), .contents(let b)):
            if t <= 0 { return self }
            if t >= 1 { return end }
            return .contents(ContentsValue(image: a.image, fadingTo: b.image, fraction: t))
        case (.numbers(let a), .numbers(let b)) where a.count == b.count:
            return .numbers(zip(a, b).map { $0 + ($1 - $0) * t })
        case (.colors(let a), .colors(let b)) where a.count == b.count:
            return .colors(zip(a, b).map { $0.interpolated(to: $1, fraction: t) })
        case (.filters(let a), .filters(let b)) where a.count == b.count:
            // The same filters in the same order: their inputs interpolate (Core Animation
            // animates filter inputs); otherwise the list switches half-way.
            let blended = zip(a, b).compactMap { $0.interpolated(to: $1, fraction: t) }
            if blended.count == a.count { return .filters(blended) }
            return t >= 0.5 ? end : self
        default:
            // Booleans, nil ends and mismatched shapes switch half-way.
            return t >= 0.5 ? end : self
        }
    }

    /// `self ⊕ delta`: component-wise sum; for transforms `Concat(delta, self)`.
    public func adding(_ delta: AnimatableValue) -> AnimatableValue {
        switch (self, delta) {
        case (.number(let a), .number(let b)): return .number(a + b)
        case (.point(let a), .point(let b)): return .point(CGPoint(x: a.x + b.x, y: a.y + b.y))
        case (.size(let a), .size(let b)): return .size(CGSize(width: a.width + b.width, height: a.height + b.height))
        case (.rect(let a), .rect(let b)):
            return .rect(CGRect(x: a.origin.x + b.origin.x, y: a.origin.y + b.origin.y,
                                width: a.size.width + b.size.width, height: a.size.height + b.size.height))
        case (.color(let a?), .color(let b?)):
            return .color(CGColor(red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue, alpha: a.alpha + b.alpha))
        case (.transform(let a), .transform(let b)): return .transform(b.concatenating(a))
        case (.path(let a?), .path(let b?)):
            // Compatible paths (same element kinds) add point by point, so cubic keyframes apply.
            return a.combined(with: b) { CGPoint(x: $0.x + $1.x, y: $0.y + $1.y) }.map { .path($0) } ?? delta
        case (.numbers(let a), .numbers(let b)) where a.count == b.count: return .numbers(zip(a, b).map(+))
        case (.colors(let a), .colors(let b)) where a.count == b.count:
            return .colors(zip(a, b).map { CGColor(red: $0.red + $1.red, green: $0.green + $1.green,
                                                   blue: $0.blue + $1.blue, alpha: $0.alpha + $1.alpha) })
        default: return delta
        }
    }

    /// `self ⊖ delta`, the inverse of `adding` (used for `byValue` with `toValue`).
    public func subtracting(_ delta: AnimatableValue) -> AnimatableValue {
        if case .transform(let a) = self, case .transform(let b) = delta {
            return .transform((b.inverse ?? b).concatenating(a))
        }
        return adding(delta.scaled(by: -1))
    }

    /// `k · self`: component-wise; for transforms the k-fold concatenation (k rounded to an integer).
    public func scaled(by k: Double) -> AnimatableValue {
        switch self {
        case .number(let a): return .number(a * k)
        case .point(let a): return .point(CGPoint(x: a.x * k, y: a.y * k))
        case .size(let a): return .size(CGSize(width: a.width * k, height: a.height * k))
        case .rect(let a): return .rect(CGRect(x: a.origin.x * k, y: a.origin.y * k, width: a.size.width * k, height: a.size.height * k))
        case .color(let a?): return .color(CGColor(red: a.red * k, green: a.green * k, blue: a.blue * k, alpha: a.alpha * k))
        case .path(let a?): return .path(a.copy(using: CGAffineTransform(scaleX: k, y: k)))
        case .numbers(let a): return .numbers(a.map { $0 * k })
        case .colors(let a): return .colors(a.map { CGColor(red: $0.red * k, green: $0.green * k, blue: $0.blue * k, alpha: $0.alpha * k) })
        case .transform(let a):
            let n = Int(k.rounded())
            var result = CATransform3D.identity
            let step = n >= 0 ? a : (a.inverse ?? a)
            for _ in 0..<min(abs(n), 10_000) { result = result.concatenating(step) }
            return .transform(result)
        default: return self
        }
    }

    /// Euclidean distance for paced keyframes; `nil` for types without one (transforms, paths, …).
    public func distance(to other: AnimatableValue) -> Double? {
        func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }
        switch (self, other) {
        case (.number(let a), .number(let b)): return abs(b - a)
        case (.point(let a), .point(let b)): return norm([b.x - a.x, b.y - a.y].map { Double($0) })
        case (.size(let a), .size(let b)): return norm([b.width - a.width, b.height - a.height].map { Double($0) })
        case (.rect(let a), .rect(let b)):
            return norm([b.origin.x - a.origin.x, b.origin.y - a.origin.y, b.size.width - a.size.width, b.size.height - a.size.height].map { Double($0) })
        case (.color(let a?), .color(let b?)):
            return norm([b.red - a.red, b.green - a.green, b.blue - a.blue, b.alpha - a.alpha].map { Double($0) })
        case (.numbers(let a), .numbers(let b)) where a.count == b.count: return norm(zip(a, b).map { $1 - $0 })
        default: return nil
        }
    }
}

extension AnimatableValue {
    /// Whether Kochanek–Bartels (cubic) interpolation applies to these keyframe values: vectors
    /// (numbers, points, sizes, rectangles, colours, lists of equal length) and mutually
    /// compatible paths. Others (transforms, Booleans, contents) are interpolated linearly.
    static func supportsCubic(_ values: [AnimatableValue]) -> Bool {
        guard let first = values.first else { return false }
        switch first {
        case .number, .point, .size, .rect, .color(.some): return values.allSatisfy { $0.kind == first.kind && $0 != .color(nil) }
        case .numbers(let a): return values.allSatisfy { if case .numbers(let b) = $0 { b.count == a.count } else { false } }
        case .colors(let a): return values.allSatisfy { if case .colors(let b) = $0 { b.count == a.count } else { false } }
        case .path(let p?):
            return values.allSatisfy { value in
                guard case .path(let q?) = value else { return false }
                return p.combined(with: q) { a, _ in a } != nil
            }
        default: return false
        }
    }
}
