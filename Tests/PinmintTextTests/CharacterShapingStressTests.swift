import Testing
@testable import PinmintText

/// An adversarial check of `FontFace.shapeByCharacter`: random runs built
/// to make pieces (kerning pairs, ligatures, fractions, ordinals, locale
/// forms, currency and letterlike signs, spaces, soft hyphens), in every
/// shipped face reachable by family, with each text end on and off, under
/// features and languages that change the font's lookups. Each run is a
/// slice from the middle of a longer array, as a paragraph's runs are.
/// Wherever the short cut gives glyphs, they must be exactly whole-run
/// shaping's (glyph, cluster, advance, offsets) for the same flags.
@Suite struct CharacterShapingStressTests {
    /// One face, script and alphabet, and the plans to shape them under.
    struct Case: CustomStringConvertible, Sendable {
        let family: String
        let weight: Int
        let script: UInt32
        /// Pieces strings are built from: single characters and words that
        /// shape together (kerning pairs, ligatures, fractions).
        let tokens: [String]
        let plans: [(language: String?, features: [String])]
        var description: String { "\(family) \(weight) \(UnicodeScript.name(script))" }
    }

    static let digits = "0123456789".map(String.init)
    /// Currency signs U+20A0…U+20C0 and letterlike symbols U+2100…U+214F, all of them.
    static let signs = (0x20A0...0x20C0).compactMap { Unicode.Scalar($0).map { String($0) } }
    static let letterlike = (0x2100...0x214F).compactMap { Unicode.Scalar($0).map { String($0) } }
    static let spacesAndPunctuation = [" ", " ", "\u{A0}", "\u{202F}", "\u{2009}", "\u{AD}", ".", ",", ":", ";", "-", "–", "—",
                                       "/", "\u{2044}", "'", "’", "\"", "“", "”", "!", "?", "(", ")", "[", "]", "%", "‰", "+", "·",
                                       "…", "‹", "›", "«", "»", "°", "ª", "º", "½", "¹", "²", "³", "×"]
    static let latinWords = ["fi", "ffl", "ff", "fl", "IJ", "ij", "AV", "AVA", "To", "Ty", "Yo", "We", "LT", "P.", "r.", "y,",
                             "1⁄2", "3⁄4", "12⁄25", "No", "1a", "2o", "Nº", "l·l", "ş", "ţ", "Ş", "i", "I", "İ", "ı", "fİ",
                             "Tokyo", "EUR", "CHF", "Kč", "zł", "off", "ﬁ", "ǅ", "ŉ", "ʼn", "ˈ", "˚", "₩", "€", "$", "£", "¥"]
    static let latinLetters = "AaBbCcDdEeFfGgHhIiJjKkLlMmNnOoPpQqRrSsTtUuVvWwXxYyZzéèêüößçñøåæœþðł".map(String.init)

