import Foundation
import Geometry
import Rendering
import Timing

/// The reference renderer: executes the same render plans as the GL compositor on the CPU,
/// following layer.glsl and blur.glsl (perspective-correct sampling, rounded-rectangle coverage,
/// masks, Gaussian blur) and the GPU's rasterization and 8-bit blending rules, so its frames can
/// be compared with the GPU's pixel by pixel.
///
/// Rows of each pass are split into bands drawn on `threads` threads; every pixel is computed
/// by one thread from the same inputs in the same order, so the output is byte-identical at any
/// thread count. Contents images are converted once and kept while the renderer lives.
public final class CPURenderer: RenderBackend {
    public let name = "cpu"
    /// Rows of each pass are split over this many threads.
    public let threads: Int
    private var contents: [ObjectIdentifier: (image: CGImage, texture: Texture?, lastUse: Int)] = [:]
    /// Bytes of the images in `contents`.
    private(set) var contentsBytes = 0
    /// Frames rendered; contents unused for 30 frames are dropped, and the least recently used
    /// beyond `contentsByteBudget`, so content rasterized anew every frame (an animated path, a
    /// Lottie file's trimmed strokes) cannot pile up: each frame's new rasters would otherwise
    /// stay 30 frames, hundreds of megabytes at 1080² whose fresh pages cost a fault each.
    private var frameNumber = 0
    /// Bytes of contents kept past the frame that used them: 8 frames' worth of the largest frame
    /// drawn, at least 64 MiB.
    var contentsByteBudget: Int { max(64 << 20, 8 * largestFrameBytes) }
    private var largestFrameBytes = 0
    /// Pass targets by position in the plan, reused across frames.
    private var targets: [Texture] = []
    /// Which opaque item owns each pixel, reused across passes and frames.
    private var ownerBuffer: UnsafeMutablePointer<Int32>?
    private var ownerCapacity = 0
    /// Each row's columns that a draw resets in `ownerBuffer` (`resetOwnership`).
    private var ownershipRows: [Int] = []
    /// The frame's `TargetExtents` (the frame is drawn into a new array every time).
    private var frameExtents: UnsafeMutablePointer<Int32>?
    private var frameExtentsCapacity = 0
    /// The last frame's pixels, drawn into again when the caller has let go of them (else the
    /// array copies itself first); `frameExtents` bound them while `frameSize` is set.
    private var frameBuffer: [UInt8] = []
    private var frameSize: (width: Int, height: Int)?
    /// Whether a pass the frame only copies is drawn into the frame instead (`DirectPass`; tests
    /// turn it off to compare).
    var drawsCopiedPassesDirectly = true { didSet { reuse.reset() } }
    /// Whether the packed loops draw what they can (tests turn them off to compare).
    var usesFastPaths = true { didSet { reuse.reset() } }
    /// Whether masked textures are drawn only where their mask holds anything (tests turn it off).
    var narrowsToMasks = true { didSet { reuse.reset() } }
    /// Whether pixels a later item's opaque texels replace are left undrawn (`HiddenColumns`;
    /// tests turn it off to compare).
    var hidesCoveredTexels = true { didSet { reuse.reset() } }
    /// The pixels the last frame left undrawn because later items hide them.
    let hiddenPixels = HiddenPixelTally()
    /// Whether passes drawn the same as last frame keep their pixels (tests turn it off to compare).
    var reusesPasses = true { didSet { reuse.reset() } }
    /// Which passes keep last frame's pixels.
    private var reuse = PassReuse()
    /// Counts the renderer's draws of item lists (`PassRasterizer.drawSerial`).
    private var drawSerial = 0
    /// How many passes of the last frame kept their pixels (for tests).
    var keptPassCount: Int { reuse.kept.count }
    /// Ids of the passes of the last frame that kept their pixels (for tests).
    var keptPasses: Set<Int> { reuse.kept }

