import Filters

/// Lottie's layer blend modes (`"bm"`) as Core Animation compositing filters, numbered as
/// Bodymovin and lottie-ios number them.
enum LottieBlendModes {
    private static let kinds: [LayerFilter.Kind] = [
        .multiplyBlendMode, .screenBlendMode, .overlayBlendMode, .darkenBlendMode, .lightenBlendMode,
        .colorDodgeBlendMode, .colorBurnBlendMode, .hardLightBlendMode, .softLightBlendMode,
        .differenceBlendMode, .exclusionBlendMode, .hueBlendMode, .saturationBlendMode, .colorBlendMode,
        .luminosityBlendMode,
    ]

    /// The compositing filter's name for blend mode `mode`: nil for normal (0) and for modes
    /// lottie-ios does not know (16 add, 17 hard mix).
    static func filterName(_ mode: Int) -> String? {
        (1...kinds.count).contains(mode) ? kinds[mode - 1].rawValue : nil
    }
}
