import PinmintGeometry
import PinmintRaster
@testable import PinmintSVG
import Testing

struct SVGDocumentTests {
    static let sizes: [(attributes: String, width: Double, height: Double, viewBox: Rect?)] = [
        ("width=\"20\" height=\"10\"", 20, 10, nil),
        ("width=\"20px\" height=\"10px\"", 20, 10, nil),
        ("width=\"72pt\" height=\"1in\"", 96, 96, nil),
        ("width=\"2.54cm\" height=\"25.4mm\"", 96, 96, nil),
        ("width=\"1pc\" height=\"6pc\"", 16, 96, nil),
        ("viewBox=\"0 0 30 40\"", 30, 40, Rect(x: 0, y: 0, width: 30, height: 40)),
        ("viewBox=\"5,5,30,40\" width=\"100%\"", 30, 40, Rect(x: 5, y: 5, width: 30, height: 40)),
        ("width=\"60\" viewBox=\"0 0 30 40\"", 60, 80, Rect(x: 0, y: 0, width: 30, height: 40)),
        ("width=\"10\" height=\"10\" viewBox=\"0 0 30 40\"", 10, 10, Rect(x: 0, y: 0, width: 30, height: 40)),
    ]

    @Test(arguments: sizes)
    func sizeAndViewBox(_ example: (attributes: String, width: Double, height: Double, viewBox: Rect?)) throws {
        let svg = try document("<svg \(example.attributes)/>")
        #expect(abs(svg.width - example.width) < 1e-9)
        #expect(abs(svg.height - example.height) < 1e-9)
        #expect(svg.viewBox == example.viewBox)
    }

    static let transforms: [(text: String, point: Point, expected: Point)] = [
        ("translate(10 20)", Point(1, 1), Point(11, 21)),
        ("translate(10)", Point(1, 1), Point(11, 1)),
        ("scale(2)", Point(1, 1), Point(2, 2)),
        ("scale(2,3)", Point(1, 1), Point(2, 3)),
        ("rotate(90)", Point(1, 0), Point(0, 1)),
        ("rotate(90 10 10)", Point(20, 10), Point(10, 20)),
        ("translate(10) scale(2)", Point(1, 1), Point(12, 2)),
        ("scale(2),translate(10)", Point(1, 1), Point(22, 2)),
        ("matrix(1 0 0 1 5 6)", Point(1, 1), Point(6, 7)),
        ("matrix(0,1,-1,0,0,0)", Point(1, 0), Point(0, 1)),
        ("skewX(45)", Point(0, 1), Point(1, 1)),
        ("skewY(45)", Point(1, 0), Point(1, 1)),
        ("  ", Point(3, 4), Point(3, 4)),
    ]

    @Test(arguments: transforms)
    func transformParsing(_ example: (text: String, point: Point, expected: Point)) throws {
        let transform = try SVGTransformParser.parse(example.text)
        let mapped = transform.apply(example.point)
        #expect(mapped.distance(to: example.expected) < 1e-9, "\(example.text) maps \(example.point) to \(mapped)")
    }

    @Test(arguments: ["rotate(1 2)", "foo(1)", "scale(1", "translate(1 2 3)", "scale(x)"])
    func badTransformsAreRejected(_ text: String) {
        #expect(throws: SVGProblem.self) { try SVGTransformParser.parse(text) }
    }

