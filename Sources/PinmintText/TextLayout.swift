import PinmintGeometry

/// Text set into lines, measured before it is drawn: markers size
/// themselves to `size`, then `draw` puts the glyphs on a canvas.
///
/// All positions are kept in device pixels (points × `scale`), so that at
/// every pixel ratio baselines fall on whole pixels and hinted glyphs start
/// on whole pixels, as FreeType renders them. Glyphs come from the fallback
/// chain per character; advances include `kern`-table kerning
/// (FT_Get_Kerning) between glyphs of one face. Kerning kept in GPOS (Noto's)
/// and scripts that need shaping (Arabic, Indic, Thai) need a shaper, which
/// Pinmint does not have: such text comes out unshaped.
public struct TextLayout {
    /// One glyph, positioned.
    public struct PlacedGlyph: Sendable {
        /// The character it draws.
        public let scalar: Unicode.Scalar
        /// Index into the fallback chain's members.
        public let member: Int
        public let glyph: UInt32
        /// Pen position on the line, device pixels from the line's left edge.
        public let x: Double
        /// Outline at the layout's pixel size, origin on the baseline.
        public let outline: GlyphOutline
    }

    /// One line of glyphs.
    public struct Line: Sendable {
        public let glyphs: [PlacedGlyph]
        /// Device pixels from the line's first pen position to the end of its
        /// last glyph that is not a space.
        public let width: Double
        /// Left edge of the line inside the layout box, device pixels (alignment).
        public let x: Double
        /// Baseline, device pixels from the top of the layout box; a whole number.
        public let baseline: Double
    }

    public let style: TextStyle
    /// Pixel ratio: device pixels per point.
    public let scale: Double
    /// Em size in device pixels (`style.fontSize × scale`).
    public let pixelSize: Double
    public let lines: [Line]
    /// Ascent, descent and line height used, device pixels (the largest
    /// among the faces the text uses).
    public let metrics: FontMetrics
    /// Width and height of the layout box in device pixels, whole numbers:
    /// the widest line (or `maxWidth`, when alignment needs the box) by the
    /// lines' height.
    public let deviceSize: Size
    /// Characters no face of the chain has; each was drawn as the first
    /// face's .notdef box. In order of first appearance, without repeats.
    public let missingCharacters: [Unicode.Scalar]
    /// True when text was cut (maxLines, or a line too wide with `wraps` off).
    public let isTruncated: Bool
    /// The chain the glyphs came from (drawing caches glyph masks in its faces).
    let fallback: FontFallback

    /// The layout box in points: what a marker reserves for the text.
    /// Ink can stick out of it by a glyph's overhang (see `inkBounds`) and by
    /// a halo's width.
    public var size: Size { Size(deviceSize.width / scale, deviceSize.height / scale) }

    /// The union of the glyph outlines' bounds in device pixels, relative to
    /// the layout box's top-left corner (no halo); nil when nothing is drawn.
    /// Worked out once, when the text is laid out.
    public let inkBounds: Rect?

    /// The union of the placed glyphs' outline bounds (see `inkBounds`).
    static func inkBounds(of lines: [Line]) -> Rect? {
        var union: Rect? = nil
        for line in lines {
            for glyph in line.glyphs {
                guard let bounds = glyph.outline.bounds else { continue }
                let placed = Rect(x: bounds.minX + line.x + glyph.x, y: bounds.minY + line.baseline,
                                  width: bounds.width, height: bounds.height)
                union = union.map { $0.union(placed) } ?? placed
            }
        }
        return union
    }

