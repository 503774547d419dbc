import Foundation
import PinmintMarkers
import PinmintRaster
import PinmintSprites
import PinmintSVG
import Testing

/// Error messages quote their input; input with line breaks or control
/// characters gave messages of several lines, found by `make fuzz` (the
/// inputs are in Fuzz/regressions/). Each message is one line now, in the
/// library as on the command line, with the characters shown as escapes.
struct OneLineMessageTests {
    static func expectOneLine(_ message: String, showing escape: String, _ comment: Comment? = nil) {
        let hasLineBreak = message.contains { $0.isNewline }
        #expect(!hasLineBreak, "\(message.debugDescription)")
        #expect(!message.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(message.debugDescription)")
        #expect(message.contains(escape), "\(message.debugDescription) should show \(escape)")
    }

    @Test func aColourWithAVerticalTab() {
        do {
            _ = try Color(parsing: "cn\u{0B}\0t")
            Issue.record("accepted")
        } catch { Self.expectOneLine(error.description, showing: "\\u{B}") }
    }

    @Test func aMarkerDescriptionWithACarriageReturnEscape() {
        do {
            _ = try MarkerFile(json: Data("{\"a\":\"\\\r\"}".utf8), input: "m.json", baseDirectory: "")
            Issue.record("accepted")
        } catch { Self.expectOneLine(error.description, showing: "\\r") }
    }

    @Test func anSVGErrorQuotingLines() {
        do {
            _ = try SVGDocument(data: Array("<svg xmlns=\"http://www.w3.org/2000/svg\">&#<svg\n w;</svg>".utf8), file: "i.svg")
            Issue.record("accepted")
        } catch { Self.expectOneLine(error.description, showing: "\\n") }
    }

    @Test(arguments: [
        ("rows.jsonl", "{\"id\":\"\\\r\"}\n", "\\r"),
        ("rows.geojson", "{\"type\":\"FeatureCo[\n  {", "\\n"),
    ])
    func rowsQuotingLines(_ name: String, _ text: String, _ escape: String) throws {
        var messages: [String] = []
        do {
            let reader = try DataRowReader(path: try writeTemporary(text, name: name), format: nil)
            while let result = try reader.next() {
                if case .malformed(_, let problem) = result { messages.append(problem) }
            }
        } catch { messages.append(String(describing: error)) }
        #expect(!messages.isEmpty)
        for message in messages { Self.expectOneLine(message, showing: escape) }
    }
}
