/// One paragraph of text, itemized and shaped: split into runs of one
/// embedding level (UAX #9, FriBidi), one script (UAX #24) and one face of
/// the fallback chain, each run shaped by HarfBuzz. What `LineSetter` cuts
/// into lines.
///
/// Itemization follows the way browsers and Pango do it:
/// - scripts: a mark (`Zinh`) takes the script of its base; a shared
///   character (`Zyyy`: spaces, digits, punctuation) takes the script of
///   the text before it, or after it at the start;
/// - faces: each grapheme cluster (Swift's `Character`, UAX #29) takes the
///   first face of the chain that has a glyph for every character in it,
///   as browsers choose per character (so that a base and its marks stay
///   in one face); one of joiners and selectors only stays in the face
///   before it; a cluster no face covers takes the face that has its first
///   character, else the first face's .notdef box, and is reported missing;
/// - emoji (UTS #51): a cluster shown as an emoji (`presentation`: 🍕 by
///   default, ☺️ by its selector U+FE0F, flags, ZWJ sequences) takes a colour
///   face first, the chain's or fontconfig's, as browsers do; without one it
///   takes the chain's order like any cluster (a monochrome glyph). One
///   with the text selector U+FE0E takes a face without colour first.
struct ShapedParagraph {
    /// The paragraph's code points, as shaped.
    let text: [UInt32]
    /// Embedding level of each code point, and of the paragraph (0 or 1).
    let levels: [UInt8]
    let paragraphLevel: UInt8
    /// The start of each grapheme cluster, and `text.count` at the end.
    let clusterStarts: [Int]
    let runs: [Run]
    /// Characters no face has (in order of first appearance, no repeats).
    let missing: [Unicode.Scalar]

    struct Run {
        let range: Range<Int>
        let level: UInt8
        let script: UInt32
        let member: Int
        var isRightToLeft: Bool { level & 1 == 1 }
    }

    /// Itemizes `scalars` (one paragraph, no line break in it).
    init(_ scalars: [Unicode.Scalar], style: TextStyle, fallback: FontFallback) {
        let text = scalars.map(\.value)
        self.text = text
        (levels, paragraphLevel) = Bidi.levels(text, direction: style.direction)
        clusterStarts = ShapedParagraph.clusterStarts(scalars)
        let scripts = ShapedParagraph.scripts(text)
        // Not `Array(repeating:count:)` (see `Bidi.levels`).
        var members = Array(repeatElement(0, count: text.count))
        var missing: [Unicode.Scalar] = []
        var previousMember: Int? = nil
        if clusterStarts.count == text.count + 1 {
            // One character a cluster.
            for index in scalars.indices {
                let member = ShapedParagraph.member(for: scalars[index], previous: previousMember, fallback: fallback, missing: &missing)
                members[index] = member
                previousMember = member
            }
        } else {
            for cluster in 0..<(clusterStarts.count - 1) {
                let range = clusterStarts[cluster]..<clusterStarts[cluster + 1]
                let member = ShapedParagraph.member(for: scalars[range], previous: previousMember, fallback: fallback,
                                                    missing: &missing)
                for index in range { members[index] = member }
                previousMember = member
            }
        }
        self.missing = missing
        var runs: [Run] = []
        runs.reserveCapacity(4)
        var start = 0
        for index in stride(from: 1, through: text.count, by: 1) where index == text.count || levels[index] != levels[start]
            || scripts[index] != scripts[start] || members[index] != members[start] {
            if index > start { runs.append(Run(range: start..<index, level: levels[start], script: scripts[start], member: members[start])) }
            start = index
        }
        self.runs = runs
    }

