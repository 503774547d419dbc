import Foundation
import PinmintMarkers
import PinmintPNG
import Testing

/// The description format: options, placeholders, conditions and errors
/// that name the input, the place and the problem.
@Suite struct MarkerDescriptionTests {
    func style(_ json: String, name: String = "test.json") throws -> MarkerStyle {
        try MarkerStyle(json: Data(json.utf8), name: "test", input: name, baseDirectory: "")
    }

    func problem(_ body: () throws -> Any) -> String {
        do { _ = try body(); return "no error" } catch let error as MarkerError { return error.description } catch {
            return "other error: \(error)"
        }
    }

    static let labelled = #"""
    {"options": [{"name": "label", "type": "text", "default": "hi"},
                 {"name": "size", "type": "number", "range": [6, 40], "default": 12},
                 {"name": "badge", "type": "text", "default": ""}],
     "marker": {"type": "box", "fill": "#fff", "children": [
        {"type": "text", "text": "${label}!", "fontSize": "${size}"},
        {"when": "badge", "type": "text", "text": "${badge|upper}"},
        {"unless": "badge", "type": "spacer", "width": 3}]}}
    """#

    @Test func placeholdersKeepTheirTypeAndConditionsChooseParts() throws {
        let descriptions = try style(MarkerDescriptionTests.labelled).resolve(options: ["size": "20"])
        guard case .box(let box) = descriptions[0].body.kind else { Issue.record("not a box"); return }
        #expect(box.children.count == 2)
        guard case .text(let text) = box.children[0].kind else { Issue.record("not text"); return }
        #expect(text.text == "hi!" && text.fontSize == 20)
        guard case .spacer = box.children[1].kind else { Issue.record("the spacer should stay"); return }

        let withBadge = try style(MarkerDescriptionTests.labelled).resolve(options: ["badge": "new"])
        guard case .box(let other) = withBadge[0].body.kind, case .text(let badge) = other.children[1].kind else {
            Issue.record("badge missing"); return
        }
        #expect(badge.text == "NEW" && other.children.count == 2)
    }

    @Test(arguments: [
        ("Ada Lovelace", "AL"), ("grace", "G"), ("张三", "张"), ("  ", ""), ("jean-luc picard", "JP"),
    ])
    func initials(name: String, expected: String) throws {
        let json = ##"{"options": [{"name": "n", "type": "text"}], "marker": {"type": "text", "text": "${n|initials}"}}"##
        let description = try style(json).resolve(options: ["n": name])[0]
        guard case .text(let text) = description.body.kind else { Issue.record("not text"); return }
        #expect(text.text == expected)
    }

    @Test func literalDollarBrace() throws {
        let description = try style(##"{"marker": {"type": "text", "text": "costs $${price}"}}"##).resolve(options: [:])[0]
        guard case .text(let text) = description.body.kind else { Issue.record("not text"); return }
        #expect(text.text == "costs ${price}")
    }

    @Test(arguments: [
        (##"{"marker": {"type": "box", "fil": "#fff"}}"##, "test.json: marker.fil: unknown key (did you mean 'fill'?)"),
        (##"{"marker": {"type": "box", "fill": "#ggg"}}"##, "test.json: marker.fill: colour '#ggg'"),
        (##"{"marker": {"type": "blob"}}"##, "test.json: marker.type: unknown part type 'blob'"),
        (##"{"marker": {"type": "box", "width": -3}}"##, "test.json: marker.width: -3 is out of range (0...2048)"),
        (##"{"marker": {"type": "box", "width": "wide"}}"##, "test.json: marker.width: 'wide' is not a number"),
        (##"{"marker": {"type": "box", "padding": [1, 2, 3]}}"##, "test.json: marker.padding: expected 1, 2 or 4 numbers"),
        (##"{"marker": {"type": "box", "shape": {"type": "path", "data": "M 0 0 L"}}}"##, "test.json: marker.shape.data: bad path data"),
        (##"{"marker": {"type": "box", "shape": "hexagon"}}"##, "test.json: marker.shape.type: unknown shape 'hexagon'"),
        (##"{"marker": {"type": "text", "text": "${nope}"}}"##, "test.json: marker.text: no option named 'nope'"),
        (##"{"marker": {"type": "icon"}}"##, "test.json: marker.path: missing: an icon needs 'file'"),
        (##"{"marker": [1]}"##, "test.json: marker: expected a part (an object), found an array"),
        (##"{"marker": {"type": "box"}, "variants": {}}"##, "test.json: variants: give either 'marker' or 'variants'"),
        (##"{"marker": {"type": "box"}"##, "test.json: not valid JSON: unexpected end of the text: the object at character 1 is not closed"),
        // Foundation's decoder accepts a trailing comma; JSON does not (a comma inside a string is text).
        (##"{"marker": {"type": "text", "text": "a,}",},}"##, "test.json: not valid JSON: a comma before the closing } at character 42"),
        (##"{"marker": {"type": "box", "padding": [1, 2 ,]}}"##, "test.json: not valid JSON: a comma before the closing ] at character 45"),
        (##"{"options": [{"name": "x", "type": "number", "range": [0, 1], "default": 5}], "marker": {"type": "box"}}"##,
         "test.json: options[0].default: 5 is out of range (0...1)"),
        (##"{"options": [{"name": "meta", "type": "text", "default": ""}], "marker": {"type": "box"}}"##,
         "test.json: options[0].name: 'meta' is a flag of pinmint render itself"),
        (##"{"options": [{"name": "o", "type": "text", "default": ""}], "marker": {"type": "box"}}"##,
         "test.json: options[0].name: 'o' is a flag of pinmint render itself"),
        // --no-x turned x off and set no-x at once, and render's --help listed --no-x twice.
        (##"{"options": [{"name": "no-x", "type": "text", "default": ""}, {"name": "x", "type": "flag"}], "marker": {"type": "box"}}"##,
         "test.json: options[0].name: 'no-x' is the flag that turns the flag option 'x' off (--no-x): an option cannot take it"),
        (##"{"marker": {"type": "box", "shape": {"type": "path", "data": "M0 0H0V0Z"}}}"##,
         "test.json: marker.shape.data: the path's bounds are 0.0 x 0.0: without a viewBox"),
        (##"{"marker": {"type": "text", "text": "a", "maxLines": 1.5}}"##,
         "test.json: marker.maxLines: 1.5 is not a whole number"),
        (##"{"marker": {"type": "box", "shape": {"type": "path", "data": "M0 0H10"}}}"##,
         "test.json: marker.shape.data: the path's bounds are 10.0 x 0.0"),
        // Foundation's decoder keeps one of two members with the same key: the other passed silently.
        (##"{"marker": {"type": "box", "children": [{"type": "spacer"}, {"type": "box", "fill": "#fff", "fill": "#000"}]}}"##,
         "test.json: marker.children[1].fill: given twice in one object (only one would be used)"),
        (##"{"marker": {"type": "box", "fill": "#fff", "f\u0069ll": "#000"}}"##, "test.json: marker.fill: given twice in one object"),
        (##"{"marker": {"type": "box"}, "marker": {"type": "text", "text": "a"}}"##, "test.json: marker: given twice in one object"),
        // A condition on the root part dropped the whole marker: "marker: expected a part (an object), found null".
        (##"{"options": [{"name": "t", "type": "text"}], "marker": {"type": "box", "when": "t", "width": 10, "height": 10}}"##,
         "test.json: marker.when: the root part cannot have 'when' (without it there would be no marker); put the condition on its children"),
        (##"{"options": [{"name": "t", "type": "text"}], "variants": {"default": {"type": "box"}, "selected": {"type": "box", "unless": "t"}}}"##,
         "test.json: variants.selected.unless: the root part cannot have 'unless'"),
        // A placeholder in a condition was compared as the text "${t}".
        (##"{"options": [{"name": "t", "type": "text"}], "marker": {"type": "box", "children": [{"type": "box", "when": ["t", "t=${t}"]}]}}"##,
         "test.json: marker.children[0].when[1]: 't=${t}': a condition names options and compares them with literal text"),
    ])
    func badDescriptionsNameThePlaceAndTheProblem(json: String, expected: String) {
        let message = problem { try style(json).resolve(options: [:]) }
        #expect(message.hasPrefix(expected), "\(message)")
    }

    @Test func aPresetThatIsNotANameIsNamedAsTheProblem() {
        let message = problem { try MarkerFile(json: Data(#"{"preset": 5}"#.utf8), input: "m.json", baseDirectory: "") }
        #expect(message.hasPrefix("m.json: preset: expected a preset's name"), "\(message)")
    }

    /// `{"preset": "pin", "preset": "callout"}` rendered pin and exited 0.
    @Test func aKeyGivenTwiceInAPresetFileIsRefused() {
        #expect(problem { try MarkerFile(json: Data(#"{"preset": "pin", "preset": "callout"}"#.utf8), input: "m.json", baseDirectory: "") }
            == "m.json: preset: given twice in one object (only one would be used)")
        #expect(problem { try MarkerFile(json: Data(#"{"preset": "pin", "options": {"label": "1", "label": "2"}}"#.utf8), input: "m.json", baseDirectory: "") }
            == "m.json: options.label: given twice in one object (only one would be used)")
        // The same key in different objects, and a key's text as a value, are fine.
        #expect(problem { try MarkerFile(json: Data(#"{"preset": "pin", "options": {"label": "preset"}}"#.utf8), input: "m.json", baseDirectory: "") }
            == "no error")
    }

    /// Regression: the duplicate-key scan read UTF-16 text (which the decoder
    /// accepts) as bytes, so "∀,∀k∀" (0x2200 0x2C00 …) looked like keys and
    /// was refused as given twice; UTF-16 and UTF-32 text are scanned as text.
    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32LittleEndian])
    func aDescriptionInUTF16OrUTF32IsScannedAsText(_ encoding: String.Encoding) throws {
        let fine = #"{"preset": "callout", "options": {"title": "∀,∀k∀,∀k∀ \"q\""}}"#
        #expect(problem { try MarkerFile(json: fine.data(using: encoding)!, input: "m.json", baseDirectory: "") } == "no error")
        let twice = #"{"preset": "pin", "preset": "callout"}"#
        #expect(problem { try MarkerFile(json: twice.data(using: encoding)!, input: "m.json", baseDirectory: "") }
            == "m.json: preset: given twice in one object (only one would be used)")
    }

    @Test func jsonNestedTooDeepForTheParserSaysSo() {
        let json = #"{"marker": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        let message = problem { try style(json).resolve(options: [:]) }
        #expect(message == "test.json: nested deeper than 64 levels (at character 75)")
    }

    @Test func aHorizontalPathWithAViewBoxIsFine() throws {
        let json = ##"{"marker": {"type": "box", "width": 20, "height": 20, "fill": "#000", "shape": {"type": "path", "data": "M0 0H10", "viewBox": [0, -5, 10, 10]}}}"##
        _ = try style(json).resolve(options: [:])
    }

    @Test func optionErrorsNameTheOption() throws {
        let priceTag = try #require(MarkerStyle.preset(named: "price-tag"))
        #expect(problem { try priceTag.resolve(options: ["lable": "x"]) }
            .hasPrefix("--lable: price-tag has no option 'lable' (did you mean '--label'?)"))
        #expect(problem { try priceTag.resolve(options: ["fill": "blurple"]) }.hasPrefix("--fill: colour 'blurple'"))
        #expect(problem { try priceTag.resolve(options: ["font-size": "400"]) } == "--font-size: 400 is out of range (6...48)")
        #expect(problem { try priceTag.resolve(options: ["pointer": "up"]) }.hasPrefix("--pointer: 'up' is not one of center, left, right, none"))
        let long = String(repeating: "萬", count: MarkerLimits.maximumTextLength + 1)
        #expect(problem { try priceTag.resolve(options: ["label": long]) }
            == "--label: is 501 characters long; at most 500 are allowed")
    }

    @Test func limitsOnNestingAndParts() {
        var nested = ##"{"type": "box"}"##
        for _ in 0..<20 { nested = ##"{"type": "box", "children": [\##(nested)]}"## }
        #expect(problem { try style(##"{"marker": \##(nested)}"##).resolve(options: [:]) }
            .contains("parts nested deeper than 16 levels"))
        let many = Array(repeating: ##"{"type": "spacer"}"##, count: 300).joined(separator: ",")
        #expect(problem { try style(##"{"marker": {"type": "box", "children": [\##(many)]}}"##).resolve(options: [:]) }
            .contains("has 300 items; at most 256 are allowed"))
    }

    @Test func missingAndBrokenPictures() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-markers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notPNG = folder.appendingPathComponent("photo.png")
        try Data("not a png".utf8).write(to: notPNG)
        let callout = try #require(MarkerStyle.preset(named: "callout"))
        let renderer = try makeRenderer()
        #expect(problem { try renderer.render(style: callout, options: ["picture": folder.appendingPathComponent("none.png").path], scale: 1) }
            .hasSuffix("marker.children[0].file: no such picture file: \(folder.appendingPathComponent("none.png").path)"))
        #expect(problem { try renderer.render(style: callout, options: ["picture": notPNG.path], scale: 1) }
            .contains("photo.png: not a usable PNG picture"))
    }

    /// A font that is not installed was "font: none of the families … is
    /// installed", naming neither the file nor the part; `"font": []` was
    /// "none of the families  is installed".
    @Test func fontProblemsNameTheFileAndThePart() throws {
        let renderer = try makeRenderer()
        let missing = try style(##"{"marker": {"type": "box", "children": [{"type": "text", "text": "abc", "font": ["Nonexistent Font"]}]}}"##)
        #expect(problem { try renderer.render(style: missing, scale: 1) }
            .hasPrefix("test.json: marker.children[0].font: none of the families Nonexistent Font is installed; available: "))
        #expect(problem { try style(##"{"marker": {"type": "text", "text": "abc", "font": []}}"##).resolve(options: [:]) }
            == "test.json: marker.font: an empty list: give one or more family names, or leave 'font' out for the defaults")
    }

    /// docs/markers.md said pictures may be "up to 16384 pixels a side"
    /// (that is a rendered image's limit); pictures stop at 4096.
    @Test func picturesUpToTheDocumentedSideAreDrawn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-markers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let side = MarkerLimits.maximumPictureSide
        let renderer = try makeRenderer()
        for width in [side, side + 1] {
            let file = folder.appendingPathComponent("wide-\(width).png").path
            try PNGEncoder.writeAtomically(try PNGEncoder.encode(straightRGBA8: [UInt8](repeating: 255, count: width * 4), width: width, height: 1), to: file)
            let picture = try style(##"{"marker": {"type": "picture", "file": "\##(file)", "width": 20, "height": 20}}"##)
            let message = problem { try renderer.render(style: picture, scale: 1) }
            #expect(width == side ? message == "no error" : message.contains("exceeds the limit (\(side) per side"), "\(message)")
        }
        let documentation = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/markers.md"), encoding: .utf8)
        #expect(documentation.contains("pictures (PNG files) up to \(side) pixels a side"))
    }

    @Test func presetFilesResolveRelativePictures() throws {
        let file = try MarkerFile(contentsOfFile: repositoryRoot.appendingPathComponent("Golden/markers/callout-short.json").path)
        #expect(file.style.name == "seed-callout")
        guard case .string(let picture)? = file.values["picture"] else { Issue.record("no picture value"); return }
        #expect(picture.hasSuffix("Golden/markers/pictures/storefront.png"))
        #expect(FileManager.default.fileExists(atPath: picture))
    }

    @Test func everyPresetParsesAndRendersWithItsDefaults() throws {
        let renderer = try makeRenderer()
        for style in MarkerStyle.presets {
            #expect(!style.options.isEmpty && !style.summary.isEmpty)
            for marker in try renderer.render(style: style, scale: 1) {
                #expect(marker.metadata.width > 10 && marker.metadata.height > 10)
            }
        }
    }
}

/// Letter spacing tightens text down to stacked characters, never past.
@Suite struct LetterSpacingTests {
    @Test func theMostNegativeSpacingKeepsTheTextBoxNonNegative() throws {
        let json = ##"{"marker": {"type": "text", "text": "aaaa", "letterSpacing": -100, "content": true}}"##
        let style = try MarkerStyle(json: Data(json.utf8), name: "test", input: "test.json", baseDirectory: "")
        let marker = try makeRenderer().render(style: style, scale: 1)[0]
        let content = try #require(marker.metadata.contentBox)
        #expect(content.width >= 0 && marker.metadata.width > 0)
        // Stacked: no wider than one character (plus its rounding).
        let single = try MarkerStyle(json: Data(##"{"marker": {"type": "text", "text": "a", "content": true}}"##.utf8),
                                     name: "test", input: "test.json", baseDirectory: "")
        let one = try makeRenderer().render(style: single, scale: 1)[0]
        #expect(marker.metadata.width <= one.metadata.width + 1)
    }
}
