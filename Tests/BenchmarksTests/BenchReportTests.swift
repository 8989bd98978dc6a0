import XCTest
import Foundation
@testable import Benchmarks
import Export
import ImageIO
import TestSupport

/// `lamina bench --html`: the page carries every measured figure, the frames inline, and
/// scene names as text, never as markup.
final class BenchReportTests: XCTestCase {
    func testACPURunWithFramesBecomesAPage() throws {
        var options = RenderBench.Options()
        options.sizes = [(32, 18)]
        options.seconds = 0
        options.backends = [.cpu]
        options.only = "10 textured, opaque"
        options.keepsFrames = true
        let rows = try RenderBench.run(options)
        let row = try XCTUnwrap(rows.first)
        let png = try XCTUnwrap(row.frames?.cpu)
        XCTAssertNil(row.frames?.gpu)
        XCTAssertNil(row.frames?.difference, "no difference without both backends")
        XCTAssertEqual(try PNGCodec.decode(png).width, 32)
        let page = BenchReport.html(rows, jsonName: "run.json")
        XCTAssertTrue(page.contains("<svg id=\"fps-chart\""))
        XCTAssertTrue(page.contains("class=\"bar cpu\" data-series=\"cpu\" data-fps=\"\(String(format: "%.1f", row.cpu!.framesPerSecond))\""))
        XCTAssertFalse(page.contains("class=\"bar gpu\""))
        XCTAssertTrue(page.contains("src=\"data:image/png;base64,\(Data(png).base64EncodedString())\""))
        XCTAssertTrue(page.contains("<a href=\"run.json\">"))
        XCTAssertFalse(page.contains("<script"), "the page needs no script")
        XCTAssertFalse(page.contains("://"), "nor anything from elsewhere")
        // Written with the JSON beside it, which leaves the frames out.
        let folder = try TemporaryFolder(for: self)
        let json = try BenchReport.write(rows, to: folder.file("run.html"))
        XCTAssertEqual(json, folder.file("run.json"))
        XCTAssertEqual(try folder.contents(), ["run.html", "run.json"])
        XCTAssertEqual(try String(contentsOf: folder.file("run.html"), encoding: .utf8), page)
        let written = try Data(contentsOf: json)
        XCTAssertFalse(String(decoding: written, as: UTF8.self).contains("\"frames\""))
        XCTAssertEqual(try JSONDecoder().decode([RenderBench.Row].self, from: written).first?.cpu?.framesPerSecond, row.cpu?.framesPerSecond)
    }

    func testAgreementAndNamesAreWrittenAsText() {
        var row = RenderBench.Row(scene: "<b>scene</b> & \"quotes\"", size: "8x8", peakMemoryMB: 1)
        row.gpu = RenderBench.Measurement(backend: "gpu", framesPerSecond: 100, evaluateMs: 1, planMs: 1, rasterMs: 0, compositeMs: 7, readbackMs: 1)
        row.cpu = RenderBench.Measurement(backend: "cpu", framesPerSecond: 50, evaluateMs: 1, planMs: 1, rasterMs: 0, compositeMs: 17, readbackMs: 1)
        row.floorFramesPerSecond = 200
        row.psnr = .infinity
        row.maxDifference = 0
        row.pixelsOverTolerancePercent = 0
        let page = BenchReport.html([row])
        XCTAssertFalse(page.contains("<b>scene</b>"))
        XCTAssertTrue(page.contains("&lt;b&gt;scene&lt;/b&gt; &amp; &quot;quotes&quot;"))
        XCTAssertTrue(page.contains("<td>identical</td><td>0/255</td><td>0.000 %</td>"))
        // Bars scale to the largest figure (the floor, 200 frames/s, is 460 px).
        XCTAssertTrue(page.contains("data-series=\"floor\" data-fps=\"200.0\" x=\"300.0\" y=\"52.0\" width=\"460.0\""), page)
        XCTAssertTrue(page.contains("data-series=\"cpu\" data-fps=\"50.0\" x=\"300.0\" y=\"38.0\" width=\"115.0\""))
        XCTAssertTrue(page.contains("<td>10.00</td>"), "the GPU's total ms per frame")
        XCTAssertTrue(page.contains("<p>No frames were kept.</p>"))
    }
}
