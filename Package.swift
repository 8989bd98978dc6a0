// swift-tools-version: 6.0
// Lamina: Core Animation's layer-and-animation model for Linux.
// Targets follow the pipeline: Geometry → Drawing → Timing → Animation → Layers → Presentation →
// SceneFormat → Rendering → ImageIO → ContentRaster → UIGraphics → backends; each imports only the
// stages before it. `Lamina` re-exports them all, and Foundation.
// Core Graphics drawing sits early: Geometry holds its value types (CGColorSpace, CGGradient,
// bitmap info), Drawing the cairo-backed `CGContext`, so that layers can draw themselves
// (`CALayer.draw(in:)`) and the render plan can ask them to. Text drawing into a context
// (`NSAttributedString.draw`) lives with the Pango text code in ContentRaster; `UIImage` and the
// image renderers need image files, so they come after ImageIO, in UIGraphics.
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
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .target(name: "Drawing", dependencies: ["Geometry", "CCairo"]),
        .target(name: "Timing"),
        .target(name: "Animation", dependencies: ["Geometry", "Timing"]),
        .target(name: "Layers", dependencies: ["Geometry", "Drawing", "Timing", "Animation"]),
        .target(name: "Presentation", dependencies: ["Geometry", "Timing", "Animation", "Layers"]),
        .target(name: "SceneFormat", dependencies: ["Geometry", "Timing", "Animation", "Layers", "Presentation"]),
        .target(name: "Rendering", dependencies: ["Geometry", "Layers", "Presentation"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(name: "ImageIO", dependencies: ["Rendering", "CPNG", "CTurboJPEG"]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .target(name: "ContentRaster", dependencies: ["Geometry", "Drawing", "Layers", "Rendering", "CCairo", "CPangoCairo"]),
        // UIKit's image conveniences: UIImage, UIGraphicsImageRenderer, image contexts.
        .target(name: "UIGraphics", dependencies: ["Geometry", "Drawing", "Rendering", "ImageIO"]),
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
        .target(name: "Lamina", dependencies: ["Geometry", "Drawing", "UIGraphics", "Timing", "Animation", "Layers", "Presentation", "SceneFormat",
                                               "Rendering", "ImageIO", "ContentRaster", "GLRenderer", "CPURenderer", "Snapshot", "VideoExport"]),
        .executableTarget(name: "LaminaCLI", dependencies: ["Lamina"]),
        .executableTarget(name: "ModelBenchmark", dependencies: ["Lamina"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "TimingTests", dependencies: ["Timing"]),
        .testTarget(name: "AnimationTests", dependencies: ["Animation"]),
        .testTarget(name: "LayersTests", dependencies: ["Layers", "Presentation", "SceneFormat", "ContentRaster"]),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "GLRenderer", "CPURenderer", "SceneFormat", "ImageIO", "Snapshot"],
                    exclude: ["Goldens"]),
        .testTarget(name: "ImageIOTests", dependencies: ["ImageIO", "Rendering"], exclude: ["Fixtures"]),
        .testTarget(name: "SceneFormatTests", dependencies: ["SceneFormat", "Lamina"], exclude: ["Malformed", "FuzzRegressions"]),
        .testTarget(name: "ContentRasterTests", dependencies: ["ContentRaster", "Geometry", "Layers", "Rendering"]),
        .testTarget(name: "ReftestTests", dependencies: ["Lamina"], exclude: ["Reftests"]),
        .testTarget(name: "VideoExportTests", dependencies: ["Lamina"]),
        .testTarget(name: "DrawingTests", dependencies: ["Drawing", "Geometry"]),
        // iOS code ported by changing its imports, rendered on both backends.
        .testTarget(name: "PortedCodeTests", dependencies: ["Lamina"]),
    ],
    swiftLanguageModes: [.v6]
)