    /// One warning line when characters are missing, e.g.
    /// "no font has a glyph for: ☃ (U+2603)"; nil otherwise.
    public var missingGlyphsWarning: String? {
        guard !missingCharacters.isEmpty else { return nil }
        let list = missingCharacters.map { "\(Character($0)) (U+\(String($0.value, radix: 16, uppercase: true)))" }
        return "no font has a glyph for: " + list.joined(separator: ", ")
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
        self.style = style
        self.scale = scale
        self.fallback = fallback
        pixelSize = setter.pixelSize
        missingCharacters = setter.missing
        isTruncated = setter.didTruncate

        // Vertical metrics: the largest of the faces in use (the first face when none is).
        // A flag per member of the chain (a few), no set: layouts are made per marker.
        var used = [Bool](repeating: false, count: fallback.members.count)
        var anyUsed = false
        for line in setter.lines {
            for glyph in line { used[glyph.member] = true; anyUsed = true }
        }
        if !anyUsed { used[0] = true }
        var metrics = FontMetrics(ascent: 0, descent: 0, lineHeight: 0)
        for member in used.indices where used[member] {
            let faceMetrics = fallback.members[member].face.metrics(pixelSize: setter.pixelSize)
            metrics.ascent = max(metrics.ascent, faceMetrics.ascent)
            metrics.descent = max(metrics.descent, faceMetrics.descent)
            metrics.lineHeight = max(metrics.lineHeight, faceMetrics.lineHeight)
        }
        if let lineHeight = style.lineHeight, lineHeight.isFinite, lineHeight > 0 { metrics.lineHeight = lineHeight * scale }
        self.metrics = metrics

        let snaps = style.hinting != .none
        let widths = setter.lines.map(LineSetter.visibleWidth)
        let widest = widths.max() ?? 0
        let boxWidth = (style.maxWidth.map { $0 * scale } ?? widest).rounded(.up)
        var lines: [Line] = []
        for (index, glyphs) in setter.lines.enumerated() {
            let free = max(0, boxWidth - widths[index])
            var x = style.alignment == .left ? 0 : style.alignment == .center ? free / 2 : free
            if snaps { x = x.rounded(.down) }
            let baseline = (metrics.ascent + Double(index) * metrics.lineHeight).rounded()
            lines.append(Line(glyphs: glyphs, width: widths[index], x: x, baseline: baseline))
        }
        self.lines = lines
        inkBounds = TextLayout.inkBounds(of: lines)
        let lastBaseline = lines.last?.baseline ?? metrics.ascent.rounded()
        deviceSize = Size(style.alignment == .left ? widest.rounded(.up) : boxWidth,
                           (lastBaseline + metrics.descent).rounded(.up))
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

/// Builds the lines of a layout, paragraph by paragraph (greedy line filling).
struct LineSetter {
    let style: TextStyle
    let fallback: FontFallback
    let scale: Double
    let pixelSize: Double
    let maxWidth: Double?
    var lines: [[TextLayout.PlacedGlyph]] = []
    var missing: [Unicode.Scalar] = []
    var didTruncate = false

    init(style: TextStyle, fallback: FontFallback, scale: Double) {
        self.style = style
        self.fallback = fallback
        self.scale = scale
        pixelSize = style.fontSize * scale
        maxWidth = style.maxWidth.map { $0 * scale }
    }

    /// One character before placement: its glyph, outline and advance.
    struct Shaped {
        let scalar: Unicode.Scalar
        let member: Int
        let glyph: UInt32
        let outline: GlyphOutline
    }

    /// Characters that take no space and draw nothing here.
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F, 0x200B...0x200F, 0xFE00...0xFE0F, 0xFEFF, 0xE0100...0xE01EF: true
        default: false
        }
    }

    mutating func shape(_ scalar: Unicode.Scalar) throws(FontError) -> Shaped {
        let resolved = fallback.resolve(scalar)
        if resolved == nil && !missing.contains(scalar) { missing.append(scalar) }
        let member = resolved?.member ?? 0
        let glyph = resolved?.glyph ?? 0
        let strength = fallback.members[member].syntheticBold ? FontFallback.emboldenStrength(pixelSize: pixelSize) : 0
        let outline = try fallback.members[member].face.outline(glyph: glyph, pixelSize: pixelSize, hinting: style.hinting,
                                                                emboldenStrength: strength)
        return Shaped(scalar: scalar, member: member, glyph: glyph, outline: outline)
    }

    /// Where placing a line has got to: the pen, and the previous glyph's
    /// member and glyph (for kerning), not a copy of it.
    struct Pen {
        var x = 0.0
        var previousMember = -1, previousGlyph: UInt32 = 0
    }

    /// Places `item` at `pen` (advances, letter spacing and kerning; whole
    /// pixels when hinting), appends it to `line` and moves the pen on.
    func place(_ item: Shaped, at pen: inout Pen, into line: inout [TextLayout.PlacedGlyph]) throws(FontError) {
        if pen.previousMember == item.member {
            pen.x += try fallback.members[item.member].face.kerning(pen.previousGlyph, item.glyph, pixelSize: pixelSize)
        }
        let x = style.hinting == .none ? pen.x : pen.x.rounded()
        line.append(TextLayout.PlacedGlyph(scalar: item.scalar, member: item.member, glyph: item.glyph, x: x,
                                           outline: item.outline))
        // A negative spacing tightens down to stacking: the pen never moves
        // back, so a line's width is never negative.
        pen.x += max(0, item.outline.advance + style.letterSpacing * scale)
        pen.previousMember = item.member
        pen.previousGlyph = item.glyph
    }

