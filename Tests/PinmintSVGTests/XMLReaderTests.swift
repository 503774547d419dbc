@testable import PinmintSVG
import Testing

/// Pinmint's own XML reader, through `SVGDocument` (what users feed it)
/// and through `SVGTreeReader` (the tree it builds).
struct XMLReaderTests {
    /// The tree of `text`, or the problem reading it.
    static func tree(_ bytes: [UInt8]) -> Result<SVGElement, SVGProblem> { SVGTreeReader.read(bytes) }

    static func problem(_ bytes: [UInt8]) -> String? {
        if case .failure(let problem) = tree(bytes) { return problem.message }
        return nil
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    // MARK: Inputs that crashed Foundation's XMLParser

    /// Each crashed the process (SIGILL in XMLParser's callbacks, SIGSEGV
    /// in strlen for `<?pi?>`) before it could be refused.
    static let crashers: [(name: String, bytes: [UInt8], expected: String)] = [
        ("invalid UTF-8 in a comment", bytes("<!--") + [0xFF] + bytes("-->"),
         "line 1, column 5: the file is not valid UTF-8 (byte 0xFF)"),
        ("invalid UTF-8 in an attribute name", bytes("<e x=\"\" ") + [0xFE] + bytes("=\"0"),
         "line 1, column 9: the file is not valid UTF-8 (byte 0xFE)"),
        ("invalid UTF-8 in an element name", bytes("<") + [0xEE] + bytes("ts="),
         "line 1, column 2: the file is not valid UTF-8 (byte 0xEE)"),
        ("invalid UTF-8 in an entity name", bytes("<v&") + [0xFE] + bytes("r;&"),
         "line 1, column 4: the file is not valid UTF-8 (byte 0xFE)"),
        ("a processing instruction without data", bytes("<?pi?>"),
         "line 1, column 7: malformed XML: no complete root element (expected <svg ...>)"),
        ("a processing instruction without data in the root", bytes("<svg width=\"1\" height=\"1\"><?pi?></svg>"), ""),
    ]

    @Test(arguments: crashers)
    func inputsThatCrashedXMLParserAreRead(_ example: (name: String, bytes: [UInt8], expected: String)) {
        do {
            _ = try SVGDocument(data: example.bytes, file: "icon.svg")
            #expect(example.expected.isEmpty, "\(example.name) was accepted")
        } catch {
            #expect(error.description == "icon.svg: " + example.expected, "\(example.name)")
        }
    }

    // MARK: What is read

    @Test func elementsAttributesAndLinesAreRead() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <!-- Generator: an editor -->
            <?xml-stylesheet href="style.css"?>
            <svg xmlns="http://www.w3.org/2000/svg" width='10' height="20">
              <g id="a&amp;b" fill="&#x72;e&#100;">text &lt; &#169; <![CDATA[ <not a tag> & ]]>
                <path d="M0 0
                L5\t5"/>
              </g >
            </svg>

            """
        let root = try Self.tree(Self.bytes(text)).get()
        #expect(root.name == "svg" && root.line == 4)
        #expect(root["width"] == "10" && root["height"] == "20")
        let group = try #require(root.children.first)
        #expect(group.name == "g" && group.line == 5)
        #expect(group["id"] == "a&b" && group["fill"] == "red")
        let path = try #require(group.children.first)
        #expect(path.line == 6)
        // Line ends and tabs in a value become spaces (XML 1.0 §3.3.3).
        #expect(path["d"] == "M0 0     L5 5")
    }

    @Test func illustratorEntitiesAndNamespacePrefixesResolve() throws {
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
              <!ENTITY ns_svg "http://www.w3.org/2000/svg">
              <!ENTITY ns_xlink "http://www.w3.org/1999/xlink">
              <!ENTITY colour "#&#x30;&#x30;f">
              <!ENTITY fill "&colour;">
              <!ENTITY % parameter "skipped">
              <!ELEMENT svg ANY>
              <!ATTLIST svg width CDATA ">">
            ]>
            <s:svg xmlns:s="&ns_svg;" xmlns:l="&ns_xlink;" xmlns:i="http://ns.adobe.com/AdobeIllustrator/10.0/"
                   width="1" height="1" i:viewOrigin="0 0">
              <s:linearGradient id="g" l:href="#h"/>
              <s:rect fill="&fill;" xml:space="preserve"/>
              <i:pgf>data</i:pgf>
            </s:svg>
            """
        let root = try Self.tree(Self.bytes(text)).get()
        #expect(root.name == "svg")
        #expect(root["i:viewOrigin"] == "0 0")
        #expect(root.children.map(\.name) == ["linearGradient", "rect", "i:pgf"])
        #expect(root.children[0]["xlink:href"] == "#h")
        #expect(root.children[1]["fill"] == "#00f")
        #expect(root.children[1]["xml:space"] == "preserve")
        // And it draws.
        let svg = try SVGDocument(data: Self.bytes(text))
        #expect(svg.width == 1)
    }

