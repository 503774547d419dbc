import PinmintGeometry

/// Text set into lines, measured before it is drawn: markers size
/// themselves to `size`, then `draw` puts the glyphs on a canvas.
///
/// Each paragraph is itemized and shaped (`ShapedParagraph`: bidi levels
/// by FriBidi, scripts, a face of the fallback chain per grapheme cluster,
/// HarfBuzz for every script's shaping, GPOS kerning, ligatures and mark
/// positioning), broken into lines where UAX #14 allows (ICU), and each
/// line's runs put in visual order (UAX #9 rule L2).
///
/// All positions are kept in device pixels (points × `scale`). Shaped
/// positions are exact (design units scaled); with hinting, each glyph is
/// put on the whole pixel nearest its exact position, so that hinted
/// outlines land on the pixel grid while a line's width stays as designed
/// (`normal` hinting also rounds each advance). Baselines fall on whole pixels.
public struct TextLayout {
    /// One glyph, positioned.
    public struct PlacedGlyph: Sendable {
        /// The first character of the text the glyph draws (its cluster).
        public let scalar: Unicode.Scalar
        /// Where that character is in its paragraph (code points from the start).
        public let cluster: Int
        /// Index into the fallback chain's members.
        public let member: Int
        /// The glyph's index in that member's face (0 is .notdef, the box
        /// drawn for a character no face has).
        public let glyph: UInt32
        /// The glyph's origin on the line, device pixels from the line's left edge.
        public let x: Double
        /// The glyph's origin below the baseline, device pixels (marks placed
        /// above or below their base; 0 for most glyphs).
        public let y: Double
        /// Outline at the layout's pixel size, origin on the baseline.
        public let outline: GlyphOutline
        /// Where a layout of the same text at 1x without hinting puts the
        /// glyph's origin, points from the line's start and below the
        /// baseline (see `referenceInkBounds`).
        let referenceX: Double, referenceY: Double
    }

    /// One line of glyphs, in visual order (left to right).
    public struct Line: Sendable {
        /// The line's glyphs, left to right as drawn (right-to-left runs already reordered).
        public let glyphs: [PlacedGlyph]
        /// Device pixels from the line's first pen position to its end (its
        /// trailing spaces left out).
        public let width: Double
        /// Whether the line's paragraph reads right to left.
        public let isRightToLeft: Bool
        /// Left edge of the line inside the layout box, device pixels (alignment).
        public let x: Double
        /// Baseline, device pixels from the top of the layout box; a whole number.
        public let baseline: Double
        /// The line's width at 1x without hinting, points.
        let referenceWidth: Double
    }

    /// What the layout holds, shared by its copies: markers keep and pass
    /// layouts around by value, and a copy of this many fields (arrays, a
    /// style with strings, the chain) cost a retain and a release each.
    private final class Storage {
        let text: String
        let style: TextStyle
        let scale: Double
        let pixelSize: Double
        let lines: [Line]
        let metrics: FontMetrics
        let deviceSize: Size
        let missingCharacters: [Unicode.Scalar]
        let isTruncated: Bool
        let fallback: FontFallback
        let inkBounds: Rect?
        /// `referenceInkBounds`, once worked out (markers ask for it on every render of a kept layout).
        var referenceInk: Rect?? = nil

        init(text: String, style: TextStyle, scale: Double, pixelSize: Double, lines: [Line], metrics: FontMetrics,
             deviceSize: Size, missingCharacters: [Unicode.Scalar], isTruncated: Bool, fallback: FontFallback) {
            self.text = text
            self.style = style
            self.scale = scale
            self.pixelSize = pixelSize
            self.lines = lines
            self.metrics = metrics
            self.deviceSize = deviceSize
            self.missingCharacters = missingCharacters
            self.isTruncated = isTruncated
            self.fallback = fallback
            inkBounds = TextLayout.inkBounds(of: lines)
        }
    }

    private let storage: Storage

