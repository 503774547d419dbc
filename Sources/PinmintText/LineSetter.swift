/// Builds the lines of a layout, paragraph by paragraph: shapes each
/// paragraph (`ShapedParagraph`, HarfBuzz), fills lines greedily at the
/// break opportunities of UAX #14, shapes each wrapped line again on its
/// own (a letter at a line's end takes its final form), cuts with an
/// ellipsis by whole grapheme clusters, and places each line's glyphs in
/// visual order.
struct LineSetter {
    let style: TextStyle
    let fallback: FontFallback
    let scale: Double
    let pixelSize: Double
    let maxWidth: Double?
    /// One line: its glyphs placed left to right, its width and direction.
    /// (Structs, not tuples: an array of tuples looks its type up at run time.)
    struct SetLine {
        var glyphs: [TextLayout.PlacedGlyph]
        var width: Double
        /// The width at 1x without hinting, points (see `PlacedGlyph.referenceX`).
        var referenceWidth: Double
        var isRightToLeft: Bool
    }

    /// Glyphs placed on one line, its width in device pixels, and in points at 1x without hinting.
    struct PlacedLine {
        let glyphs: [TextLayout.PlacedGlyph]
        let width: Double
        let referenceWidth: Double
    }

    /// Where a line's text came from: its paragraph and range of code points.
    struct Source {
        let paragraph: Int
        let range: Range<Int>
    }

    var lines: [SetLine] = []
    /// Where each line's text came from, to cut it again for `maxLines`.
    private var sources: [Source] = []
    private var paragraphs: [ShapedParagraph] = []
    var missing: [Unicode.Scalar] = []
    var didTruncate = false

    init(style: TextStyle, fallback: FontFallback, scale: Double) {
        self.style = style
        self.fallback = fallback
        self.scale = scale
        pixelSize = style.fontSize * scale
        maxWidth = style.maxWidth.map { $0 * scale }
    }

    /// A run's glyphs as HarfBuzz gave them (design units, visual order),
    /// with what turns them into device pixels.
    struct ShapedRun {
        let level: UInt8
        let member: Int
        /// Device pixels per design unit.
        let units: Double
        /// Added to every advance (synthetic bold's extra width), pixels.
        let extra: Double
        /// Where the run starts in its paragraph (glyph clusters count from there).
        let start: Int
        let glyphs: [ShapedGlyph]

        func advance(_ glyph: ShapedGlyph) -> Double { glyph.advance == 0 ? 0 : Double(glyph.advance) * units + extra }
    }

    // MARK: Shaping

    /// `range` of the paragraph's `run` shaped on its own (see
    /// `HarfBuzzFont.shape`; `text` is the paragraph, or the line the range
    /// is in, whose ends are the text's).
    func shape(_ run: ShapedParagraph.Run, range: Range<Int>, in text: ArraySlice<UInt32>) -> ShapedRun {
        let member = fallback.members[run.member]
        let face = member.face
        let bold = member.syntheticBold ? FontFallback.emboldenStrength(pixelSize: pixelSize) : 0
        let glyphs = face.shape(text[range], startsText: range.lowerBound == text.startIndex, endsText: range.upperBound == text.endIndex,
                                rightToLeft: run.isRightToLeft, script: run.script, language: style.language, features: style.features)
        return ShapedRun(level: run.level, member: run.member, units: pixelSize / Double(face.unitsPerEm),
                         extra: style.hinting == .none ? bold : bold.rounded(), start: range.lowerBound, glyphs: glyphs)
    }

    /// The paragraph's runs clipped to `range`, each shaped on its own;
    /// `alone`: the range is a line, whose ends count as the text's ends.
    func shape(_ paragraph: ShapedParagraph, range: Range<Int>, alone: Bool) -> [ShapedRun] {
        let text = alone ? paragraph.text[range] : paragraph.text[...]
        var runs: [ShapedRun] = []
        runs.reserveCapacity(paragraph.runs.count)
        for run in paragraph.runs {
            let clipped = run.range.clamped(to: range)
            guard !clipped.isEmpty else { continue }
            runs.append(shape(run, range: clipped, in: text))
        }
        return runs
    }

    // MARK: Placing

