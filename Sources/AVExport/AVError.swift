import Foundation

/// An AVFoundation error: a code from `AVError.Code` and a description that names the cause
/// (the file, the field, ffmpeg's message). Bridges to `NSError` in `AVFoundationErrorDomain`
/// as Apple's does, so `(error as NSError).code` and `localizedDescription` read as on Apple.
public struct AVError: CustomNSError, LocalizedError, CustomStringConvertible, Equatable, Sendable {
    /// AVFoundation's error codes (the subset Lamina reports, with Apple's values).
    public enum Code: Int, Sendable {
        case unknown = -11800
        case outOfMemory = -11801
        case diskFull = -11807
        case exportFailed = -11820
        case decodeFailed = -11821
        case invalidSourceMedia = -11822
        case fileAlreadyExists = -11823
        case fileFormatNotRecognized = -11828
        case fileFailedToParse = -11829
        case decoderNotFound = -11833
        case encoderNotFound = -11834
        case operationNotSupportedForAsset = -11838
        case invalidVideoComposition = -11841
        case invalidOutputURLPathExtension = -11843
        case failedToLoadMediaData = -11849
        case videoCompositorFailed = -11858
        case noSourceTrack = -11869
        case operationNotSupportedForPreset = -11871
        case operationCancelled = -11878
    }

    public static let errorDomain = "AVFoundationErrorDomain"

    public let code: Code
    /// What went wrong, naming the file or field and the reason.
    public let reason: String
    /// The file the error is about, where there is one.
    public let url: URL?

    public init(_ code: Code, _ reason: String, url: URL? = nil) {
        self.code = code; self.reason = reason; self.url = url
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: reason, NSLocalizedFailureReasonErrorKey: reason]
        if let url { info[NSURLErrorKey] = url }
        return info
    }
    public var errorDescription: String? { reason }
    public var description: String { "\(reason) (\(Self.errorDomain) \(code.rawValue))" }

}