    @Test func unsupportedElementsAndAttributesAreWarnedOnce() throws {
        let svg = try document("""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="10" height="10"
                 version="1.1" id="root" data-name="x" inkscape:label="a" xml:space="preserve">
              <text>a</text><text>b</text>
              <path d="M0 0 L5 5" marker-end="url(#m)"/><path d="M0 0 L5 5" marker-end="url(#m)" class="c"/>
              <title>ignored</title>
            </svg>
            """)
        #expect(svg.warnings.map(\.description) == [
            "unsupported element <text>",
            "unsupported attribute 'marker-end' on <path>",
        ])
    }

    static let errors: [(name: String, text: String, expected: String)] = [
        ("malformed XML", "<svg width=\"1\" height=\"1\"><g></svg>",
         "line 1, column 30: malformed XML: an end tag does not match its start tag: </svg> where <g> (line 1) is open"),
        ("unclosed document", "<svg width=\"1\" height=\"1\"", "line 1, column 1: malformed XML: the document ends inside the tag <svg>"),
        ("mismatched end tag", "<svg width=\"1\" height=\"1\"></g>", "malformed XML: an end tag does not match its start tag"),
        ("no root element", "<?xml version=\"1.0\"?><!-- nothing -->", "malformed XML: no complete root element (expected <svg ...>)"),
        // XMLParser's error codes were read one off: each of these was "the document
        // ends before its elements are closed" or "XML error 5".
        ("not XML", "garbage", "line 1, column 1: not XML: there is no <svg> element (the text does not start with '<')"),
        ("JSON", "{\"marker\": {}}", "not XML: there is no <svg> element"),
        ("unclosed element", "<svg width=\"1\" height=\"1\"><g>", "malformed XML: the document ends before <g> is closed"),
        ("content after the root", "<svg width=\"1\" height=\"1\"/>garbage", "malformed XML: content after the end of the root element"),
        ("attribute twice", "<svg width=\"1\" width=\"2\" height=\"1\"/>", "line 1, column 16: malformed XML: attribute 'width' is given twice on <svg>"),
        ("root is not svg", "<html width=\"1\" height=\"1\"/>", "root element must be <svg>"),
        ("bad path data", "<svg width=\"1\" height=\"1\">\n<path d=\"M 0 0 L x\"/></svg>",
         "line 2: <path d>: expected a number at offset 8"),
        ("bad colour", "<svg width=\"1\" height=\"1\"><rect fill=\"notacolour\"/></svg>", "<rect fill>: bad colour"),
        ("bad colour in style", "<svg width=\"1\" height=\"1\"><rect style=\"stroke: #12\"/></svg>",
         "<rect stroke>: bad colour"),
        ("bad number", "<svg width=\"1\" height=\"1\"><circle r=\"1q\"/></svg>", "<circle r>"),
        ("zero width", "<svg width=\"0\" height=\"1\"/>", "<svg width>: must be positive"),
        ("negative height", "<svg width=\"1\" height=\"-3\"/>", "<svg height>: must be positive"),
        ("no size", "<svg/>", "no viewBox"),
        // Said "<svg width>: missing", for a width that is there.
        ("width in percent", "<svg width=\"100%\" height=\"50\"/>",
         "line 1: <svg width>: '100%': a percentage is not supported without a viewBox (give a length, e.g. 24, or a viewBox)"),
        ("height auto", "<svg width=\"10\" height=\"auto\"/>", "<svg height>: 'auto' takes the size from the viewBox, and there is none"),
        ("bad viewBox", "<svg viewBox=\"0 0 10\"/>", "expected 4 numbers"),
        ("too deep", "<svg width=\"1\" height=\"1\">" + String(repeating: "<g>", count: 300)
            + String(repeating: "</g>", count: 300) + "</svg>", "nested more than 256 deep"),
        ("huge drop shadow", "<svg width=\"10\" height=\"10\"><filter id=\"f\"><feDropShadow stdDeviation=\"1e308\"/>"
            + "</filter><rect width=\"5\" height=\"5\" filter=\"url(#f)\"/></svg>", "is over 10000"),
        ("external entity", "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
            + "<svg width=\"1\" height=\"1\"><path d=\"&x;\"/></svg>", "external entit"),
        ("billion laughs", "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY a \"aaaaaaaaaa\">"
            + (1..<9).map { "<!ENTITY \(String(repeating: "a", count: $0 + 1)) \"" + String(repeating: "&\(String(repeating: "a", count: $0));", count: 10) + "\">" }.joined()
            + "]><svg width=\"1\" height=\"1\"><text>&aaaaaaaaa;</text></svg>", "expand too far"),
    ]

    @Test(arguments: errors)
    func errorsNameTheProblem(_ example: (name: String, text: String, expected: String)) {
        let error = readingError(example.text, file: "icon.svg")
        #expect(error != nil, "\(example.name) was accepted")
        #expect(error?.description.hasPrefix("icon.svg: ") == true)
        #expect(error?.description.contains(example.expected) == true, "\(error?.description ?? "no error")")
        #expect(error?.description.contains("\n") == false)
    }

    @Test func deeplyNestedOpacityGroupsAreRefused() throws {
        // Each translucent group composites through a layer the size of the canvas.
        let depth = 40
        let groups = String(repeating: "<g opacity=\"0.9\">", count: depth) + "<rect width=\"10\" height=\"10\"/>"
            + String(repeating: "</g>", count: depth)
        let svg = try document("<svg width=\"10\" height=\"10\">\(groups)</svg>")
        #expect(throws: SVGError.self) { try svg.render(scale: 1) }
        let shallow = try document("<svg width=\"10\" height=\"10\"><g opacity=\"0.5\"><rect width=\"10\" height=\"10\"/></g></svg>")
        #expect(abs(try shallow.render(scale: 1).pixel(x: 5, y: 5).alpha - 0.5) < 0.01)
    }

    /// Stroked rings crossing the canvas edge make exact rows (clamped
    /// pieces meet at the edge); their few pieces a row must not be charged
    /// as every edge of the path (a review found them refused at @4).
    @Test func ringsAcrossTheCanvasEdgeAreWithinTheWorkLimit() throws {
        let rings = (0..<100).map { "<circle cx=\"50\" cy=\"50\" r=\"\(55 + $0)\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>" }
        let svg = try document("<svg width=\"100\" height=\"100\">\(rings.joined())</svg>")
        let canvas = try svg.render(scale: 4)
        #expect(canvas.work < Canvas.defaultWorkLimit / 4)
    }

    @Test func renderRefusesOversizedCanvas() throws {
        let svg = try document("<svg width=\"10000\" height=\"10\"/>")
        // Whole numbers read as people write them, not as 10000.0.
        let error = #expect(throws: SVGError.self) { try svg.render(scale: 2) }
        #expect(error?.problem == "10000x10 at scale 2 needs a canvas of 20000x20 pixels; a side may be at most 16384")
        #expect(throws: SVGError.self) { try svg.render(scale: 0) }
    }
}