    /// Places runs (logical order) on one line: visual order by their levels
    /// (rule L2), glyphs on whole pixels when hinting.
    ///
    /// Each glyph also gets its position as a layout at 1x without hinting
    /// would place it (`PlacedGlyph.referenceX`), from the same shaping, with
    /// the same arithmetic in the same order, so that markers get the ink of
    /// that layout (the same at every scale) without setting the text twice.
    func place(_ runs: [ShapedRun], text: [UInt32]) throws(FontError) -> PlacedLine {
        // Left-to-right runs only (most labels): already in visual order.
        let order = runs.allSatisfy({ $0.level == 0 }) ? nil : Bidi.visualOrder(levels: runs.map(\.level))
        var placed: [TextLayout.PlacedGlyph] = []
        placed.reserveCapacity(runs.reduce(0) { $0 + $1.glyphs.count })
        var pen = Pen(), referencePen = Pen()
        let snaps = style.hinting != .none, roundsAdvances = style.hinting == .normal
        let spacing = style.letterSpacing * scale
        // At 1x the em is the font size in pixels: the reference layout's pixel size.
        let referenceSize = style.fontSize * 1, referenceSpacing = style.letterSpacing * 1
        for position in runs.indices {
            let run = runs[order?[position] ?? position]
            let member = fallback.members[run.member]
            let strength = member.syntheticBold ? FontFallback.emboldenStrength(pixelSize: pixelSize) : 0
            let referenceUnits = referenceSize / Double(member.face.unitsPerEm)
            let referenceExtra = member.syntheticBold ? FontFallback.emboldenStrength(pixelSize: referenceSize) : 0
            for glyph in run.glyphs {
                let outline = try member.face.outline(glyph: glyph.glyph, pixelSize: pixelSize, hinting: style.hinting,
                                                      emboldenStrength: strength)
                let x = pen.x + Double(glyph.xOffset) * run.units, y = -Double(glyph.yOffset) * run.units
                let cluster = run.start + Int(glyph.cluster)
                // Colour glyphs (pictures) sit on whole pixels whatever the hinting, as hinted outlines do.
                let whole = snaps || outline.color != nil
                let referenceX = referencePen.x + Double(glyph.xOffset) * referenceUnits
                let referenceY = -Double(glyph.yOffset) * referenceUnits
                let pictured = outline.color != nil
                placed.append(TextLayout.PlacedGlyph(scalar: Unicode.Scalar(text[cluster]) ?? " ", cluster: cluster,
                                                     member: run.member, glyph: glyph.glyph, x: whole ? x.rounded() : x,
                                                     y: whole ? y.rounded() : y, outline: outline,
                                                     referenceX: pictured ? referenceX.rounded() : referenceX,
                                                     referenceY: pictured ? referenceY.rounded() : referenceY))
                referencePen.move(glyph.advance == 0 ? 0 : Double(glyph.advance) * referenceUnits + referenceExtra,
                                  spacing: referenceSpacing)
                pen.move(roundsAdvances ? run.advance(glyph).rounded() : run.advance(glyph), spacing: spacing)
            }
        }
        return PlacedLine(glyphs: placed, width: pen.width, referenceWidth: referencePen.width)
    }

    /// A pen moving along a line: by each glyph's advance plus the letter
    /// spacing, never back (negative spacing stacks glyphs at worst).
    struct Pen {
        private(set) var x = 0.0
        private var lastSpacing = 0.0

        /// After a glyph of `advance`; spacing follows every glyph that advances.
        mutating func move(_ advance: Double, spacing: Double) {
            let step = advance == 0 ? 0 : max(0, advance + spacing)
            if advance != 0 { lastSpacing = step - advance }
            x += step
        }

        /// The line's width: it ends at the last glyph, not at the spacing after it.
        var width: Double { max(0, x - lastSpacing) }
    }

    // MARK: Paragraphs

