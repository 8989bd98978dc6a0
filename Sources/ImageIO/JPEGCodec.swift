import CTurboJPEG
import Rendering

/// JPEG decoding and encoding through TurboJPEG.
///
/// Baseline and progressive JPEGs in YCbCr, RGB or grayscale decode to opaque RGBA8 (which is
/// premultiplied trivially). CMYK/YCCK JPEGs are refused. Decoding is strict: a libjpeg
/// warning (for example a truncated file, "Premature end of JPEG file") is an error, not a
/// partly gray image. EXIF orientation is not applied.
public enum JPEGCodec {
    /// Decodes JPEG bytes into an opaque RGBA8 image.
    ///
    /// The header is read first; an image wider or taller than `ImageLimits.maximumSide` is
    /// refused with `.tooLarge` before any pixel memory is allocated.
    /// Errors name the file `ImageIOError.inMemory`.
    public static func decode(_ data: [UInt8]) throws(ImageIOError) -> Image {
        guard let handle = tjInitDecompress() else {
            throw failure("cannot start the decoder")
        }
        defer { tjDestroy(handle) }
        let result = data.withUnsafeBufferPointer { jpeg -> Result<Image, ImageIOError> in
            guard let source = jpeg.baseAddress, !jpeg.isEmpty else { return .failure(failure("empty data")) }
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, source, UInt(jpeg.count), &width, &height,
                                      &subsampling, &colorspace) == 0 else {
                return .failure(failure(errorMessage(handle)))
            }
            if let tooLarge = ImageLimits.violation(width: Int(width), height: Int(height)) {
                return .failure(tooLarge)
            }
            if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
                return .failure(failure("CMYK JPEGs are not supported"))
            }
            let byteCount = Int(width) * Int(height) * 4
            var ok = false
            let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, count in
                ok = tjDecompress2(handle, source, UInt(jpeg.count), buffer.baseAddress, width, 0, height,
                                   Int32(TJPF_RGBA.rawValue), TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS) == 0
                count = ok ? byteCount : 0
            }
            guard ok else { return .failure(failure(errorMessage(handle))) }
            // TJPF_RGBA fills alpha with 255: the pixels are opaque, so already premultiplied.
            guard let image = Image(width: Int(width), height: Int(height), pixels: pixels) else {
                return .failure(failure("empty image"))
            }
            return .success(image)
        }
        return try result.get()
    }

    /// Encodes an image as a baseline JPEG (4:2:0) of `quality` 1…100. JPEG has no alpha: the
    /// premultiplied colours are kept, so transparent parts come out black.
    public static func encode(_ image: Image, quality: Int) throws(ImageIOError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw failure("cannot start the encoder") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGBA.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw failure(errorMessage(handle)) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    private static func failure(_ reason: String) -> ImageIOError {
        .corrupt(path: ImageIOError.inMemory, format: "JPEG", reason: reason)
    }

    private static func errorMessage(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unreadable data" }
        return String(cString: text)
    }
}
