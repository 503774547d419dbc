import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PinmintDiff
import Testing

/// Every element of an XML document, in order, with its attributes and text;
/// nil when XMLParser finds it malformed.
final class XMLElements: NSObject, XMLParserDelegate {
    struct Element { var name: String; var attributes: [String: String]; var text = "" }
    private(set) var elements: [Element] = []
    private var open: [Int] = []

    static func parse(_ text: String) -> [Element]? {
        let reader = XMLElements()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        return parser.parse() ? reader.elements : nil
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let last = open.last { elements[last].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }
}

/// The CI reports of a golden run: JUnit XML, JSON, the HTML report's compare view and accept commands.
struct GoldenCIReportTests {
    @Test func junitIsWellFormedWithOneTestcasePerCase() throws {
        let (_, run) = try GoldenReportTests().reportWithEveryStatus()
        let elements = try #require(XMLElements.parse(GoldenReport.junitXML(for: run)))
        let suite = try #require(elements.first { $0.name == "testsuite" })
        #expect(suite.attributes["tests"] == "5" && suite.attributes["failures"] == "3" && suite.attributes["errors"] == "1")
        let cases = elements.filter { $0.name == "testcase" }
        #expect(cases.map { $0.attributes["name"] ?? "" } == run.results.map(\.identifier))
        #expect(Set(elements.filter { $0.name == "failure" }.map { $0.attributes["type"] ?? "" }) == ["failed", "size", "missing"])
        let error = try #require(elements.first { $0.name == "error" })
        #expect(error.attributes["message"]?.contains("unsupported input") == true)
        for failure in elements where failure.name == "failure" || failure.name == "error" {
            #expect(!(failure.attributes["message"] ?? "").isEmpty && !failure.text.isEmpty)
        }
    }

    @Test func xmlEscapingKeepsTheDocumentWellFormed() throws {
        let text = "a\u{1}b <&> \"q\" 'a' \u{FFFF}é"
        let escaped = GoldenReport.xmlEscape(text)
        #expect(escaped == "a\u{FFFD}b &lt;&amp;&gt; &quot;q&quot; &apos;a&apos; \u{FFFD}é")
        let elements = try #require(XMLElements.parse("<x a=\"\(escaped)\">\(escaped)</x>"))
        #expect(elements.first?.attributes["a"] == "a\u{FFFD}b <&> \"q\" 'a' \u{FFFD}é")
        #expect(elements.first?.text == "a\u{FFFD}b <&> \"q\" 'a' \u{FFFD}é")
    }

    @Test func jsonHasEveryCaseAndTheCounts() throws {
        let (_, run) = try GoldenReportTests().reportWithEveryStatus()
        let artifacts = ["circle@1x": GoldenArtifacts.Paths(expected: "out/circle@1x.expected.png", actual: "out/circle@1x.actual.png",
                                                            diff: nil)]
        let text = GoldenReport.json(for: run, exitCode: 3, artifacts: artifacts)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["passed"] as? Bool == false && document["exitCode"] as? Int == 3)
        let counts = try #require(document["counts"] as? [String: Int])
        #expect(counts == ["cases": 5, "passed": 1, "failed": 1, "size": 1, "missing": 1, "error": 1, "written": 0])
        let cases = try #require(document["cases"] as? [[String: Any]])
        #expect(cases.map { $0["name"] as? String ?? "" } == run.results.map(\.identifier))
        let circle = try #require(cases.first { $0["name"] as? String == "circle@1x" })
        #expect(circle["status"] as? String == "size" && circle["reason"] as? String == "a <b> & 'quoted' reason")
        #expect((circle["size"] as? [String: Int])?["expectedWidth"] == 12)
        #expect((circle["artifacts"] as? [String: String]) == ["expected": "out/circle@1x.expected.png",
                                                               "actual": "out/circle@1x.actual.png"])
        let square = try #require(cases.first { $0["name"] as? String == "square@1x" })
        #expect(square["status"] as? String == "failed" && (square["diffPixels"] as? Int ?? 0) > 0)
        #expect((square["tolerance"] as? [String: Int]) == ["maxDiffPixels": 0])
        // The same run gives the same bytes but for the timings.
        #expect(text == GoldenReport.json(for: run, exitCode: 3, artifacts: artifacts))
    }

    @Test func htmlComparesAndSaysHowToAccept() throws {
        let (_, run) = try GoldenReportTests().reportWithEveryStatus()
        let update = "pinmint golden \(run.folder) --update failed"
        let plain = GoldenReport.html(for: run)
        func section(_ html: String, _ name: String) throws -> String {
            let start = try #require(html.range(of: "<section class=\"case\" data-case=\"\(name)\""))
            return html[start.lowerBound...].components(separatedBy: "</section>")[0]
        }
        #expect(plain.contains("data-accept=\"all\">Accept every change: <code>\(update)</code>"))
        #expect(try section(plain, "square@1x").contains("data-role=\"compare\""))
        #expect(try section(plain, "square@1x").contains("<code>\(update)</code>"))
        #expect(try !section(plain, "circle@1x").contains("data-role=\"compare\""))  // sizes differ: nothing to overlay
        #expect(try section(plain, "new@1x").contains("<code>pinmint golden \(run.folder) --update missing</code>"))
        #expect(try !section(plain, "marker@1x").contains("Accept"))
        let withArtifacts = GoldenReport.html(for: run, artifacts: [
            "square@1x": GoldenArtifacts.Paths(expected: nil, actual: "ci out/square@1x.actual.png", diff: nil)])
        #expect(try section(withArtifacts, "square@1x")
            .contains("<code>cp &#39;ci out/square@1x.actual.png&#39; \(run.folder)/square@1x.png</code>"))
    }

    @Test(arguments: [("Golden/markers", "Golden/markers"), ("a b", "'a b'"), ("it's", "'it'\\''s'"), ("", "''"),
                      ("$HOME", "'$HOME'")])
    func shellQuoting(_ text: String, _ quoted: String) {
        #expect(GoldenReport.shellQuoted(text) == quoted)
    }
}
