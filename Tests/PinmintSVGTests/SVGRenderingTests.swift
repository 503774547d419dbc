import PinmintGeometry
import PinmintRaster
@testable import PinmintSVG
import Testing

struct SVGRenderingTests {
    /// Each shape filled red on 20 × 20: one pixel inside, one outside.
    static let shapes: [(element: String, inside: (Int, Int), outside: (Int, Int))] = [
        ("<rect x=\"5\" y=\"5\" width=\"10\" height=\"10\" fill=\"red\"/>", (10, 10), (2, 2)),
        ("<rect width=\"50%\" height=\"100%\" fill=\"red\"/>", (5, 15), (15, 5)),
        ("<rect width=\"20\" height=\"20\" rx=\"8\" fill=\"red\"/>", (10, 10), (0, 0)),
        ("<circle cx=\"10\" cy=\"10\" r=\"5\" fill=\"red\"/>", (10, 10), (3, 3)),
        ("<ellipse cx=\"10\" cy=\"10\" rx=\"8\" ry=\"3\" fill=\"red\"/>", (16, 10), (10, 15)),
        ("<path d=\"M0 0 H20 V20 Z\" fill=\"red\"/>", (16, 3), (3, 16)),
        ("<polygon points=\"0,0 20,0 20,20\" fill=\"red\"/>", (16, 3), (3, 16)),
        ("<polyline points=\"0 0 20 0 20 20\" fill=\"red\"/>", (16, 3), (3, 16)),
        ("<line x1=\"0\" y1=\"10\" x2=\"20\" y2=\"10\" stroke=\"red\" stroke-width=\"4\"/>", (10, 10), (10, 4)),
        ("<rect width=\"5\" height=\"5\" transform=\"translate(10 10)\" fill=\"red\"/>", (12, 12), (2, 2)),
        ("<rect x=\"2\" y=\"2\" width=\"16\" height=\"16\" fill=\"none\" stroke=\"red\" stroke-width=\"2\"/>",
         (2, 10), (10, 10)),
    ]

    @Test(arguments: shapes)
    func shapeRendersWhereExpected(_ example: (element: String, inside: (Int, Int), outside: (Int, Int))) throws {
        let canvas = try render(example.element)
        let inside = canvas.pixel(x: example.inside.0, y: example.inside.1)
        let outside = canvas.pixel(x: example.outside.0, y: example.outside.1)
        #expect(isClose(inside, red), "inside is \(inside)")
        #expect(outside.alpha == 0, "outside is \(outside)")
    }

    static let styles: [(name: String, body: String, expected: Color)] = [
        ("style overrides the attribute", "<rect width=\"20\" height=\"20\" fill=\"red\" style=\"fill: lime\"/>", lime),
        ("style on a group is inherited", "<g style=\"fill:blue\"><rect width=\"20\" height=\"20\"/></g>", blue),
        ("attribute on a group is inherited", "<g fill=\"blue\"><g><rect width=\"20\" height=\"20\"/></g></g>", blue),
        ("the child overrides the group", "<g fill=\"blue\"><rect width=\"20\" height=\"20\" fill=\"lime\"/></g>", lime),
        ("currentColor follows color", "<g color=\"lime\"><rect width=\"20\" height=\"20\" fill=\"currentColor\"/></g>", lime),
        ("fill defaults to black", "<rect width=\"20\" height=\"20\"/>", .black),
        ("fill-opacity is inherited", "<g fill-opacity=\"0.5\"><rect width=\"20\" height=\"20\" fill=\"blue\"/></g>",
         blue.withOpacity(0.5)),
        ("opacity on a shape", "<rect width=\"20\" height=\"20\" fill=\"blue\" opacity=\"0.25\"/>", blue.withOpacity(0.25)),
        ("inherit keeps the parent value", "<g fill=\"lime\"><rect width=\"20\" height=\"20\" fill=\"inherit\"/></g>", lime),
        ("display none hides", "<rect width=\"20\" height=\"20\" style=\"display:none\"/>", .transparent),
        ("evenodd leaves a hole", "<path fill-rule=\"evenodd\" fill=\"red\" d=\"M0 0H20V20H0Z M5 5H15V15H5Z\"/>",
         .transparent),
    ]

    @Test(arguments: styles)
    func stylesCascade(_ example: (name: String, body: String, expected: Color)) throws {
        let pixel = try render(example.body).pixel(x: 10, y: 10)
        #expect(isClose(pixel, example.expected), "\(example.name): \(pixel)")
    }

