import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PinmintPNG
import Testing

/// `pinmint golden --junit / --json / --artifacts`: the files a CI job keeps.
struct GoldenCIOutputTests {
    /// A suite of pin and star-evenodd at @1x and @2x, recorded; then star-evenodd
    /// changes colour (2 cases differ) and pin@2x.png goes (1 missing).
    func failingSuite() throws -> URL {
        let folder = try temporaryFolder()
        for name in ["pin", "star-evenodd"] {
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/scenes/\(name).svg"),
                                             to: folder.appendingPathComponent("\(name).svg"))
        }
        try "scales = 1 2\n".write(to: folder.appendingPathComponent("golden.conf"), atomically: true, encoding: .utf8)
        #expect(try runPinmint(["golden", folder.path, "--update", "missing"]).status == 0)
        let svg = folder.appendingPathComponent("star-evenodd.svg")
        try (try String(contentsOf: svg, encoding: .utf8)).replacingOccurrences(of: "#8E44AD", with: "#2E7D32")
            .write(to: svg, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("pin@2x.png"))
        return folder
    }

    /// Tag names and attributes of an XML document in order; nil when XMLParser refuses it.
    final class Reader: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String]) {
            elements.append((name, attributes))
        }
        static func parse(_ data: Data) -> [(name: String, attributes: [String: String])]? {
            let reader = Reader(), parser = XMLParser(data: data)
            parser.delegate = reader
            return parser.parse() ? reader.elements : nil
        }
    }

    @Test func failingCasesWriteJUnitJSONAndArtifacts() throws {
        let folder = try failingSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("ci")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let junit = out.appendingPathComponent("golden.xml"), json = out.appendingPathComponent("golden.json")
        let artifacts = out.appendingPathComponent("images"), report = out.appendingPathComponent("report.html")
        let result = try runPinmint(["golden", folder.path, "--junit", junit.path, "--json", json.path,
                                     "--artifacts", artifacts.path, "--report", report.path])
        #expect(result.status == 1, "\(result.standardError)")
        // The lines for people are as they were.
        let lines = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(lines.map { $0.prefix(10) } == ["MISSING pi", "FAILED sta", "FAILED sta", "4 cases: 1"])

        #expect(try FileManager.default.contentsOfDirectory(atPath: artifacts.path).sorted() == [
            "pin@2x.actual.png",
            "star-evenodd@1x.actual.png", "star-evenodd@1x.diff.png", "star-evenodd@1x.expected.png",
            "star-evenodd@2x.actual.png", "star-evenodd@2x.diff.png", "star-evenodd@2x.expected.png"])
        for role in ["expected", "actual", "diff"] {
            let image = try PNGDecoder.decode(contentsOfFile: artifacts.appendingPathComponent("star-evenodd@2x.\(role).png").path)
            #expect(image.width == 200 && image.height == 200)
        }

        let elements = try #require(Reader.parse(try Data(contentsOf: junit)), "JUnit XML that XMLParser reads")
        let suite = try #require(elements.first { $0.name == "testsuite" })
        #expect(suite.attributes["tests"] == "4" && suite.attributes["failures"] == "3" && suite.attributes["errors"] == "0")
        #expect(elements.filter { $0.name == "testcase" }.compactMap { $0.attributes["name"] }
            == ["pin@1x", "pin@2x", "star-evenodd@1x", "star-evenodd@2x"])
        #expect(elements.filter { $0.name == "failure" }.compactMap { $0.attributes["type"] } == ["missing", "failed", "failed"])

        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(document["exitCode"] as? Int == 1 && document["passed"] as? Bool == false)
        let cases = try #require(document["cases"] as? [[String: Any]])
        let star = try #require(cases.first { $0["name"] as? String == "star-evenodd@2x" })
        #expect(star["status"] as? String == "failed")
        #expect((star["artifacts"] as? [String: String])?["diff"] == artifacts.appendingPathComponent("star-evenodd@2x.diff.png").path)

        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.contains("<code>cp \(artifacts.path)/star-evenodd@2x.actual.png \(folder.path)/star-evenodd@2x.png</code>"))
        #expect(html.contains("data-role=\"compare\""))
        // The command in the report does accept the change.
        let accept = try runPinmintInShell("cp \"$1\" \"$2\"", arguments: [artifacts.appendingPathComponent("pin@2x.actual.png").path,
                                                                            folder.appendingPathComponent("pin@2x.png").path])
        #expect(accept.status == 0)
        #expect(!String(decoding: try runPinmint(["golden", folder.path]).standardOutput, as: UTF8.self).contains("pin@2x"))
    }

    @Test func jsonOnStandardOutputMovesTheLinesToStandardError() throws {
        let folder = try failingSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runPinmint(["golden", folder.path, "--json", "-"])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect((document["counts"] as? [String: Int])?["failed"] == 2)
        #expect(result.standardError.contains("FAILED star-evenodd@1x") && result.standardError.contains("4 cases: 1 passed"))
    }

    @Test func aPassingRunWritesNoArtifacts() throws {
        let folder = try failingSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try runPinmint(["golden", folder.path, "--update", "failed"]).status == 0)
        let artifacts = folder.appendingPathComponent("images"), junit = folder.appendingPathComponent("golden.xml")
        let result = try runPinmint(["golden", folder.path, "--artifacts", artifacts.path, "--junit", junit.path])
        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: artifacts.path))
        let elements = try #require(Reader.parse(try Data(contentsOf: junit)))
        #expect(elements.filter { $0.name == "testcase" }.count == 4)
        #expect(!elements.contains { $0.name == "failure" || $0.name == "error" })
    }

    /// Each path is checked before the run: one line on standard error, exit 3, nothing written.
    static let badPaths: [(arguments: [String], message: String)] = [
        (["--junit", "SUITE/no-such-folder/out.xml"], "does not exist"),
        (["--junit", "SUITE/pin@1x.png"], "expected an .xml file path"),
        (["--junit", "SUITE"], "is a directory"),
        (["--json", "SUITE/"], "is a directory"),
        (["--json", "SUITE/pin@1x.png"], "would replace an image"),
        (["--artifacts", "SUITE"], "is the suite folder"),
        (["--artifacts", "SUITE/pin.svg"], "is a file"),
        (["--artifacts", "SUITE/no-such/images"], "does not exist"),
        (["--json", ""], "empty path"),
    ]

    @Test(arguments: badPaths.indices)
    func badPathIsRefusedBeforeTheRun(_ index: Int) throws {
        let folder = try failingSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let arguments = GoldenCIOutputTests.badPaths[index].arguments.map { $0.replacingOccurrences(of: "SUITE", with: folder.path) }
        let result = try runPinmint(["golden", folder.path] + arguments)
        #expect(result.status == 3)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.split(separator: "\n").count == 1
            && result.standardError.contains(GoldenCIOutputTests.badPaths[index].message), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }
}