    /// The style the text was set with (lengths in points).
    public var style: TextStyle { storage.style }
    /// Pixel ratio: device pixels per point.
    public var scale: Double { storage.scale }
    /// Em size in device pixels (`style.fontSize × scale`).
    public var pixelSize: Double { storage.pixelSize }
    /// The lines top to bottom, after wrapping, `maxLines` and truncation.
    public var lines: [Line] { storage.lines }
    /// Ascent, descent and line height used, device pixels (the largest
    /// among the faces the text uses).
    public var metrics: FontMetrics { storage.metrics }
    /// Width and height of the layout box in device pixels, whole numbers:
    /// the widest line (or `maxWidth`, when alignment needs the box) by the
    /// lines' height.
    public var deviceSize: Size { storage.deviceSize }
    /// Characters no face of the chain has; each was drawn as the first
    /// face's .notdef box. In order of first appearance, without repeats.
    public var missingCharacters: [Unicode.Scalar] { storage.missingCharacters }
    /// True when text was cut (maxLines, or a line too wide with `wraps` off).
    public var isTruncated: Bool { storage.isTruncated }
    /// The chain the glyphs came from (drawing caches glyph masks in its faces).
    var fallback: FontFallback { storage.fallback }

    /// Whether the first paragraph reads right to left (where `start` and `end` align it).
    public var isRightToLeft: Bool { lines.first?.isRightToLeft ?? false }

    /// The layout box in points: what a marker reserves for the text.
    /// Ink can stick out of it by a glyph's overhang (see `inkBounds`) and by
    /// a halo's width.
    public var size: Size { Size(deviceSize.width / scale, deviceSize.height / scale) }

    /// The union of the glyph outlines' bounds (colour glyphs' pictures) in
    /// device pixels, relative to the layout box's top-left corner (no
    /// halo); nil when nothing is drawn.
    /// Worked out once, when the text is laid out.
    public var inkBounds: Rect? { storage.inkBounds }

    /// The union of the placed glyphs' outline bounds (see `inkBounds`).
    static func inkBounds(of lines: [Line]) -> Rect? {
        var union: Rect? = nil
        for line in lines {
            for glyph in line.glyphs {
                guard let bounds = glyph.outline.bounds else { continue }
                let placed = Rect(x: bounds.minX + line.x + glyph.x, y: bounds.minY + line.baseline + glyph.y,
                                  width: bounds.width, height: bounds.height)
                union = union.map { $0.union(placed) } ?? placed
            }
        }
        return union
    }

    /// One warning line when characters are missing, naming them and the
    /// fonts tried, e.g. "no font has a glyph for ☃ (U+2603); tried Noto
    /// Sans, Noto Sans CJK SC and the system's fonts"; nil otherwise.
    public var missingGlyphsWarning: String? {
        guard !missingCharacters.isEmpty else { return nil }
        return TextLayout.missingGlyphsMessage(missingCharacters, fontsTried: fallback.familyNames,
                                               searchedSystemFonts: fallback.searchesSystemFonts)
    }

    /// "no font has a glyph for ☃ (U+2603), 🍕 (U+1F355); tried A, B and the system's fonts".
    package static func missingGlyphsMessage(_ characters: [Unicode.Scalar], fontsTried: [String],
                                             searchedSystemFonts: Bool) -> String {
        var tried = fontsTried
        if searchedSystemFonts { tried.append("the system's fonts") }
        let fonts: String
        switch tried.count {
        case 0: fonts = ""
        case 1: fonts = "; tried " + tried[0]
        default: fonts = "; tried " + tried.dropLast().joined(separator: ", ") + " and " + tried.last!
        }
        return missingGlyphsPrefix + characterList(characters) + fonts
    }

    /// "☃ (U+2603), U+10FFFD": each character and its code, or only its
    /// code for one that would not show or would change the message.
    public static func characterList(_ characters: [Unicode.Scalar]) -> String {
        characters.map { scalar in
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
            return shows(scalar) ? "\(Character(scalar)) (\(code))" : code
        }.joined(separator: ", ")
    }

    /// How `missingGlyphsMessage` begins, for picking its lines out of a marker's warnings.
    public static let missingGlyphsPrefix = "no font has a glyph for "

