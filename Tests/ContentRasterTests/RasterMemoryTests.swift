import ContentRaster
import Foundation
import XCTest

final class RasterMemoryTests: XCTestCase {
    /// After the first cache is made, a block of 24 MiB (a 2560×2400 raster) comes from the
    /// heap, reusing freed pages, where glibc's defaults map (and on free unmap) it on its own.
    func testLargeBlocksComeFromTheHeapOnceACacheExists() throws {
        #if canImport(Glibc)
        _ = ContentCache()
        XCTAssertTrue(RasterMemory.isConfigured)
        let mappedBefore = RasterMemory.separatelyMappedBlocks
        let block = [UInt8](repeating: 1, count: 24 << 20)
        XCTAssertEqual(RasterMemory.separatelyMappedBlocks, mappedBefore, "a 24 MiB block was mapped on its own")
        XCTAssertEqual(block[block.count - 1], 1)
        #else
        throw XCTSkip("glibc only")
        #endif
    }
}