    @Test func groupOpacityCompositesTheGroupOnce() throws {
        let canvas = try render("""
            <g opacity="0.5"><rect width="12" height="12" fill="blue"/><rect x="8" y="8" width="12" height="12" fill="blue"/></g>
            """)
        let overlap = canvas.pixel(x: 10, y: 10), single = canvas.pixel(x: 2, y: 2)
        #expect(abs(overlap.alpha - 0.5) < 0.01, "overlap alpha \(overlap.alpha)")
        #expect(abs(single.alpha - 0.5) < 0.01)
    }

    @Test func shapeOpacityWithFillAndStrokeUsesOneLayer() throws {
        let canvas = try render("""
            <rect x="4" y="4" width="12" height="12" fill="blue" stroke="blue" stroke-width="4" opacity="0.5"/>
            """)
        #expect(abs(canvas.pixel(x: 4, y: 10).alpha - 0.5) < 0.01)
    }

    @Test func viewBoxMapsToTheViewport() throws {
        let stretched = try render("<rect width=\"5\" height=\"5\" fill=\"red\"/>",
                                   attributes: "width=\"20\" height=\"20\" viewBox=\"0 0 10 10\"")
        #expect(isClose(stretched.pixel(x: 8, y: 8), red))
        #expect(stretched.pixel(x: 12, y: 12).alpha == 0)

        let meet = try render("<rect width=\"10\" height=\"10\" fill=\"red\"/>",
                              attributes: "width=\"40\" height=\"20\" viewBox=\"0 0 10 10\"")
        #expect(meet.pixel(x: 5, y: 10).alpha == 0)
        #expect(isClose(meet.pixel(x: 20, y: 10), red))
        let none = try render("<rect width=\"10\" height=\"10\" fill=\"red\"/>",
                              attributes: "width=\"40\" height=\"20\" viewBox=\"0 0 10 10\" preserveAspectRatio=\"none\"")
        #expect(isClose(none.pixel(x: 5, y: 10), red))
        let scaled = try document("<svg width=\"10\" height=\"10\"><rect x=\"5\" width=\"5\" height=\"5\" fill=\"red\"/></svg>")
            .render(scale: 3)
        #expect(scaled.width == 30)
        #expect(isClose(scaled.pixel(x: 20, y: 10), red))
        #expect(scaled.pixel(x: 10, y: 10).alpha == 0)
    }

    static let gradients: [(name: String, definition: String, shape: String)] = [
        ("objectBoundingBox", "<linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"red\"/><stop offset=\"100%\" stop-color=\"blue\"/></linearGradient>",
         "<rect x=\"10\" width=\"10\" height=\"20\" fill=\"url(#g)\"/>"),
        ("userSpaceOnUse", "<linearGradient id=\"g\" gradientUnits=\"userSpaceOnUse\" x1=\"10\" x2=\"20\"><stop offset=\"0\" style=\"stop-color:red\"/><stop offset=\"1\" stop-color=\"blue\"/></linearGradient>",
         "<rect x=\"10\" width=\"10\" height=\"20\" fill=\"url(#g)\"/>"),
        ("inherited through href", "<linearGradient id=\"base\"><stop offset=\"0\" stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/></linearGradient><linearGradient id=\"g\" xlink:href=\"#base\" gradientUnits=\"userSpaceOnUse\" x1=\"10\" x2=\"20\"/>",
         "<rect x=\"10\" width=\"10\" height=\"20\" fill=\"url(#g)\"/>"),
    ]

