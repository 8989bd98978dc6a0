import Foundation
import Geometry
import Rendering

/// Serves layer contents to renderers: decodes each image's file (`CGImage.source`) once and
/// keeps the pixels while the provider lives (they are reused every frame); in-memory images
/// (video frames, generated images) are served as they are, without a copy and without being
/// kept, so that images drawn once do not pile up over a long video.
public final class FileImageProvider: ImageProvider {
    private var cache: [ObjectIdentifier: (image: CGImage, pixels: Image?)] = [:]
    /// Problems met while decoding, one line each (the item is skipped, the frame still renders).
    public private(set) var problems: [String] = []

    public init() {}

    public func pixels(for image: CGImage) -> Image? {
        if let bytes = image.pixels { return Image(width: image.width, height: image.height, pixels: bytes) }
        let key = ObjectIdentifier(image)
        if let cached = cache[key] { return cached.pixels }
        var pixels: Image?
        if let encoded = image.encodedData {
            do {
                pixels = try ImageFile.decode(encoded)
            } catch {
                problems.append("embedded image: \(error.description)")
            }
        } else if let source = image.source {
            do {
                pixels = try ImageFile.read(contentsOf: URL(fileURLWithPath: source))
            } catch {
                problems.append(error.description)
            }
        }
        cache[key] = (image, pixels)
        return pixels
    }
}
