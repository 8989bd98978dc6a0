import CPNG
import Rendering

/// PNG decoding and encoding through libpng's simplified API (`png_image_*`, no setjmp).
///
/// Decoding accepts every PNG variant libpng reads (gray, gray + alpha, palette with or without
/// `tRNS`, RGB, RGBA; 1–16 bits; interlaced) and yields RGBA8 with premultiplied alpha.
/// 16-bit samples without a `gAMA`/`sRGB` chunk are taken as sRGB-encoded (like browsers do),
/// not as linear, so `0x8080` becomes 128. Encoding writes 8-bit RGBA with straight alpha.
public enum PNGCodec {
    /// Decodes PNG bytes into a premultiplied RGBA8 image.
    ///
    /// The header is read first; an image wider or taller than `ImageLimits.maximumSide` is
    /// refused with `.tooLarge` before any pixel memory is allocated.
    /// Errors name the file `ImageIOError.inMemory`.
    public static func decode(_ data: [UInt8]) throws(ImageIOError) -> Image {
        let result = data.withUnsafeBytes { raw in decode(raw) }
        return try result.get()
    }

    /// Reads only the header: the image size, without decoding pixels.
    public static func size(of data: [UInt8]) throws(ImageIOError) -> (width: Int, height: Int) {
        let result: Result<(width: Int, height: Int), ImageIOError> = data.withUnsafeBytes { raw in
            var png = png_image()
            png.version = LAMINA_PNG_IMAGE_VERSION
            guard png_image_begin_read_from_memory(&png, raw.baseAddress, raw.count) != 0 else {
                return .failure(corrupt(png))
            }
            let size = (width: Int(png.width), height: Int(png.height))
            png_image_free(&png)
            return .success(size)
        }
        return try result.get()
    }

    private static func decode(_ raw: UnsafeRawBufferPointer) -> Result<Image, ImageIOError> {
        var png = png_image()
        png.version = LAMINA_PNG_IMAGE_VERSION
        // libpng keeps a pointer to `raw` until png_image_finish_read returns: both calls stay
        // inside the caller's withUnsafeBytes.
        guard png_image_begin_read_from_memory(&png, raw.baseAddress, raw.count) != 0 else {
            return .failure(corrupt(png)) // libpng has already freed its state
        }
        let width = Int(png.width), height = Int(png.height)
        if let tooLarge = ImageLimits.violation(width: width, height: height) {
            png_image_free(&png)
            return .failure(tooLarge)
        }
        png.format = LAMINA_PNG_FORMAT_RGBA
        png.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        let byteCount = width * height * 4
        var failed = false
        var pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, count in
            // finish_read frees libpng's state whether it succeeds or not.
            if png_image_finish_read(&png, nil, buffer.baseAddress, 0, nil) != 0 {
                count = byteCount
            } else {
                failed = true
                count = 0
            }
        }
        if failed { return .failure(corrupt(png)) }
        PremultipliedAlpha.premultiply(&pixels)
        guard let image = Image(width: width, height: height, pixels: pixels) else {
            return .failure(.corrupt(path: ImageIOError.inMemory, format: "PNG", reason: "empty image"))
        }
        return .success(image)
    }

    /// Encodes an image as an 8-bit RGBA PNG with straight (un-premultiplied) alpha.
    ///
    /// - Parameter compressionLevel: how hard to compress, 0…9 like zlib; default 1. libpng's
    ///   simplified API exposes only two settings, so levels 0…3 select its fast mode
    ///   (`PNG_IMAGE_FLAG_FAST`: row filter "none", zlib level 3) and levels 4…9 its normal mode
    ///   (adaptive row filters, zlib level 6). On a UI-like 1280×720 frame (release build) the
    ///   fast mode took ≈12.6 ms for 153 KB, the normal mode ≈33 ms for 24 KB; on noise both are
    ///   the same size. Filter "up" with zlib level 1 is not reachable through this API.
    /// Errors name the file `ImageIOError.inMemory`.
    public static func encode(_ image: Image, compressionLevel: Int = 1) throws(ImageIOError) -> [UInt8] {
        // `pixels` is a public var: refuse a buffer that no longer matches the size.
        guard image.pixels.count == image.width * image.height * 4 else {
            throw .cannotEncode(path: ImageIOError.inMemory,
                                reason: "\(image.pixels.count) pixel bytes for \(image.width)×\(image.height)")
        }
        var straight = image.pixels
        PremultipliedAlpha.unpremultiply(&straight)

        var png = png_image()
        png.version = LAMINA_PNG_IMAGE_VERSION
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = LAMINA_PNG_FORMAT_RGBA
        png.flags = compressionLevel <= 3 ? UInt32(PNG_IMAGE_FLAG_FAST) : 0

        // An upper bound of the output (libpng's PNG_IMAGE_PNG_SIZE_MAX plus room for its
        // sRGB chunk), so that one compression pass suffices.
        let dataSize = (image.width * 4 + 1) * image.height
        let zlibMax = dataSize + (dataSize + 7) >> 3 + (dataSize + 63) >> 6 + 11
        var capacity = zlibMax + 12 * (zlibMax / 8192 + 1) + 1024

        var message = ""
        for _ in 0..<2 {
            var written = capacity
            var ok = false
            let output = straight.withUnsafeBytes { source in
                [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                    ok = png_image_write_to_memory(&png, buffer.baseAddress, &written, 0,
                                                   source.baseAddress, 0, nil) != 0
                    count = ok ? written : 0
                }
            }
            if ok { return output }
            message = Self.message(png)
            png_image_free(&png)
            // A too small buffer leaves the needed size in `written`; anything else is an error.
            guard written > capacity else { break }
            capacity = written
            png.opaque = nil
            png.warning_or_error = 0
        }
        throw .cannotEncode(path: ImageIOError.inMemory, reason: message.isEmpty ? "libpng failed" : message)
    }

    private static func corrupt(_ png: png_image) -> ImageIOError {
        let text = message(png)
        return .corrupt(path: ImageIOError.inMemory, format: "PNG", reason: text.isEmpty ? "unreadable data" : text)
    }

    private static func message(_ png: png_image) -> String {
        withUnsafeBytes(of: png.message) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
