import ContentRaster
import Foundation
import Geometry
import Layers
import Rendering
import XCTest

final class ContentCacheTests: XCTestCase {
    private func shape(strokeEnd: CGFloat = 1) -> ShapeRasterInput {
        ShapeRasterInput(path: CGPath(rect: CGRect(x: 2, y: 2, width: 10, height: 10)),
                         style: ShapeStyle(fillColor: .black, strokeColor: .white, lineWidth: 2, strokeEnd: strokeEnd),
                         region: CGRect(x: 0, y: 0, width: 16, height: 16), scale: 1)
    }

    func testShapeHitsWhileUnchangedAndMissesWhenChanged() throws {
        let cache = ContentCache()
        let first = try XCTUnwrap(cache.image(for: shape()))
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 0, misses: 1, count: 1))
        // An equal input built afresh (a new path object with the same elements) hits.
        let second = try XCTUnwrap(cache.image(for: shape()))
        XCTAssertEqual(second, first)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 1, count: 1))
        let changed = try XCTUnwrap(cache.image(for: shape(strokeEnd: 0.5)))
        XCTAssertNotEqual(changed, first)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 2, count: 2))
        XCTAssertEqual(first, PathRasterizer.rasterize(shape()))  // the cache changes nothing
    }

    func testTextHitsKeepTheirWarnings() {
        let cache = ContentCache()
        let input = TextRasterInput(content: .plain("Hi"), font: "GillSans-Bold", fontSize: 12, size: CGSize(width: 40, height: 20))
        let first = cache.text(for: input)
        let again = cache.text(for: input)
        XCTAssertEqual(again, first)
        XCTAssertEqual(again.warnings.count, 1)
        var other = input
        other.foregroundColor = .black
        XCTAssertNotEqual(cache.text(for: other).image, first.image)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 2, count: 2))
    }

    func testLeastRecentlyUsedIsDroppedBeyondCapacity() {
        let cache = ContentCache(capacity: 2)
        _ = cache.image(for: shape(strokeEnd: 0.1))
        _ = cache.image(for: shape(strokeEnd: 0.2))
        _ = cache.image(for: shape(strokeEnd: 0.1))  // hit: 0.2 is now the oldest
        _ = cache.image(for: shape(strokeEnd: 0.3))  // evicts 0.2
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 3, count: 2))
        _ = cache.image(for: shape(strokeEnd: 0.1))
        XCTAssertEqual(cache.statistics.hits, 2)
        _ = cache.image(for: shape(strokeEnd: 0.2))
        XCTAssertEqual(cache.statistics.misses, 4)
        cache.removeAll(resettingStatistics: true)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 0, misses: 0, count: 0))
    }
}
