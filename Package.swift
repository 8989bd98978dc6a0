// swift-tools-version: 6.0
// Lamina: Core Animation's layer-and-animation model for Linux.
//
// Targets follow the pipeline, each importing only the stages before it:
//   Geometry → Drawing → Timing → CoreMedia (CMTime) → Filters → Animation → Layers → SceneFormat (scene file → model)
//   → Presentation (model at time t) → LottieImport (Lottie file → model) → Rendering (render plan) → ImageIO, ContentRaster
//   → UIGraphics → GLRenderer | CPURenderer (plan → frame) → Export (frame clock, frame loop, sinks)
//   → AVExport (AVFoundation's export API over Export) → RenderTesting (snapshot assertions),
//   Demo, Benchmarks, Preview (the `lamina preview` server) → Lamina (umbrella) → LaminaCLI.
// Core Graphics drawing sits early: Geometry holds its value types (CGColorSpace, CGGradient,
// bitmap info), Drawing the cairo-backed `CGContext`, so that layers can draw themselves
// (`CALayer.draw(in:)`) and the render plan can ask them to. Text drawing into a context
// (`NSAttributedString.draw`) lives with the Pango text code in ContentRaster; `UIImage` and the
// image renderers need image files, so they come after ImageIO, in UIGraphics.
// C libraries are reached only through the `C*` system-library shims.
import PackageDescription

