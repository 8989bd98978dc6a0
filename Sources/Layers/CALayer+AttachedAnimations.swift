import Foundation
import Animation

extension CALayer {
    /// Every attached animation with its key (nil-keyed ones included), in application order:
    /// the layer's own copies, `beginTime` already resolved. Export checks read it to warn about
    /// animations that would not show in a video (see `ExportLint` in VideoExport).
    public var attachedAnimations: [(key: String?, animation: CAAnimation)] {
        attached.map { ($0.key, $0.animation) }
    }
}
