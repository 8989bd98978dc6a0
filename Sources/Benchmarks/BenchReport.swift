import Foundation

/// `lamina bench --html`: a bench run as one self-contained page — a bar chart of frames/s per
/// scene for both backends and the GL floor, the stage breakdowns, the agreement measures, and
/// for each scene the GPU frame, the CPU frame and their difference image (inline PNGs). It
/// needs nothing but itself: no script, no outside style, font or image.
public enum BenchReport {
    /// Writes the page to `page` and the rows' JSON beside it (`NAME.json` for `NAME.html`),
    /// each atomically; returns where the JSON went.
    @discardableResult
    public static func write(_ rows: [RenderBench.Row], to page: URL) throws -> URL {
        let json = page.pathExtension.lowercased() == "html" ? page.deletingPathExtension().appendingPathExtension("json")
            : page.appendingPathExtension("json")
        try RenderBench.json(rows).write(to: json, options: .atomic)
        try Data(html(rows, jsonName: json.lastPathComponent).utf8).write(to: page, options: .atomic)
        return json
    }

    /// The page for `rows` (measured with `Options.keepsFrames` to show frames); `jsonName`
    /// links the JSON written beside it.
    public static func html(_ rows: [RenderBench.Row], jsonName: String? = nil) -> String {
        let backends = [rows.first?.gpu?.backend, rows.first?.cpu?.backend].compactMap { $0 }
        var page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>lamina bench</title>
            <style>\(style)</style>
            </head>
            <body>
            <h1>lamina bench</h1>
            <p class="meta">\(escape(backends.joined(separator: ", "))); \(ProcessInfo.processInfo.activeProcessorCount) CPU cores.
            Agreement: the GPU and CPU frames at t = 0.5 s.\(jsonName.map { " Figures as JSON: <a href=\"\(escape($0))\">\(escape($0))</a>." } ?? "")</p>

            """
        page += "<h2>Frames per second</h2>\n" + chart(rows)
        page += "<h2>Milliseconds per frame, by stage</h2>\n" + stages(rows)
        page += "<h2>GPU vs CPU</h2>\n" + agreement(rows)
        page += "<h2>Frames</h2>\n" + frames(rows)
        return page + "</body>\n</html>\n"
    }

    static let style = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d1f23; }
        .meta { color: #555; }
        table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
        th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; text-align: right; font-variant-numeric: tabular-nums; }
        th:first-child, td:first-child, .name { text-align: left; }
        svg text { font: 12px system-ui, sans-serif; fill: #1d1f23; }
        .gpu { fill: #3b7dd8; } .cpu { fill: #e08a2c; } .floor { fill: #8a8f98; }
        .evaluate { fill: #5b8def; } .plan { fill: #8fb3f5; } .raster { fill: #c77dd8; } .composite { fill: #e08a2c; } .readback { fill: #8a8f98; }
        .scene { margin: 1em 0 2em; }
        .scene figure { display: inline-block; margin: 0 1em 0 0; vertical-align: top; }
        .scene img { max-width: 420px; border: 1px solid #ccc; background: #eee; }
        figcaption { color: #555; }
        """

    /// Horizontal bars: per scene and size, GPU, CPU and (where measured) the floor.
    static func chart(_ rows: [RenderBench.Row]) -> String {
        let series: [(name: String, cls: String, value: (RenderBench.Row) -> Double?)] = [
            ("GPU", "gpu", { $0.gpu?.framesPerSecond }), ("CPU", "cpu", { $0.cpu?.framesPerSecond }),
            ("GL floor", "floor", { $0.floorFramesPerSecond }),
        ]
        let largest = rows.flatMap { row in series.compactMap { $0.value(row) } }.max() ?? 1
        let labelWidth = 300.0, barArea = 460.0, barHeight = 14.0, gap = 10.0
        var y = 24.0
        var body = ""
        for (index, series) in series.enumerated() {
            let x = labelWidth + Double(index) * 110
            body += "<rect class=\"\(series.cls)\" x=\"\(x)\" y=\"4\" width=\"12\" height=\"12\"/><text x=\"\(x + 16)\" y=\"14\">\(series.name)</text>\n"
        }
        for row in rows {
            let bars = series.compactMap { s in s.value(row).map { (s, $0) } }
            let groupHeight = Double(max(bars.count, 1)) * barHeight
            body += "<text x=\"0\" y=\"\(y + groupHeight / 2 + 4)\">\(escape("\(row.scene) · \(row.size)"))</text>\n"
            for (s, value) in bars {
                let width = max(1, value / largest * barArea)
                body += "<rect class=\"bar \(s.cls)\" data-series=\"\(s.cls)\" data-fps=\"\(format(value))\" x=\"\(labelWidth)\" y=\"\(y)\" "
                    + "width=\"\(format(width))\" height=\"\(barHeight - 2)\"><title>\(escape(row.scene)) \(row.size): \(s.name) \(format(value)) frames/s</title></rect>"
                body += "<text x=\"\(format(labelWidth + width + 4))\" y=\"\(y + barHeight - 4)\">\(format(value))</text>\n"
                y += barHeight
            }
            y += gap
        }
        return "<svg id=\"fps-chart\" width=\"\(Int(labelWidth + barArea + 60))\" height=\"\(Int(y))\" "
            + "role=\"img\" aria-label=\"frames per second\">\n\(body)</svg>\n"
    }

    /// A table of each backend's stage times, with a stacked bar of them.
    static func stages(_ rows: [RenderBench.Row]) -> String {
        let stageNames = ["evaluate", "plan", "raster", "composite", "readback"]
        let largest = rows.flatMap { [$0.gpu, $0.cpu].compactMap { $0 } }.map { total($0) }.max() ?? 1
        let legend = stageNames.map { "<svg width=\"12\" height=\"12\"><rect class=\"\($0)\" width=\"12\" height=\"12\"/></svg> \($0)" }
        var out = "<p class=\"legend\">" + legend.joined(separator: " &nbsp; ") + "</p>\n"
        out += "<table id=\"stages\">\n<tr><th>scene</th><th>size</th><th class=\"name\">backend</th>"
            + stageNames.map { "<th>\($0)</th>" }.joined() + "<th>total</th><th></th></tr>\n"
        for row in rows {
            for m in [row.gpu, row.cpu].compactMap({ $0 }) {
                let values = [m.evaluateMs, m.planMs, m.rasterMs, m.compositeMs, m.readbackMs]
                var x = 0.0
                var bar = ""
                for (name, value) in zip(stageNames, values) where value > 0 {
                    let width = value / largest * 200
                    bar += "<rect class=\"\(name)\" x=\"\(format(x))\" y=\"0\" width=\"\(format(width))\" height=\"12\"><title>\(name) \(format(value, digits: 2)) ms</title></rect>"
                    x += width
                }
                out += "<tr><td>\(escape(row.scene))</td><td>\(row.size)</td><td class=\"name\">\(escape(m.backend))</td>"
                    + values.map { "<td>\(format($0, digits: 2))</td>" }.joined()
                    + "<td>\(format(total(m), digits: 2))</td><td><svg width=\"200\" height=\"12\">\(bar)</svg></td></tr>\n"
            }
        }
        return out + "</table>\n"
    }

    static func total(_ m: RenderBench.Measurement) -> Double {
        m.evaluateMs + m.planMs + m.rasterMs + m.compositeMs + m.readbackMs
    }

    /// PSNR, largest channel difference and share of pixels over 2/255, per scene and size.
    static func agreement(_ rows: [RenderBench.Row]) -> String {
        var out = "<table id=\"agreement\">\n<tr><th>scene</th><th>size</th><th>PSNR</th><th>max difference</th><th>pixels over 2/255</th></tr>\n"
        for row in rows {
            let psnr = row.psnr.map { $0.isInfinite ? "identical" : "\(format($0)) dB" } ?? "–"
            out += "<tr><td>\(escape(row.scene))</td><td>\(row.size)</td><td>\(psnr)</td>"
                + "<td>\(row.maxDifference.map { "\($0)/255" } ?? "–")</td>"
                + "<td>\(row.pixelsOverTolerancePercent.map { "\(format($0, digits: 3)) %" } ?? "–")</td></tr>\n"
        }
        return out + "</table>\n"
    }

    /// Each scene's GPU frame, CPU frame and difference image, as PNG data URIs.
    static func frames(_ rows: [RenderBench.Row]) -> String {
        var out = ""
        for row in rows {
            guard let frames = row.frames else { continue }
            out += "<section class=\"scene\">\n<h3>\(escape(row.scene)) · \(row.size)</h3>\n"
            for (name, cls, png) in [("GPU", "gpu", frames.gpu), ("CPU", "cpu", frames.cpu), ("difference (red: differs; brighter: more)", "difference", frames.difference)] {
                guard let png else { continue }
                out += "<figure><img class=\"frame \(cls)\" alt=\"\(cls) frame of \(escape(row.scene))\" "
                    + "src=\"data:image/png;base64,\(Data(png).base64EncodedString())\"><figcaption>\(name)</figcaption></figure>\n"
            }
            out += "</section>\n"
        }
        return out.isEmpty ? "<p>No frames were kept.</p>\n" : out
    }

    /// Text made safe for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    static func format(_ value: Double, digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
}
