import Testing
@testable import PinmintText

/// Runs set from characters shaped alone (`FontFace.shapeByCharacter`)
/// against the same runs shaped whole by HarfBuzz: the glyphs, clusters,
/// advances and offsets must be the same, in every shipped face and
/// script where the short cut is taken.
@Suite struct CharacterShapingTests {
    /// Faces of the shipped fonts, by family.
    static func face(_ family: String, library: FontLibrary) throws -> FontFace {
        try #require(try library.fallback(families: [family]).members.first?.face)
    }

    /// Whole-run and per-character shaping of `text` in `face`; nil from the
    /// second when the short cut refused the run.
    static func both(_ text: String, face: FontFace, script: UInt32, features: [TextFeature] = [], language: String? = nil)
        -> (whole: [ShapedGlyph], byCharacter: [ShapedGlyph]?) {
        let scalars = text.unicodeScalars.map(\.value)[...]
        let whole = face.shapeWhole(scalars, startsText: true, endsText: true, rightToLeft: false, script: script,
                                    language: language, features: features)
        let byCharacter = face.shapeByCharacter(scalars, startsText: true, endsText: true, script: script,
                                                language: language, features: features)
        return (whole, byCharacter)
    }

    @Test func pricesAreSetFromTheirDigits() throws {
        let library = try shippedLibrary()
        let sans = try Self.face("Noto Sans", library: library)
        for price in ["5200", "5201", "99999", "0", "1111"] {
            let (whole, byCharacter) = Self.both(price, face: sans, script: UnicodeScript.latin)
            let set = try #require(byCharacter, "\(price) was shaped whole")
            #expect(set == whole, "\(price)")
        }
    }

    /// Prices with separators, currency codes and words: HarfBuzz marks the
    /// digit after a decimal point (the kerning lookup tries the pair) and
    /// letters that kern, so those neighbours are set as pieces, the rest
    /// by character; the result is the whole run's shaping.
    @Test func pricesWithSeparatorsAndUnitsAreSetInPieces() throws {
        let library = try shippedLibrary()
        let sans = try Self.face("Noto Sans", library: library)
        for price in ["3.50", "12,500", "5201 EUR", "€5,201", "5.200 €", "CHF 1'250.00", "$99.99", "1 250 Kč", "Tokyo 5200"] {
            let (whole, inPieces) = Self.both(price, face: sans, script: UnicodeScript.latin)
            let set = try #require(inPieces, "\(price) was shaped whole")
            #expect(set == whole, "\(price)")
        }
        // The pieces are kept: a new price meets "EUR" and ",2" again.
        for price in ["5202 EUR", "€5,202"] {
            let (whole, inPieces) = Self.both(price, face: sans, script: UnicodeScript.latin)
            #expect(inPieces == whole, "\(price)")
        }
    }