    /// Characters that take no place and reach no shaper: controls (a tab is a space).
    static func kept(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        guard scalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return scalars }
        return scalars.compactMap { $0 == "\t" ? " " : ($0.value < 0x20 || $0.value == 0x7F ? nil : $0) }
    }

    static func isSpace(_ scalar: UInt32) -> Bool { scalar == 0x20 || scalar == 0x3000 || scalar == 0xA0 }

    /// `range` without the spaces at its logical end.
    static func trimmed(_ range: Range<Int>, in text: [UInt32]) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && isSpace(text[end - 1]) { end -= 1 }
        return range.lowerBound..<end
    }

    mutating func setParagraph(_ scalars: [Unicode.Scalar]) throws(FontError) {
        let paragraph = ShapedParagraph(LineSetter.kept(scalars), style: style, fallback: fallback)
        for scalar in paragraph.missing where !missing.contains(scalar) { missing.append(scalar) }
        paragraphs.append(paragraph)
        let index = paragraphs.count - 1
        let whole = 0..<paragraph.text.count
        let shaped = shape(paragraph, range: LineSetter.trimmed(whole, in: paragraph.text), alone: false)
        let single = try place(shaped, text: paragraph.text)
        guard let maxWidth, single.width > maxWidth else {
            addLine(single, paragraph: index, range: whole)
            return
        }
        if !style.wraps {
            addLine(try truncated(paragraph, range: whole, to: maxWidth), paragraph: index, range: whole)
            didTruncate = true
            return
        }
        let ranges = breakLines(paragraph, runs: shape(paragraph, range: whole, alone: false), maxWidth: maxWidth)
        for range in ranges {
            let line = try place(shape(paragraph, range: LineSetter.trimmed(range, in: paragraph.text), alone: true), text: paragraph.text)
            addLine(line, paragraph: index, range: range)
        }
    }

    private mutating func addLine(_ line: PlacedLine, paragraph: Int, range: Range<Int>) {
        lines.append(SetLine(glyphs: line.glyphs, width: line.width, referenceWidth: line.referenceWidth,
                             isRightToLeft: paragraphs[paragraph].paragraphLevel == 1))
        if style.maxLines != nil { sources.append(Source(paragraph: paragraph, range: range)) }
    }

    /// Line ranges by greedy filling: take clusters while the line, its
    /// trailing spaces left out, fits; on overflow break at the last
    /// opportunity, or before the overflowing cluster when the line has none
    /// (a word longer than the line). The spaces a break leaves at the start
    /// of the next line are skipped.
    func breakLines(_ paragraph: ShapedParagraph, runs: [ShapedRun], maxWidth: Double) -> [Range<Int>] {
        let text = paragraph.text
        // Each cluster's advance, in logical order.
        var advances = [Double](repeating: 0, count: text.count + 1)
        let spacing = style.letterSpacing * scale
        for run in runs {
            for glyph in run.glyphs where glyph.advance != 0 { advances[run.start + Int(glyph.cluster)] += max(0, run.advance(glyph) + spacing) }
        }
        let breaks = ICULineBreaks.opportunities(text, language: style.language)
        let starts = paragraph.clusterStarts
        var ranges: [Range<Int>] = []
        var lineStart = 0, cluster = 0
        while cluster < starts.count - 1 && starts[cluster] < text.count {
            var width = 0.0
            var lastBreak: Int? = nil
            var next = cluster
            while next < starts.count - 1 {
                let start = starts[next], end = starts[next + 1]
                if start > lineStart && breaks.mandatory[start] { break }
                if start > lineStart && breaks.allowed[start] { lastBreak = next }
                let advance = (start..<end).reduce(0.0) { $0 + advances[$1] }
                let spaces = (start..<end).allSatisfy { LineSetter.isSpace(text[$0]) }
                if !spaces && width + advance > maxWidth && start > lineStart {
                    next = lastBreak ?? next
                    break
                }
                width += advance
                next += 1
            }
            let end = next < starts.count ? starts[next] : text.count
            ranges.append(lineStart..<end)
            cluster = next
            // The spaces after a break start no line.
            while cluster < starts.count - 1 && (starts[cluster]..<starts[cluster + 1]).allSatisfy({ LineSetter.isSpace(text[$0]) }) {
                cluster += 1
            }
            lineStart = cluster < starts.count ? starts[cluster] : text.count
        }
        if ranges.isEmpty { ranges.append(0..<0) }
        return ranges
    }

    // MARK: Cutting

    /// `range` of the paragraph cut at a grapheme cluster boundary so that
    /// it and an ellipsis (…) fit in `width` pixels, spaces before the
    /// ellipsis dropped; the ellipsis takes the paragraph's direction.
    /// Always ends with the ellipsis (`maxLines` cuts lines that fit).
    func truncated(_ paragraph: ShapedParagraph, range: Range<Int>, to width: Double?) throws(FontError)
        -> PlacedLine {
        var direction = style
        direction.direction = paragraph.paragraphLevel == 1 ? .rightToLeft : .leftToRight
        let scalars = paragraph.text.map { Unicode.Scalar($0) ?? " " }
        func candidate(_ end: Int) throws(FontError) -> PlacedLine {
            let kept = LineSetter.trimmed(range.lowerBound..<end, in: paragraph.text)
            let cut = ShapedParagraph(Array(scalars[kept]) + ["\u{2026}"], style: direction, fallback: fallback)
            let setter = LineSetter(style: direction, fallback: fallback, scale: scale)
            return try setter.place(setter.shape(cut, range: 0..<cut.text.count, alone: false), text: cut.text)
        }
        // The cluster boundaries inside the range: the longest cut that fits
        // wins, found by halving (a longer cut is never narrower, but for
        // kerning and contextual forms at the cut, which the final check covers).
        let ends = [range.lowerBound] + paragraph.clusterStarts.filter { $0 > range.lowerBound && $0 <= range.upperBound }
        guard let width else { return try candidate(ends[ends.count - 1]) }
        var low = 0, high = ends.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if try candidate(ends[middle]).width <= width { low = middle } else { high = middle - 1 }
        }
        var best = low
        var line = try candidate(ends[best])
        while best > 0 && line.width > width {
            best -= 1
            line = try candidate(ends[best])
        }
        return line
    }

    /// Keeps at most `maxLines` lines; the last one kept ends with an ellipsis.
    mutating func applyLineLimit() throws(FontError) {
        guard let maxLines = style.maxLines, maxLines >= 1, lines.count > maxLines else { return }
        lines.removeLast(lines.count - maxLines)
        let source = sources[maxLines - 1]
        let paragraph = paragraphs[source.paragraph]
        let cut = try truncated(paragraph, range: source.range, to: maxWidth)
        lines[maxLines - 1] = SetLine(glyphs: cut.glyphs, width: cut.width, referenceWidth: cut.referenceWidth,
                                      isRightToLeft: paragraph.paragraphLevel == 1)
        didTruncate = true
    }
}