    static let cases: [Case] = {
        let latinTokens = latinLetters + latinLetters + latinWords + latinWords + digits + digits + signs + letterlike
            + spacesAndPunctuation + spacesAndPunctuation
        let latinPlans: [(language: String?, features: [String])] = [
            (nil, []), (nil, ["-kern"]), (nil, ["smcp"]), (nil, ["c2sc", "smcp"]), (nil, ["tnum"]), (nil, ["frac"]),
            (nil, ["liga"]), (nil, ["-liga"]), (nil, ["onum", "zero"]), (nil, ["case"]), (nil, ["ordn"]), (nil, ["sups"]),
            ("tr", []), ("nl", []), ("ro", []), ("ca", []), ("tr", ["smcp"]), ("nl", ["-kern", "liga"]),
        ]
        let greek = "αβγδεζηθικλμνξοπρστυφχψωάέήίόύώΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΆΈΉΊΌΎΏ".map(String.init)
            + ["ΤΑ", "ΑΥ", "ΓΑ", "ΡΑ", "Ω", "Ω", "ΐ", "ΰ"]
        let cyrillic = "абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯёЁђјљњћџ".map(String.init)
            + ["ТА", "ГА", "РА", "УА", "бг", "дл", "₽", "руб."]
        let common = digits + digits + signs + letterlike + spacesAndPunctuation + ["1⁄2", "10⁄3", "№", "℃", "℉", "™", "%", "#"]
        let cjk = "萬成的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年，。、（）「」：；！？·—…".map(String.init)
            + "アイウエオカキクケコーッャュョ한국어서울".map(String.init) + digits + ["A", "V", "fi", " ", "\u{3000}", "€", "¥", "℃", "№"]
        let cyrillicPlans: [(language: String?, features: [String])] = [(nil, []), ("sr", []), ("mk", []), ("bg", []), (nil, ["smcp"]), (nil, ["-kern"])]
        let greekPlans: [(language: String?, features: [String])] = [(nil, []), ("el", []), (nil, ["smcp"]), (nil, ["case"]), (nil, ["-kern"])]
        let commonPlans: [(language: String?, features: [String])] = [(nil, []), (nil, ["frac"]), (nil, ["tnum"]), (nil, ["sups"]), (nil, ["ordn"])]
        let cjkPlans: [(language: String?, features: [String])] = [(nil, []), ("ja", []), ("ko", []), ("zh-Hant", []), (nil, ["palt"]),
                                                                   (nil, ["halt"]), (nil, ["hwid"]), (nil, ["dlig"])]
        return [
            Case(family: "Noto Sans", weight: 400, script: UnicodeScript.latin, tokens: latinTokens, plans: latinPlans),
            Case(family: "Noto Sans", weight: 700, script: UnicodeScript.latin, tokens: latinTokens, plans: latinPlans),
            Case(family: "Noto Sans", weight: 400, script: UnicodeScript.of(0x3B1), tokens: greek + greek + common, plans: greekPlans),
            Case(family: "Noto Sans", weight: 700, script: UnicodeScript.of(0x430), tokens: cyrillic + cyrillic + common, plans: cyrillicPlans),
            Case(family: "Noto Sans", weight: 400, script: UnicodeScript.of(0x430), tokens: cyrillic + cyrillic + common, plans: cyrillicPlans),
            Case(family: "Noto Sans", weight: 400, script: UnicodeScript.common, tokens: common, plans: commonPlans),
            Case(family: "Noto Sans CJK SC", weight: 400, script: UnicodeScript.han, tokens: cjk, plans: cjkPlans),
            Case(family: "Noto Sans CJK SC", weight: 700, script: UnicodeScript.han, tokens: cjk, plans: cjkPlans),
            Case(family: "Noto Sans CJK SC", weight: 400, script: UnicodeScript.latin, tokens: latinTokens, plans: [(nil, []), (nil, ["-kern"]), ("ja", [])]),
            Case(family: "Noto Sans CJK SC", weight: 400, script: UnicodeScript.hangul, tokens: cjk, plans: [(nil, []), ("ko", [])]),
            Case(family: "Noto Sans CJK SC", weight: 400, script: UnicodeScript.katakana, tokens: cjk, plans: [(nil, []), ("ja", [])]),
            // Digits and signs in an Indic or Thai paragraph take its script: HarfBuzz's Indic and Thai shapers.
            Case(family: "Noto Sans Devanagari", weight: 400, script: UnicodeScript.of(0x915), tokens: common + ["क", "कि", "₹"], plans: [(nil, []), ("hi", [])]),
            Case(family: "Noto Sans Thai", weight: 400, script: UnicodeScript.of(0xE01), tokens: common + ["ก", "กำ", "฿"], plans: [(nil, []), ("th", [])]),
            // Digits in a right-to-left paragraph: a left-to-right run in the Arabic or Hebrew script.
            Case(family: "Noto Sans Arabic", weight: 400, script: UnicodeScript.arabic, tokens: common + ["ب", "ـ", "٫", "٬", "؋"], plans: [(nil, []), ("ur", [])]),
            Case(family: "Noto Sans Hebrew", weight: 400, script: UnicodeScript.hebrew, tokens: common + ["א", "₪"], plans: [(nil, [])]),
        ]
    }()

