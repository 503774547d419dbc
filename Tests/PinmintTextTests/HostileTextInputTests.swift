import PinmintGeometry
import PinmintRaster
import PinmintText
import Testing

/// Careless or hostile values passed to the text API throw, never trap.
struct HostileTextInputTests {
    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNonFiniteGlyphSizeThrows(_ size: Double) throws {
        let face = try latinAndCJK().fallback.members[0].face
        #expect(throws: FontError.self) { try face.outline(glyph: 36, pixelSize: size) }
        #expect(throws: FontError.self) { try face.referenceBitmap(glyph: 36, pixelSize: size) }
        #expect(throws: FontError.self) { try face.outline(glyph: 36, pixelSize: 12, emboldenStrength: size) }
        #expect(throws: FontError.self) { try face.kerning(36, 37, pixelSize: size) }
    }

    @Test func aHugeEmboldeningIsClamped() throws {
        let face = try latinAndCJK().fallback.members[0].face
        #expect(try face.outline(glyph: 36, pixelSize: 12, emboldenStrength: 1e300).advance.isFinite)
    }

    @Test(arguments: [(1e300, 1.0), (1e200, 1e200), (3000, 2)])
    func aPixelSizeOver4096Throws(_ fontSize: Double, _ scale: Double) throws {
        let (library, fallback) = try latinAndCJK()
        #expect(throws: FontError.self) {
            try TextLayout(text: "Hi", style: TextStyle(fontSize: fontSize), fallback: fallback, scale: scale)
        }
        let bold = FontFallback(members: fallback.members.map { FontFallback.Member(face: $0.face, syntheticBold: true) })
        #expect(throws: FontError.self) { try TextLayout(text: "Hi", style: TextStyle(fontSize: fontSize), fallback: bold, scale: scale) }
        _ = library
    }

    @Test(arguments: [Point(1e300, 0), Point(0, 1e300), Point(9.3e18, 0), Point(-1e13, 5)])
    func textDrawnTooFarAwayThrows(_ origin: Point) throws {
        let layout = try TextLayout(text: "Hi", fallback: latinAndCJK().fallback)
        let canvas = try Canvas(width: 10, height: 10)
        #expect(throws: RasterError.self) { try layout.draw(on: canvas, at: origin) }
    }

    @Test(arguments: [
        TextStyle(letterSpacing: 1e300), TextStyle(lineHeight: 1e300), TextStyle(alignment: .center, maxWidth: 1e300),
    ])
    func hugeSpacingsLayOutAndThrowWhenDrawn(_ style: TextStyle) throws {
        let layout = try TextLayout(text: "Hi there\nyou", style: style, fallback: latinAndCJK().fallback)
        let canvas = try Canvas(width: 10, height: 10)
        #expect(throws: RasterError.self) { try layout.draw(on: canvas) }
    }

    @Test(arguments: [Int.min, Int.max, -1, 0, 5000])
    func anyWeightFindsAFace(_ weight: Int) throws {
        let library = try latinAndCJK().library
        #expect(try library.face(family: "Noto Sans", weight: weight) != nil)
        #expect(try !library.fallback(weight: weight).isEmpty)
    }
}
