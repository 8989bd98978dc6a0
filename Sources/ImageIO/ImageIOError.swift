import Layers

/// Why an image could not be read, decoded, encoded or written; every case names the file.
///
/// Codecs that work on bytes in memory (`PNGCodec`, `JPEGCodec`) name the file
/// `ImageIOError.inMemory`; `ImageFile` replaces that with the real path.
public enum ImageIOError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file could not be opened or read (missing, permissions, I/O error).
    case unreadable(path: String, reason: String)
    /// The bytes are neither PNG nor JPEG (checked by their signature), or the file is empty.
    case notAnImage(path: String)
    /// The bytes start like a PNG or JPEG but cannot be decoded (truncated, bad checksum,
    /// unsupported variant); `reason` is the decoder's message.
    case corrupt(path: String, format: String, reason: String)
    /// A side exceeds `limit` pixels; refused after reading the header, before allocating pixels.
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// The image could not be encoded (`reason` is the encoder's message).
    case cannotEncode(path: String, reason: String)
    /// No file can be created in the target folder (missing, not a folder, permissions, read-only).
    case cannotWriteFolder(path: String, folder: String, reason: String)
    /// Writing, syncing or renaming the file failed; nothing was left under `path`.
    case cannotWrite(path: String, reason: String)
    /// `path` already exists and overwriting was not allowed.
    case exists(path: String)

    /// The path used by the in-memory codecs.
    public static let inMemory = "<memory>"

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .notAnImage(let path), .corrupt(let path, _, _),
             .tooLarge(let path, _, _, _), .cannotEncode(let path, _),
             .cannotWriteFolder(let path, _, _), .cannotWrite(let path, _), .exists(let path):
            return path
        }
    }

    /// The same error about another file.
    public func withPath(_ newPath: String) -> ImageIOError {
        switch self {
        case .unreadable(_, let reason): return .unreadable(path: newPath, reason: reason)
        case .notAnImage: return .notAnImage(path: newPath)
        case .corrupt(_, let format, let reason): return .corrupt(path: newPath, format: format, reason: reason)
        case .tooLarge(_, let w, let h, let limit): return .tooLarge(path: newPath, width: w, height: h, limit: limit)
        case .cannotEncode(_, let reason): return .cannotEncode(path: newPath, reason: reason)
        case .cannotWriteFolder(_, let folder, let reason):
            return .cannotWriteFolder(path: newPath, folder: folder, reason: reason)
        case .cannotWrite(_, let reason): return .cannotWrite(path: newPath, reason: reason)
        case .exists: return .exists(path: newPath)
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read: \(reason)"
        case .notAnImage(let path):
            return "\(path): not an image (neither PNG nor JPEG)"
        case .corrupt(let path, let format, let reason):
            return "\(path): corrupt \(format): \(reason)"
        case .tooLarge(let path, let w, let h, let limit):
            return "\(path): image too large: \(w)×\(h) pixels (at most \(limit) per side)"
        case .cannotEncode(let path, let reason):
            return "\(path): cannot encode: \(reason)"
        case .cannotWriteFolder(let path, let folder, let reason):
            return "\(path): cannot write into folder \(folder): \(reason)"
        case .cannotWrite(let path, let reason):
            return "\(path): cannot write: \(reason)"
        case .exists(let path):
            return "\(path): already exists (overwriting not allowed)"
        }
    }
}

/// Size limits shared by the decoders.
public enum ImageLimits {
    /// The largest width or height a decoder accepts (16384); larger images are refused from
    /// their header, before pixel memory is allocated.
    public static let maximumSide = SceneLimits.maximumImageSide

    /// `.tooLarge` when a side exceeds `maximumSide`, else `nil`.
    static func violation(width: Int, height: Int) -> ImageIOError? {
        guard width <= maximumSide, height <= maximumSide else {
            return .tooLarge(path: ImageIOError.inMemory, width: width, height: height, limit: maximumSide)
        }
        return nil
    }
}
