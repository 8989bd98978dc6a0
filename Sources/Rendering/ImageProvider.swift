import Foundation
import Geometry

/// Supplies the pixels of layer contents to a backend (decoding is the image I/O stage's job).
public protocol ImageProvider: AnyObject {
    /// RGBA8 premultiplied pixels of `image`, or nil when they cannot be had (the item is skipped).
    func pixels(for image: CGImage) -> Image?
}