    /// Threads a pass is drawn on now: one fewer than `threads` while planning paces the frames
    /// (`planningPacesFrames`), leaving its core to the planning thread.
    public private(set) var drawingThreads: Int

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threads = max(1, threads)
        drawingThreads = self.threads
    }

    public func planningPacesFrames(_ paces: Bool) {
        drawingThreads = paces ? max(1, threads - 1) : threads
    }

    deinit {
        ownerBuffer?.deallocate()
        frameExtents?.deallocate()
    }

    /// Shapes placed on the target's pixels come unrasterized (`Paint.shape`) and are rasterized
    /// a band at a time as they are drawn.
    public var drawsDeferredShapes: Bool { true }

    /// From the first frame: drawing leaves a core idle between its bands and around them
    /// (clearing, the sink), which planning the next frame fills even where it takes 0.1 ms
    /// (Lottie frames at 512² and 1080²: +17 % frames/s over the 0.2 ms default).
    public var planningAheadThreshold: Double { 0 }

    /// Finds the row extents and opaque runs of the plan's in-memory images (shape and text
    /// rasters made for it), kept with each image: the scans of a new raster's pixels run on the
    /// planning thread.
    public func prepare(_ plan: RenderPlan) {
        for pass in plan.passes {
            for item in pass.items {
                if case .image(let image, _, _, _) = item.paint, image.pixels != nil {
                    _ = image.rowExtents
                    if hidesCoveredTexels, image.width * image.height >= HiddenColumns.Roles.minimumArea { _ = image.opaqueRuns }
                }
            }
        }
    }

    /// Draws `plan` and returns the frame (RGBA8 premultiplied, top row first).
    public func render(_ plan: RenderPlan, images: ImageProvider, stopwatch: Stopwatch?) -> Image? {
        let start = stopwatch == nil ? 0 : Stopwatch.now()
        var passTextures: [Int: Texture] = [:]
        var frame: [UInt8] = []
        // A frame split by backdrop filters is drawn in a target of its own and copied out.
        let frameContinues = plan.framePass.startsFrom != nil
        reuse.begin(plan, images: images, enabled: reusesPasses)
        defer { reuse.end(passCount: plan.passes.count) }
        hiddenPixels.reset()
        let direct = drawsCopiedPassesDirectly && !frameContinues ? DirectPass(plan) : nil
        var leading: RenderPass?
        for (index, pass) in plan.passes.enumerated() {
            guard pass.width > 0, pass.height > 0, pass.width <= 1 << 15, pass.height <= 1 << 15 else { return nil }
            let sized = index < targets.count && targets[index].width == pass.width && targets[index].height == pass.height
            if index == direct?.index, !reuse.repeats(pass, at: index) {
                // Drawn into the frame with it. A pass drawn as last frame goes through its target
                // instead, to be kept from the next frame on.
                reuse.skip(pass, at: index)
                leading = pass
                continue
            }
            if pass.id == plan.framePass.id, !frameContinues {
                frame = drawFrame(pass, leading: leading, images: images, passTextures: passTextures)
                continue
            }
            let target: Texture
            if reuse.keeps(pass, at: index, targetMatches: sized) {
                // Drawn the same last frame: its pixels (and what was derived from them) stand.
                target = targets[index]
            } else if let earlier = pass.startsFrom.flatMap({ passTextures[$0] }), earlier.width == pass.width, earlier.height == pass.height {
                // Drawing on into the earlier pass's pixels: what was derived from them is stale.
                target = earlier
                target.invalidateDerived()
                draw(pass, into: target.targetPixels, extents: target.extents, start: .continuing, images: images, passTextures: passTextures)
            } else {
                target = self.target(index, width: pass.width, height: pass.height)
                draw(pass, into: target.targetPixels, extents: target.extents, start: target.extentsHold ? .bounded : .unknown,
                     images: images, passTextures: passTextures)
            }
            target.extentsDrawn()
            passTextures[pass.id] = target
            if pass.id == plan.framePass.id {
                frame = Array(UnsafeBufferPointer(start: target.targetPixels, count: pass.width * pass.height * 4))
            }
        }
        frameNumber += 1
        largestFrameBytes = max(largestFrameBytes, plan.width * plan.height * 4)
        if frameNumber % 8 == 0 { dropContents { frameNumber - $0.lastUse > 30 } }
        if contentsBytes > contentsByteBudget { dropLeastRecentlyUsedContents() }
        stopwatch?.add(Stopwatch.now() - start, to: .composite)
        return Image(width: plan.width, height: plan.height, pixels: frame)
    }

    /// The frame pass drawn into the last frame's array (`frameBuffer`), clearing only what its
    /// extents say was drawn; `leading`'s items first in place of the frame's first item, which
    /// copies that pass (`DirectPass`).
    private func drawFrame(_ pass: RenderPass, leading: RenderPass?, images: ImageProvider, passTextures: [Int: Texture]) -> [UInt8] {
        let count = pass.width * pass.height * 4
        if frameExtentsCapacity < pass.height {
            frameExtents?.deallocate()
            frameExtents = .allocate(capacity: 2 * pass.height)
            frameExtentsCapacity = pass.height
            frameSize = nil
        }
        if frameBuffer.count != count { frameBuffer = [UInt8](unsafeUninitializedCapacity: count) { $1 = count } }
        let bounded = frameSize.map { $0 == (pass.width, pass.height) } ?? false
        frameSize = nil
        let extents = frameExtents!
        frameBuffer.withUnsafeMutableBufferPointer { buffer in
            let pixels = buffer.baseAddress!
            if let leading {
                TargetExtents.clear(pixels, width: pass.width, height: pass.height, to: pass.clearColor, extents: extents,
                                    start: bounded ? .bounded : .unknown)
                draw(leading.items[...], pass: leading, stride: pass.width, into: pixels, extents: extents, images: images,
                     passTextures: passTextures)
                draw(pass, from: 1, into: pixels, extents: extents, start: .continuing, images: images, passTextures: passTextures)
            } else {
                draw(pass, into: pixels, extents: extents, start: bounded ? .bounded : .unknown, images: images, passTextures: passTextures)
            }
        }
        frameSize = (pass.width, pass.height)
        return frameBuffer
    }

    /// Clears `pixels` as `start` says (`TargetExtents`) and draws the pass's items into it,
    /// widening `extents` by what they cover; a blur replaces the whole target where it stands
    /// in the order. Items before `first` are left out.
    private func draw(_ pass: RenderPass, from first: Int = 0, into pixels: UnsafeMutablePointer<UInt8>, extents: UnsafeMutablePointer<Int32>,
                      start: TargetExtents.Start, images: ImageProvider, passTextures: [Int: Texture]) {
        TargetExtents.clear(pixels, width: pass.width, height: pass.height, to: pass.clearColor, extents: extents, start: start)
        // Runs of items between blurs, as slices of the pass's items (not copies).
        var segmentStart = pass.items.startIndex + first
        for index in pass.items.indices.dropFirst(first) {
            if case .blur(let source, let sigma, let horizontal) = pass.items[index].paint {
                draw(pass.items[segmentStart..<index], pass: pass, stride: pass.width, into: pixels, extents: extents, images: images,
                     passTextures: passTextures)
                segmentStart = index + 1
                if let texture = passTextures[source] {
                    Blur(source: texture, sigma: Float(sigma), horizontal: horizontal)
                        .apply(into: pixels, width: pass.width, height: pass.height, threads: drawingThreads)
                    TargetExtents.setFull(extents, height: pass.height, width: pass.width)
                }
            }
        }
        draw(pass.items[segmentStart...], pass: pass, stride: pass.width, into: pixels, extents: extents, images: images,
             passTextures: passTextures)
    }

    /// The target of pass `index`, reused across frames while its size is unchanged (new memory
    /// every frame would cost page faults on every pixel).
    private func target(_ index: Int, width: Int, height: Int) -> Texture {
        if index < targets.count, targets[index].width == width, targets[index].height == height {
            targets[index].invalidateDerived()
            return targets[index]
        }
        let texture = Texture(target: width, height: height)
        if index < targets.count { targets[index] = texture } else { targets.append(texture) }
        return texture
    }

    /// Draws `items` of `pass` into `pixels`, rows `stride` pixels apart (wider than the pass
    /// where its items go straight into the frame), within the pass's rectangle.
    private func draw(_ items: ArraySlice<DrawItem>, pass: RenderPass, stride: Int, into pixels: UnsafeMutablePointer<UInt8>,
                      extents: UnsafeMutablePointer<Int32>, images: ImageProvider, passTextures: [Int: Texture]) {
        guard !items.isEmpty else { return }
        let bounds = CGRect(x: 0, y: 0, width: pass.width, height: pass.height)
        var prepared: [PreparedItem] = []
        prepared.reserveCapacity(items.count)
        for (order, item) in items.enumerated() {
            guard let paint = paint(item, images: images, passTextures: passTextures) else { continue }
            let mask = item.maskPass.flatMap { passTextures[$0] }
            if item.maskPass != nil, mask == nil { continue }
            mask?.makeTiles()
            if let p = PreparedItem(item, order: order, bounds: bounds, paint: paint, mask: mask) { prepared.append(p) }
            if item.body?.cornerPair != nil { prepareCorners(of: item, order: order, bounds: bounds, images: images, into: &prepared) }
        }
        let opaque = prepared.indices.filter { prepared[$0].isOpaque }
        // Opaque bodies too where they carry corners, which are drawn in the order.
        let translucent = prepared.indices.filter { !prepared[$0].isOpaque || prepared[$0].cornerTexels != nil }
        let width = stride, height = pass.height
        var owner: UnsafeMutablePointer<Int32>?
        if !opaque.isEmpty {
            if ownerCapacity < width * height {
                ownerBuffer?.deallocate()
                ownerBuffer = .allocate(capacity: width * height)
                ownerCapacity = width * height
            }
            owner = ownerBuffer
            Self.resetOwnership(ownerBuffer!, where: prepared, width: width, height: height, rows: &ownershipRows)
        }
        let work = prepared.reduce(0) { $0 + $1.polygon.rows.count * $1.polygon.columns.count }
        let bands = Self.bandCount(work: work, height: height, threads: drawingThreads)
        var rasterizer = PassRasterizer(target: pixels, owner: owner, width: width, written: extents)
        rasterizer.fastPaths = usesFastPaths
        rasterizer.narrowsToMasks = narrowsToMasks
        rasterizer.hiddenTally = hiddenPixels
        // Where no opaque item owns pixels, the inside of later shapes does what ownership would.
        let hiding = hidesCoveredTexels && owner == nil && usesFastPaths
            ? prepared.withUnsafeBufferPointer { HiddenColumns.Roles($0, drawn: translucent, area: width * height, rasterizer: rasterizer) }
            : nil
        drawSerial &+= 1
        rasterizer.drawSerial = drawSerial
        Self.forEachBand(bands, height: height, threads: drawingThreads) { rows in
            rasterizer.draw(prepared, opaque: opaque, translucent: translucent, rows: rows, hiding: hiding)
        }
    }

    /// Marks the pixels of `owner` that `items` may draw unowned (-1): each row across the
    /// columns of the items' bounding boxes that meet it. Every read of ownership lies in an
    /// item's polygon, so the rest (most of a frame of a few shapes) is never read. `rows` holds
    /// each row's columns (`lo`, `hi` at 2y, 2y + 1) and keeps its storage across frames.
    static func resetOwnership(_ owner: UnsafeMutablePointer<Int32>, where items: [PreparedItem], width: Int, height: Int,
                               rows: inout [Int]) {
        rows.removeAll(keepingCapacity: true)
        for _ in 0..<height { rows.append(width); rows.append(0) }
        for item in items {
            let columns = item.polygon.columns.clamped(to: 0..<width)
            guard !columns.isEmpty else { continue }
            for y in item.polygon.rows.clamped(to: 0..<height) {
                rows[2 * y] = min(rows[2 * y], columns.lowerBound); rows[2 * y + 1] = max(rows[2 * y + 1], columns.upperBound)
            }
        }
        for y in 0..<height where rows[2 * y + 1] > rows[2 * y] {
            (owner + y * width + rows[2 * y]).update(repeating: -1, count: rows[2 * y + 1] - rows[2 * y])
        }
    }

    /// The corners a card's body carries: on the body's prepared item where they lie on whole
    /// pixels (`BodyCornerTexels`), else as items of their own at the body's place in the order.
    private func prepareCorners(of item: DrawItem, order: Int, bounds: CGRect, images: ImageProvider,
                                into prepared: inout [PreparedItem]) {
        guard let pair = item.body?.cornerPair, let mask = texture(for: pair.mask, images: images) else { return }
        if usesFastPaths, let texels = BodyCornerTexels(item, mask: mask), prepared.last?.order == Int32(order) {
            prepared[prepared.count - 1].cornerTexels = texels
            return
        }
        item.forEachBodyCorner { corner in
            guard let paint = paint(corner, images: images, passTextures: [:]),
                  let p = PreparedItem(corner, order: order, bounds: bounds, paint: paint, mask: nil) else { return }
            prepared.append(p)
        }
    }

    /// Pixels of work (items' covered rectangles) a band is worth at least: a draw smaller than
    /// two bands runs on the calling thread, since waking and waiting for the other threads costs
    /// more than it saves there (and far more when other processes hold the cores, when the draw
    /// waits for a thread the system has put aside). Lottie frames are mostly such small draws.
    static let pixelsPerBand = 1 << 16

    /// How many bands a draw of `work` pixels into `height` rows is split into on `threads`.
    static func bandCount(work: Int, height: Int, threads: Int) -> Int {
        guard threads > 1, work >= 2 * pixelsPerBand else { return 1 }
        return max(1, min(height, threads * 4, max(threads, work / pixelsPerBand)))
    }

    /// Runs `body` over `count` bands of rows, in parallel when more than one thread is allowed.
    /// Bands touch disjoint rows, which is what makes sharing the target's pointer safe.
    static func forEachBand(_ count: Int, height: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        if threads == 1 || count == 1 {
            for band in 0..<count { body((band * height / count)..<((band + 1) * height / count)) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = UncheckedSendable(value: body)
            DispatchQueue.concurrentPerform(iterations: count) { band in
                shared.value((band * height / count)..<((band + 1) * height / count))
            }
        }
    }

    private struct UncheckedSendable<Value>: @unchecked Sendable { let value: Value }

    private func paint(_ item: DrawItem, images: ImageProvider, passTextures: [Int: Texture]) -> PreparedPaint? {
        switch item.paint {
        case .solid(let c):
            return .solid(SIMD4(c.red, c.green, c.blue, c.alpha))
        case .image(let image, _, let minification, let magnification):
            return texturePaint(image, minification: minification, magnification: magnification, images: images)
        case .pass(let id, _):
            guard let texture = passTextures[id] else { return nil }
            texture.makeTiles()
            return .texture(texture, minification: .linear, magnification: .linear)
        case .tintedPass(let id, let c, _):
            return passTextures[id].map { .tinted($0, SIMD4(c.red, c.green, c.blue, c.alpha)) }
        case .gradient(let gradient, _):
            return .gradient(gradient)
        case .blur:
            return nil
        case .shape(let shape):
            if usesFastPaths, let origin = item.deferredOrigin(of: shape) { return .deferred(shape, x: origin.x, y: origin.y) }
            // Drawn from its raster, as the GL backend draws it.
            return shape.rasterized().flatMap { texturePaint($0.image, minification: .linear, magnification: .linear, images: images) }
        }
    }

    /// `image` as a texture paint, with what its filtering samples made.
    private func texturePaint(_ image: CGImage, minification: TextureFilter, magnification: TextureFilter,
                              images: ImageProvider) -> PreparedPaint? {
        guard let texture = texture(for: image, images: images) else { return nil }
        if minification == .trilinear { texture.makeMipmaps() } else { texture.makeTiles() }
        return .texture(texture, minification: minification, magnification: magnification)
    }

    /// Drops the texture of `image` (video frames are drawn once).
    public func forget(_ image: CGImage) {
        dropContents { $0.image === image }
        reuse.reset()
    }

    private func dropContents(where drops: ((image: CGImage, texture: Texture?, lastUse: Int)) -> Bool) {
        for (key, entry) in contents where drops(entry) {
            contents[key] = nil
            contentsBytes -= Self.bytes(of: entry.image)
        }
    }

    /// Drops contents, least recently used first, until they fit `contentsByteBudget`; what the
    /// frame just drawn used stays.
    private func dropLeastRecentlyUsedContents() {
        for (key, entry) in contents.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard contentsBytes > contentsByteBudget, entry.lastUse < frameNumber - 1 else { break }
            contents[key] = nil
            contentsBytes -= Self.bytes(of: entry.image)
        }
    }

    private static func bytes(of image: CGImage) -> Int { image.width * image.height * 4 }

    private func texture(for image: CGImage, images: ImageProvider) -> Texture? {
        let key = ObjectIdentifier(image)
        if let entry = contents[key] {
            contents[key]?.lastUse = frameNumber
            return entry.texture
        }
        let texture = images.pixels(for: image).map { Texture($0, knownRowExtents: image.rowExtents, opaqueRuns: image.opaqueRunsIfFound) }
        contents[key] = (image, texture, frameNumber)
        contentsBytes += Self.bytes(of: image)
        return texture
    }
}
