import PinmintGeometry
import PinmintRaster
import PinmintText
import Testing

@Suite struct LayoutTests {
    /// The seed's price label: digits from the Latin face, 萬 from the CJK face, one baseline.
    @Test func fallbackTakesEachCharacterFromTheFirstFaceThatHasIt() throws {
        let (_, fallback) = try latinAndCJK()
        let layout = try TextLayout(text: "5200萬", fallback: fallback)
        #expect(layout.lines.count == 1)
        let glyphs = layout.lines[0].glyphs
        #expect(glyphs.map { fallback.members[$0.member].face.family } == ["Noto Sans", "Noto Sans", "Noto Sans", "Noto Sans", "Noto Sans CJK SC"])
        #expect(glyphs.allSatisfy { fallback.members[$0.member].face.weight == 400 })
        #expect(layout.missingCharacters.isEmpty && layout.missingGlyphsWarning == nil)
        // One baseline for both faces, on a whole pixel; pens strictly increasing.
        #expect(layout.lines[0].baseline == layout.lines[0].baseline.rounded())
        #expect(zip(glyphs, glyphs.dropFirst()).allSatisfy { $0.x < $1.x })
    }

    @Test(arguments: [1.0, 2.0, 3.0])
    func measuringGivesTheSizeBeforeDrawingAtEveryScale(scale: Double) throws {
        let (_, fallback) = try latinAndCJK()
        let layout = try TextLayout(text: "5200萬", style: TextStyle(fontSize: 12), fallback: fallback, scale: scale)
        // 4 digits of ~0.57 em and one em-wide hanzi at 12 pt: about 39 pt wide.
        #expect(layout.size.width > 34 && layout.size.width < 44, "width \(layout.size.width)")
        // Height is the CJK face's line box (~1.45 em), rounded up to whole pixels.
        #expect(layout.size.height > 15 && layout.size.height < 19, "height \(layout.size.height)")
        #expect(layout.deviceSize.width == layout.deviceSize.width.rounded())
        let ink = try #require(layout.inkBounds)
        #expect(ink.minX >= 0 && ink.minY >= 0 && ink.maxX <= layout.deviceSize.width && ink.maxY <= layout.deviceSize.height)
        // Everything drawn lies inside the measured box.
        let canvas = try Canvas(width: Int(layout.deviceSize.width) + 4, height: Int(layout.deviceSize.height) + 4)
        try layout.draw(on: canvas, at: Point(2 / scale, 2 / scale))
        let alpha = alpha8(canvas)
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where alpha[y * canvas.width + x] > 0 {
                #expect(x >= 2 && y >= 2 && x < canvas.width - 2 && y < canvas.height - 2, "ink at (\(x), \(y))")
            }
        }
    }

    @Test func missingCharactersGetNotdefAndOneWarning() throws {
        let (_, fallback) = try latinAndCJK()
        let layout = try TextLayout(text: "a☃b☃\u{10FFFD}", fallback: fallback)
        #expect(layout.missingCharacters == ["☃", "\u{10FFFD}"])
        // The characters (a private-use one by its code only) and every face tried, in order.
        let tried = fallback.familyNames
        #expect(tried.first == "Noto Sans" && tried.contains("Noto Sans CJK SC") && Set(tried).count == tried.count)
        #expect(layout.missingGlyphsWarning == "no font has a glyph for ☃ (U+2603), U+10FFFD; tried "
                + tried.dropLast().joined(separator: ", ") + " and " + tried.last!)
        #expect(TextLayout.missingGlyphsMessage(["☃"], fontsTried: ["A"], searchedSystemFonts: true)
                == "no font has a glyph for ☃ (U+2603); tried A and the system's fonts")
        let notdef = layout.lines[0].glyphs[1]
        #expect(notdef.glyph == 0 && notdef.member == 0)
        #expect(!notdef.outline.path.isEmpty, "the .notdef box is drawn")
    }

    @Test func newlinesStartLinesOnWholePixelBaselines() throws {
        let (_, fallback) = try latinAndCJK()
        let layout = try TextLayout(text: "张三\n138 0013 8000", fallback: fallback, scale: 1)
        #expect(layout.lines.count == 2)
        let gap = layout.lines[1].baseline - layout.lines[0].baseline
        #expect(abs(gap - layout.metrics.lineHeight) <= 0.5)
        #expect(layout.lines.allSatisfy { $0.baseline == $0.baseline.rounded() })
    }

    @Test(arguments: [
        // text, max width in points, expected lines
        ("price tag label", 60.0, ["price tag", "label"]),
        ("我是商户地址我是商户地址", 50.0, ["我是商户", "地址我是", "商户地址"]),
        ("我是商户，名地址", 50.0, ["我是商", "户，名地", "址"]),  // no line starts with "，"
        ("Supercalifragilistic", 40.0, ["Superc", "alifragi", "listic"]),
        ("Shop 商户", 45.0, ["Shop 商", "户"]),
    ])
    func wrapsAtSpacesAndBetweenCJKCharacters(text: String, maxWidth: Double, expected: [String]) throws {
        let (_, fallback) = try latinAndCJK()
        let layout = try TextLayout(text: text, style: TextStyle(fontSize: 12, maxWidth: maxWidth), fallback: fallback)
        let lines = layout.lines.map { String(String.UnicodeScalarView($0.glyphs.map(\.scalar))).trimmingSpaces }
        #expect(lines == expected)
        #expect(layout.lines.allSatisfy { $0.width <= maxWidth + 1e-9 })
    }

    @Test func longLineIsCutWithAnEllipsisWhenNotWrapping() throws {
        let (_, fallback) = try latinAndCJK()
        let style = TextStyle(fontSize: 12, maxWidth: 40, wraps: false)
        let layout = try TextLayout(text: "我是商户地址我是商户地址", style: style, fallback: fallback)
        #expect(layout.isTruncated)
        let scalars = layout.lines[0].glyphs.map(\.scalar)
        #expect(scalars.last == "…")
        #expect(layout.lines[0].width <= 40)
        #expect(scalars.count == 3, "two 12 px hanzi and the ellipsis fit in 40 px: \(scalars)")
        let short = try TextLayout(text: "我是", style: style, fallback: fallback)
        #expect(!short.isTruncated && short.lines[0].glyphs.count == 2)
        // Each paragraph is cut on its own: a long first line does not drop the second.
        let two = try TextLayout(text: "我是商户地址我是\n张三", style: style, fallback: fallback)
        #expect(two.lines.count == 2 && two.lines[1].glyphs.map(\.scalar) == ["张", "三"])
    }

    @Test func maxLinesEndsTheLastLineWithAnEllipsis() throws {
        let (_, fallback) = try latinAndCJK()
        let style = TextStyle(fontSize: 12, maxWidth: 50, maxLines: 2)
        let layout = try TextLayout(text: "我是商户地址我是商户地址", style: style, fallback: fallback)
        #expect(layout.lines.count == 2 && layout.isTruncated)
        #expect(layout.lines[1].glyphs.last?.scalar == "…")
        #expect(layout.lines[1].width <= 50)
    }

    @Test(arguments: [(TextAlignment.left, 0.0), (.center, 0.5), (.right, 1.0)])
    func alignmentPlacesLinesInTheBox(alignment: TextAlignment, fraction: Double) throws {
        let (_, fallback) = try latinAndCJK()
        let style = TextStyle(fontSize: 12, alignment: alignment, maxWidth: 100)
        let layout = try TextLayout(text: "ab\n商户名称", style: style, fallback: fallback)
        for line in layout.lines {
            #expect(abs(line.x - (100 - line.width) * fraction) <= 1, "\(alignment) x \(line.x) width \(line.width)")
        }
    }

    @Test func letterSpacingWidensByOneStepPerGap() throws {
        let (_, fallback) = try latinAndCJK()
        let plain = try TextLayout(text: "5200萬", fallback: fallback)
        let spaced = try TextLayout(text: "5200萬", style: TextStyle(letterSpacing: 2), fallback: fallback)
        #expect(abs((spaced.lines[0].width - plain.lines[0].width) - 4 * 2) <= 1)
    }

    @Test func syntheticBoldWhenTheFamilyHasNoBoldFace() throws {
        let library = try shippedLibrary()
        let regular = try #require(try library.face(family: "Noto Sans", weight: 400))
        let synthetic = FontFallback(members: [.init(face: regular, syntheticBold: true)])
        let plain = FontFallback(faces: [regular])
        let bold = try TextLayout(text: "Hi", fallback: synthetic)
        let normal = try TextLayout(text: "Hi", fallback: plain)
        #expect(bold.lines[0].width > normal.lines[0].width)
        // The shipped families have real bold faces: each family's first face is bold, and only the
        // regular faces that fill a bold subset's gaps (the CJK one) are emboldened.
        let members = try library.fallback(weight: 700).members
        #expect(members.allSatisfy { $0.face.isBold != $0.syntheticBold })
        var seen = Set<String>()
        for member in members where seen.insert(member.face.family).inserted { #expect(member.face.isBold, "\(member.face.family)") }
    }

    /// At @1x a fractional origin still puts the baseline on a whole pixel:
    /// the drawing is the same as at the rounded origin.
    @Test(arguments: [(0.3, 0.4), (0.5, 0.49), (1.2, 2.7)])
    func fractionalOriginsDrawOnWholePixels(x: Double, y: Double) throws {
        let (_, fallback) = try latinAndCJK()
        let layout = try TextLayout(text: "5200萬", fallback: fallback)
        let shifted = try Canvas(width: 60, height: 24), rounded = try Canvas(width: 60, height: 24)
        try layout.draw(on: shifted, at: Point(x, y))
        try layout.draw(on: rounded, at: Point(x.rounded(), y.rounded()))
        #expect(shifted.straightRGBA8() == rounded.straightRGBA8())
        // The rows of the digits' flat bottoms are fully covered: the baseline is on a pixel edge.
        let baselineRow = Int(y.rounded() + layout.lines[0].baseline) - 1
        let alpha = alpha8(rounded)
        #expect((0..<60).map { alpha[baselineRow * 60 + $0] }.contains(255))
    }

    @Test(arguments: [(12.0, 1.0, 40.0), (0, 1, 40), (12, .nan, 40), (12, 1, 0), (12, 1, .infinity), (-3, 2, 40)])
    func invalidSizesThrowInsteadOfDrawingNonsense(fontSize: Double, scale: Double, maxWidth: Double) throws {
        let (_, fallback) = try latinAndCJK()
        let style = TextStyle(fontSize: fontSize, maxWidth: maxWidth)
        if fontSize == 12 && scale == 1 && maxWidth == 40 {
            _ = try TextLayout(text: "ok", style: style, fallback: fallback, scale: scale)
        } else {
            #expect(throws: FontError.self) { try TextLayout(text: "x", style: style, fallback: fallback, scale: scale) }
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
