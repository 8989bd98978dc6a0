import Foundation
import CEGL
import Geometry
import Rendering

// A rounded card's corners, written as instances straight from its body item.

extension GLRenderer {
    /// A card's corners: the instances `enqueue` adds for each item `DrawItem.forEachBodyCorner`
    /// gives, written without building those items (a card's four corner items cost more to
    /// copy and look at than their instances to write). Items it does not handle — a corner
    /// that reads the backdrop or is a split piece — go the general way.
    func enqueueBodyCorners(of item: DrawItem, index: Int, depth: GLfloat, images: ImageProvider, passTextures: [Int: GLuint]) {
        guard let body = item.body, let pair = body.cornerPair else { return }
        guard item.polygon == nil, !item.blendMode.readsBackdrop,
              let texture = texture(for: pair.mask, images: images, mipmapped: false) else {
            return item.forEachBodyCorner { enqueue($0, index: index, depth: depth, images: images, passTextures: passTextures) }
        }
        var key = BatchKey(variant: LayerProgram.Variant(textured: true, shaped: false, masked: false),
                           texture: texture, mask: item.maskPass.flatMap { passTextures[$0] } ?? 0,
                           minFilter: GL_LINEAR, magFilter: GL_LINEAR)
        key.variant.masked = key.mask != 0
        key.blendMode = item.blendMode
        key.colorMatrix = item.colorMatrix
        key.variant.colorMatrix = item.colorMatrix != nil
        key.variant.paired = true
        let m = item.transform
        let params = SIMD4(item.opacity, 0, depth, 0)
        // The corners under later opaque items, as the body found them (`coveredCuts`).
        let covered = coveredCuts[index] ?? coveredCorners(of: item, body: body, at: index)
        body.forEachCutSquare(of: item.rect) { which, square in
            if covered.contains(which) { return }
            var uv = DrawItem.quadrant(of: which)
            key.variant.exactTexels = Self.mapsTexelsOntoPixels(square, transform: m, polygon: nil, image: pair.mask, source: uv)
            if key.variant.exactTexels {
                uv = Self.texelOrigin(square, transform: m, image: pair.mask, source: uv)
            }
            if key != batchKey {
                flush()
                batchKey = key
            }
            batch.append(m, rect: square, uv: uv, color: pair.fill, shape: square, radii: .zero, params: params, band: pair.border)
        }
    }

    /// The cut corners of a body whose squares a later opaque item wholly covers (the body may
    /// then draw over them).
    func coveredCorners(of item: DrawItem, body: FillBody, at index: Int) -> RoundedCorners {
        guard !body.corners.isEmpty else { return [] }
        var covered: RoundedCorners = []
        body.forEachCutSquare(of: item.rect) { corner, square in
            if cover.hides(square, transform: item.transform, at: index) { covered.insert(corner) }
        }
        return covered
    }

    /// Whether `item` shows `source` of `image` one texel per pixel, texel centres on pixel
    /// centres (a corner-mask pair on whole pixels): sampling is then a texel read.
    static func mapsTexelsOntoPixels(_ rect: CGRect, transform m: CATransform3D, polygon: [CGPoint]?, image: CGImage, source: CGRect) -> Bool {
        guard m.m11 == 1, m.m22 == 1, m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1, polygon == nil else { return false }
        let x = rect.minX + m.m41, y = rect.minY + m.m42
        return x == x.rounded() && y == y.rounded() && source.width * CGFloat(image.width) == rect.width
            && source.height * CGFloat(image.height) == rect.height
            && (source.minX * CGFloat(image.width)).rounded() == source.minX * CGFloat(image.width)
            && (source.minY * CGFloat(image.height)).rounded() == source.minY * CGFloat(image.height)
    }

    /// The target pixel of texel (0, 0) of an item that `mapsTexelsOntoPixels`: the shader reads
    /// texels at pixel minus this.
    static func texelOrigin(_ rect: CGRect, transform m: CATransform3D, image: CGImage, source: CGRect) -> CGRect {
        CGRect(x: rect.minX + m.m41 - source.minX * CGFloat(image.width),
               y: rect.minY + m.m42 - source.minY * CGFloat(image.height), width: 0, height: 0)
    }
}
