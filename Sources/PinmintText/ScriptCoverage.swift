/// Writing systems a face can be checked for, each by a handful of sample
/// characters: a face covers a script when it has a glyph for every sample.
/// A quick listing for `pinmint fonts`, not a full coverage audit.
public enum Script: String, CaseIterable, Sendable {
    /// Basic Latin letters and digits with a few accented ones ("Latin").
    case latin = "Latin"
    /// Greek capitals and small letters ("Greek").
    case greek = "Greek"
    /// Russian Cyrillic capitals and small letters ("Cyrillic").
    case cyrillic = "Cyrillic"
    /// Common Han ideographs, simplified and traditional ("CJK Han").
    case han = "CJK Han"
    /// Japanese Hiragana and Katakana ("Kana").
    case kana = "Kana"
    /// Korean Hangul syllables ("Hangul").
    case hangul = "Hangul"
    /// Arabic letters, unjoined ("Arabic").
    case arabic = "Arabic"
    /// Hebrew letters ("Hebrew").
    case hebrew = "Hebrew"
    /// Thai consonants ("Thai").
    case thai = "Thai"
    /// Devanagari vowels and consonants ("Devanagari").
    case devanagari = "Devanagari"

    /// The sample characters.
    public var samples: String {
        switch self {
        case .latin: "AZaz09éßÆ"
        case .greek: "ΑΩαω"
        case .cyrillic: "АЯаяЖ"
        case .han: "中国萬我的"
        case .kana: "あいアイン"
        case .hangul: "가한글나"
        case .arabic: "ابجع"
        case .hebrew: "אבגש"
        case .thai: "กขคฮ"
        case .devanagari: "अकखह"
        }
    }
}

extension FontFace {
    /// The scripts this face covers (see `Script`).
    public var scripts: [Script] { Script.allCases.filter { covers($0.samples) } }
}