    @Test(arguments: gradients)
    func gradientRunsAcrossTheShape(_ example: (name: String, definition: String, shape: String)) throws {
        let canvas = try render("<defs>\(example.definition)</defs>\(example.shape)",
                                attributes: "width=\"20\" height=\"20\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"")
        let left = canvas.pixel(x: 10, y: 10), right = canvas.pixel(x: 19, y: 10)
        #expect(canvas.pixel(x: 5, y: 10).alpha == 0)
        #expect(left.red > 0.9 && left.blue < 0.1, "\(example.name) left \(left)")
        #expect(right.blue > 0.9 && right.red < 0.1, "\(example.name) right \(right)")
        let middle = canvas.pixel(x: 15, y: 10)
        #expect(abs(middle.red - 0.45) < 0.06, "\(example.name) middle \(middle)")
    }

    @Test func radialGradientIsCentredOnTheBox() throws {
        let canvas = try render("""
            <radialGradient id="r"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></radialGradient>
            <rect width="20" height="20" fill="url(#r)"/>
            """)
        #expect(canvas.pixel(x: 10, y: 10).red > 0.9)
        #expect(canvas.pixel(x: 0, y: 10).blue > 0.9)
    }

    @Test func clipPathRestrictsDrawing() throws {
        let canvas = try render("""
            <clipPath id="c"><rect width="10" height="10"/></clipPath>
            <clipPath id="d" clipPathUnits="userSpaceOnUse"><rect x="5" y="5" width="15" height="15"/></clipPath>
            <g clip-path="url(#c)"><rect width="20" height="20" fill="red"/></g>
            <g clip-path="url(#c)"><rect width="20" height="20" fill="blue" clip-path="url(#d)"/></g>
            """)
        #expect(isClose(canvas.pixel(x: 2, y: 2), red))
        #expect(isClose(canvas.pixel(x: 7, y: 7), blue))
        #expect(canvas.pixel(x: 15, y: 15).alpha == 0)
        #expect(canvas.pixel(x: 15, y: 2).alpha == 0)
    }

    @Test func clipPathChildTransformApplies() throws {
        let canvas = try render("""
            <clipPath id="c"><rect width="5" height="5" transform="translate(10 10)"/></clipPath>
            <rect width="20" height="20" fill="red" clip-path="url(#c)"/>
            """)
        #expect(isClose(canvas.pixel(x: 12, y: 12), red))
        #expect(canvas.pixel(x: 2, y: 2).alpha == 0)
    }

    /// A clipped group whose content lies beside the clip in the clip's
    /// rows (the circle at the origin covers columns 0 ..< 5 of rows 0 ..< 5,
    /// where the line lies at x = 18 ... 40): the reported document that
    /// segfaulted the release build in `Canvas.composite`, first. Its line
    /// has no stroke and its fill no area, and stroked it passes 8.8 from
    /// the origin, so nothing shows; a line through the circle shows there only.
    static let clippedBesideContent: [(line: String, inside: Color?)] = [
        ("y1=\"9\" x2=\"40\"", nil),
        ("y1=\"9\" x2=\"40\" stroke=\"red\" stroke-width=\"2\"", nil),
        ("x2=\"40\" y2=\"9\" stroke=\"red\" stroke-width=\"2\"", red),
    ]

    @Test(arguments: clippedBesideContent)
    func aClippedGroupWhoseContentLiesBesideTheClipDrawsOnlyInsideIt(_ example: (line: String, inside: Color?)) throws {
        let canvas = try document("""
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><clipPath id="c"><circle r="5"/></clipPath>\
            <g clip-path="url(#c)"><line \(example.line)/></g></svg>
            """).render(scale: 1)
        guard let inside = example.inside else {
            #expect(canvas.makeImage().pixels.allSatisfy { $0 == 0 })
            return
        }
        #expect(isClose(canvas.pixel(x: 2, y: 0), inside), "inside is \(canvas.pixel(x: 2, y: 0))")
        // Pixels whose centre lies 6 or more from the origin are wholly outside the circle.
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where (Double(x) + 0.5) * (Double(x) + 0.5) + (Double(y) + 0.5) * (Double(y) + 0.5) > 36 {
                #expect(canvas.pixel(x: x, y: y).alpha == 0, "(\(x), \(y)) outside the clip is \(canvas.pixel(x: x, y: y))")
            }
        }
    }

    @Test func dropShadowIsDrawnUnderTheShape() throws {
        let canvas = try render("""
            <filter id="s"><feDropShadow dx="6" dy="6" stdDeviation="0.5" flood-color="blue"/></filter>
            <rect width="10" height="10" fill="red" filter="url(#s)"/>
            """)
        #expect(isClose(canvas.pixel(x: 5, y: 5), red))
        let shadow = canvas.pixel(x: 13, y: 13)
        #expect(shadow.blue > 0.9 && shadow.alpha > 0.9, "\(shadow)")
        #expect(canvas.pixel(x: 18, y: 2).alpha == 0)
    }
}

/// Opaque strokes alike in a row are stroked as one path: where they meet
/// inside a pixel it takes their union's exact coverage, as the subpaths of
/// one `<path>` do, instead of one's partial coverage composited over the
/// other's (conflation).
struct SVGStrokeRunTests {
    static let fan = [(2.0, 18.0, 18.0, 4.5), (2.0, 18.0, 17.2, 9.0), (2.0, 18.0, 9.5, 2.0)]