let package = Package(
    name: "Lamina",
    products: [
        .library(name: "Lamina", targets: ["Lamina"]),
        .library(name: "RenderTesting", targets: ["RenderTesting"]),
        .executable(name: "lamina", targets: ["LaminaCLI"]),
        .executable(name: "lamina-model-bench", targets: ["ModelBenchmark"]),
    ],
    targets: [
        .target(name: "Geometry"),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .target(name: "Drawing", dependencies: ["Geometry", "CCairo"]),
        .target(name: "Timing"),
        // Core Media's rational time: CMTime, CMTimeRange, CMTimeMapping, track IDs.
        .target(name: "CoreMedia"),
        // CIFilter and blend modes as values, for layers and their animations.
        .target(name: "Filters"),
        // The compiler's prefetch hint (a header), for evaluating big trees.
        .systemLibrary(name: "CPrefetch"),
        .target(name: "Animation", dependencies: ["Geometry", "Timing", "Filters", "CPrefetch"]),
        .target(name: "Layers", dependencies: ["Geometry", "Drawing", "Timing", "Filters", "Animation", "CPrefetch"]),
        .target(name: "SceneFormat", dependencies: ["Geometry", "Timing", "Filters", "Animation", "Layers"]),
        .target(name: "Presentation", dependencies: ["Geometry", "Timing", "Filters", "Animation", "Layers"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Lottie files (JSON, .lottie) as layer trees, as lottie-ios's Core Animation engine builds them.
        .systemLibrary(name: "CFontconfig", pkgConfig: "freetype2", providers: [.apt(["libfontconfig-dev", "libfreetype-dev"])]),
        .target(name: "LottieImport", dependencies: ["Geometry", "Timing", "Filters", "Animation", "Layers", "Presentation", "SceneFormat", "CZlib",
                                                     "CFontconfig"]),
        .target(name: "Rendering", dependencies: ["Geometry", "Timing", "Filters", "Animation", "Layers", "Presentation"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(name: "ImageIO", dependencies: ["Geometry", "Layers", "Rendering", "CPNG", "CTurboJPEG"]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .target(name: "ContentRaster", dependencies: ["Geometry", "Drawing", "Timing", "Layers", "Rendering", "CCairo", "CPangoCairo"]),
        // UIKit's image conveniences: UIImage, UIGraphicsImageRenderer, image contexts.
        .target(name: "UIGraphics", dependencies: ["Geometry", "Drawing", "Rendering", "ImageIO"]),
        .systemLibrary(name: "CEGL", pkgConfig: "egl", providers: [.apt(["libegl-dev", "libgles-dev"])]),
        // Build tool: files of `Shaders/` (and the demo's `Examples/` files) as Swift constants.
        .executableTarget(name: "ResourceEmbedder"),
        .plugin(name: "EmbedShaders", capability: .buildTool(), dependencies: ["ResourceEmbedder"]),
        .plugin(name: "EmbedExamples", capability: .buildTool(), dependencies: ["ResourceEmbedder"]),
        .plugin(name: "EmbedPreviewPage", capability: .buildTool(), dependencies: ["ResourceEmbedder"]),
        .target(name: "GLRenderer", dependencies: ["Geometry", "Timing", "Rendering", "CEGL"], plugins: ["EmbedShaders"]),
        // Optimised even in debug builds: the test suite renders every reftest with it.
        .target(name: "CPURenderer", dependencies: ["Geometry", "Timing", "Rendering"], swiftSettings: [.unsafeFlags(["-O"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The frame clock, the one frame loop, frame inputs and sinks (PNG, video through ffmpeg,
        // contact sheet, memory), video decoding, segment plans and joining.
        .target(name: "Export", dependencies: ["Geometry", "Timing", "Animation", "Layers", "Presentation", "SceneFormat",
                                               "LottieImport", "Rendering", "ImageIO", "ContentRaster", "GLRenderer", "CPURenderer", "CCrypto"]),
        // AVFoundation's export API (assets probed with ffprobe, compositions, video compositions,
        // the Core Animation tool rendered y-up, export sessions, player items) executed by Export.
        .target(name: "AVExport", dependencies: ["Geometry", "Timing", "CoreMedia", "Animation", "Layers", "Presentation",
                                                 "Rendering", "ImageIO", "Export"]),
        // Snapshot assertions for XCTest and Swift Testing, and the reftest manifest reader.
        .target(name: "RenderTesting", dependencies: ["Geometry", "Layers", "Presentation", "SceneFormat", "LottieImport", "Rendering",
                                                      "ImageIO", "Export"]),
        // `lamina demo`: the built-in demo scene (Examples/demo.json, embedded) over a generated clip.
        .target(name: "Demo", dependencies: ["Geometry", "Layers", "SceneFormat", "Rendering", "ImageIO", "Export"],
                plugins: ["EmbedExamples"]),
        // `lamina bench`, `lamina bench --export` and `lamina-model-bench`.
        .target(name: "Benchmarks", dependencies: ["Geometry", "Drawing", "Timing", "Filters", "Animation", "Layers", "Presentation", "SceneFormat", "LottieImport",
                                                   "Rendering", "ImageIO", "ContentRaster", "GLRenderer", "CPURenderer",
                                                   "Export", "CoreMedia", "AVExport", "Demo", "CEGL"],
                plugins: ["EmbedShaders"]),
        // `lamina preview`: a minimal loopback HTTP server, the scene's frames on demand, live reload;
        // the page (Sources/Preview/Page) embedded at build time.
        .target(name: "Preview", dependencies: ["Geometry", "Layers", "SceneFormat", "Presentation", "Rendering", "ImageIO", "Export"],
                exclude: ["Page"], plugins: ["EmbedPreviewPage"]),
        .target(name: "Lamina", dependencies: ["Geometry", "Drawing", "UIGraphics", "Timing", "CoreMedia", "Filters", "Animation", "Layers", "Presentation", "SceneFormat", "LottieImport",
                                               "Rendering", "ImageIO", "ContentRaster", "GLRenderer", "CPURenderer", "Export", "AVExport"]),
        .executableTarget(name: "LaminaCLI", dependencies: ["Lamina", "Demo", "Benchmarks", "Preview"]),
        .executableTarget(name: "ModelBenchmark", dependencies: ["Benchmarks"]),
        // Helpers shared by the test targets (pixel probes, temporary folders, scene loading).
        .target(name: "TestSupport", dependencies: ["Lamina"], path: "Tests/TestSupport"),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry", "TestSupport"]),
        .testTarget(name: "TimingTests", dependencies: ["Timing", "TestSupport"]),
        .testTarget(name: "CoreMediaTests", dependencies: ["CoreMedia"]),
        .testTarget(name: "AnimationTests", dependencies: ["Animation", "TestSupport"]),
        .testTarget(name: "LayersTests", dependencies: ["Filters", "Layers", "Presentation", "SceneFormat", "ContentRaster", "TestSupport"]),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation", "TestSupport"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "GLRenderer", "CPURenderer", "SceneFormat", "ImageIO", "Export",
                                                           "RenderTesting", "TestSupport"],
                    exclude: ["Goldens"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO", "Rendering", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SceneFormatTests", dependencies: ["SceneFormat", "Lamina", "TestSupport"], exclude: ["Malformed", "FuzzRegressions"]),
        .testTarget(name: "ContentRasterTests", dependencies: ["ContentRaster", "Geometry", "Layers", "Rendering", "TestSupport"]),
        .testTarget(name: "ReftestTests", dependencies: ["Lamina", "RenderTesting", "TestSupport"], exclude: ["Reftests"]),
        .testTarget(name: "LottieImportTests", dependencies: ["LottieImport", "SceneFormat", "Layers", "Geometry"]),
        .testTarget(name: "ExportTests", dependencies: ["Lamina", "Demo", "TestSupport"]),
        // iOS export code ported with `import Lamina` only: assets, compositions, export sessions.
        .testTarget(name: "AVExportTests", dependencies: ["Lamina", "TestSupport"]),
        .testTarget(name: "RenderTestingTests", dependencies: ["Lamina", "RenderTesting", "TestSupport"], exclude: ["__Snapshots__"]),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "TestSupport"]),
        .testTarget(name: "DrawingTests", dependencies: ["Drawing", "Geometry"]),
        // iOS code ported by changing its imports, rendered on both backends.
        .testTarget(name: "PortedCodeTests", dependencies: ["Lamina"]),
        .testTarget(name: "PreviewTests", dependencies: ["Preview", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
