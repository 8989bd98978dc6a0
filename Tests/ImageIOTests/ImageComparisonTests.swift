import Foundation
import XCTest
import Rendering
@testable import ImageIO

final class ImageComparisonTests: XCTestCase {
    func testIdenticalImages() throws {
        let image = TestImages.premultiplied(width: 10, height: 10, seed: 12, alphas: Array(0...255))
        let difference = try XCTUnwrap(ImageComparison.compare(image, image))
        XCTAssertEqual(difference.psnr, .infinity)
        XCTAssertEqual(difference.maxChannelDifference, 0)
        XCTAssertEqual(difference.pixelsOverTolerance, 0)
        XCTAssertEqual(difference.pixelCount, 100)
        XCTAssertTrue(difference.isIdentical)
    }

    func testOnePixelChangeGivesExactPSNRAndCounts() throws {
        let a = TestImages.opaque(width: 10, height: 10, seed: 13)
        var b = a
        let i = (3 * 10 + 7) * 4 + 1 // green of pixel (7, 3)
        b.pixels[i] = a.pixels[i] < 128 ? a.pixels[i] + 10 : a.pixels[i] - 10
        let difference = try XCTUnwrap(ImageComparison.compare(a, b))
        // MSE = 10² / (100 pixels · 4 channels) = 0.25; PSNR = 10·log10(255² / 0.25) ≈ 54.15 dB.
        XCTAssertEqual(difference.psnr, 10 * log10(255.0 * 255.0 / 0.25), accuracy: 1e-9)
        XCTAssertEqual(difference.psnr, 54.1514, accuracy: 1e-4)
        XCTAssertEqual(difference.maxChannelDifference, 10)
        XCTAssertEqual(difference.pixelsOverTolerance, 1)
        XCTAssertEqual(difference.pixelCount, 100)
        XCTAssertEqual(ImageComparison.compare(a, b, tolerance: 10)?.pixelsOverTolerance, 0)
    }

    func testDifferencesWithinToleranceAreNotCounted() throws {
        let a = TestImages.opaque(width: 4, height: 1, seed: 14)
        var b = a
        b.pixels[0] = a.pixels[0] < 128 ? a.pixels[0] + 2 : a.pixels[0] - 2 // pixel 0: 2, not over
        b.pixels[7] = 200 // pixel 1 alpha 255 → 200: 55, over
        let difference = try XCTUnwrap(ImageComparison.compare(a, b))
        XCTAssertEqual(difference.maxChannelDifference, 55)
        XCTAssertEqual(difference.pixelsOverTolerance, 1)
        XCTAssertEqual(difference.psnr, 10 * log10(255.0 * 255.0 / (Double(2 * 2 + 55 * 55) / 16)), accuracy: 1e-9)
    }

    func testDifferentSizesGiveNil() throws {
        let a = try XCTUnwrap(Image(width: 2, height: 3))
        let b = try XCTUnwrap(Image(width: 3, height: 2))
        XCTAssertNil(ImageComparison.compare(a, b))
        XCTAssertNil(ImageComparison.differenceImage(a, b))

        var shortened = a
        shortened.pixels.removeLast(4)
        XCTAssertNil(ImageComparison.compare(a, shortened))
        XCTAssertNil(ImageComparison.differenceImage(shortened, a))
    }

    func testDifferenceImageMapping() throws {
        let a = TestImages.opaque(width: 4, height: 1, seed: 15)
        var b = a
        b.pixels[0] = a.pixels[0] < 128 ? a.pixels[0] + 1 : a.pixels[0] - 1 // pixel 0: d = 1
        b.pixels[5] = a.pixels[5] < 128 ? a.pixels[5] + 10 : a.pixels[5] - 10 // pixel 1: d = 10
        b.pixels[11] = 0 // pixel 2: alpha 255 → 0, d = 255
        let picture = try XCTUnwrap(ImageComparison.differenceImage(a, b))
        XCTAssertEqual(picture.pixelList, [[67, 0, 0, 255], [103, 0, 0, 255], [255, 0, 0, 255], [0, 0, 0, 255]])
        XCTAssertEqual(ImageComparison.differenceRed(47), 251)
        XCTAssertEqual(ImageComparison.differenceRed(48), 255)
    }
}
