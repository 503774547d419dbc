/// Where lines sit inside the layout box (the `maxWidth` box when given,
/// else the widest line). `start` and `end` follow each paragraph's
/// direction: `start` is the left edge of left-to-right text and the right
/// edge of right-to-left text.
public enum TextAlignment: String, Sendable, CaseIterable {
    /// The edge the paragraph starts from: left for left-to-right, right for right-to-left.
    case start
    /// The edge the paragraph ends at: right for left-to-right, left for right-to-left.
    case end
    /// The left edge, whatever the direction.
    case left
    /// Centred in the box, whatever the direction.
    case center
    /// The right edge, whatever the direction.
    case right

    /// The physical alignment for a paragraph read right to left or not.
    func resolved(rightToLeft: Bool) -> TextAlignment {
        switch self {
        case .start: rightToLeft ? .right : .left
        case .end: rightToLeft ? .left : .right
        default: self
        }
    }
}

/// How text is set. Lengths are in points; the layout multiplies them by
/// its scale (pixel ratio) to get device pixels.
public struct TextStyle: Sendable, Hashable {
    /// Em size in points (default 12).
    public var fontSize: Double
    /// Extra space after every glyph that advances, in points (default 0;
    /// negative tightens, at most until glyphs stack: the pen never moves back).
    public var letterSpacing: Double
    /// Baseline-to-baseline distance in points; nil (default) uses the
    /// largest line height the fonts in use recommend.
    public var lineHeight: Double?
    /// Default `start`: left for left-to-right paragraphs, right for right-to-left ones.
    public var alignment: TextAlignment
    /// The widest a line may be, in points; nil (default) for no limit.
    public var maxWidth: Double?
    /// True (default): lines longer than `maxWidth` wrap where UAX #14
    /// allows (see `ICULineBreaks`). False: every paragraph stays one line
    /// and is cut with an ellipsis, by whole grapheme clusters, when it is
    /// wider than `maxWidth`.
    public var wraps: Bool
    /// At most this many lines (nil, the default: no limit); the last line
    /// kept ends with an ellipsis when text was dropped.
    public var maxLines: Int?
    /// Grid fitting of the glyph outlines (default `Hinting.default`, light).
    public var hinting: Hinting
    /// The paragraphs' base direction (default `auto`: from their first strong character).
    public var direction: TextDirection
    /// The text's language, a BCP 47 tag (`sr`, `ja`, `zh-Hant`, `ar`): the
    /// fonts' language forms (Serbian Cyrillic, Japanese Han) and the line
    /// breaking rules follow it. Nil (default): each script's default forms.
    public var language: String?
    /// OpenType features set for the whole text (`tnum`, `-liga`, `ss01`).
    public var features: [TextFeature]

    /// A style; every parameter has the default its property states.
    /// Nothing is checked here: laying out throws `FontError` for a font
    /// size that is not positive and finite, or above 4096 device pixels.
    public init(fontSize: Double = 12, letterSpacing: Double = 0, lineHeight: Double? = nil,
                alignment: TextAlignment = .start, maxWidth: Double? = nil, wraps: Bool = true,
                maxLines: Int? = nil, hinting: Hinting = .default, direction: TextDirection = .auto,
                language: String? = nil, features: [TextFeature] = []) {
        self.fontSize = fontSize
        self.letterSpacing = letterSpacing
        self.lineHeight = lineHeight
        self.alignment = alignment
        self.maxWidth = maxWidth
        self.wraps = wraps
        self.maxLines = maxLines
        self.hinting = hinting
        self.direction = direction
        self.language = language
        self.features = features
    }
}
