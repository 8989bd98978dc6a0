import ContentRaster
import Foundation
import Geometry
import Layers
import Rendering
import XCTest
import TestSupport

final class ContentCacheTests: XCTestCase {
    private func shape(strokeEnd: CGFloat = 1) -> ContentRequest {
        var shape = ShapeProperties()
        shape.path = CGPath(rect: CGRect(x: 2, y: 2, width: 10, height: 10))
        shape.strokeColor = .white
        shape.lineWidth = 2
        shape.lineJoin = .round
        shape.strokeEnd = strokeEnd
        return .shape(shape, scale: 1)
    }

    func testShapeHitsWhileUnchangedAndMissesWhenChanged() throws {
        let cache = ContentCache()
        let stopwatch = Stopwatch()
        let first = try XCTUnwrap(cache.rasterize(shape(), stopwatch: stopwatch))
        let firstSeconds = stopwatch[.raster]
        XCTAssertGreaterThan(firstSeconds, 0)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 0, misses: 1, count: 1))
        // The painted area: the path grown by half the line width, on whole pixels.
        XCTAssertEqual(first.rect, CGRect(x: 1, y: 1, width: 12, height: 12))
        XCTAssertEqual(first.image.width, 12)
        // An equal request built afresh (a new path object with the same elements) hits and
        // returns the very same image object, so texture caches keyed by identity hit too.
        let second = try XCTUnwrap(cache.rasterize(shape(), stopwatch: stopwatch))
        XCTAssertTrue(second.image === first.image)
        // A hit rasterizes nothing, so it adds no raster time.
        XCTAssertEqual(stopwatch[.raster], firstSeconds)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 1, count: 1))
        let changed = try XCTUnwrap(cache.rasterize(shape(strokeEnd: 0.5)))
        XCTAssertFalse(changed.image === first.image)
        XCTAssertNotEqual(changed.image.pixels, first.image.pixels)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 2, count: 2))
    }

    /// A hit is the image a fresh cache rasterizes for the same request, byte for byte; a path
    /// with one point moved, or another fill colour, misses and draws differently.
    func testHitsMatchAFreshRasterAndChangedPathsOrColoursMiss() throws {
        func request(corner: CGFloat = 12, fill: CGColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)) -> ContentRequest {
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 1, y: 1))
            path.addLine(to: CGPoint(x: corner, y: 2))
            path.addLine(to: CGPoint(x: 6, y: 11))
            path.closeSubpath()
            var shape = ShapeProperties()
            shape.path = path
            shape.fillColor = fill
            return .alignedShape(shape, scale: 1.5, stretch: CGSize(width: 1, height: 1), phase: CGPoint(x: 0.25, y: 0.5))
        }
        let cache = ContentCache()
        let first = try XCTUnwrap(cache.rasterize(request()))
        let hit = try XCTUnwrap(cache.rasterize(request()))
        XCTAssertTrue(hit.image === first.image)
        let fresh = try XCTUnwrap(ContentCache().rasterize(request()))
        XCTAssertEqual(hit.image.pixels, fresh.image.pixels)
        XCTAssertEqual(hit.rect, fresh.rect)
        let moved = try XCTUnwrap(cache.rasterize(request(corner: 12.5)))
        XCTAssertFalse(moved.image === first.image)
        XCTAssertNotEqual(moved.image.pixels, first.image.pixels)
        let recoloured = try XCTUnwrap(cache.rasterize(request(fill: CGColor(red: 0, green: 0.5, blue: 1, alpha: 1))))
        XCTAssertNotEqual(recoloured.image.pixels, first.image.pixels)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 3, count: 3))
        // Each still hits after the others were stored.
        XCTAssertTrue(try XCTUnwrap(cache.rasterize(request())).image === first.image)
        XCTAssertTrue(try XCTUnwrap(cache.rasterize(request(corner: 12.5))).image === moved.image)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 3, misses: 3, count: 3))
    }

    func testTextWarningsAreCollectedOnce() throws {
        let cache = ContentCache()
        var text = TextProperties()
        text.string = "Hi"
        text.font = "GillSans-Bold"
        text.fontSize = 12
        let request = ContentRequest.text(text, size: CGSize(width: 40, height: 20), scale: 1)
        let first = try XCTUnwrap(cache.rasterize(request))
        XCTAssertEqual(first.rect, CGRect(x: 0, y: 0, width: 40, height: 20))
        _ = cache.rasterize(request)
        XCTAssertEqual(cache.warnings.count, 1)
        XCTAssertTrue(cache.warnings[0].contains("GillSans-Bold"), cache.warnings[0])
        text.foregroundColor = .black
        let other = try XCTUnwrap(cache.rasterize(.text(text, size: CGSize(width: 40, height: 20), scale: 1)))
        XCTAssertNotEqual(other.image.pixels, first.image.pixels)
        XCTAssertEqual(cache.warnings.count, 1)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 2, count: 2))
    }

    func testFilledPathCoversItsBoundingBox() throws {
        let cache = ContentCache()
        let filled = try XCTUnwrap(cache.rasterize(.filledPath(CGPath(rect: CGRect(x: 4, y: 6, width: 8, height: 4)), scale: 2)))
        XCTAssertEqual(filled.rect, CGRect(x: 4, y: 6, width: 8, height: 4))
        XCTAssertEqual(filled.image.width, 16)
        XCTAssertEqual(filled.image.height, 8)
        XCTAssertTrue(try XCTUnwrap(filled.image.pixels).allSatisfy { $0 == 255 })
    }

    func testLeastRecentlyUsedIsDroppedBeyondCapacity() {
        let cache = ContentCache(capacity: 2)
        _ = cache.rasterize(shape(strokeEnd: 0.1))
        _ = cache.rasterize(shape(strokeEnd: 0.2))
        _ = cache.rasterize(shape(strokeEnd: 0.1))  // hit: 0.2 is now the oldest
        _ = cache.rasterize(shape(strokeEnd: 0.3))  // evicts 0.2
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 1, misses: 3, count: 2))
        _ = cache.rasterize(shape(strokeEnd: 0.1))
        XCTAssertEqual(cache.statistics.hits, 2)
        _ = cache.rasterize(shape(strokeEnd: 0.2))
        XCTAssertEqual(cache.statistics.misses, 4)
        cache.removeAll(resettingStatistics: true)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 0, misses: 0, count: 0))
    }

    /// A long run of hits, misses and evictions counts exactly what a plain least-recently-used
    /// list of the same capacity would (the cache finds its oldest entry from a use log).
    func testEvictionMatchesAPlainLeastRecentlyUsedList() {
        let cache = ContentCache(capacity: 3)
        var list: [Int] = []   // most recent last
        var hits = 0, misses = 0
        var state: UInt64 = 12345
        for _ in 0..<600 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let key = Int(state >> 33) % 6
            _ = cache.rasterize(shape(strokeEnd: CGFloat(key + 1) / 10))
            if let i = list.firstIndex(of: key) {
                hits += 1
                list.remove(at: i)
            } else {
                misses += 1
                if list.count == 3 { list.removeFirst() }
            }
            list.append(key)
        }
        XCTAssertGreaterThan(hits, 100)
        XCTAssertGreaterThan(misses, 100)
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: hits, misses: misses, count: 3))
    }

    /// A looping animation whose frames' rasters all fit the budget is drawn once: every pass
    /// after the first hits, however many of its results were never asked for twice in a row
    /// (Switch_States loops 21 frames; dropping results not hit by the next frame first redrew
    /// all of them every pass).
    func testALoopThatFitsTheBudgetIsRasterizedOnce() {
        func frame(_ i: Int) -> ContentRequest { .filledPath(CGPath(rect: CGRect(x: 0, y: 0, width: 10 + i, height: 10)), scale: 1) }
        let cache = ContentCache(maximumPixels: 21 * 31 * 10)
        for _ in 0..<3 {
            for i in 0..<21 { _ = cache.rasterize(frame(i)) }
        }
        XCTAssertEqual(cache.statistics, ContentCache.Statistics(hits: 42, misses: 21, count: 21))
    }

    func testHugeContentIsRasterizedWithinTheSideLimit() throws {
        let cache = ContentCache()
        var shape = ShapeProperties()
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 100_000, height: 50))
        let huge = try XCTUnwrap(cache.rasterize(.shape(shape, scale: 2)))
        // 100,000 points at 2 px/pt would be 200,000 pixels wide: the raster is made coarser
        // instead, and still covers the whole path.
        XCTAssertLessThanOrEqual(CGFloat(huge.image.width), ContentCache.maximumSide)
        XCTAssertEqual(huge.rect.width, 100_000, accuracy: 100)
        var text = TextProperties()
        text.string = "wide"
        let wide = try XCTUnwrap(cache.rasterize(.text(text, size: CGSize(width: 50_000, height: 40), scale: 2)))
        XCTAssertLessThanOrEqual(CGFloat(wide.image.width), ContentCache.maximumSide)
        XCTAssertEqual(wide.rect.size, CGSize(width: 50_000, height: 40))
    }
}
