import Foundation
@testable import PinmintMarkers
import Testing

/// `MarkerStyle.resolve(values:)` reuses decoded part trees and refills only
/// text options; it must give exactly what decoding every time gives
/// (`resolveUncached`), the same descriptions and the same errors.
@Suite struct ResolveCacheTests {
    /// Filters, texts with several placeholders, a text option also used in a
    /// condition (so not refillable), one in a non-part `text` member, parts
    /// without a type, variants and a halo.
    static let mixed = #"""
    {"options": [{"name": "label", "type": "text", "default": "hi"},
                 {"name": "unit", "type": "text", "default": "USD"},
                 {"name": "note", "type": "text"},
                 {"name": "tag", "type": "text", "default": "x"},
                 {"name": "size", "type": "number", "range": [6, 40], "default": 12},
                 {"name": "tint", "type": "color", "default": "#336699"}],
     "variants": {
       "default": {"type": "box", "layout": "row", "fill": "${tint}", "children": [
          {"text": "${label|upper} (${unit})", "fontSize": "${size}"},
          {"when": "note", "type": "text", "text": "${note|trim}"},
          {"type": "text", "text": "${tag}", "name": "${tag}"},
          {"type": "box", "children": [{"type": "text", "text": "${label|initials}", "halo": {"width": 1}}]}]},
       "selected": {"type": "text", "text": "${label|lower}", "color": "${tint}"}
     }}
    """#

    /// Every option set gives the same result both ways (descriptions dumped, or the error's text).
    func expectSameResults(_ style: MarkerStyle, _ optionSets: [[String: JSONValue]]) {
        func outcome(_ body: () throws(MarkerError) -> [MarkerDescription]) -> String {
            do {
                var text = ""
                dump(try body(), to: &text)
                return text
            } catch {
                return "error: \(error.description)"
            }
        }
        for values in optionSets {
            let expected = outcome { () throws(MarkerError) in try style.resolveUncached(values: values) }
            // Twice: the first may fill the cache, the second refills an entry.
            for _ in 0..<2 {
                #expect(outcome { () throws(MarkerError) in try style.resolve(values: values) } == expected, "\(style.name) \(values)")
            }
        }
    }

    static let texts: [JSONValue] = [
        .string("5200萬"), .string(""), .string("none"), .string("  padded  "), .string("Ada Lovelace"),
        .string("straße"), .string(String(repeating: "ß", count: MarkerLimits.maximumTextLength)),
        .string(String(repeating: "x", count: MarkerLimits.maximumTextLength + 1)), .string("🙂 emoji"),
        .number(42), .number(2.5), .null, .bool(true),
    ]

    @Test func textOptionsAreThoseOnlyInPartsTexts() throws {
        #expect(MarkerStyle.preset(named: "price-tag")!.resolveCache.textOptions == ["label"])
        let style = try MarkerStyle(json: Data(Self.mixed.utf8), name: "mixed", input: "mixed.json", baseDirectory: "")
        // note: in a condition; tag: also a name; size and tint: not in texts.
        #expect(style.resolveCache.textOptions == ["label", "unit"])
    }

    @Test func presetsResolveTheSameWithAndWithoutTheCache() throws {
        for style in MarkerStyle.presets {
            var optionSets: [[String: JSONValue]] = [[:]]
            for option in style.options {
                let values: [JSONValue]
                switch option.kind {
                case .text: values = Self.texts
                case .color: values = [.string("#fff"), .string("none"), .string("auto"), .string("blurple"), .number(3)]
                case .number: values = [.number(12), .number(-5), .number(1e9), .string("12"), .null]
                case .flag: values = [.bool(true), .bool(false), .string("yes")]
                case .choice(let choices): values = choices.map { .string($0) } + [.string("sideways")]
                case .file: values = [.string(""), .string("/no/such/picture.png")]
                }
                for value in values { optionSets.append([option.name: value]) }
            }
            // Labels varying with other options fixed, as in a batch, and mixed with other changes.
            let names = style.options.map(\.name)
            for (index, text) in Self.texts.enumerated() {
                for name in names where style.options.first(where: { $0.name == name })?.kind == .text {
                    var values = [name: text]
                    let other = style.options[index % names.count]
                    if other.name != name { values[other.name] = other.defaultValue }
                    optionSets.append(values)
                }
            }
            expectSameResults(style, optionSets)
        }
    }

    @Test func aStyleWithFiltersConditionsAndVariantsResolvesTheSame() throws {
        let style = try MarkerStyle(json: Data(Self.mixed.utf8), name: "mixed", input: "mixed.json", baseDirectory: "")
        var optionSets: [[String: JSONValue]] = []
        for label in Self.texts {
            for unit in [JSONValue.string("€"), .string(""), .null] {
                for note in [JSONValue.null, .string(" hello "), .string("none")] {
                    optionSets.append(["label": label, "unit": unit, "note": note])
                }
            }
            optionSets.append(["label": label, "size": .number(50)])
            optionSets.append(["label": label, "tag": .string("")])
            optionSets.append(["label": label, "tint": .string("#00ff00")])
        }
        expectSameResults(style, optionSets)
    }

    @Test func aLabelOverTheLimitAfterAFilterIsTheSameError() throws {
        let json = #"""
        {"options": [{"name": "label", "type": "text"}], "marker": {"type": "text", "text": "${label|upper}"}}
        """#
        let style = try MarkerStyle(json: Data(json.utf8), name: "upper", input: "upper.json", baseDirectory: "")
        let fits = JSONValue.string("a"), grows = JSONValue.string(String(repeating: "ß", count: MarkerLimits.maximumTextLength))
        expectSameResults(style, [["label": fits], ["label": grows], ["label": fits]])
        #expect(throws: MarkerError.self) { try style.resolve(values: ["label": grows]) }
    }
}
