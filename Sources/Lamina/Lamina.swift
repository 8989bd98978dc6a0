// The umbrella module: `import Lamina` brings the whole public API, stage by stage, and
// Foundation (CGRect, CGPoint, CGFloat…), as `import QuartzCore` brings Core Graphics.
@_exported import Foundation
@_exported import Geometry
@_exported import Drawing
@_exported import Timing
@_exported import CoreMedia
@_exported import Filters
@_exported import Animation
@_exported import Layers
@_exported import SceneFormat
@_exported import Presentation
@_exported import LottieImport
@_exported import Rendering
@_exported import ImageIO
@_exported import ContentRaster
@_exported import UIGraphics
@_exported import GLRenderer
@_exported import CPURenderer
@_exported import Export
@_exported import AVExport
