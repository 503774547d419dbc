import Foundation
import PinmintGeometry
import PinmintRaster
import PinmintText
import Testing

/// Colour emoji (issue 22): Noto Color Emoji's CBDT bitmaps reached through
/// fontconfig, scaled to the text size, drawn as pictures.
///
/// These tests need the font installed (Debian's fonts-noto-color-emoji,
/// which `make test` installs): without it they fail and say so, they do not skip.
@Suite struct ColorGlyphTests {
    /// Pinmint's fonts, then the system's: Latin from the shipped Noto Sans,
    /// emoji from the system's colour font.
    static func emojiFallback() throws -> FontFallback {
        let library = try FontLibrary.standard(includeSystem: true)
        try #require(library.descriptors.contains { $0.family == "Noto Color Emoji" },
                     "Noto Color Emoji is not installed (fc-list has no such family): `make test` installs fonts-noto-color-emoji, or run apt-get install fonts-noto-color-emoji")
        return try library.fallback()
    }

    /// HarfBuzz's advance for ☕ and 🍕 in Noto Color Emoji 2.042, in
    /// pixels per pixel of em: `hb-shape NotoColorEmoji.ttf "☕🍕"` prints
    /// `[gid67=0+2550|gid329=1+2550]` at the font's 2048 units per em, and
    /// `--font-size=12` and `--font-size=24` print +15 and +30 (14.94 and 29.88 px).
    static let harfBuzzAdvancePerEm = 2550.0 / 2048

    static func coloredPixels(_ canvas: Canvas, in rect: Rect) -> Int {
        let rgba = canvas.straightRGBA8()
        var count = 0
        for y in max(0, Int(rect.minY))..<min(canvas.height, Int(rect.maxY.rounded(.up))) {
            for x in max(0, Int(rect.minX))..<min(canvas.width, Int(rect.maxX.rounded(.up))) {
                let index = (y * canvas.width + x) * 4
                if rgba[index + 3] > 128 && abs(Int(rgba[index]) - Int(rgba[index + 1])) > 32 { count += 1 }
            }
        }
        return count
    }

    @Test(arguments: [1.0, 2.0])
    func cafeLabelDrawsColoredEmojiWithHarfBuzzAdvances(scale: Double) throws {
        let fallback = try Self.emojiFallback()
        let style = TextStyle(fontSize: 12)
        let layout = try TextLayout(text: "Café ☕🍕", style: style, fallback: fallback, scale: scale)
        #expect(layout.missingCharacters.isEmpty)
        let glyphs = layout.lines[0].glyphs
        let emoji = glyphs.filter { $0.outline.color != nil }
        try #require(emoji.count == 2, "☕ and 🍕 as colour glyphs; got \(glyphs.map { fallback.members[$0.member].face.family })")
        #expect(emoji.allSatisfy { fallback.members[$0.member].face.family == "Noto Color Emoji" })
        #expect(glyphs.filter { $0.outline.color == nil }.allSatisfy { fallback.members[$0.member].face.family == "Noto Sans" })
        // The pen moves from ☕ to 🍕 by HarfBuzz's advance, within a pixel (whole-pixel placement).
        let expected = Self.harfBuzzAdvancePerEm * layout.pixelSize
        #expect(abs(emoji[1].x - emoji[0].x - expected) <= 1, "step \(emoji[1].x - emoji[0].x), HarfBuzz \(expected)")
        // Each emoji about an em tall (Noto's 136x128 bitmap on a 109 px em).
        let picture = try #require(emoji[0].outline.color)
        #expect(abs(Double(picture.image.height) - 128.0 / 109 * layout.pixelSize) <= 1.5, "height \(picture.image.height)")

        let canvas = try Canvas(width: Int(layout.deviceSize.width) + 8, height: Int(layout.deviceSize.height) + 8)
        try layout.draw(on: canvas, at: Point(4 / scale, 4 / scale), color: .black)
        for glyph in emoji {
            let bounds = try #require(glyph.outline.bounds)
            let rect = Rect(x: 4 + layout.lines[0].x + glyph.x + bounds.minX, y: 4 + layout.lines[0].baseline + bounds.minY,
                            width: bounds.width, height: bounds.height)
            let colored = Self.coloredPixels(canvas, in: rect)
            // Noto's ☕ is a white cup of brown coffee (5% of its box in colour at 15 px, 8% at 30 px),
            // 🍕 a yellow slice (over 20%); black text has none.
            #expect(Double(colored) > 0.04 * rect.width * rect.height, "\(glyph.scalar): \(colored) coloured pixels in \(rect)")
        }
        let text = Rect(x: 0, y: 0, width: 4 + (emoji[0].x - 1), height: Double(canvas.height))
        #expect(Self.coloredPixels(canvas, in: text) == 0, "the Latin text stays black")
    }

    @Test(arguments: [1.0, 2.0])
    func anEmojiLeavesTheLineBoxAsItIs(scale: Double) throws {
        let fallback = try Self.emojiFallback()
        let plain = try TextLayout(text: "Café", fallback: fallback, scale: scale)
        for text in ["Café ☕🍕", "🍕"] {
            let withEmoji = try TextLayout(text: text, fallback: fallback, scale: scale)
            #expect(withEmoji.metrics == plain.metrics, "\(text)")
            #expect(withEmoji.lines[0].baseline == plain.lines[0].baseline, "\(text)")
            #expect(withEmoji.deviceSize.height == plain.deviceSize.height, "\(text)")
            // The picture stays inside the line box.
            let ink = try #require(withEmoji.inkBounds)
            #expect(ink.minY >= 0 && ink.maxY <= withEmoji.deviceSize.height, "\(text): ink \(ink)")
        }
    }

    /// Clusters that show as one emoji: HarfBuzz gives one colour glyph for each.
    @Test(arguments: [
        ("☕", "default emoji presentation"),
        ("☕\u{FE0F}", "with the emoji selector"),
        ("🍕", "outside the BMP"),
        ("👩\u{200D}🍳", "ZWJ sequence (woman cook)"),
        ("👍🏽", "skin tone modifier"),
        ("🇯🇵", "flag from two regional indicators"),
        ("1\u{FE0F}\u{20E3}", "keycap sequence"),
    ])
    func emojiClusterIsOneColorGlyph(text: String, what: String) throws {
        let fallback = try Self.emojiFallback()
        let layout = try TextLayout(text: "a" + text, style: TextStyle(fontSize: 20), fallback: fallback)
        let glyphs = layout.lines[0].glyphs.dropFirst()
        #expect(glyphs.count == 1, "\(what): \(glyphs.count) glyphs")
        #expect(glyphs.allSatisfy { $0.outline.color != nil }, "\(what): not a colour glyph")
        #expect(layout.missingCharacters.isEmpty, "\(what)")
    }

    /// U+FE0E asks for text presentation: ☕︎ takes a monochrome face even
    /// after 🍕 has put the colour font, which also has ☕, in the chain.
    /// Needs a monochrome system font with ☕ (DejaVu Sans on Debian).
    @Test func theTextSelectorTakesAMonochromeFace() throws {
        let fallback = try Self.emojiFallback()
        let layout = try TextLayout(text: "🍕☕\u{FE0E}", fallback: fallback)
        let glyphs = layout.lines[0].glyphs.filter { $0.outline.color != nil || !$0.outline.path.isEmpty }
        #expect(glyphs.count == 2)
        #expect(glyphs.first?.outline.color != nil, "🍕 in colour")
        let cup = try #require(glyphs.last)
        #expect(cup.outline.color == nil && !fallback.members[cup.member].face.hasColorGlyphs,
                "☕︎ from \(fallback.members[cup.member].face.family)")
    }

    @Test func theSelectorDoesNotChangeTheAdvance() throws {
        let fallback = try Self.emojiFallback()
        let bare = try TextLayout(text: "☕a", fallback: fallback, scale: 2)
        let selected = try TextLayout(text: "☕\u{FE0F}a", fallback: fallback, scale: 2)
        #expect(bare.lines[0].glyphs.last?.x == selected.lines[0].glyphs.last?.x)
        #expect(bare.lines[0].width == selected.lines[0].width)
    }

    @Test func renderingIsDeterministic() throws {
        func render() throws -> [UInt8] {
            let layout = try TextLayout(text: "Café ☕🍕 👩\u{200D}🍳🇯🇵", fallback: try Self.emojiFallback(), scale: 2)
            let canvas = try Canvas(width: Int(layout.deviceSize.width), height: Int(layout.deviceSize.height))
            try layout.draw(on: canvas, color: .black, halo: TextHalo(color: .white, width: 1))
            return canvas.straightRGBA8()
        }
        let first = try render(), second = try render()
        #expect(first == second)
        #expect(first.contains { $0 != 0 })
    }

    /// Text opacity applies to the pictures; the text colour does not tint them.
    @Test func opacityAppliesAndColorDoesNot() throws {
        let fallback = try Self.emojiFallback()
        let layout = try TextLayout(text: "🍕", fallback: fallback, scale: 2)
        func render(_ color: Color, opacity: Double) throws -> [UInt8] {
            let canvas = try Canvas(width: Int(layout.deviceSize.width), height: Int(layout.deviceSize.height))
            try layout.draw(on: canvas, color: color, opacity: opacity)
            return canvas.straightRGBA8()
        }
        let black = try render(.black, opacity: 1), red = try render(Color(red: 1, green: 0, blue: 0), opacity: 1)
        #expect(black == red)
        let half = try render(.black, opacity: 0.5)
        let fullAlpha = stride(from: 3, to: black.count, by: 4).map { Int(black[$0]) }.max() ?? 0
        let halfAlpha = stride(from: 3, to: half.count, by: 4).map { Int(half[$0]) }.max() ?? 0
        #expect(fullAlpha == 255 && abs(halfAlpha - 128) <= 1, "alpha \(fullAlpha) and \(halfAlpha)")
    }

    /// A halo follows the emoji's alpha: pixels just outside the picture's ink get the halo colour.
    @Test func haloSurroundsTheEmoji() throws {
        let fallback = try Self.emojiFallback()
        let layout = try TextLayout(text: "🍕", fallback: fallback, scale: 2)
        func alphaCount(halo: TextHalo?) throws -> Int {
            let canvas = try Canvas(width: Int(layout.deviceSize.width) + 8, height: Int(layout.deviceSize.height) + 8)
            try layout.draw(on: canvas, at: Point(2, 2), halo: halo)
            return alpha8(canvas).filter { $0 > 0 }.count
        }
        let bare = try alphaCount(halo: nil), haloed = try alphaCount(halo: TextHalo(color: .white, width: 1))
        #expect(haloed > bare + 50, "\(bare) pixels without halo, \(haloed) with")
    }

    /// Regression (hostile sizes): a 512 pt emoji at @4x kept a 2555 × 2400
    /// picture (47 MiB) per glyph, and a 64 pt halo around it meant 10¹¹
    /// steps of dilation. Pictures are now made at most 256 px per em and
    /// drawn enlarged; the halo's work is charged to the canvas first.
    @Test func hugeEmojiAreEnlargedAndTheirHaloIsCharged() throws {
        let fallback = try Self.emojiFallback()
        let huge = try TextLayout(text: "🍕", style: TextStyle(fontSize: 512), fallback: fallback, scale: 4)
        let picture = try #require(huge.lines[0].glyphs.first?.outline.color)
        #expect(picture.scale == 8 && picture.image.width <= 320 && picture.image.height <= 320)
        #expect(abs(picture.bounds.width - 136.0 / 109 * 2048) <= 8, "drawn \(picture.bounds.width) px wide")
        let small = try Canvas(width: 16, height: 16)
        #expect(throws: RasterError.self) { try huge.draw(on: small, halo: TextHalo(color: .white, width: 64)) }

        // Past 256 px per em the picture is drawn enlarged, in colour over its whole box.
        let large = try TextLayout(text: "🍕", style: TextStyle(fontSize: 200), fallback: fallback, scale: 2)
        let enlarged = try #require(large.lines[0].glyphs.first?.outline.color)
        #expect(enlarged.scale == 400.0 / 256)
        let canvas = try Canvas(width: Int(large.deviceSize.width), height: Int(large.deviceSize.height))
        try large.draw(on: canvas)
        let glyph = large.lines[0].glyphs[0]
        let bounds = try #require(glyph.outline.bounds)
        let box = Rect(x: large.lines[0].x + glyph.x + bounds.minX, y: large.lines[0].baseline + bounds.minY,
                       width: bounds.width, height: bounds.height)
        #expect(Double(Self.coloredPixels(canvas, in: box)) > 0.2 * box.width * box.height)
    }

    /// COLR (layers of outlines in palette colours): FreeType paints them at
    /// the size asked for, no scaling. The fixture (Fixtures/make_colr_fixture.py)
    /// has a red square of 0…700 units under a green one of 200…500, and a
    /// plain "A", at 1000 units per em.
    @Test func colrLayersArePaintedByFreeType() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
        let library = try FontLibrary(folders: [fixtures])
        let face = try #require(try library.face(family: "Pinmint COLR Fixture"))
        #expect(face.hasColorGlyphs && face.isScalable)
        let star = try #require(face.glyph(for: "⭐")), letter = try #require(face.glyph(for: "A"))
        // 40 px per em: the red square is 28 px wide, the green one 12 px, from 8 px in.
        let picture = try #require(try face.outline(glyph: star, pixelSize: 40).color)
        #expect(picture.image.width == 28 && picture.image.height == 28 && picture.left == 0 && picture.top == -28,
                "\(picture.image.width)x\(picture.image.height) at (\(picture.left), \(picture.top))")
        func pixel(_ x: Int, _ y: Int) -> [UInt16] { Array(picture.image.pixels[(y * 28 + x) * 4..<(y * 28 + x) * 4 + 4]) }
        #expect(pixel(2, 2) == [65535, 0, 0, 65535], "red corner \(pixel(2, 2))")
        #expect(pixel(14, 14)[1] > 40000 && pixel(14, 14)[0] == 0, "green centre \(pixel(14, 14))")
        // The plain glyph stays an outline, drawn in the text colour.
        let plain = try face.outline(glyph: letter, pixelSize: 40)
        #expect(plain.color == nil && !plain.path.isEmpty)
        let layout = try TextLayout(text: "A⭐", style: TextStyle(fontSize: 40), fallback: FontFallback(faces: [face]))
        #expect(layout.lines[0].glyphs.map { $0.outline.color != nil } == [false, true])
    }

    /// Without a colour font the characters keep the monochrome fallback:
    /// a monochrome face that has ☕ gives it; 🍕, which none has, is reported.
    @Test func withoutAColorFontTheMonochromeFallbackStays() throws {
        let shipped = try FontLibrary(folders: [FontLibrary.shippedFontsFolder], includeSystem: false)
        let alone = try TextLayout(text: "Café ☕\u{FE0F}🍕", fallback: try shipped.fallback())
        #expect(alone.lines[0].glyphs.allSatisfy { $0.outline.color == nil })
        #expect(alone.missingCharacters == ["☕", "🍕"])
        #expect(alone.missingGlyphsWarning?.hasPrefix("no font has a glyph for ☕ (U+2615), 🍕 (U+1F355); tried Noto Sans") == true)

        // A monochrome system face with ☕ (DejaVu Sans on Debian), in a chain that cannot grow.
        let system = try FontLibrary.standard(includeSystem: true)
        let latin = try #require(try system.face(family: "Noto Sans"))
        let monochrome = try system.descriptors.lazy.filter { $0.source == .system }
            .compactMap { try? system.open($0) }
            .first { !$0.hasColorGlyphs && $0.glyph(for: "☕") != nil }
        let face = try #require(monochrome, "no monochrome font with ☕ (U+2615) is installed (fonts-dejavu-core has one)")
        let fixed = FontFallback(faces: [latin, face])
        let layout = try TextLayout(text: "Café ☕\u{FE0F}", fallback: fixed)
        // The cup's cluster starts at index 5; the selector's glyph, if any, is empty.
        let cup = layout.lines[0].glyphs.filter { $0.cluster == 5 && !$0.outline.path.isEmpty }
        #expect(cup.count == 1 && cup.allSatisfy { $0.member == 1 && $0.outline.color == nil })
    }
}
