/// Writing systems a face can be checked for, each by a handful of sample
/// characters: a face covers a script when it has a glyph for every sample.
/// A quick listing for `pinmint fonts`, not a full coverage audit.
public enum Script: String, CaseIterable, Sendable {
    case latin = "Latin"
    case greek = "Greek"
    case cyrillic = "Cyrillic"
    case han = "CJK Han"
    case kana = "Kana"
    case hangul = "Hangul"
    case arabic = "Arabic"
    case hebrew = "Hebrew"
    case thai = "Thai"
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
