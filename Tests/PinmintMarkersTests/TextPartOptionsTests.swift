import Foundation
import PinmintMarkers
import PinmintText
import Testing

/// A text part's shaping settings: `features`, `language`, `direction`
/// reach HarfBuzz and FriBidi; wrong values are refused with their place.
@Suite struct TextPartOptionsTests {
    func marker(_ text: String) throws -> MarkerStyle {
        try MarkerStyle(json: Data(##"{"marker": {"type": "box", "fill": "#333", "children": [\##(text)]}}"##.utf8),
                        name: "t", input: "t.json", baseDirectory: "")
    }

    func width(_ text: String, scale: Double = 2) throws -> Int {
        let renderer = try MarkerRenderer(includeSystemFonts: false)
        return try renderer.render(try marker(text).resolve(options: [:])[0], scale: scale).metadata.width
    }

    func problem(_ text: String) -> String {
        do { _ = try marker(text).resolve(options: [:]); return "no error" } catch let error as MarkerError { return error.description } catch {
            return "other error: \(error)"
        }
    }

    @Test func featuresAndLanguageAreDecoded() throws {
        let style = try marker(#"{"type": "text", "text": "1", "features": ["tnum", "-liga", "ss01=1"], "language": "sr-Cyrl", "direction": "rtl"}"#)
        guard case .box(let box) = try style.resolve(options: [:])[0].body.kind, case .text(let text) = box.children[0].kind else {
            Issue.record("not a text in a box"); return
        }
        #expect(text.features.map(\.description) == ["tnum", "-liga", "ss01=1"])
        #expect(text.language == "sr-Cyrl" && text.direction == .rightToLeft)
    }

    /// Turning kerning off widens "AVATAR" (Noto Sans kerns AV, VA, TA in GPOS).
    @Test func turningKerningOffWidensTheLabel() throws {
        let kerned = try width(#"{"type": "text", "text": "AVATAR", "fontSize": 20}"#)
        let plain = try width(#"{"type": "text", "text": "AVATAR", "fontSize": 20, "features": ["-kern"]}"#)
        #expect(plain > kerned + 4, "kerned \(kerned) px, unkerned \(plain) px")
    }

    @Test(arguments: [
        (#""features": "tnum""#, "t.json: marker.children[0].features: expected an array, found a string"),
        (#""features": [3]"#, "t.json: marker.children[0].features[0]: expected a feature setting such as 'tnum' or '-liga', found a number"),
        (#""features": ["toolong"]"#, "t.json: marker.children[0].features[0]: 'toolong' is not an OpenType feature setting"),
        (#""language": "e n""#, "t.json: marker.children[0].language: 'e n' is not a BCP 47 language tag"),
        (#""direction": "up""#, "t.json: marker.children[0].direction: unknown value 'up' (expected 'auto', 'ltr', 'rtl')"),
    ])
    func wrongSettingsNameTheirPlace(_ setting: String, _ expected: String) {
        #expect(problem(#"{"type": "text", "text": "x", \#(setting)}"#).hasPrefix(expected))
    }
}
