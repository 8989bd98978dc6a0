import Foundation
import Geometry

/// The rounded corners of a card (a rounded solid fill with its border) carried by the card's
/// body item (`FillBody.cornerPair`), so a card is one item in the plan: a scene of rounded
/// cards spent more on building, copying and preparing five items per card than on its pixels.
/// Each cut corner is drawn as the item `DrawItem.forEachBodyCorner` gives — the `side`×`side`
/// square with the pair's quadrant for that corner (red the fill's coverage, green the
/// border's ring, `DrawItem.borderTint`) — at the body's place in the painter's order, after
/// the body (corners of one layer and its body do not overlap).
public struct BodyCorners: Sendable, Equatable {
    /// The corner-mask pair (`ContentRequest.cornerMaskPair`): one corner per quadrant.
    public var mask: CGImage
    /// The fill's and the border's premultiplied colours.
    public var fill: PremultipliedColor
    public var border: PremultipliedColor

    public init(mask: CGImage, fill: PremultipliedColor, border: PremultipliedColor) {
        self.mask = mask; self.fill = fill; self.border = border
    }
}

extension RoundedCorners {
    /// For a single corner: whether it lies on the rectangle's min-x side, and on its min-y side.
    var liesAtMin: (x: Bool, y: Bool) {
        (self == .minXMinY || self == .minXMaxY, self == .minXMinY || self == .maxXMinY)
    }
}

extension DrawItem {
    /// The part of a corner-mask pair that a corner's square samples.
    public static func quadrant(of corner: RoundedCorners) -> CGRect {
        let atMin = corner.liesAtMin
        return CGRect(x: atMin.x ? 0 : 0.5, y: atMin.y ? 0 : 0.5, width: 0.5, height: 0.5)
    }

    /// The `side`×`side` square of `rect` at the single corner `corner`.
    static func cornerSquare(_ corner: RoundedCorners, of rect: CGRect, side: CGFloat) -> CGRect {
        let atMin = corner.liesAtMin
        return CGRect(x: atMin.x ? rect.minX : rect.maxX - side, y: atMin.y ? rect.minY : rect.maxY - side,
                      width: side, height: side)
    }

    /// Calls `body` with the corner item of each corner a body with `FillBody.cornerPair` draws
    /// (in `cornerSquares` order): the item a rounded corner of a fill merged with its border
    /// is drawn as (`RenderPlanBuilder.maskingCorner(_:pairedBorder:_:)`). Nothing for other items.
    public func forEachBodyCorner(_ body: (DrawItem) -> Void) {
        guard let fillBody = self.body, let pair = fillBody.cornerPair else { return }
        var corner = self
        corner.body = nil
        corner.shape = nil
        corner.borderWidth = nil
        corner.tint = pair.fill
        corner.borderTint = pair.border
        let side = fillBody.side
        for (which, origin) in Self.cornerSquares(of: rect, side: side) where fillBody.corners.contains(which) {
            corner.rect = CGRect(x: origin.x, y: origin.y, width: side, height: side)
            corner.paint = .image(pair.mask, source: Self.quadrant(of: which), minification: .linear, magnification: .linear)
            body(corner)
        }
    }
}
