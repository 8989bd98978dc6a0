// The umbrella module: `import Lamina` brings the whole public API, stage by stage — and
// Foundation, as `import UIKit` or `import AVFoundation` does on Apple, so that ported files
// need no other import (URL, CGRect, NSAttributedString, DispatchQueue).
@_exported import Foundation
@_exported import Geometry
@_exported import Timing
@_exported import CoreMedia
@_exported import Animation
@_exported import Layers
@_exported import SceneFormat
@_exported import Presentation
@_exported import Rendering
@_exported import ImageIO
@_exported import ContentRaster
@_exported import GLRenderer
@_exported import CPURenderer
@_exported import Export
@_exported import AVExport
