import Foundation
import Geometry
import Layers
import SceneFormat
import Presentation
import Rendering
import Export

/// Everything of the preview that touches the model tree or a backend: the loaded scene, its
/// renderers and the last pictures. Lives on the render thread: only `PreviewSession`'s jobs
/// on that thread use it, one at a time.
final class PreviewRenderState {
    let sceneURL: URL
    let size: (width: Int, height: Int)?
    let loader: PreviewSession.Loader
    /// Frames shown when the scene has no duration (and no video to take one from).
    static let defaultDuration = 10.0

    /// The last scene that loaded and how it renders; nil until one has.
    private(set) var scene: Scene?
    private(set) var output: SceneOutput?
    private(set) var version = 0
    /// One backend of each kind for the life of the preview (a GL context is costly to make);
    /// renderers of each scene version draw with them.
    private var backends: [BackendKind: Result<any RenderBackend, PreviewError>] = [:]
    private var renderers: [BackendKind: FrameRenderer] = [:]
    /// The last few pictures drawn, so that switching views does not draw a frame twice.
    private var recent: [(key: FrameKey, image: Image)] = []
    private var video: (composition: VideoComposition, info: VideoInfo)?
    /// A running video decoder and the frame it yields next (playback asks for frames in order).
    private var decoder: (next: Int, inputs: VideoFrameInputs)?

    init(sceneURL: URL, size: (width: Int, height: Int)?, loader: @escaping PreviewSession.Loader) {
        self.sceneURL = sceneURL
        self.size = size
        self.loader = loader
    }

    /// What a load gave, for the session's status.
    enum Loaded: Sendable {
        case loaded(PreviewSceneInfo, files: [String])
        case failed(String, files: [String])

        /// The files to watch from now on: the scene file and its assets.
        var files: [String] {
            switch self {
            case .loaded(_, let files), .failed(_, let files): files
            }
        }
    }

    /// Loads the scene file again; on failure the last good scene stays.
    func reload() -> Loaded {
        let scene: Scene
        do {
            scene = try loader(sceneURL)
        } catch {
            return .failed(error.description, files: watchedFiles(self.scene))
        }
        let output = SceneOutput(scene: scene, size: size)
        let side = 1...SceneLimits.maximumOutputSide
        guard side.contains(output.width), side.contains(output.height) else {
            return .failed("output size \(output.width)x\(output.height) is outside 1…\(SceneLimits.maximumOutputSide)",
                           files: watchedFiles(scene))
        }
        var notes: [String] = []
        var frames: ClosedRange<Int>
        do {
            frames = try output.videoFrames()
        } catch {
            frames = output.clock.frames(forDuration: Self.defaultDuration)
            notes.append("the scene has no \"duration\": showing \(Self.defaultDuration.formatted()) s")
        }
        // What `lamina render` checks before its first frame (the scene's "limits" included):
        // an over-budget scene is a problem shown in the page, and the last good one stays.
        do throws(ExportError) {
            try output.measureBudget(times: RenderBudget.sampleTimes(frames, clock: output.clock)).check(subject: output.subject)
        } catch {
            return .failed(error.description, files: watchedFiles(scene))
        }
        decoder?.inputs.close()
        decoder = nil
        video = nil
        if let composition = output.videoComposition {
            do {
                video = (composition, try VideoInfo.probe(composition.url))
            } catch {
                notes.append("the video \(composition.url.lastPathComponent) is not shown: \(error)")
            }
        }
        self.scene = scene
        self.output = output
        version += 1
        renderers = [:]
        recent = []
        let info = PreviewSceneInfo(version: version, fileName: sceneURL.lastPathComponent, width: output.width,
                                    height: output.height, scale: Double(output.scale),
                                    framesPerSecond: output.clock.framesPerSecond, frameDuration: output.clock.frameDuration,
                                    frameCount: frames.count, notes: notes)
        return .loaded(info, files: watchedFiles(scene))
    }

    /// Lets go of the scene, the renderers and the backends (on the thread that made them).
    func close() {
        decoder?.inputs.close()
        decoder = nil
        renderers = [:]
        backends = [:]
        recent = []
        scene = nil
        output = nil
    }

    /// The scene file and the files of its assets.
    private func watchedFiles(_ scene: Scene?) -> [String] {
        var files = [sceneURL.path]
        for asset in (scene?.assets.values).map(Array.init) ?? [] where !files.contains(asset.url.path) { files.append(asset.url.path) }
        return files
    }

