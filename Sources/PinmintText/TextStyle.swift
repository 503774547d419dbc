/// Where lines sit inside the layout box (the `maxWidth` box when given,
/// else the widest line).
public enum TextAlignment: String, Sendable, CaseIterable {
    case left, center, right
}

/// How text is set. Lengths are in points; the layout multiplies them by
/// its scale (pixel ratio) to get device pixels.
public struct TextStyle: Sendable, Hashable {
    /// Em size in points (default 12).
    public var fontSize: Double
    /// Extra space after every character, in points (default 0; negative
    /// tightens, at most until characters stack: the pen never moves back).
    public var letterSpacing: Double
    /// Baseline-to-baseline distance in points; nil (default) uses the
    /// largest line height the fonts in use recommend.
    public var lineHeight: Double?
    public var alignment: TextAlignment
    /// The widest a line may be, in points; nil (default) for no limit.
    public var maxWidth: Double?
    /// True (default): lines longer than `maxWidth` wrap, at spaces and
    /// between CJK characters. False: every paragraph stays one line and is
    /// cut with an ellipsis when it is wider than `maxWidth`.
    public var wraps: Bool
    /// At most this many lines (nil, the default: no limit); the last line
    /// kept ends with an ellipsis when text was dropped.
    public var maxLines: Int?
    /// Grid fitting of the glyph outlines (default `Hinting.default`, light).
    public var hinting: Hinting

    public init(fontSize: Double = 12, letterSpacing: Double = 0, lineHeight: Double? = nil,
                alignment: TextAlignment = .left, maxWidth: Double? = nil, wraps: Bool = true,
                maxLines: Int? = nil, hinting: Hinting = .default) {
        self.fontSize = fontSize
        self.letterSpacing = letterSpacing
        self.lineHeight = lineHeight
        self.alignment = alignment
        self.maxWidth = maxWidth
        self.wraps = wraps
        self.maxLines = maxLines
        self.hinting = hinting
    }
}
