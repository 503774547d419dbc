import Foundation
import PinmintGeometry
import PinmintPNG
import PinmintRaster
import PinmintText
import Testing

/// Labels in every script Pinmint ships fonts for, against references made
/// without Pinmint's text code (tools/make_shaping_reference.py: python-bidi's
/// UAX #9, the fonts' cmaps for fallback, HarfBuzz's `hb-shape` per run, and
/// FreeType's own rasterizer, through freetype-py, for pixels; Golden/text/shaping/).
///
/// Positions: the same glyphs of the same fonts in the same visual order,
/// each origin within 1/64 px of the reference's, at 32 px without hinting.
/// Pixels: Pinmint's unhinted drawing against FreeType's of the same glyphs
/// at the reference's positions, on the alpha channel; see `pixelTolerance`.
@Suite struct ShapingReferenceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden/text/shaping")

    struct Reference: Decodable {
        struct Glyph: Decodable {
            let font: String
            let glyph: UInt32
            let cluster: Int
            let x: Double
            let y: Double
        }
        struct Image: Decodable {
            let file: String
            /// Pixels from the image's top edge, a whole number.
            let baseline: Double
        }
        let text: String
        let fonts: [String]
        let size: Double
        let advance: Double
        let rightToLeft: Bool
        let glyphs: [Glyph]
        let language: String?
        let features: [String]?
        let direction: String?
        let image: Image?
    }

    struct Case: Decodable, CustomTestStringConvertible {
        let name: String
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")),
              let cases = try? JSONDecoder().decode([Case].self, from: data) else { return [] }
        return cases
    }()

    /// Two rasterizers' anti-aliasing of the same unhinted outlines: pixels
    /// whose coverage differs by more than 1/8 (32 of 255) may be at most
    /// 0.5 % of the image, and the mean difference at most 1 in 255.
    static let pixelTolerance = (share: 0.005, threshold: 32, mean: 1.0)

    func reference(_ name: String) throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: Self.folder.appendingPathComponent(name + ".json")))
    }

    func layout(_ reference: Reference) throws -> (TextLayout, FontFallback) {
        let library = try shippedLibrary()
        let fallback = try library.fallback(families: reference.fonts)
        var style = TextStyle(fontSize: reference.size, alignment: .left, hinting: .none)
        style.language = reference.language
        style.features = try (reference.features ?? []).map { try #require(TextFeature($0)) }
        style.direction = reference.direction.flatMap(TextDirection.init(rawValue:)) ?? .auto
        return (try TextLayout(text: reference.text, style: style, fallback: fallback, scale: 1), fallback)
    }

    @Test func everyCaseHasAReference() {
        #expect(Self.cases.count >= 20)
    }

    @Test(arguments: cases)
    func glyphsAndPositionsMatch(_ item: Case) throws {
        let reference = try reference(item.name)
        let (layout, fallback) = try layout(reference)
        #expect(layout.missingCharacters.isEmpty)
        #expect(layout.lines.count == 1)
        #expect(layout.isRightToLeft == reference.rightToLeft)
        let glyphs = try #require(layout.lines.first).glyphs
        #expect(glyphs.count == reference.glyphs.count, "glyphs: \(glyphs.map(\.glyph)) against \(reference.glyphs.map(\.glyph))")
        for (index, (glyph, expected)) in zip(glyphs, reference.glyphs).enumerated() {
            let family = fallback.members[glyph.member].face.family
            #expect(family == expected.font && glyph.glyph == expected.glyph && glyph.cluster == expected.cluster,
                    "glyph \(index): \(family) \(glyph.glyph) (cluster \(glyph.cluster)), expected \(expected.font) \(expected.glyph) (cluster \(expected.cluster))")
            #expect(abs(glyph.x - expected.x) <= 1.0 / 64 && abs(glyph.y - expected.y) <= 1.0 / 64,
                    "glyph \(index) at (\(glyph.x), \(glyph.y)), expected (\(expected.x), \(expected.y))")
        }
        #expect(abs(layout.lines[0].width - reference.advance) <= 1.0 / 64, "width \(layout.lines[0].width), expected \(reference.advance)")
    }

    @Test(arguments: cases)
    func pixelsMatchHarfBuzzsOwnDrawing(_ item: Case) throws {
        let reference = try reference(item.name)
        let image = try #require(reference.image)
        let expected = try PNGDecoder.decode(contentsOfFile: Self.folder.appendingPathComponent(image.file).path)
        let (layout, _) = try layout(reference)
        let canvas = try Canvas(width: expected.width, height: expected.height)
        try layout.draw(on: canvas, at: Point(0, image.baseline - layout.lines[0].baseline), color: .black)
        let ours = alpha8(canvas), theirs = stride(from: 3, to: expected.straightRGBA8.count, by: 4).map { expected.straightRGBA8[$0] }
        var over = 0, total = 0
        for (a, b) in zip(ours, theirs) {
            let difference = abs(Int(a) - Int(b))
            total += difference
            if difference > Self.pixelTolerance.threshold { over += 1 }
        }
        let share = Double(over) / Double(ours.count), mean = Double(total) / Double(ours.count)
        #expect(share <= Self.pixelTolerance.share && mean <= Self.pixelTolerance.mean,
                "\(item.name): \(over) of \(ours.count) pixels differ by more than \(Self.pixelTolerance.threshold), mean \(mean)")
        if share > Self.pixelTolerance.share || mean > Self.pixelTolerance.mean || ProcessInfo.processInfo.environment["PINMINT_KEEP"] != nil {
            let failures = Self.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".golden-failures/shaping")
            try FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
            try Data(PNGEncoder.encode(canvas)).write(to: failures.appendingPathComponent(item.name + ".actual.png"))
        }
    }
}
