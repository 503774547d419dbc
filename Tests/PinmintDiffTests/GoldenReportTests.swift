import Foundation
import PinmintDiff
import PinmintPNG
import Testing

struct GoldenReportTests {
    /// A run with one case of each status, as HTML.
    func reportWithEveryStatus() throws -> (html: String, run: GoldenRun) {
        let folder = try makeSuite(["marker.json": "{}", "golden.conf": "[circle]\nreason = a <b> & 'quoted' reason\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try writePNG(try render("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect x='3' y='2' width='6' height='6' fill='#1E88E5'/></svg>", scale: 1),
                     folder.appendingPathComponent("square@1x.png"))
        try writePNG(try render("<svg xmlns='http://www.w3.org/2000/svg' width='12' height='13'/>", scale: 1),
                     folder.appendingPathComponent("circle@1x.png"))
        try "<svg xmlns='http://www.w3.org/2000/svg' width='5' height='5'/>".write(
            to: folder.appendingPathComponent("empty.svg"), atomically: true, encoding: .utf8)
        try writePNG(try render("<svg xmlns='http://www.w3.org/2000/svg' width='5' height='5'/>", scale: 1),
                     folder.appendingPathComponent("empty.png"))
        try "<svg xmlns='http://www.w3.org/2000/svg' width='5' height='5'/>".write(
            to: folder.appendingPathComponent("new.svg"), atomically: true, encoding: .utf8)
        let run = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers)
        return (GoldenReport.html(for: run), run)
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func summaryComesFirstWithTheCounts() throws {
        let (html, run) = try reportWithEveryStatus()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        let summary = try #require(html.range(of: "id=\"summary\""))
        let firstCase = try #require(html.range(of: "<section class=\"case\""))
        #expect(summary.lowerBound < firstCase.lowerBound)
        #expect(html.contains("<span data-status=\"passed\">1 passed</span>"))
        #expect(html.contains("<span data-status=\"failed\">1 failed</span>"))
        #expect(html.contains("<span data-status=\"size\">1 size differs</span>"))
        #expect(html.contains("<span data-status=\"missing\">1 missing</span>"))
        #expect(html.contains("<span data-status=\"error\">1 errors</span>"))
        #expect(run.results.count == 5)
    }

    @Test func everyFailureHasItsPanels() throws {
        let (html, _) = try reportWithEveryStatus()
        let sections = html.components(separatedBy: "<section class=\"case\"").dropFirst()
            .map { $0.components(separatedBy: "</section>")[0] }
        #expect(sections.count == 4)
        for section in sections {
            let status = try #require(section.firstMatch(of: /data-status="(\w+)"/)).1
            let roles = section.matches(of: /data-role="(\w+)"/).map { String($0.1) }
            switch status {
            case "failed": #expect(roles == ["expected", "actual", "diff", "compare"])
            case "size": #expect(roles == ["expected", "actual"])
            case "missing": #expect(roles == ["actual"])
            case "error": #expect(roles.isEmpty && section.contains("unsupported input"))
            default: Issue.record("unexpected status \(status)")
            }
        }
        // The passing case is listed in the table, not as a section.
        #expect(html.contains("<tr data-case=\"empty@1x\">"))
    }

    @Test func imagesAreInlinedAndDecode() throws {
        let (html, _) = try reportWithEveryStatus()
        let sources = html.matches(of: /src="([^"]*)"/).map { String($0.1) }
        #expect(sources.count == 6)
        for source in sources {
            #expect(source.hasPrefix("data:image/png;base64,"))
            let bytes = try #require(Data(base64Encoded: String(source.dropFirst("data:image/png;base64,".count))))
            #expect(try PNGDecoder.decode([UInt8](bytes)).width > 0)
        }
        // Self-contained: nothing fetched from elsewhere (the one script is inline).
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<link"))
        #expect(html.components(separatedBy: "<script").count == 2 && html.contains("<script>\n"))
    }

    @Test func textIsEscaped() throws {
        let (html, _) = try reportWithEveryStatus()
        #expect(html.contains("a &lt;b&gt; &amp; &#39;quoted&#39; reason"))
        #expect(!html.contains("<b>"))
    }
}