    /// The first code point index of every grapheme cluster, and the end.
    static func clusterStarts(_ scalars: [Unicode.Scalar]) -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(scalars.count + 1)
        // Text of characters that are always clusters of one (no mark, joiner or selector can
        // follow them here) needs no grapheme breaking: most labels stop here.
        if scalars.allSatisfy(isClusterOfOne) {
            starts.append(contentsOf: 0...scalars.count)
            return starts
        }
        var string = String.UnicodeScalarView()
        string.append(contentsOf: scalars)
        var index = 0
        for character in String(string) {
            starts.append(index)
            index += character.unicodeScalars.count
        }
        starts.append(scalars.count)
        return starts
    }

    /// Characters that form a grapheme cluster alone, in text where every
    /// character is one of them: printable ASCII, Latin-1, general
    /// punctuation, currency symbols (€, ₩, ₹ …), letterlike symbols (№, ™),
    /// CJK punctuation without the kana voicing marks, kana,
    /// Han, precomposed Hangul and fullwidth forms without the halfwidth
    /// voicing marks (UAX #29: none of them extends another or is extended).
    static func isClusterOfOne(_ scalar: Unicode.Scalar) -> Bool { isClusterOfOne(scalar.value) }

    /// `isClusterOfOne` for a code point.
    static func isClusterOfOne(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x20...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0, 0x2100...0x214F, 0x3000...0x3029, 0x3030...0x3098, 0x309B...0x30FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF01...0xFF9D: true
        default: false
        }
    }

    /// The script of one code point: ASCII and the unified ideographs
    /// directly (most labels), the rest by HarfBuzz's table.
    private static func script(_ scalar: UInt32) -> UInt32 {
        switch scalar {
        case 0x41...0x5A, 0x61...0x7A: UnicodeScript.latin
        case 0..<0x80: UnicodeScript.common
        case 0x4E00...0x9FFF: UnicodeScript.han
        default: UnicodeScript.of(scalar)
        }
    }

    /// Each code point's script, shared and inherited ones resolved (see the type's comment).
    static func scripts(_ text: [UInt32]) -> [UInt32] {
        var scripts = text.map(script)
        // The shared characters before the first script's character, which take that script.
        var leading = 0
        var last: UInt32? = nil
        for index in scripts.indices {
            let script = scripts[index]
            if script == UnicodeScript.common || script == UnicodeScript.inherited || script == UnicodeScript.unknown {
                if let last { scripts[index] = last } else { leading += 1 }
            } else if last == nil {
                for waiting in 0..<leading { scripts[waiting] = script }
                last = script
            } else {
                last = script
            }
        }
        if last == nil { for waiting in 0..<leading { scripts[waiting] = UnicodeScript.common } }
        return scripts
    }

    /// Characters that need no glyph of their own: joiners, variation
    /// selectors, bidi and other format controls (HarfBuzz hides them).
    static func isDefaultIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E,
             0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3,
             0x1D173...0x1D17A, 0xE0000...0xE0FFF: true
        default: false
        }
    }

    /// How a cluster asks to be shown (UTS #51, section 4).
    enum Presentation { case `default`, emoji, text }

    /// `emoji` when the cluster has the emoji presentation selector U+FE0F,
    /// or its first character shows as an emoji by default
    /// (Emoji_Presentation: ☕, 🍕, the regional indicators of flags) and no
    /// text presentation selector U+FE0E follows; `text` with U+FE0E;
    /// `default` otherwise (letters, digits, ☺ alone).
    static func presentation(of cluster: ArraySlice<Unicode.Scalar>) -> Presentation {
        if cluster.contains("\u{FE0F}") { return .emoji }
        if cluster.contains("\u{FE0E}") { return .text }
        guard let first = cluster.first else { return .default }
        return showsAsEmojiByDefault(first) ? .emoji : .default
    }

    /// Emoji_Presentation, looked up only in the blocks that have it
    /// (U+231A…U+2B55 and from U+1F000), so that letters and Han pay nothing.
    static func showsAsEmojiByDefault(_ scalar: Unicode.Scalar) -> Bool {
        guard (0x231A...0x2B55).contains(scalar.value) || scalar.value >= 0x1F000 else { return false }
        return scalar.properties.isEmojiPresentation
    }

    /// The chain member a cluster of one character is set in (most of them: no list to make).
    private static func member(for scalar: Unicode.Scalar, previous: Int?, fallback: FontFallback,
                               missing: inout [Unicode.Scalar]) -> Int {
        if isDefaultIgnorable(scalar) { return previous ?? 0 }
        if showsAsEmojiByDefault(scalar), let member = fallback.colorMember(for: [scalar]) { return member }
        for member in fallback.members.indices where fallback.members[member].face.glyph(for: scalar) != nil { return member }
        if let added = fallback.extend(for: scalar) { return added }
        if !missing.contains(scalar) { missing.append(scalar) }
        return 0
    }

    /// The chain member one grapheme cluster is set in (see the type's comment).
    private static func member(for cluster: ArraySlice<Unicode.Scalar>, previous: Int?, fallback: FontFallback,
                               missing: inout [Unicode.Scalar]) -> Int {
        if cluster.count == 1, let scalar = cluster.first {
            return member(for: scalar, previous: previous, fallback: fallback, missing: &missing)
        }
        let needed = cluster.filter { !isDefaultIgnorable($0) }
        guard let first = needed.first else { return previous ?? 0 }
        func covers(_ member: Int) -> Bool { needed.allSatisfy { fallback.members[member].face.glyph(for: $0) != nil } }
        switch presentation(of: cluster) {
        case .emoji:
            if let member = fallback.colorMember(for: needed) { return member }
        case .text:
            for member in fallback.members.indices where !fallback.members[member].face.hasColorGlyphs && covers(member) {
                return member
            }
            // The system's face for it, when that one is monochrome (a colour member may already cover it).
            if let added = fallback.extend(for: first), !fallback.members[added].face.hasColorGlyphs, covers(added) { return added }
        case .default: break
        }
        for member in fallback.members.indices where covers(member) { return member }
        // The system's face for the cluster's first character, when it has the rest too.
        if let added = fallback.extend(for: first), covers(added) { return added }
        for scalar in needed where !fallback.members.contains(where: { $0.face.glyph(for: scalar) != nil }) {
            if fallback.extend(for: scalar) == nil, !missing.contains(scalar) { missing.append(scalar) }
        }
        return fallback.members.indices.first { fallback.members[$0].face.glyph(for: first) != nil } ?? 0
    }
}
