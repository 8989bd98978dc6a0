// swift-tools-version: 6.0
// Lamina: Core Animation's layer-and-animation model for Linux.
// Targets follow the pipeline: Geometry → Timing → Filters → Animation → Layers → Presentation → SceneFormat;
// each imports only the stages before it. `Lamina` re-exports them all.
import PackageDescription

let package = Package(
    name: "Lamina",
    products: [
        .library(name: "Lamina", targets: ["Lamina"]),
        .executable(name: "lamina", targets: ["LaminaCLI"]),
        .executable(name: "lamina-model-bench", targets: ["ModelBenchmark"]),
    ],
    targets: [
        .target(name: "Geometry"),
        .target(name: "Timing"),
        // Core Image filters as values (CIFilter, blend modes), for layers and their animations.
        .target(name: "Filters"),
        .target(name: "Animation", dependencies: ["Geometry", "Timing", "Filters"]),
        .target(name: "Layers", dependencies: ["Geometry", "Timing", "Filters", "Animation"]),
        .target(name: "Presentation", dependencies: ["Geometry", "Timing", "Animation", "Layers"]),
        .target(name: "SceneFormat", dependencies: ["Geometry", "Timing", "Animation", "Layers", "Presentation"]),
        .target(name: "Rendering", dependencies: ["Geometry", "Filters", "Layers", "Presentation"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(name: "ImageIO", dependencies: ["Rendering", "CPNG", "CTurboJPEG"]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .target(name: "ContentRaster", dependencies: ["Geometry", "Layers", "Rendering", "CCairo", "CPangoCairo"]),
        .systemLibrary(name: "CEGL", pkgConfig: "egl", providers: [.apt(["libegl-dev", "libgles-dev"])]),
        .executableTarget(name: "ShaderEmbedder"),
        .plugin(name: "EmbedShaders", capability: .buildTool(), dependencies: ["ShaderEmbedder"]),
        .target(name: "GLRenderer", dependencies: ["Geometry", "Timing", "Rendering", "CEGL"], plugins: ["EmbedShaders"]),
        // Optimised even in debug builds: the test suite renders every reftest with it.
        .target(name: "CPURenderer", dependencies: ["Geometry", "Timing", "Layers", "Rendering"], swiftSettings: [.unsafeFlags(["-O"])]),
        .target(name: "Snapshot", dependencies: ["Geometry", "Timing", "Layers", "Presentation", "Rendering", "ImageIO", "ContentRaster", "GLRenderer", "CPURenderer"]),
        // Video output, decoding and compositing through the ffmpeg program.
        .target(name: "VideoExport", dependencies: ["Geometry", "Timing", "Animation", "Layers", "Presentation", "SceneFormat",
                                                    "Rendering", "ImageIO", "ContentRaster", "GLRenderer", "CPURenderer", "Snapshot"]),
        .target(name: "Lamina", dependencies: ["Geometry", "Timing", "Filters", "Animation", "Layers", "Presentation", "SceneFormat",
                                               "Rendering", "ImageIO", "ContentRaster", "GLRenderer", "CPURenderer", "Snapshot", "VideoExport"]),
        .executableTarget(name: "LaminaCLI", dependencies: ["Lamina"]),
        .executableTarget(name: "ModelBenchmark", dependencies: ["Lamina"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "TimingTests", dependencies: ["Timing"]),
        .testTarget(name: "AnimationTests", dependencies: ["Animation"]),
        .testTarget(name: "LayersTests", dependencies: ["Filters", "Layers", "Presentation", "SceneFormat", "ContentRaster"]),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "GLRenderer", "CPURenderer", "SceneFormat", "ImageIO", "Snapshot"],
                    exclude: ["Goldens"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO", "Rendering"], exclude: ["Fixtures"]),
        .testTarget(name: "SceneFormatTests", dependencies: ["SceneFormat", "Lamina"], exclude: ["Malformed", "FuzzRegressions"]),
        .testTarget(name: "ContentRasterTests", dependencies: ["ContentRaster", "Geometry", "Layers", "Rendering"]),
        .testTarget(name: "ReftestTests", dependencies: ["Lamina"], exclude: ["Reftests"]),
        .testTarget(name: "VideoExportTests", dependencies: ["Lamina"]),
    ],
    swiftLanguageModes: [.v6]
)