    @Test func kernedPairsAreShapedWhole() throws {
        let library = try shippedLibrary()
        let sans = try Self.face("Noto Sans", library: library)
        // A and V kern; f and i make a ligature: HarfBuzz marks them, and every
        // neighbour of these: one piece, the run shaped whole.
        for text in ["AVATAR", "fi", "AV"] {
            #expect(Self.both(text, face: sans, script: UnicodeScript.latin).byCharacter == nil, "\(text)")
        }
        // What `shape` gives is still the whole run's shaping.
        let scalars = "AVATAR".unicodeScalars.map(\.value)[...]
        #expect(sans.shape(scalars, startsText: true, endsText: true, rightToLeft: false, script: UnicodeScript.latin,
                           language: nil, features: [])
                == sans.shapeWhole(scalars, startsText: true, endsText: true, rightToLeft: false, script: UnicodeScript.latin,
                                   language: nil, features: []))
    }

    /// Random strings from each script's characters: wherever the short cut
    /// is taken, it gives the whole run's glyphs; and it is taken for some.
    @Test(arguments: [
        ("Noto Sans", UnicodeScript.latin, "0123456789 .,-+%$€£¥AaBbCcDdEeHhIiKkLlMmNnOoPpRrSsTtUuVvWwXxYyZzéèüößçñ'’:/()"),
        ("Noto Sans", UnicodeScript.of(0x3B1), "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘ 0123456789"),
        ("Noto Sans", UnicodeScript.of(0x430), "абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГД 0123456789"),
        ("Noto Sans CJK SC", UnicodeScript.han, "萬成的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年，。、（）0123456789"),
        ("Noto Sans CJK SC", UnicodeScript.hangul, "똠한국어서울시강남구가나다라마바사아자차카타파하"),
        ("Noto Sans CJK SC", UnicodeScript.katakana, "アイウエオカキクケコサシスセソタチツテトナニヌネノーッャュョ"),
    ])
    func randomRunsMatchWholeShaping(_ item: (family: String, script: UInt32, characters: String)) throws {
        let library = try shippedLibrary()
        let face = try Self.face(item.family, library: library)
        let characters = Array(item.characters.unicodeScalars)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var setByCharacter = 0
        for _ in 0..<400 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let length = Int(state >> 60) + 1
            var text = String.UnicodeScalarView()
            for _ in 0..<length {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                text.append(characters[Int(state >> 33) % characters.count])
            }
            let string = String(text)
            let (whole, byCharacter) = Self.both(string, face: face, script: item.script)
            if let byCharacter {
                setByCharacter += 1
                #expect(byCharacter == whole, "\(item.family): \(string)")
            }
        }
        #expect(setByCharacter > 0, "\(item.family): no run was set from its characters")
    }
}

extension CharacterShapingTests {
    /// Random prices as labels write them (currency signs and codes before
    /// or after, thousands separators, decimals, units, a word), in the
    /// regular and bold Latin faces: wherever they are set in pieces, the
    /// glyphs are the whole run's; most are.
    @Test(arguments: ["Noto Sans", "Noto Sans Bold"])
    func randomPricesMatchWholeShaping(_ family: String) throws {
        let library = try shippedLibrary()
        let face = try #require(try library.fallback(families: ["Noto Sans"], weight: family.hasSuffix("Bold") ? 700 : 400).members.first?.face)
        let before = ["", "", "€", "$", "£", "¥", "₩", "₹", "₫", "CHF ", "USD ", "R$ ", "Fr. ", "ab ", "from "]
        let after = ["", "", " €", "€", " EUR", " Kč", " zł", " kr", " TL", " ₽", " руб.", "萬", " /night", "+", " pp", "%", "k"]
        let separators = ["", ",", ".", "'", " ", "\u{A0}", "\u{202F}"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ count: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % count
        }
        var inPieces = 0
        for _ in 0..<500 {
            var price = String(next(999) + 1)
            if next(2) == 0 { price += separators[next(separators.count)] + String(format: "%03d", next(1000)) }
            if next(3) == 0 { price += (next(2) == 0 ? "." : ",") + String(format: "%02d", next(100)) }
            let label = before[next(before.count)] + price + after[next(after.count)]
            let (whole, set) = Self.both(label, face: face, script: UnicodeScript.latin)
            if let set {
                inPieces += 1
                #expect(set == whole, "\(family): \(label)")
            }
        }
        #expect(inPieces > 250, "\(family): \(inPieces) of 500 set in pieces")
    }
}

/// The cache table behind `shapeByCharacter`.
@Suite struct WordTableTests {
    @Test func findsWhatWasSetThroughGrowingAndStartsAgainAtItsLimit() {
        var table = WordTable<Int>(limit: 1000)
        for key in 0..<900 { table.set(key * 3, for: UInt64(key) << 32 | 7) }
        #expect(table.count == 900)
        for key in 0..<900 { #expect(table[UInt64(key) << 32 | 7] == key * 3) }
        #expect(table[5] == nil && table[UInt64(900) << 32 | 7] == nil)
        table.set(-1, for: UInt64(3) << 32 | 7)
        #expect(table[UInt64(3) << 32 | 7] == -1 && table.count == 900)
        for key in 900..<1001 { table.set(key, for: UInt64(key)) }
        // The 1001st entry found the table full: it starts again with that one alone.
        #expect(table.count == 1 && table[1000] == 1000 && table[UInt64(3) << 32 | 7] == nil)
    }
}