    /// Pen positions for a run of shaped characters.
    func place(_ run: ArraySlice<Shaped>) throws(FontError) -> [TextLayout.PlacedGlyph] {
        var placed: [TextLayout.PlacedGlyph] = []
        placed.reserveCapacity(run.count)
        var pen = Pen()
        for item in run { try place(item, at: &pen, into: &placed) }
        return placed
    }

    /// From the first pen position to the far edge of the last glyph that is
    /// not a space (its advance, without the letter spacing after it).
    static func visibleWidth(_ glyphs: [TextLayout.PlacedGlyph]) -> Double {
        guard let last = glyphs.lastIndex(where: { !LineBreaking.isSpace($0.scalar) }) else { return 0 }
        return glyphs[last].x + glyphs[last].outline.advance
    }

    mutating func setParagraph(_ scalars: [Unicode.Scalar]) throws(FontError) {
        var run: [Shaped] = []
        run.reserveCapacity(scalars.count)
        for scalar in scalars where !LineSetter.isIgnorable(scalar) || scalar == "\t" {
            try run.append(shape(scalar == "\t" ? " " : scalar))
        }
        guard let maxWidth else { lines.append(try place(run[...])); return }
        if !style.wraps {
            let line = try place(run[...])
            if LineSetter.visibleWidth(line) > maxWidth {
                lines.append(try truncated(run[...], to: maxWidth))
                didTruncate = true
            } else {
                lines.append(line)
            }
            return
        }
        // Greedy filling: take characters while the line fits; on overflow
        // break at the last opportunity, or before the overflowing character
        // when the line has none (a word longer than the line).
        // Each candidate line is the previous one and one more character,
        // placed onto it: the same positions as placing the candidate from
        // its start (a prefix's positions do not depend on what follows),
        // without placing every prefix again (quadratic in a long title).
        var start = 0
        while start < run.count {
            var end = start + 1, lastBreak: Int? = nil
            var line: [TextLayout.PlacedGlyph] = []
            var pen = Pen()
            try place(run[start], at: &pen, into: &line)
            while end < run.count {
                if LineBreaking.canBreak(between: run[end - 1].scalar, and: run[end].scalar) { lastBreak = end }
                var candidatePen = pen
                try place(run[end], at: &candidatePen, into: &line)
                if LineSetter.visibleWidth(line) > maxWidth && !LineBreaking.isSpace(run[end].scalar) {
                    line.removeLast()
                    if let lastBreak { end = lastBreak; line.removeLast(line.count - (end - start)) }
                    break
                }
                pen = candidatePen
                end += 1
            }
            lines.append(line)
            start = end
            while start < run.count && LineBreaking.isSpace(run[start].scalar) { start += 1 }
        }
        if run.isEmpty { lines.append([]) }
    }

    /// The run cut so that it and an ellipsis fit in `width` pixels
    /// (trailing spaces dropped before the ellipsis).
    mutating func truncated(_ run: ArraySlice<Shaped>, to width: Double?) throws(FontError) -> [TextLayout.PlacedGlyph] {
        let ellipsis = try shape("\u{2026}")
        var kept = run
        while true {
            while let last = kept.last, LineBreaking.isSpace(last.scalar) { kept.removeLast() }
            let line = try place((Array(kept) + [ellipsis])[...])
            if width == nil || kept.isEmpty || LineSetter.visibleWidth(line) <= width! { return line }
            kept.removeLast()
        }
    }

    /// Keeps at most `maxLines` lines; the last one kept ends with an ellipsis.
    mutating func applyLineLimit() throws(FontError) {
        guard let maxLines = style.maxLines, maxLines >= 1, lines.count > maxLines else { return }
        lines.removeLast(lines.count - maxLines)
        let last = lines[maxLines - 1]
        var run: [Shaped] = []
        for glyph in last {
            run.append(Shaped(scalar: glyph.scalar, member: glyph.member, glyph: glyph.glyph, outline: glyph.outline))
        }
        lines[maxLines - 1] = try truncated(run[...], to: maxWidth)
        didTruncate = true
    }
}