    @Test(arguments: cases)
    func randomPiecesMatchWholeShaping(_ item: Case) throws {
        let library = try shippedLibrary()
        let face = try #require(try library.fallback(families: [item.family], weight: item.weight).members.first?.face)
        #expect(face.family == item.family)
        var state: UInt64 = 0xD1B5_4A32_D192_ED03 ^ UInt64(item.script) ^ UInt64(item.weight)
        func next(_ count: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % count
        }
        var setInPieces = 0, runs = 0
        for plan in item.plans {
            let features = plan.features.compactMap(TextFeature.init)
            #expect(features.count == plan.features.count)
            for _ in 0..<1000 {
                var text: [UInt32] = []
                for _ in 0..<(next(7) + 1) { text += item.tokens[next(item.tokens.count)].unicodeScalars.map(\.value) }
                // The run as a slice in the middle of a paragraph's text.
                let margin = next(3)
                let paragraph = Array(repeating: UInt32(0x78), count: margin) + text + Array(repeating: UInt32(0x78), count: next(3))
                let run = paragraph[margin..<(margin + text.count)]
                // Every pair of text ends, in an order that meets cached pieces and characters of another pair.
                let ends = [(true, true), (false, false), (true, false), (false, true)]
                let shift = next(4)
                for turn in 0..<4 {
                    let (startsText, endsText) = ends[(turn + shift) % 4]
                    runs += 1
                    let byCharacter = face.shapeByCharacter(run, startsText: startsText, endsText: endsText, script: item.script,
                                                            language: plan.language, features: features)
                    guard let byCharacter else { continue }
                    setInPieces += 1
                    let whole = face.shapeWhole(run, startsText: startsText, endsText: endsText, rightToLeft: false,
                                                script: item.script, language: plan.language, features: features)
                    let string = String(String.UnicodeScalarView(text.compactMap(Unicode.Scalar.init)))
                    #expect(byCharacter == whole, """
                        \(item) \(plan.language ?? "-") \(plan.features) starts \(startsText) ends \(endsText): \
                        "\(string)" \(text.map { String($0, radix: 16) })
                        """)
                }
            }
        }
        // The short cut must be taken for many runs, else this tests nothing.
        #expect(setInPieces * 10 > runs, "\(item): \(setInPieces) of \(runs) runs set in pieces")
    }
}

extension CharacterShapingStressTests {
    /// `ShapedParagraph.isClusterOfOne`'s currency (U+20A0…U+20C0) and
    /// letterlike (U+2100…U+214F) ranges: Swift's grapheme breaking (UAX #29)
    /// puts a break between each of them and every other character the
    /// function accepts outside the large CJK and Hangul blocks, either way
    /// round (pairs decide it: no rule of UAX #29 that looks further, GB9c,
    /// GB11 to GB13, applies to such characters).
    @Test func currencyAndLetterlikeSignsAreClustersOfOne() {
        let accepted = (0x20...0x3000).compactMap(Unicode.Scalar.init).filter(ShapedParagraph.isClusterOfOne)
        let signs = accepted.filter { (0x20A0...0x20C0).contains($0.value) || (0x2100...0x214F).contains($0.value) }
        #expect(signs.count == 0x20C0 - 0x20A0 + 1 + 0x214F - 0x2100 + 1)
        var joined: [String] = []
        for sign in signs {
            for other in accepted {
                for pair in [[sign, other], [other, sign]] {
                    var text = String.UnicodeScalarView()
                    text.append(contentsOf: pair)
                    if String(text).count != 2 { joined.append(pair.map { String($0.value, radix: 16) }.joined(separator: " ")) }
                }
            }
        }
        #expect(joined.isEmpty, "grapheme clusters of two: \(joined.prefix(20))")
    }
}