    /// Lines of a fan from one point drawn as separate `<line>`s (whose fill
    /// is black unless set: it paints nothing) and as one path's subpaths.
    @Test(arguments: ["", " fill=\"none\""])
    func aFanOfLinesIsOnePath(fill: String) throws {
        let lines = SVGStrokeRunTests.fan.map { line in
            "<line x1=\"\(line.0)\" y1=\"\(line.1)\" x2=\"\(line.2)\" y2=\"\(line.3)\" stroke=\"#922B21\" stroke-width=\"0.6\"\(fill)/>"
        }.joined()
        let data = SVGStrokeRunTests.fan.map { "M \($0.0) \($0.1) L \($0.2) \($0.3) " }.joined()
        let separate = try render(lines, attributes: "width=\"20\" height=\"20\" viewBox=\"0 0 20 20\"")
        let onePath = try render("<path d=\"\(data)\" fill=\"none\" stroke=\"#922B21\" stroke-width=\"0.6\"/>",
                                 attributes: "width=\"20\" height=\"20\" viewBox=\"0 0 20 20\"")
        #expect(separate.makeImage().pixels == onePath.makeImage().pixels)
    }

    /// Strokes that differ (colour, translucency, width, an element between)
    /// are drawn one after another as before: the second is composited over the first.
    @Test(arguments: [
        ("stroke=\"#922B21\"", "stroke=\"#1F618D\""),
        ("stroke=\"#922B21\" stroke-opacity=\"0.5\"", "stroke=\"#922B21\" stroke-opacity=\"0.5\""),
        ("stroke=\"rgba(146, 43, 33, 0.5)\"", "stroke=\"rgba(146, 43, 33, 0.5)\""),
        ("stroke=\"#922B21\" stroke-width=\"2\"", "stroke=\"#922B21\""),
        ("stroke=\"#922B21\" stroke-dasharray=\"1 1\"", "stroke=\"#922B21\" stroke-dasharray=\"1 1\""),
        ("stroke=\"#922B21\" fill=\"#000\"", "stroke=\"#922B21\""),
    ])
    func unlikeStrokesAreDrawnInTurn(first: String, second: String) throws {
        // Two crossing polylines (a fill, when given, covers area); 1.5 wide unless said.
        func polyline(_ points: String, _ attributes: String) -> String {
            let width = attributes.contains("stroke-width") ? "" : " stroke-width=\"1.5\""
            let fill = attributes.contains("fill=") ? "" : " fill=\"none\""
            return "<polyline points=\"\(points)\" \(attributes)\(width)\(fill)/>"
        }
        let a = polyline("2,2 18,18 2,18", first), b = polyline("18,2 2,18 18,18", second)
        // Drawn onto a canvas (`render(scale:)` would resolve where they cross).
        let both = try Canvas(width: 20, height: 20)
        try document("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\">\(a + b)</svg>").render(on: both, scale: 1)
        // The same two drawn from documents of their own and composited here in turn.
        let expected = try Canvas(width: 20, height: 20)
        let first = try document("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\">\(a)</svg>")
        let second = try document("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\">\(b)</svg>")
        try first.render(on: expected, scale: 1)
        try second.render(on: expected, scale: 1)
        #expect(both.makeImage().pixels == expected.makeImage().pixels)
    }
}

/// `render(scale:)` resolves the pixels where separately drawn elements
/// meet; `render(on:)` composites them in turn.
struct SVGConflationTests {
    static func bothWays(_ body: String) throws -> (inTurn: Canvas, resolved: Canvas) {
        let text = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\">\(body)</svg>"
        let inTurn = try Canvas(width: 20, height: 20)
        try document(text).render(on: inTurn, scale: 1)
        return (inTurn, try document(text).render(scale: 1))
    }

    /// Two rects sharing the edge x = 10.5: no lighter seam.
    @Test func abuttingRectsLeaveNoSeam() throws {
        let (inTurn, resolved) = try SVGConflationTests.bothWays(
            "<rect width=\"10.5\" height=\"20\" fill=\"#2980B9\"/><rect x=\"10.5\" width=\"9.5\" height=\"20\" fill=\"#2980B9\"/>")
        #expect(abs(inTurn.pixel(x: 10, y: 10).alpha - 0.75) < 1e-4)
        #expect(resolved.pixel(x: 10, y: 10) == resolved.pixel(x: 5, y: 10))
    }