    /// Frame `index` of the current version drawn by `backend`.
    func image(frame index: Int, backend kind: BackendKind) -> Result<Image, PreviewError> {
        guard let scene, let output else { return .failure(.notLoaded) }
        let key = FrameKey(version: version, time: output.clock.time(ofFrame: index), view: kind == .gpu ? .gpu : .cpu,
                           width: output.width, height: output.height)
        if let hit = recent.first(where: { $0.key == key }) { return .success(hit.image) }
        let renderer: FrameRenderer
        switch makeRenderer(kind, output) {
        case .success(let r): renderer = r
        case .failure(let error): return .failure(error)
        }
        var inputs: [ObjectIdentifier: CGImage] = [:]
        if let video {
            do {
                inputs = try videoFrame(index, video.composition, video.info, output)
            } catch {
                return .failure(PreviewError(status: 500, message: "frame \(index): \(error)"))
            }
        }
        // Each frame's offscreen pixels are checked against the budget, as in an export.
        let drawn = Result { () throws(ExportError) in
            try renderer.renderChecked(scene.root, at: key.time, index: index, inputs: inputs, stopwatch: nil)
        }
        for input in inputs.values { renderer.backend.forget(input) }
        let image: Image
        switch drawn {
        case .success(let picture?): image = picture
        case .success(nil):
            return .failure(PreviewError(status: 500, message: "frame \(index) could not be drawn by the \(kind.rawValue) backend"))
        case .failure(let error): return .failure(PreviewError(status: 500, message: error.description))
        }
        recent.append((key, image))
        if recent.count > 6 { recent.removeFirst() }
        return .success(image)
    }

    private func makeRenderer(_ kind: BackendKind, _ output: SceneOutput) -> Result<FrameRenderer, PreviewError> {
        if let existing = renderers[kind] { return .success(existing) }
        let backend = backends[kind] ?? Result { () throws(PreviewError) in
            do { return try kind.makeBackend() } catch {
                throw PreviewError(status: 503, message: "the \(kind.rawValue) backend is unavailable: \(error)")
            }
        }
        backends[kind] = backend
        return backend.map { backend in
            let renderer = FrameRenderer(width: output.width, height: output.height, scale: output.scale,
                                         background: output.scene.background, backend: backend)
            renderer.budget = output.budget
            renderer.subject = output.subject
            renderers[kind] = renderer
            return renderer
        }
    }

    /// The input video's frame `index`, from the running decoder when it is the next one.
    private func videoFrame(_ index: Int, _ composition: VideoComposition, _ info: VideoInfo,
                            _ output: SceneOutput) throws(ExportError) -> [ObjectIdentifier: CGImage] {
        if decoder?.next != index {
            decoder?.inputs.close()
            let size = composition.decodeSize(scale: output.scale, fallback: (output.width, output.height))
            decoder = (index, try VideoFrameInputs(composition, info: info, width: size.width, height: size.height,
                                                   clock: output.clock, first: index))
        }
        guard let running = decoder else { return [:] }
        let images = try running.inputs.images(forFrame: index)
        decoder = (index + 1, running.inputs)
        return images
    }

    /// Frame `index`'s presentation tree as the page's JSON: the `inspect` line, each layer's
    /// parent and its box in output pixels.
    func treeJSON(frame index: Int) -> Result<String, PreviewError> {
        guard let scene, let output else { return .failure(.notLoaded) }
        let time = output.clock.time(ofFrame: index)
        let tree = PresentationTree.evaluate(scene.root, at: time)
        let inspect = PresentationJSON(imageName: scene.assetNamer()).line(for: tree)
        let parents = tree.layers.map { $0.parent.map(String.init) ?? "null" }.joined(separator: ", ")
        let boxes = tree.layers.indices.map { i -> String in
            guard let box = tree.outputBounds(of: i, scale: output.scale) else { return "null" }
            return "[" + [box.minX, box.minY, box.width, box.height].map { PresentationJSON.number(Double($0)) }.joined(separator: ", ") + "]"
        }.joined(separator: ", ")
        return .success("{\"version\": \(version), \"frame\": \(index), \"time\": \(PresentationJSON.number(time)), "
                        + "\"parents\": [\(parents)], \"boxes\": [\(boxes)], \"inspect\": \(inspect)}")
    }
}