    static let encodings: [(name: String, bytes: [UInt8])] = [
        ("UTF-8 with a byte-order mark", [0xEF, 0xBB, 0xBF] + bytes("<svg id=\"é\"/>")),
        ("UTF-16LE with a mark", [0xFF, 0xFE] + "<svg id=\"é\"/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
        ("UTF-16BE with a mark", [0xFE, 0xFF] + "<svg id=\"é\"/>".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
        ("UTF-16LE without a mark", "<svg id=\"é\"/>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
        ("ISO-8859-1", bytes("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><svg id=\"") + [0xE9] + bytes("\"/>")),
        ("windows-1252", bytes("<?xml version='1.0' encoding='windows-1252'?><svg id=\"") + [0xE9] + bytes("\"/>")),
    ]

    @Test(arguments: encodings)
    func encodingsAreDecoded(_ example: (name: String, bytes: [UInt8])) throws {
        let root = try Self.tree(example.bytes).get()
        #expect(root["id"] == "é", "\(example.name)")
    }

    @Test func windows1252PunctuationIsDecoded() throws {
        let root = try Self.tree(Self.bytes("<?xml version='1.0' encoding='cp1252'?><svg id=\"") + [0x93, 0x80, 0x94] + Self.bytes("\"/>")).get()
        #expect(root["id"] == "“€”")
    }

    @Test func carriageReturnsEndLines() throws {
        let root = try Self.tree(Self.bytes("<svg>\r\n<g/>\r<g/>\n</svg>")).get()
        #expect(root.children.map(\.line) == [2, 3])
    }

    // MARK: What is refused

    /// Each is refused with its line and column and what is wrong.
    static let refusals: [(name: String, text: String, expected: String)] = [
        ("control character", "<svg>\u{1}</svg>", "line 1, column 6: a control character (byte 0x01), which XML does not allow"),
        ("C1 control", "<svg>\u{85}</svg>", "line 1, column 6: a character XML does not allow (U+85)"),
        ("noncharacter", "<svg id=\"\u{FFFF}\"/>", "line 1, column 10: a character XML does not allow (U+FFFF)"),
        ("column counts characters", "<svg id=\"ééé\" id=\"x\"/>", "line 1, column 15: malformed XML: attribute 'id' is given twice on <svg>"),
        ("second line", "<svg>\n  <g></svg>", "line 2, column 6: malformed XML: an end tag does not match its start tag: </svg> where <g> (line 2) is open"),
        ("comment with --", "<svg><!-- a -- b --></svg>", "line 1, column 13: malformed XML: '--' inside a comment"),
        ("unclosed comment", "<svg><!-- a", "line 1, column 6: malformed XML: a comment that is not closed"),
        ("unclosed CDATA", "<svg><![CDATA[ a", "line 1, column 6: malformed XML: a CDATA section that is not closed"),
        ("]]> in text", "<svg>a]]>b</svg>", "line 1, column 7: malformed XML: ']]>' in text outside a CDATA section"),
        ("late declaration", "<svg><?xml version=\"1.0\"?></svg>", "line 1, column 6: malformed XML: an XML declaration that is not at the very start"),
        ("PI without a name", "<svg><? x?></svg>", "line 1, column 6: malformed XML: a processing instruction without a name"),
        ("unclosed PI", "<svg><?pi", "line 1, column 6: malformed XML: a processing instruction that is not closed"),
        ("bad version", "<?xml version=\"2.0\"?><svg/>", "malformed XML: XML version '2.0' (1.0 is read)"),
        ("unknown encoding", "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><svg/>",
         "line 1, column 21: the encoding 'Shift_JIS' is not supported (UTF-8, UTF-16, ISO-8859-1, windows-1252 and US-ASCII are)"),
        ("ASCII that is not", "<?xml version=\"1.0\" encoding=\"US-ASCII\"?><svg id=\"é\"/>", "the file declares US-ASCII but holds byte 0xC3"),
        ("value not quoted", "<svg width=1/>", "line 1, column 12: malformed XML: the value of attribute 'width' of <svg> is not in quotes"),
        ("value not closed", "<svg width=\"1/>", "line 1, column 12: malformed XML: the value of attribute 'width' of <svg> is not closed"),
        ("no value", "<svg width/>", "line 1, column 6: malformed XML: attribute 'width' of <svg> has no value"),
        ("< in a value", "<svg id=\"a<b\"/>", "line 1, column 11: malformed XML: a '<' in the value of attribute 'id' of <svg> (write &lt;)"),
        ("attributes run together", "<svg a=\"1\"b=\"2\"/>", "line 1, column 11: malformed XML: attribute 'b' of <svg> must be separated"),
        ("bare ampersand", "<svg id=\"a & b\"/>", "line 1, column 12: malformed XML: a '&' that starts no reference"),
        ("undeclared entity", "<svg id=\"&nbsp;\"/>", "line 1, column 10: malformed XML: entity '&nbsp;' is not declared"),
        ("undeclared entity in text", "<svg>&copy;</svg>", "line 1, column 6: malformed XML: entity '&copy;' is not declared"),
        ("bad character reference", "<svg id=\"&#0;\"/>", "line 1, column 10: malformed XML: '&#0;' is not a character XML allows"),
        ("surrogate reference", "<svg id=\"&#xD800;\"/>", "'&#xD800;' is not a character XML allows"),
        ("huge reference", "<svg id=\"&#x110000;\"/>", "'&#x110000;' is not a character XML allows"),
        ("entity loop", "<!DOCTYPE svg [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]><svg id=\"&a;\"/>",
         "line 1, column 61: entity '&a;' refers to itself (through &a; → &b;), a loop that is not expanded"),
        ("markup in an entity", "<!DOCTYPE svg [<!ENTITY g \"<g/>\">]><svg>&g;</svg>", "entity '&g;' holds markup ('<'), which is not read"),
        ("< from an entity in a value", "<!DOCTYPE svg [<!ENTITY l \"&#60;\">]><svg id=\"&l;\"/>",
         "malformed XML: a '<' in the value of attribute 'id', from entity '&l;'"),
        ("parameter entity in a value", "<!DOCTYPE svg [<!ENTITY % p \"x\"><!ENTITY a \"%p;\">]><svg/>",
         "entity 'a' refers to a parameter entity"),
        ("unclosed DOCTYPE", "<!DOCTYPE svg [<!ENTITY a \"x\">", "malformed XML: the DOCTYPE's internal subset is not closed"),
        ("two DOCTYPEs", "<!DOCTYPE svg><!DOCTYPE svg><svg/>", "line 1, column 15: malformed XML: a second DOCTYPE"),
        ("DOCTYPE in the root", "<svg><!DOCTYPE svg></svg>", "'<!' inside an element starts only a comment"),
        ("undeclared prefix", "<svg><x:rect/></svg>", "line 1, column 6: malformed XML: the namespace prefix 'x' of 'x:rect' is not declared"),
        ("undeclared attribute prefix", "<svg xlink:href=\"#a\"/>", "the namespace prefix 'xlink' of 'xlink:href' is not declared"),
        ("two names for one attribute", "<svg xmlns:a=\"http://www.w3.org/1999/xlink\" xmlns:b=\"http://www.w3.org/1999/xlink\" a:href=\"1\" b:href=\"2\"/>",
         "malformed XML: attribute 'xlink:href' is given twice on <svg>"),
        ("bad qualified name", "<svg><a:b:c xmlns:a=\"u\"/></svg>", "'a:b:c' on <a:b:c> is not a valid qualified name"),
        ("tag with no name", "<svg>< g/></svg>", "line 1, column 6: malformed XML: a malformed tag ('<' must be followed by a name)"),
        ("end tag not closed", "<svg></svg", "line 1, column 6: malformed XML: the end tag </svg> is not closed with '>'"),
        ("two roots", "<svg/><svg/>", "line 1, column 7: malformed XML: content after the end of the root element"),
        ("text before the root", "<!-- x --> text <svg/>", "line 1, column 12: malformed XML: content before the root element"),
    ]

    @Test(arguments: refusals)
    func malformedXMLIsRefusedWithItsPlace(_ example: (name: String, text: String, expected: String)) {
        let message = Self.problem(Self.bytes(example.text))
        #expect(message?.contains(example.expected) == true, "\(example.name): \(message ?? "accepted")")
        #expect(message?.contains("\n") == false)
    }

    /// Every limit is met with a refusal, not with memory or time.
    static let limits: [(name: String, text: String, expected: String)] = [
        ("too many elements", "<svg>" + String(repeating: "<g/>", count: 100_001) + "</svg>", "more than 100000 elements"),
        ("too many attributes", "<svg " + (0...1000).map { "a\($0)=\"\"" }.joined(separator: " ") + "/>",
         "<svg> has more than 1000 attributes"),
        ("a long name", "<" + String(repeating: "g", count: 1_001) + "/>", "line 1, column 2: a name longer than 1000 bytes"),
        ("entities that expand too far", "<!DOCTYPE svg [<!ENTITY a \"" + String(repeating: "a", count: 60_000) + "\">]><svg id=\""
            + String(repeating: "&a;", count: 20) + "\"/>", "entities expand too far: more than 1048576 bytes"),
        ("a long entity", "<!DOCTYPE svg [<!ENTITY a \"" + String(repeating: "a", count: 70_000) + "\">]><svg/>",
         "entity 'a' is 70000 bytes long; at most 65536 are read"),
        ("entities nested deep", "<!DOCTYPE svg [<!ENTITY e0 \"x\">" + (1...20).map { "<!ENTITY e\($0) \"&e\($0 - 1);\">" }.joined()
            + "]><svg id=\"&e20;\"/>", "entities nest more than 16 deep"),
    ]

    @Test(arguments: limits)
    func limitsAreEnforced(_ example: (name: String, text: String, expected: String)) {
        let message = Self.problem(Self.bytes(example.text))
        #expect(message?.contains(example.expected) == true, "\(example.name): \(message ?? "accepted")")
    }

    /// Values over 4 MiB, with and without references in them (kept out
    /// of the table above: a failing case would print its 4 MiB).
    @Test(arguments: [("0 ", 2), ("0&amp;", 2)])
    func aLongValueIsRefused(_ piece: String, _ expandedBytes: Int) {
        let text = "<svg d=\"" + String(repeating: piece, count: (4 << 20) / expandedBytes + 1) + "\"/>"
        let message = Self.problem(Self.bytes(text))
        #expect(message == "line 1, column 8: the value of attribute 'd' of <svg> is longer than 4194304 bytes (4 MiB)")
    }

    /// A billion laughs in text content, where nothing is kept, still
    /// stops at the expansion budget, quickly.
    @Test func aBillionLaughsInTextStopsAtTheBudget() {
        let entities = "<!ENTITY a0 \"laugh\">" + (1...12).map { "<!ENTITY a\($0) \"" + String(repeating: "&a\($0 - 1);", count: 10) + "\">" }.joined()
        let message = Self.problem(Self.bytes("<!DOCTYPE svg [\(entities)]><svg>&a12;</svg>"))
        #expect(message?.contains("entities expand too far") == true, "\(message ?? "accepted")")
    }

    /// A 15.6 MB path said only "XML error 1 (libxml2's error number)".
    @Test func aHugePathAttributeSaysWhatIsWrong() {
        let text = "<svg width=\"1\" height=\"1\"><path d=\"M0 0" + String(repeating: " L1 1", count: 3_120_000) + "\"/></svg>"
        #expect(text.utf8.count > 15_000_000)
        do {
            _ = try SVGDocument(data: Self.bytes(text), file: "big.svg")
            Issue.record("accepted")
        } catch {
            #expect(error.description == "big.svg: line 1, column 35: the value of attribute 'd' of <path> is longer than 4194304 bytes (4 MiB)")
        }
    }
}
