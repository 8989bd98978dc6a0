import Foundation

/// Which way y grows in a rendered frame.
///
/// Scene files, `FrameRenderer` and everything iOS-like draw `topLeft`: y = 0 is the top row and
/// y grows downward. AVFoundation's `AVVideoCompositionCoreAnimationTool` renders its layer tree
/// in Core Animation's unflipped space, `bottomLeft`: y = 0 is the bottom row of the video and y
/// grows upward (core-animation-semantics.md §12). Contents images and text stay upright either
/// way, and `isGeometryFlipped` on a layer flips its sublayers as usual, so a `bottomLeft` tree
/// whose root is geometry-flipped reads top-left.
public enum OutputOrigin: String, Sendable, CaseIterable {
    /// y = 0 at the top row, growing downward (the default).
    case topLeft
    /// y = 0 at the bottom row, growing upward (Core Animation's unflipped space).
    case bottomLeft
}
