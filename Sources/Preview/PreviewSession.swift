import Foundation
import Synchronization
import Layers
import SceneFormat
import Presentation
import Rendering
import ImageIO
import Export

/// One scene file being previewed: loaded again whenever it or one of its assets changes,
/// its frames drawn on demand by `FrameRenderer` on a render thread of its own (one render at a
/// time), and cached by (scene version, time, view, size).
///
/// Thread-safe: the server's connection threads call it at once; everything that touches the
/// model tree or a backend runs as a job on the render thread.
public final class PreviewSession: Sendable {
    /// Loads a scene (or any file a loader understands) into a scene.
    public typealias Loader = @Sendable (URL) throws(SceneLoadError) -> Scene

    /// Scene files, their assets confined to the scene's folder unless `options` lift it.
    /// `lamina preview` passes a loader that also takes Lottie files, told apart by content.
    public static func sceneLoader(options: SceneLoadOptions = SceneLoadOptions()) -> Loader {
        { url throws(SceneLoadError) in try SceneLoader.load(contentsOf: url, options: options) }
    }

    /// Scene files with the default options.
    public static let defaultLoader: Loader = sceneLoader()

    /// A frame's picture, encoded.
    public struct EncodedFrame: Sendable {
        public var png: [UInt8]
        /// The scene version it shows, its frame number and time.
        public var version: Int
        public var frame: Int
        public var time: Double
    }

    /// How the GPU and CPU pictures of a frame differ.
    public struct Comparison: Sendable {
        public var version: Int
        public var frame: Int
        public var time: Double
        public var difference: ImageDifference

        /// `{"psnr": …, "maxDifference": …, "pixelsOverTolerance": …, "pixelCount": …}`; an
        /// infinite PSNR (identical pictures) is the string "inf".
        public var json: String {
            let psnr = difference.psnr.isInfinite ? "\"inf\"" : PresentationJSON.number(difference.psnr)
            return "{\"version\": \(version), \"frame\": \(frame), \"time\": \(PresentationJSON.number(time)), "
                + "\"psnr\": \(psnr), \"maxDifference\": \(difference.maxChannelDifference), "
                + "\"pixelsOverTolerance\": \(difference.pixelsOverTolerance), \"tolerance\": \(difference.tolerance), "
                + "\"pixelCount\": \(difference.pixelCount)}"
        }
    }

    private let thread = SerialThread(name: "lamina preview render")
    private let state: ThreadConfined<PreviewRenderState>
    private let current: Mutex<PreviewStatus>
    /// The files' signatures when they were last loaded.
    private let signatures = Mutex<[FileSignature]>([])
    private let frames = FrameCache(budget: SceneLimits.maximumPreviewCacheBytes)
    private let comparisons = Mutex<[FrameKey: ImageDifference]>([:])
    private let log: @Sendable (String) -> Void

    /// A session for the scene at `url`, loaded at once (see `status` for how it went).
    ///
    /// - Parameters:
    ///   - size: the output size (the scene's own by default); the scene is scaled to fit it.
    ///   - loader: reads the file (scene files by default).
    ///   - log: told of each reload and each failed load, as one line (or several) of text.
    public init(scene url: URL, size: (width: Int, height: Int)? = nil,
                loader: @escaping Loader = PreviewSession.defaultLoader,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        state = ThreadConfined(value: PreviewRenderState(sceneURL: url, size: size, loader: loader))
        current = Mutex(PreviewStatus(scene: nil, attempt: 0, error: nil, watchedFiles: [url.path]))
        self.log = log
        reload()
    }

    deinit {
        // The backends (a GL context) go on the thread they were made on.
        thread.finish { [state] in state.value.close() }
    }

    /// The version the page can show and the last load's problems.
    public var status: PreviewStatus { current.withLock { $0 } }

    /// Loads the scene again now (the last good version stays when it fails).
    public func reload() {
        // Taken before reading: an edit made while the scene loads is a change at the next look.
        let watched = current.withLock { $0.watchedFiles }
        let before = Dictionary(zip(watched, FileSignature.of(watched)), uniquingKeysWith: { a, _ in a })
        let loaded = thread.sync { [state] in state.value.reload() }
        signatures.withLock { $0 = loaded.files.map { before[$0] ?? FileSignature(path: $0) } }
        switch loaded {
        case .loaded(let info, let files):
            current.withLock { $0 = PreviewStatus(scene: info, attempt: $0.attempt + 1, error: nil, watchedFiles: files) }
            frames.removeVersions(before: info.version)
            comparisons.withLock { $0 = $0.filter { $0.key.version >= info.version } }
            log("loaded \(info.fileName) (version \(info.version), \(info.width)x\(info.height), \(info.frameCount) frames)")
            for note in info.notes { log("note: \(note)") }
        case .failed(let problems, let files):
            current.withLock { $0.attempt += 1; $0.error = problems; $0.watchedFiles = files }
            log(problems)
        }
    }