    /// Whether a message may show the character itself: not a control,
    /// format or private-use character, which would not show or would
    /// change the message (U+0007, U+202E).
    static func shows(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return false
        default: return true
        }
    }

    /// Lays out `text` (newlines start paragraphs) with `style` at `scale`
    /// device pixels per point. Throws `FontError` when FreeType fails to
    /// load a glyph, when the fallback chain is empty, for a font size,
    /// scale or maximum width that is not positive and finite, or for a
    /// pixel size (font size × scale) above 4096, the largest glyphs are loaded at.
    public init(text: String, style: TextStyle = TextStyle(), fallback: FontFallback,
                scale: Double = 1) throws(FontError) {
        guard !fallback.isEmpty else { throw FontError(file: "fallback", problem: "no font faces to lay out text with") }
        guard scale.isFinite, scale > 0, style.fontSize.isFinite, style.fontSize > 0 else {
            throw FontError(file: "layout", problem: "font size \(style.fontSize) and scale \(scale) must be positive")
        }
        guard style.fontSize * scale <= GlyphKey.maximumPixelSize else {
            throw FontError(file: "layout", problem: "font size \(style.fontSize) at scale \(scale) is "
                            + "\(style.fontSize * scale) pixels; at most \(Int(GlyphKey.maximumPixelSize)) are supported")
        }
        if let maxWidth = style.maxWidth, !(maxWidth.isFinite && maxWidth > 0) {
            throw FontError(file: "layout", problem: "maximum width \(maxWidth) must be positive and finite")
        }
        guard style.letterSpacing.isFinite, style.lineHeight?.isFinite ?? true else {
            throw FontError(file: "layout", problem: "letter spacing and line height must be finite")
        }
        var setter = LineSetter(style: style, fallback: fallback, scale: scale)
        for paragraph in TextLayout.paragraphs(text) {
            try setter.setParagraph(paragraph)
        }
        try setter.applyLineLimit()

        var metrics = TextLayout.metrics(of: setter.lines.lazy.map(\.glyphs), fallback: fallback, pixelSize: setter.pixelSize)
        if let lineHeight = style.lineHeight, lineHeight.isFinite, lineHeight > 0 { metrics.lineHeight = lineHeight * scale }

        let snaps = style.hinting != .none
        let widest = setter.lines.reduce(0) { max($0, $1.width) }
        func whole(_ pixels: Double) -> Double { TextLayout.wholePoints(pixels, scale: scale) }
        let boxWidth = whole(style.maxWidth.map { $0 * scale } ?? widest)
        var lines: [Line] = []
        var allLeft = true
        for (index, line) in setter.lines.enumerated() {
            let alignment = style.alignment.resolved(rightToLeft: line.isRightToLeft)
            if alignment != .left { allLeft = false }
            var x = TextLayout.offset(alignment, free: max(0, boxWidth - line.width))
            if snaps { x = x.rounded(.down) }
            let baseline = (metrics.ascent + Double(index) * metrics.lineHeight).rounded()
            lines.append(Line(glyphs: line.glyphs, width: line.width, isRightToLeft: line.isRightToLeft, x: x, baseline: baseline,
                              referenceWidth: line.referenceWidth))
        }
        // The height from the unrounded metrics (they scale with the pixel size), not from the
        // baselines rounded at this scale: at every integer ratio N the box is N times its 1x box.
        let height = metrics.ascent + Double(max(0, lines.count - 1)) * metrics.lineHeight + metrics.descent
        // Left-aligned lines need no box wider than the widest; others align inside `maxWidth`.
        storage = Storage(text: text, style: style, scale: scale, pixelSize: setter.pixelSize, lines: lines, metrics: metrics,
                          deviceSize: Size(allLeft ? whole(widest) : boxWidth, whole(height)),
                          missingCharacters: setter.missing, isTruncated: setter.didTruncate, fallback: fallback)
    }

    /// Vertical metrics at `pixelSize`: the largest of the faces the glyphs
    /// use (the first face when none is). Colour faces (emoji) do not count,
    /// so that a label's line box does not change when it has an emoji; one
    /// set in colour faces alone takes the first face's. A flag per member
    /// of the chain (a few), no set: layouts are made per marker.
    static func metrics(of lines: some Sequence<[PlacedGlyph]>, fallback: FontFallback, pixelSize: Double) -> FontMetrics {
        // The members used, as bits (a chain has a few members; past 64, the last bit stands for the rest).
        var used: UInt64 = 0
        for line in lines {
            for glyph in line where !fallback.members[glyph.member].face.hasColorGlyphs || glyph.member == 0 {
                used |= 1 << UInt64(min(glyph.member, 63))
            }
        }
        if used == 0 { used = 1 }
        var metrics = FontMetrics(ascent: 0, descent: 0, lineHeight: 0)
        for member in fallback.members.indices where used & (1 << UInt64(min(member, 63))) != 0 {
            let faceMetrics = fallback.members[member].face.metrics(pixelSize: pixelSize)
            metrics.ascent = max(metrics.ascent, faceMetrics.ascent)
            metrics.descent = max(metrics.descent, faceMetrics.descent)
            metrics.lineHeight = max(metrics.lineHeight, faceMetrics.lineHeight)
        }
        return metrics
    }

    /// `pixels` rounded up to whole points at `scale`, then to whole pixels:
    /// a layout box is whole points, so that at every integer pixel ratio N
    /// it is N times the box at 1x, whatever the shaped widths at each size
    /// (hinting moves glyphs, not the box).
    static func wholePoints(_ pixels: Double, scale: Double) -> Double {
        ((pixels / scale - 1e-9).rounded(.up) * scale).rounded(.up)
    }

    /// Where a line starts in its box with `free` room beside it, aligned
    /// `alignment` (left, right or centre; not snapped).
    static func offset(_ alignment: TextAlignment, free: Double) -> Double {
        alignment == .left ? 0 : alignment == .center ? free / 2 : free
    }

    /// The ink bounds (`inkBounds`) of this text laid out at 1x without
    /// hinting, in points relative to that layout's box: the same at every
    /// scale and hinting, which markers size their margins and hit boxes
    /// from. A single line that was not cut is placed again from this
    /// layout's shaping (`PlacedGlyph.referenceX`), with the arithmetic of
    /// a layout at 1x (`LineSetterTests` compare the two); other text is
    /// laid out again at 1x.
    public func referenceInkBounds() throws(FontError) -> Rect? {
        if let known = storage.referenceInk { return known }
        let ink = try measureReferenceInk()
        storage.referenceInk = .some(ink)
        return ink
    }

    private func measureReferenceInk() throws(FontError) -> Rect? {
        if scale == 1 && style.hinting == .none { return inkBounds }
        var unhinted = style
        unhinted.hinting = .none
        guard lines.count == 1, !isTruncated, let line = lines.first,
              style.maxWidth.map({ line.referenceWidth <= $0 }) ?? true else {
            return try TextLayout(text: storage.text, style: unhinted, fallback: fallback, scale: 1).inkBounds
        }
        // As `init` does at scale 1: the box in whole points, the line aligned in it unsnapped,
        // the baseline on the rounded ascent of the faces used.
        let size = style.fontSize * 1
        let metrics = TextLayout.metrics(of: CollectionOfOne(line.glyphs), fallback: fallback, pixelSize: size)
        let boxWidth = TextLayout.wholePoints(style.maxWidth.map { $0 * 1 } ?? line.referenceWidth, scale: 1)
        let x = TextLayout.offset(style.alignment.resolved(rightToLeft: line.isRightToLeft),
                                  free: max(0, boxWidth - line.referenceWidth))
        let baseline = metrics.ascent.rounded()
        var union: Rect? = nil
        for glyph in line.glyphs {
            let member = fallback.members[glyph.member]
            let strength = member.syntheticBold ? FontFallback.emboldenStrength(pixelSize: size) : 0
            guard let bounds = try member.face.unhintedBounds(glyph: glyph.glyph, pixelSize: size, emboldenStrength: strength)
            else { continue }
            let placed = Rect(x: bounds.minX + x + glyph.referenceX, y: bounds.minY + baseline + glyph.referenceY,
                              width: bounds.width, height: bounds.height)
            union = union.map { $0.union(placed) } ?? placed
        }
        return union
    }

    /// Paragraphs split at "\n", "\r\n" and "\r".
    static func paragraphs(_ text: String) -> [[Unicode.Scalar]] {
        // One paragraph (a label): its scalars in one array, sized once.
        if !text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0xE2 }) { return [Array(text.unicodeScalars)] }
        var paragraphs: [[Unicode.Scalar]] = [[]]
        var previous: Unicode.Scalar? = nil
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previous == "\r" { previous = scalar; continue }
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" { paragraphs.append([]) } else {
                paragraphs[paragraphs.count - 1].append(scalar)
            }
            previous = scalar
        }
        return paragraphs
    }
}

