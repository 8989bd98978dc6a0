import XCTest
import Lamina
import TestSupport

/// `OutputOrigin.bottomLeft`, the y-up space AVFoundation's export tool renders in
/// (core-animation-semantics.md §12): geometry from the bottom row up, `isGeometryFlipped` on the
/// root reads top-left again, contents and text upright either way — on both backends.
final class OutputOriginTests: XCTestCase {
    enum Mode: CaseIterable { case topLeft, bottomLeft, bottomLeftFlipped }

    func renderers() throws -> [(String, FrameRenderer)] {
        var list = [("cpu", FrameRenderer(width: 40, height: 30, backend: CPURenderer()))]
        list.append(("gpu", FrameRenderer(width: 40, height: 30, backend: try TestBackends.gpu())))
        return list
    }

    func render(_ build: (CALayer) -> Void, mode: Mode) throws -> [(String, Image)] {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        root.position = CGPoint(x: 20, y: 15)
        root.isGeometryFlipped = mode == .bottomLeftFlipped
        build(root)
        return try renderers().map { name, renderer in
            renderer.origin = mode == .topLeft ? .topLeft : .bottomLeft
            return (name, try XCTUnwrap(renderer.render(root, at: 0), name))
        }
    }

    /// A band at y = 0…10 covers the bottom rows y-up, the top rows top-left or when the root is flipped.
    func testBandAtYZeroLandsAtTheBottomInYUp() throws {
        for mode in Mode.allCases {
            for (name, image) in try render({ root in
                let band = CALayer()
                band.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
                band.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
                root.addSublayer(band)
            }, mode: mode) {
                let atBottom = mode == .bottomLeft
                let bandRows = atBottom ? 20..<30 : 0..<10, clearRows = atBottom ? 0..<20 : 10..<30
                XCTAssertPixel(image, 5, bandRows.lowerBound, (255, 0, 0, 255), file: #filePath, line: #line)
                XCTAssertPixel(image, 35, bandRows.upperBound - 1, (255, 0, 0, 255))
                XCTAssertFalse(image.hasInk(x: 0..<40, y: clearRows), "\(name) \(mode): nothing outside the band")
            }
        }
    }

    /// An image whose top half is red shows red above blue in every mode.
    func testContentsStayUpright() throws {
        let pixels = (0..<16).flatMap { i -> [UInt8] in i < 8 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        let image = try XCTUnwrap(CGImage(width: 4, height: 4, premultipliedRGBA: pixels))
        for mode in Mode.allCases {
            for (name, frame) in try render({ root in
                let layer = CALayer()
                layer.frame = CGRect(x: 10, y: 5, width: 20, height: 20)
                layer.contents = image
                layer.magnificationFilter = .nearest
                root.addSublayer(layer)
            }, mode: mode) {
                XCTAssertPixel(frame, 20, 8, (255, 0, 0, 255))
                XCTAssertPixel(frame, 20, 22, (0, 0, 255, 255))
                XCTAssertTrue(frame.hasRed(x: 10..<30, y: 5..<15) && frame.hasBlue(x: 10..<30, y: 15..<25), "\(name) \(mode)")
            }
        }
    }

    /// A "T" keeps its bar on top: the highest ink row is much wider than the lowest.
    func testTextStaysUpright() throws {
        for mode in Mode.allCases {
            for (name, frame) in try render({ root in
                let text = CATextLayer()
                text.frame = CGRect(x: 5, y: 0, width: 30, height: 30)
                text.string = "T"
                text.fontSize = 26
                text.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
                text.alignmentMode = .center
                root.addSublayer(text)
            }, mode: mode) {
                let rows = (0..<30).filter { frame.hasInk(x: 0..<40, y: $0..<($0 + 1), threshold: 128) }
                let top = try XCTUnwrap(rows.first, "\(name) \(mode): no text"), bottom = try XCTUnwrap(rows.last)
                func width(_ y: Int) -> Int { (0..<40).filter { frame.alpha($0, y) > 128 }.count }
                XCTAssertGreaterThan(width(top + 1), 2 * width(bottom - 1), "\(name) \(mode): the T's bar is at its top")
            }
        }
    }

    /// Gravity follows the layer's own y axis: `top` is max-y, the visual top in y-up space.
    func testGravityTopIsTheVisualTopInYUp() throws {
        let red = try XCTUnwrap(CGImage(width: 2, height: 2, premultipliedRGBA: [UInt8](repeating: 0, count: 16).enumerated().map { $0.offset % 4 == 0 || $0.offset % 4 == 3 ? 255 : 0 }))
        for (name, frame) in try render({ root in
            let layer = CALayer()
            layer.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
            layer.contents = red
            layer.contentsGravity = .top
            root.addSublayer(layer)
        }, mode: .bottomLeft) {
            XCTAssertPixel(frame, 20, 0, (255, 0, 0, 255))
            XCTAssertFalse(frame.hasInk(x: 0..<40, y: 2..<30), "\(name): only the top rows")
        }
    }

    /// The y-up flip mirrors the output, which must not make single-sided layers face away.
    func testSingleSidedLayersStillShow() throws {
        for (name, frame) in try render({ root in
            let layer = CALayer()
            layer.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
            layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            layer.isDoubleSided = false
            root.addSublayer(layer)
            let flipped = CALayer()
            flipped.frame = CGRect(x: 0, y: 20, width: 40, height: 10)
            flipped.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            flipped.isDoubleSided = false
            flipped.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)  // its back faces the viewer
            root.addSublayer(flipped)
        }, mode: .bottomLeft) {
            XCTAssertPixel(frame, 20, 25, (0, 0, 255, 255))
            XCTAssertFalse(frame.hasInk(x: 0..<40, y: 0..<10), "\(name): the turned-away layer is culled")
        }
    }
}
