import Foundation
import Geometry
import Rendering

/// Serves layer contents to renderers: decodes each image's file (`CGImage.source`) once and
/// keeps the pixels while the provider lives; in-memory images are served as they are.
public final class FileImageProvider: ImageProvider {
    private var cache: [ObjectIdentifier: (image: CGImage, pixels: Image?)] = [:]
    /// Problems met while decoding, one line each (the item is skipped, the frame still renders).
    public private(set) var problems: [String] = []

    public init() {}

    public func pixels(for image: CGImage) -> Image? {
        let key = ObjectIdentifier(image)
        if let cached = cache[key] { return cached.pixels }
        var pixels: Image?
        if let bytes = image.pixels {
            pixels = Image(width: image.width, height: image.height, pixels: bytes)
        } else if let encoded = image.encodedData {
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