    /// Loads the scene again when one of its files changed since the last load; true when it did.
    @discardableResult
    public func reloadIfChanged() -> Bool {
        let files = current.withLock { $0.watchedFiles }
        guard FileSignature.of(files) != signatures.withLock({ $0 }) else { return false }
        reload()
        return true
    }

    /// Checks a request's version and frame against what is loaded.
    private func validate(version: Int, frame: Int) -> Result<PreviewSceneInfo, PreviewError> {
        guard let scene = status.scene else { return .failure(.notLoaded) }
        guard version == scene.version else {
            return .failure(PreviewError(status: 409, message: "scene version \(version) is not loaded (version \(scene.version) is)"))
        }
        guard (0..<scene.frameCount).contains(frame) else {
            return .failure(PreviewError(status: 404, message: "frame \(frame) is outside 0…\(scene.frameCount - 1)"))
        }
        return .success(scene)
    }

    /// Frame `frame` of scene version `version` in `view`, as PNG.
    public func frame(version: Int, frame: Int, view: PreviewView) -> Result<EncodedFrame, PreviewError> {
        validate(version: version, frame: frame).flatMap { info in
            let keyed = info.key(frame: frame, view: view)
            if let png = frames[keyed] { return .success(EncodedFrame(png: png, version: version, frame: frame, time: keyed.time)) }
            let picture: Result<Image, PreviewError>
            if let backend = view.backend {
                picture = thread.sync { [state] in
                    let s = state.value
                    return s.version == version ? s.image(frame: frame, backend: backend) : .failure(Self.gone(version))
                }
            } else {
                picture = pair(version: version, frame: frame).map { pair in
                    remember(pair.difference, keyed)
                    return pair.differenceImage
                }
            }
            return picture.flatMap { image in
                // Encoded here, off the render thread, so the next frame can draw meanwhile.
                do {
                    let png = try PNGCodec.encode(image, compressionLevel: 1)
                    frames.insert(png, for: keyed)
                    return .success(EncodedFrame(png: png, version: version, frame: frame, time: keyed.time))
                } catch {
                    return .failure(PreviewError(status: 500, message: "\(error)"))
                }
            }
        }
    }

    /// How the GPU and CPU pictures of frame `frame` differ.
    public func comparison(version: Int, frame: Int) -> Result<Comparison, PreviewError> {
        validate(version: version, frame: frame).flatMap { info in
            let keyed = info.key(frame: frame, view: .diff)
            if let known = comparisons.withLock({ $0[keyed] }) {
                return .success(Comparison(version: version, frame: frame, time: keyed.time, difference: known))
            }
            return pair(version: version, frame: frame).map { pair in
                remember(pair.difference, keyed)
                return Comparison(version: version, frame: frame, time: keyed.time, difference: pair.difference)
            }
        }
    }

    /// The presentation tree of frame `frame` as JSON: `{version, frame, time, parents, boxes,
    /// inspect}` with `inspect` the `lamina inspect` line and `boxes` each layer's
    /// `[x, y, width, height]` in output pixels (null where none exists).
    public func tree(version: Int, frame: Int) -> Result<String, PreviewError> {
        validate(version: version, frame: frame).flatMap { _ in
            thread.sync { [state] in
                let s = state.value
                return s.version == version ? s.treeJSON(frame: frame) : .failure(Self.gone(version))
            }
        }
    }

    /// Both backends' pictures of a frame, compared.
    private func pair(version: Int, frame: Int) -> Result<(difference: ImageDifference, differenceImage: Image), PreviewError> {
        let images = thread.sync { [state] in
            let s = state.value
            guard s.version == version else { return Result<[Image], PreviewError>.failure(Self.gone(version)) }
            return s.image(frame: frame, backend: .gpu).flatMap { gpu in s.image(frame: frame, backend: .cpu).map { [gpu, $0] } }
        }
        return images.flatMap { images in
            guard let difference = ImageComparison.compare(images[0], images[1]),
                  let picture = ImageComparison.differenceImage(images[0], images[1]) else {
                return .failure(PreviewError(status: 500, message: "the GPU and CPU frames differ in size"))
            }
            return .success((difference, picture))
        }
    }

    private func remember(_ difference: ImageDifference, _ key: FrameKey) {
        comparisons.withLock { known in
            if known.count > 4096 { known.removeAll() }
            known[key] = difference
        }
    }

    private static func gone(_ version: Int) -> PreviewError {
        PreviewError(status: 409, message: "scene version \(version) was replaced while drawing")
    }
}
