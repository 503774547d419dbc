import Foundation
import PinmintText
import Testing

@Suite struct FontTests {
    @Test func shippedFolderHoldsEveryScriptInTwoWeights() throws {
        let library = try shippedLibrary()
        #expect(library.problems.isEmpty)
        #expect(library.families.sorted() == ["Noto Sans", "Noto Sans Arabic", "Noto Sans CJK SC", "Noto Sans Devanagari",
                                              "Noto Sans Hebrew", "Noto Sans Thai"])
        for family in library.families {
            #expect(try library.face(family: family, weight: 400)?.weight == 400)
            #expect(try library.face(family: family, weight: 700)?.weight == 700)
        }
    }

    @Test(arguments: [
        ("Noto Sans", [Script.latin, .greek, .cyrillic]),
        ("Noto Sans Arabic", [Script.arabic]),
        ("Noto Sans Hebrew", [Script.hebrew]),
        ("Noto Sans Devanagari", [Script.devanagari]),
        ("Noto Sans Thai", [Script.thai]),
        ("Noto Sans CJK SC", [Script.latin, .han, .kana]),
    ])
    func scriptsCovered(family: String, expected: [Script]) throws {
        let library = try shippedLibrary()
        for weight in [400, 700] {
            let scripts = try #require(try library.face(family: family, weight: weight)).scripts
            for script in expected {
                #expect(scripts.contains(script), "\(family) \(weight) should cover \(script.rawValue)")
            }
        }
    }

    @Test func everySeedCharacterIsInTheCJKSubset() throws {
        let library = try shippedLibrary()
        let cjk = try #require(try library.face(family: "Noto Sans CJK SC"))
        // shared/ sits beside the checkout (CI) or at /work/shared (sessions).
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [checkout.deletingLastPathComponent().appendingPathComponent("shared/seeds").path,
                          "/work/shared/seeds"]
        var texts = ["5200萬成我是商户名我是商户地址图片中name很模糊"]  // the labels MARKERS.md quotes
        if let seeds = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            for file in try FileManager.default.contentsOfDirectory(atPath: seeds) where file.hasSuffix(".txt") {
                texts.append(try String(contentsOfFile: seeds + "/" + file, encoding: .utf8))
            }
        }
        var missing = Set<Unicode.Scalar>()
        for text in texts {
            for scalar in text.unicodeScalars where scalar.value >= 0x20 && cjk.glyph(for: scalar) == nil { missing.insert(scalar) }
        }
        #expect(missing.isEmpty, "missing: \(String(String.UnicodeScalarView(missing)))")
    }

    /// The CJK family's regular faces (its face and the Hangul companion)
    /// have every character of each set; 똠 and 喆 are outside KS X 1001 and GB2312.
    @Test(arguments: ["萬成我是商户名", "あいうえおアイウエオ", "한글가나다똠", "學體邊龜鬱", "働峠込畑", "喆堃燊"])
    func subsetCoversCharacterSets(text: String) throws {
        let library = try shippedLibrary()
        let members = try library.fallback(families: ["Noto Sans CJK SC"]).members.filter { $0.face.family == "Noto Sans CJK SC" }
        for scalar in text.unicodeScalars {
            #expect(members.contains { $0.face.glyph(for: scalar) != nil }, "no CJK face has \(scalar)")
        }
    }

    /// Hangul ships in a file of its own (one CJK regular file would be
    /// over the repository's 12 MiB per-file limit): a companion of the CJK
    /// regular face, which a chain takes right after that face, before the
    /// families after it; bold text takes the Hangul KS X 1001 lacks (똠)
    /// from it, emboldened.
    @Test func hangulCompanionFollowsTheCJKFace() throws {
        let library = try shippedLibrary()
        let regular = try library.fallback(families: ["Noto Sans CJK SC", "Noto Sans Arabic"])
        let lead = regular.members[0].face, companion = regular.members[1].face
        #expect(lead.family == "Noto Sans CJK SC" && companion.family == "Noto Sans CJK SC")
        #expect(lead.style == companion.style && lead.weight == 400 && companion.weight == 400)
        #expect(lead.scripts == [.latin, .han, .kana] && companion.scripts == [.hangul])
        #expect(regular.resolve("똠")?.member == 1 && regular.resolve("喆")?.member == 0)
        #expect(try library.face(family: "Noto Sans CJK SC")?.file == lead.file)
        let bold = try library.fallback(families: ["Noto Sans CJK SC"], weight: 700)
        let found = try #require(bold.resolve("똠"))
        #expect(bold.members[found.member].face.file == companion.file && bold.members[found.member].syntheticBold)
        #expect(bold.members[0].face.weight == 700 && bold.members[0].face.glyph(for: "똠") == nil)
    }

    @Test func metricsScaleWithPixelSize() throws {
        let library = try shippedLibrary()
        let latin = try #require(try library.face(family: "Noto Sans"))
        let at12 = latin.metrics(pixelSize: 12), at24 = latin.metrics(pixelSize: 24)
        #expect(at12.ascent > 12 * 0.9 && at12.ascent < 12 * 1.2)
        #expect(at12.descent > 0 && at12.descent < 12 * 0.4)
        #expect(abs(at24.lineHeight - 2 * at12.lineHeight) < 1e-9)
        #expect(at12.lineHeight >= at12.ascent + at12.descent - 1e-9)
    }

    @Test func missingFileThrowsNamingIt() throws {
        let freeType = try FreeTypeLibrary()
        #expect(throws: FontError.self) { try FontFace(file: "/nonexistent/font.ttf", library: freeType) }
    }

    /// Noto keeps its kerning in GPOS, not in a `kern` table: FT_Get_Kerning
    /// finds nothing, and the layout kerns through HarfBuzz ("AV" narrower
    /// than A's advance plus V's; "AVATAR" was 87 px at 20 px wide unkerned).
    @Test func notoKernsThroughGPOS() throws {
        let library = try shippedLibrary()
        let latin = try #require(try library.face(family: "Noto Sans"))
        #expect(!latin.hasKerningTable)
        let a = try #require(latin.glyph(for: "A")), v = try #require(latin.glyph(for: "V"))
        #expect(try latin.kerning(a, v, pixelSize: 12) == 0)
        let style = TextStyle(fontSize: 100, hinting: .none)
        let pair = try TextLayout(text: "AV", style: style, fallback: FontFallback(faces: [latin]))
        let apart = try latin.outline(glyph: a, pixelSize: 100, hinting: .none).advance
            + latin.outline(glyph: v, pixelSize: 100, hinting: .none).advance
        #expect(pair.lines[0].width < apart - 3, "AV \(pair.lines[0].width), A + V \(apart)")
    }

    @Test func outlinesAreCachedPerSizeAndHinting() throws {
        let library = try shippedLibrary()
        let latin = try #require(try library.face(family: "Noto Sans"))
        let glyph = try #require(latin.glyph(for: "g"))
        let first = try latin.outline(glyph: glyph, pixelSize: 12)
        _ = try latin.outline(glyph: glyph, pixelSize: 12)
        #expect(latin.cachedOutlineCount == 1)
        _ = try latin.outline(glyph: glyph, pixelSize: 24)
        _ = try latin.outline(glyph: glyph, pixelSize: 12, hinting: .none)
        #expect(latin.cachedOutlineCount == 3)
        #expect(first.advance > 5 && first.advance < 8)
        let bounds = try #require(first.path.bounds)
        #expect(bounds.maxY > 1, "g descends below the baseline (y down)")
    }

    /// FT_Get_Kerning on a face that has a `kern` table (a fixture made from
    /// Noto Sans with two of its GPOS pairs: A V −40, T o −70 per 1000 units).
    @Test(arguments: [("AV", -40.0), ("To", -70.0), ("VA", 0.0)])
    func kernTablePairsNarrowTheLine(pair: String, units: Double) throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
        let library = try FontLibrary(folders: [fixtures])
        let face = try #require(try library.face(family: "Pinmint Kern Fixture"))
        #expect(face.hasKerningTable)
        let scalars = Array(pair.unicodeScalars)
        let left = try #require(face.glyph(for: scalars[0])), right = try #require(face.glyph(for: scalars[1]))
        #expect(abs(try face.kerning(left, right, pixelSize: 100) - units / 10) < 0.02)
        let style = TextStyle(fontSize: 100, hinting: .none)
        let together = try TextLayout(text: pair, style: style, fallback: FontFallback(faces: [face]))
        let apart = try face.outline(glyph: left, pixelSize: 100, hinting: .none).advance
            + face.outline(glyph: right, pixelSize: 100, hinting: .none).advance
        #expect(abs(together.lines[0].width - (apart + units / 10)) < 0.02, "width \(together.lines[0].width), apart \(apart)")
    }

    /// A family with only a regular face lends it, emboldened, to bold text.
    @Test func familyWithoutBoldGetsSyntheticBold() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-regular-only-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("NotoSans-Regular-Subset.ttf").path,
            withDestinationPath: FontLibrary.shippedFontsFolder + "/NotoSans-Regular-Subset.ttf")
        let library = try FontLibrary(folders: [folder.path])
        let bold = try library.fallback(families: ["Noto Sans"], weight: 700)
        #expect(bold.members.count == 1 && bold.members[0].syntheticBold && bold.members[0].face.weight == 400)
        let plain = try library.fallback(families: ["Noto Sans"], weight: 400)
        #expect(!plain.members[0].syntheticBold)
        let regular = try TextLayout(text: "Shop", fallback: try library.fallback(families: ["Noto Sans"]))
        let emboldened = try TextLayout(text: "Shop", fallback: bold)
        #expect(emboldened.lines[0].width > regular.lines[0].width)
    }

    /// The first folder of one source holding a family's style wins; the copy in a later folder is skipped.
    @Test func earlierFoldersWinForTheSameFamilyAndStyle() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("copy.ttf").path,
            withDestinationPath: FontLibrary.shippedFontsFolder + "/NotoSans-Regular-Subset.ttf")
        let library = try FontLibrary(folders: [folder.path, FontLibrary.shippedFontsFolder])
        #expect(library.descriptors.count == (try shippedLibrary()).descriptors.count)
        #expect(try library.face(family: "Noto Sans", weight: 400)?.file.hasSuffix("copy.ttf") == true)
    }
}
