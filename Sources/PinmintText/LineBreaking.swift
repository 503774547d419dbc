/// Where lines may break, after UAX #14's simplest rules: after spaces, and
/// between two characters when either is CJK (Han, kana, Hangul, CJK and
/// fullwidth punctuation), except before closing punctuation and after
/// opening punctuation (the Japanese kinsoku rule, also used in Chinese).
enum LineBreaking {
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\u{3000}"
    }

    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFFEF, 0x20000...0x3FFFF: true
        default: false
        }
    }

    /// Characters that must not start a line.
    static let noBreakBefore: Set<Unicode.Scalar> = Set("，。、：；！？）」』】〉》〕〗”’…‥ー・ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.!?:;)]}%".unicodeScalars)
    /// Characters that must not end a line.
    static let noBreakAfter: Set<Unicode.Scalar> = Set("（「『【〈《〔〖“‘([{".unicodeScalars)

    /// True when a line may end after `before` and the next start with `after`.
    static func canBreak(between before: Unicode.Scalar, and after: Unicode.Scalar) -> Bool {
        if isSpace(before) { return !isSpace(after) }
        if isSpace(after) { return false }
        if noBreakBefore.contains(after) || noBreakAfter.contains(before) { return false }
        return isCJK(before) || isCJK(after)
    }
}