    /// A clipped group is clipped as one layer; the clip's edge over its
    /// content's edge is resolved too: a shape just outside the clip leaves nothing.
    @Test func aClipEdgeOverAShapeEdge() throws {
        let (inTurn, resolved) = try SVGConflationTests.bothWays("""
            <clipPath id="c"><rect width="10.5" height="20"/></clipPath>
            <g clip-path="url(#c)"><rect x="10.5" width="9.5" height="20" fill="red"/><circle cx="3" cy="3" r="2"/></g>
            """)
        #expect(abs(inTurn.pixel(x: 10, y: 10).alpha - 0.25) < 1e-4)
        #expect(resolved.pixel(x: 10, y: 10).alpha == 0)
    }

    /// A translucent element's edge over an opaque one's (the caps scene's guides): the pixel is split by area.
    @Test func aThinLineOverAnEdge() throws {
        let (inTurn, resolved) = try SVGConflationTests.bothWays("""
            <rect width="10.5" height="20" fill="#000"/>
            <line x1="10.3" y1="0" x2="10.3" y2="20" stroke="#F00" stroke-width="0.5"/>
            """)
        // Of pixel 10: black over [10, 10.5], red over [10.05, 10.55]; the union is 0.55, red 0.5 of it.
        #expect(isClose(resolved.pixel(x: 10, y: 10), Color(red: 0.5 / 0.55, green: 0, blue: 0, alpha: 0.55), tolerance: 1e-3))
        #expect(!isClose(inTurn.pixel(x: 10, y: 10), resolved.pixel(x: 10, y: 10), tolerance: 0.02))
    }

    /// An icon placed in a frame of a canvas with a clip open (as a marker
    /// draws one): drawn as a group, no seam, cut by the clip and by its
    /// viewport, and faded as one.
    @Test func anIconPlacedUnderAClip() throws {
        let icon = try document("""
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
            <rect width="5.25" height="10" fill="#000"/><rect x="5.25" width="4.75" height="10" fill="#000"/>
            <rect x="-10" y="-10" width="30" height="3" fill="#000"/>
            </svg>
            """)
        let canvas = try Canvas(width: 40, height: 40)
        canvas.clear(.white)
        var clip = Path()
        clip.addRect(Rect(x: 0, y: 0, width: 40, height: 27))
        try canvas.pushClip(clip)
        // The icon's 10 units on 20 pixels from (10, 10): its seam at x = 20.5.
        try icon.renderResolvingConflation(on: canvas, transform: .scale(2).concatenating(.translation(10, 10)),
                                           opacity: 0.5)
        try canvas.popClip()
        #expect(canvas.clipDepth == 0 && canvas.layerDepth == 1)
        let half = canvas.pixel(x: 15, y: 20)
        #expect(abs(half.red - 0.5) < 2e-3)
        #expect(canvas.pixel(x: 20, y: 20) == half)
        // The clip cuts at y = 27; the viewport at x = 10 and 30, y = 10.
        #expect(canvas.pixel(x: 15, y: 28) == .white)
        #expect(canvas.pixel(x: 5, y: 11) == .white && canvas.pixel(x: 32, y: 11) == .white)
        #expect(canvas.pixel(x: 15, y: 8) == .white)
        #expect(throws: SVGError.self) {
            try icon.renderResolvingConflation(on: canvas, transform: .scale(0))
        }
    }
}

/// Shapes off the canvas are skipped before they are flattened, but not
/// when their stroke or shadow reaches in.
struct SVGOffCanvasTests {
    @Test func aStrokeOrShadowReachingInIsDrawn() throws {
        let canvas = try render("""
            <filter id="s"><feDropShadow dx="40" dy="0" stdDeviation="0.5" flood-color="blue"/></filter>
            <rect x="-32" y="2" width="4" height="4" fill="red" filter="url(#s)"/>
            <rect x="-30" y="12" width="4" height="4" fill="none" stroke="green" stroke-width="64" stroke-linejoin="miter"/>
            """)
        #expect(isClose(canvas.pixel(x: 10, y: 4), Color(red: 0, green: 0, blue: 1)))
        #expect(isClose(canvas.pixel(x: 2, y: 14), Color(red: 0, green: 128.0 / 255, blue: 0)))
    }

    /// A miter reaching far past the stroke's half width (a sharp corner: 8.4
    /// half widths, its tip at x = 5) counts too.
    @Test func aLongMiterReachingInIsDrawn() throws {
        let canvas = try render("""
            <path d="M -120 -2 L -20 10 L -120 22" fill="none" stroke="black" stroke-width="6" stroke-miterlimit="20"/>
            """)
        #expect(canvas.pixel(x: 0, y: 10).alpha > 0.3)
    }
}
