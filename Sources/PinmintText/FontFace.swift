import PinmintGeometry
import PinmintRaster

/// One face of a font file (TTF, OTF with CFF outlines, or one face of a
/// TTC collection), with a cache of its glyph outlines. A colour font
/// (`hasColorGlyphs`: CBDT bitmaps such as Noto Color Emoji's, or COLR
/// layers) gives pictures for its colour glyphs (`GlyphOutline.color`).
///
/// Sizes are em sizes in device pixels (a 12 pt label drawn @2x is 24 px).
/// Not thread-safe: a face belongs to one `FreeTypeLibrary`, which FreeType
/// lets one thread use at a time.
public final class FontFace {
    let freeType: FreeTypeFace

    /// The file the face was loaded from.
    public let file: String
    /// The face's index inside the file (0 for TTF and OTF).
    public let index: Int
    /// Family name from the font, e.g. "Noto Sans CJK SC".
    public let family: String
    /// Style name from the font, e.g. "Bold".
    public let style: String
    /// OS/2 weight class, 100 (thin) … 400 (regular) … 700 (bold) … 900.
    /// Faces without an OS/2 table report 700 when flagged bold, else 400.
    public let weight: Int
    /// True when the font flags the face italic or oblique (FT_STYLE_FLAG_ITALIC).
    public let isItalic: Bool
    /// Design units per em (1000 for CFF fonts, often 2048 for TrueType).
    public let unitsPerEm: Int
    /// True when the face has a legacy `kern` table, which `FontFace.kerning`
    /// reads. Layouts kern through HarfBuzz, from GPOS (as Noto keeps it) or
    /// from this table.
    public let hasKerningTable: Bool
    /// True when the face has colour glyphs (CBDT/sbix bitmaps or COLR layers):
    /// they are drawn as pictures (`GlyphOutline.color`), and such a face is
    /// preferred for characters shown as emoji (see `ShapedParagraph`).
    public let hasColorGlyphs: Bool
    /// False for a face of bitmap strikes only (CBDT emoji).
    public let isScalable: Bool

    // Caches without Swift's dynamic exclusivity checks: a face is used by
    // one thread at a time, and each access is a lookup or a store, never
    // overlapping another (the checks were a runtime call per glyph).
    /// Outlines loaded so far, found by their key's word (`GlyphKey.word`)
    /// in `outlineIndex`: a lookup without `Hasher`, which with the
    /// dictionary this replaced was a third of placing a glyph. Keys
    /// without a word (emboldened past 256 px) are in `otherOutlines`.
    @exclusivity(unchecked) private var outlineList: [GlyphOutline] = []
    @exclusivity(unchecked) private var outlineIndex = WordTable<Int32>(limit: .max)
    @exclusivity(unchecked) private var otherOutlines: [GlyphKey: GlyphOutline] = [:]
    @exclusivity(unchecked) private var masks: [MaskKey: CoverageMask] = [:]
    @exclusivity(unchecked) private var maskBytes = 0
    /// Ascender, descender and line height in design units, read once.
    private let designMetrics: (ascender: Int, descender: Int, height: Int)
    /// Characters' glyphs (code point << 32 | glyph) by the low byte of the
    /// code point; all ones is empty (no code point is that large).
    @exclusivity(unchecked) private var recentGlyphs = [UInt64](repeating: .max, count: 256)
    /// HarfBuzz's font over this face, made when the face first shapes text.
    private lazy var harfBuzz = HarfBuzzFont(freeType: freeType)
    /// Runs shaped so far, by their own text (positions in design units,
    /// so one entry serves every size): in a batch of price tags the 萬 of
    /// every label is shaped once, its digits each time.
    @exclusivity(unchecked) private var shapedRuns: [RunKey: [ShapedGlyph]] = [:]
    /// Characters shaped alone, a table per plan (script, language and
    /// features; a face meets few), by character and text ends (see
    /// `shapeByCharacter`): a price's digits are each shaped once.
    @exclusivity(unchecked) private var characterTables: [CharacterTable] = []
    /// See `unhintedBounds`.
    @exclusivity(unchecked) private var unhintedBoundsTable = WordTable<Rect?>(limit: FontFace.maximumShapedRuns)

    /// Opens face `index` of a font file. Throws `FontError` when the file
    /// is missing, not a font, the index is out of range, or the face has
    /// neither outlines nor colour glyphs (a monochrome bitmap font).
    public init(file: String, index: Int = 0, library: FreeTypeLibrary) throws(FontError) {
        freeType = try FreeTypeFace(library: library, file: file, index: index)
        self.file = file
        self.index = index
        family = freeType.familyName
        style = freeType.styleName
        let weightClass = freeType.weightClass
        weight = weightClass > 0 ? weightClass : (freeType.isBold ? 700 : 400)
        isItalic = freeType.isItalic
        unitsPerEm = freeType.unitsPerEm
        hasKerningTable = freeType.hasKerningTable
        hasColorGlyphs = freeType.hasColor
        isScalable = freeType.isScalable
        designMetrics = freeType.designMetrics
    }

    /// How many faces `file` holds: 1 for TTF and OTF, the count for a TTC.
    public static func faceCount(file: String, library: FreeTypeLibrary) throws(FontError) -> Int {
        try FreeTypeFace.faceCount(library: library, file: file)
    }

    /// True for weights of 600 (semibold) and above.
    public var isBold: Bool { weight >= 600 }

    /// The glyph for a Unicode scalar, or nil when the face has none.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        // Itemizing asks each face of the chain in turn for every character of
        // every label; the cmap's binary search is kept for the last character
        // seen in each of 256 slots.
        let slot = Int(scalar.value & 0xFF)
        let recent = recentGlyphs[slot]
        let glyph: UInt32
        if recent >> 32 == UInt64(scalar.value) {
            glyph = UInt32(truncatingIfNeeded: recent)
        } else {
            glyph = freeType.glyphIndex(of: scalar)
            recentGlyphs[slot] = UInt64(scalar.value) << 32 | UInt64(glyph)
        }
        return glyph == 0 ? nil : glyph
    }

    /// True when the face has a glyph for every scalar of `text`.
    public func covers(_ text: String) -> Bool { text.unicodeScalars.allSatisfy { glyph(for: $0) != nil } }

    /// Line metrics at `pixelSize` pixels per em, in pixels, unrounded.
    public func metrics(pixelSize: Double) -> FontMetrics {
        let design = designMetrics
        let scale = pixelSize / Double(unitsPerEm)
        return FontMetrics(ascent: Double(design.ascender) * scale, descent: -Double(design.descender) * scale,
                           lineHeight: Double(design.height) * scale)
    }

    /// The `kern`-table adjustment in pixels between two glyphs at `pixelSize`
    /// (usually negative); 0 without a `kern` table (see `hasKerningTable`).
    public func kerning(_ left: UInt32, _ right: UInt32, pixelSize: Double) throws(FontError) -> Double {
        try checkSize(pixelSize, emboldenStrength: 0)
        guard hasKerningTable else { return 0 }
        try freeType.setPixelSize(GlyphKey.size26Dot6(pixelSize))
        return freeType.kerning(left, right)
    }

    /// A glyph's outline at `pixelSize`, in pixels with y down and the origin
    /// on the baseline at the pen position. `emboldenStrength` (pixels, 0 for
    /// none) thickens the outline with FT_Outline_Embolden for synthetic bold.
    /// Cached per glyph, size, hinting and strength. Sizes are clamped to
    /// 1/64...4096 pixels and strengths to 0...4096 pixels; a NaN or infinite
    /// size or strength throws `FontError`. A colour glyph comes with an
    /// empty path and its picture (`GlyphOutline.color`), neither hinted nor
    /// emboldened; a glyph of a bitmap-only face without a colour bitmap
    /// (a space) is empty.
    public func outline(glyph: UInt32, pixelSize: Double, hinting: Hinting = .default,
                        emboldenStrength: Double = 0) throws(FontError) -> GlyphOutline {
        try checkSize(pixelSize, emboldenStrength: emboldenStrength)
        let key = GlyphKey(glyph: glyph, pixelSize: pixelSize, hinting: hinting, emboldenStrength: emboldenStrength)
        let word = key.word
        if let word {
            if let index = outlineIndex[word] { return outlineList[Int(index)] }
        } else if let cached = otherOutlines[key] {
            return cached
        }
        func keep(_ outline: GlyphOutline) {
            if let word {
                outlineIndex.set(Int32(outlineList.count), for: word)
                outlineList.append(outline)
            } else {
                otherOutlines[key] = outline
            }
        }
        if hasColorGlyphs {
            // Pictures are made at most `ColorGlyph.maximumPixelsPerEm` large (then drawn enlarged).
            let pictureSize = min(key.size26Dot6, Int(ColorGlyph.maximumPixelsPerEm) * 64)
            let bitmap = try freeType.colorBitmap(glyph, size26Dot6: pictureSize)
            if bitmap != nil || !isScalable {
                let scale = bitmap.map { Double(key.size26Dot6) / 64 / $0.pixelsPerEm } ?? 0
                let color = bitmap.map { ColorGlyph($0, pixelSize: Double(key.size26Dot6) / 64) }
                let outline = GlyphOutline(color: color, advance: (bitmap?.advance ?? 0) * scale, key: key)
                keep(outline)
                return outline
            }
        }
        try freeType.setPixelSize(key.size26Dot6)
        let loaded = try freeType.outline(glyph, hinting: hinting, embolden26Dot6: key.embolden26Dot6)
        let outline = GlyphOutline(path: loaded.path, advance: loaded.advance, key: key)
        keep(outline)
        return outline
    }

    /// FreeType's own rendering of the glyph (FT_Render_Glyph) with the same
    /// parameters as `outline`: the reference the crispness tests compare with.
    package func referenceBitmap(glyph: UInt32, pixelSize: Double, hinting: Hinting = .default,
                                 emboldenStrength: Double = 0) throws(FontError) -> FreeTypeBitmap {
        try checkSize(pixelSize, emboldenStrength: emboldenStrength)
        let key = GlyphKey(glyph: glyph, pixelSize: pixelSize, hinting: hinting, emboldenStrength: emboldenStrength)
        try freeType.setPixelSize(key.size26Dot6)
        return try freeType.referenceBitmap(glyph, hinting: hinting, embolden26Dot6: key.embolden26Dot6)
    }

    /// Throws for a NaN or infinite pixel size or emboldening strength
    /// (finite ones out of range are clamped, see `outline`).
    private func checkSize(_ pixelSize: Double, emboldenStrength: Double) throws(FontError) {
        guard pixelSize.isFinite, emboldenStrength.isFinite else {
            throw FontError(file: file, problem: "pixel size \(pixelSize) and emboldening \(emboldenStrength) must be finite")
        }
    }

    /// Forgets every cached outline, glyph mask and shaped run (the benchmark's cold start).
    package func removeCachedOutlines() {
        outlineList.removeAll()
        outlineIndex = WordTable(limit: .max)
        otherOutlines.removeAll()
        masks.removeAll()
        maskBytes = 0
        shapedRuns.removeAll()
        characterTables.removeAll()
        unhintedBoundsTable = WordTable(limit: FontFace.maximumShapedRuns)
    }

    /// A run of text shaped by HarfBuzz on its own (see `HarfBuzzFont.shape`;
    /// `startsText` and `endsText` when nothing comes before or after it in
    /// its paragraph), in design units, glyphs in visual order, clusters
    /// counted from the run's start. Cached by run (at most
    /// `maximumShapedRuns`, then the cache starts again empty).
    func shape(_ run: ArraySlice<UInt32>, startsText: Bool, endsText: Bool, rightToLeft: Bool, script: UInt32,
               language: String?, features: [TextFeature]) -> [ShapedGlyph] {
        if !rightToLeft, let glyphs = shapeByCharacter(run, startsText: startsText, endsText: endsText, script: script,
                                                       language: language, features: features) {
            return glyphs
        }
        return shapeWhole(run, startsText: startsText, endsText: endsText, rightToLeft: rightToLeft, script: script,
                          language: language, features: features)
    }

    /// `shape` without setting runs from their characters: the run shaped whole (and cached).
    func shapeWhole(_ run: ArraySlice<UInt32>, startsText: Bool, endsText: Bool, rightToLeft: Bool, script: UInt32,
                    language: String?, features: [TextFeature]) -> [ShapedGlyph] {
        let key = RunKey(text: Array(run), startsText: startsText, endsText: endsText, rightToLeft: rightToLeft, script: script,
                         language: language, features: features)
        if let cached = shapedRuns[key] { return cached }
        var glyphs: [ShapedGlyph] = []
        key.text.withUnsafeBufferPointer { pointer in
            harfBuzz.shape(pointer, startsText: startsText, endsText: endsText, rightToLeft: rightToLeft, script: script,
                           language: language, features: features, into: &glyphs)
        }
        if shapedRuns.count >= FontFace.maximumShapedRuns { shapedRuns.removeAll(keepingCapacity: true) }
        if shapedRuns.isEmpty { shapedRuns.reserveCapacity(FontFace.maximumShapedRuns) }
        shapedRuns[key] = glyphs
        return glyphs
    }

    /// Shaped runs one face keeps.
    static let maximumShapedRuns = 4096

    /// A left-to-right run set from pieces shaped apart, each a character
    /// or a few, when that is what shaping the run would give; nil when it
    /// may not be.
    ///
    /// A run of characters that are each a grapheme cluster
    /// (`ShapedParagraph.isClusterOfOne`: no mark can join them) is cut
    /// between two neighbours that shape as if alone: the pair shaped
    /// together gives the two characters' own glyphs and advances (no
    /// kerning, ligature or contextual form between them), and HarfBuzz
    /// marks no glyph of it as depending on text further on
    /// (HB_GLYPH_FLAG_UNSAFE_TO_CONCAT, which a contextual lookup longer
    /// than the pair leaves where it stopped for want of text). So "5201"
    /// is set from 5, 2, 0 and 1 and the pairs 52, 20 and 01, each shaped
    /// once per face, where a new price would otherwise be shaped whole: a
    /// HarfBuzz call on a short run costs as much as laying out the rest
    /// of the label.
    ///
    /// Neighbours that do not shape alone stay together in a piece, shaped
    /// whole and kept by its text and the character either side (see
    /// `piece`): "5201 EUR" is 5, 2, 0, 1, the space and "EUR" (Noto's
    /// kerning looks at E and U, and at U and R), and "€5,201" is €, 5,
    /// ",2", 0 and 1; a new price reuses the pieces. "AVATAR" is one
    /// piece: the run shaped whole. Only the first and last piece keep the
    /// text's ends (BOT, EOT). CharacterShapingTests compares the result
    /// with whole-run shaping on random runs in several scripts.
    func shapeByCharacter(_ run: ArraySlice<UInt32>, startsText: Bool, endsText: Bool, script: UInt32,
                          language: String?, features: [TextFeature]) -> [ShapedGlyph]? {
        let plan = CharacterPlan(script: script, language: language, features: features)
        let table: Int
        if let known = characterTables.firstIndex(where: { $0.plan == plan }) {
            table = known
        } else {
            characterTables.append(CharacterTable(plan: plan))
            table = characterTables.count - 1
        }
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(run.count)
        var pieceStart = run.startIndex
        for index in run.indices {
            let scalar = run[index]
            guard ShapedParagraph.isClusterOfOne(scalar) else { return nil }
            if index + 1 < run.endIndex {
                let next = run[index + 1]
                let pair = UInt64(scalar) << 32 | UInt64(next)
                let alone: Bool
                if let known = characterTables[table].pairs[pair] {
                    alone = known
                } else {
                    alone = shapesAlone(scalar, next, plan: plan)
                    characterTables[table].pairs.set(alone, for: pair)
                }
                // The piece goes on past this character.
                if !alone { continue }
            }
            let cluster = Int32(pieceStart - run.startIndex)
            defer { pieceStart = index + 1 }
            guard pieceStart == index else {
                // One piece for the whole run: `shapeWhole`'s work, and cache.
                if pieceStart == run.startIndex && index == run.endIndex - 1 { return nil }
                guard let shaped = piece(run, pieceStart...index, startsText: startsText, endsText: endsText, plan: plan,
                                         table: table) else { return nil }
                for glyph in shaped { glyphs.append(glyph.moved(by: cluster)) }
                continue
            }
            let starts = startsText && index == run.startIndex, ends = endsText && index == run.endIndex - 1
            let key = UInt64(scalar) << 2 | (starts ? 1 : 0) | (ends ? 2 : 0)
            let shaped: ShapedCharacter
            if let known = characterTables[table].characters[key] {
                shaped = known
            } else {
                shaped = shapeAlone(scalar, startsText: starts, endsText: ends, plan: plan)
                characterTables[table].characters.set(shaped, for: key)
            }
            switch shaped {
            case .glyph(let glyph):
                glyphs.append(glyph.moved(by: cluster))
            case .glyphs(let several):
                for glyph in several { glyphs.append(glyph.moved(by: cluster)) }
            case .withNeighbours:
                return nil
            }
        }
        return glyphs
    }

    /// The glyphs of the characters `range` of `run` shaped together
    /// (clusters from the piece's start), when they may be set between
    /// their neighbours; nil when not. Kept by the piece's text and the
    /// character either side (or whether the text ends there).
    ///
    /// The piece is shaped alone, then with one neighbour either side,
    /// following HarfBuzz's own recipe for reusing shaped text (the
    /// documentation of HB_GLYPH_FLAG_UNSAFE_TO_CONCAT: shape more text
    /// than needed and look for the flag inside it): the piece must come
    /// out with the same glyphs, and neither its first glyph nor the
    /// following character's may be marked. A lookup anchored further off
    /// that reaches into the piece either stops for want of text in one of
    /// the two shapings (and marks one of those glyphs) or joins its own
    /// pair, which then is no cut.
    private func piece(_ run: ArraySlice<UInt32>, _ range: ClosedRange<Int>, startsText: Bool, endsText: Bool,
                       plan: CharacterPlan, table: Int) -> [ShapedGlyph]? {
        let starts = startsText && range.lowerBound == run.startIndex, ends = endsText && range.upperBound == run.endIndex - 1
        let before: UInt32? = range.lowerBound > run.startIndex ? run[range.lowerBound - 1] : nil
        let after: UInt32? = range.upperBound < run.endIndex - 1 ? run[range.upperBound + 1] : nil
        // Above every code point: the text's start or end, or no neighbour in the run.
        var key: [UInt32] = []
        key.reserveCapacity(range.count + 2)
        key.append(before ?? (starts ? 0xFFFF_FFF0 : 0xFFFF_FFF2))
        key.append(contentsOf: run[range])
        key.append(after ?? (ends ? 0xFFFF_FFF1 : 0xFFFF_FFF2))
        if let known = characterTables[table].pieces[key] { return known }
        let text = Array(run[range])
        let alone = harfBuzz.shapeMarkingEach(text, startsText: starts, endsText: ends, script: plan.script,
                                              language: plan.language, features: plan.features)
        var shaped: [ShapedGlyph]? = alone.glyphs
        if before != nil || after != nil {
            let context = (before.map { [$0] } ?? []) + text + (after.map { [$0] } ?? [])
            let together = harfBuzz.shapeMarkingEach(context, startsText: starts, endsText: ends, script: plan.script,
                                                     language: plan.language, features: plan.features)
            let offset: Int32 = before == nil ? 0 : 1, count = Int32(text.count)
            let inside = together.glyphs.indices.filter { (offset..<offset + count).contains(together.glyphs[$0].cluster) }
            let same = inside.map { together.glyphs[$0] } == alone.glyphs.map { $0.moved(by: offset) }
            // The piece's glyphs in one stretch, between the neighbours' (no reordering across).
            let contiguous = inside.isEmpty || inside.last! - inside.first! + 1 == inside.count
            let firstAfter = together.glyphs.indices.first { together.glyphs[$0].cluster == offset + count }
            let cutBefore = before == nil || inside.first.map { !together.marked[$0] } == true
            let cutAfter = after == nil || firstAfter.map { !together.marked[$0] } == true
            if !(same && contiguous && cutBefore && cutAfter) { shaped = nil }
        }
        if characterTables[table].pieces.count >= FontFace.maximumShapedRuns { characterTables[table].pieces.removeAll() }
        characterTables[table].pieces.updateValue(shaped, forKey: key)
        return shaped
    }

    /// Whether `first` and `second` shaped together give their own glyphs,
    /// unmarked (see `shapeByCharacter`).
    private func shapesAlone(_ first: UInt32, _ second: UInt32, plan: CharacterPlan) -> Bool {
        func glyphs(_ text: [UInt32]) -> [ShapedGlyph]? {
            let shaped = harfBuzz.shapeMarkingEach(text, startsText: false, endsText: false, script: plan.script,
                                                   language: plan.language, features: plan.features)
            return shaped.marked.contains(true) ? nil : shaped.glyphs
        }
        guard let together = glyphs([first, second]), let left = glyphs([first]), let right = glyphs([second]) else { return false }
        return together == left + right.map { $0.moved(by: 1) }
    }

    /// One character shaped on its own, with HarfBuzz's concatenation marks.
    private func shapeAlone(_ scalar: UInt32, startsText: Bool, endsText: Bool, plan: CharacterPlan) -> ShapedCharacter {
        let shaped = harfBuzz.shapeMarkingEach([scalar], startsText: startsText, endsText: endsText, script: plan.script,
                                               language: plan.language, features: plan.features)
        guard !shaped.marked.contains(true) else { return .withNeighbours }
        return shaped.glyphs.count == 1 ? .glyph(shaped.glyphs[0]) : .glyphs(shaped.glyphs)
    }

    /// `outline(glyph:pixelSize:hinting: .none, emboldenStrength:).bounds`,
    /// kept in a table of bounds alone: markers ask for the unhinted ink
    /// of every label at 1x (`TextLayout.referenceInkBounds`), and copying
    /// the cached outline out cost more than the rest of that work.
    func unhintedBounds(glyph: UInt32, pixelSize: Double, emboldenStrength: Double) throws(FontError) -> Rect? {
        let key = GlyphKey(glyph: glyph, pixelSize: pixelSize, hinting: .none, emboldenStrength: emboldenStrength)
        // Glyph, size and strength in one word where they fit (sizes to 4096 px and strengths to 256 px do).
        guard key.embolden26Dot6 < 1 << 14 else {
            return try outline(glyph: glyph, pixelSize: pixelSize, hinting: .none, emboldenStrength: emboldenStrength).bounds
        }
        let word = UInt64(glyph) << 32 | UInt64(key.size26Dot6) << 14 | UInt64(key.embolden26Dot6)
        if let known = unhintedBoundsTable[word] { return known }
        let bounds = try outline(glyph: glyph, pixelSize: pixelSize, hinting: .none, emboldenStrength: emboldenStrength).bounds
        unhintedBoundsTable.set(bounds, for: word)
        return bounds
    }

    /// The coverage mask of a glyph drawn at a sub-pixel offset, made by
    /// `make` the first time. Hinted glyphs sit on whole pixels, so one mask
    /// per glyph and size serves every later draw. The cache holds at most
    /// `maximumMaskBytes`; past that it starts again empty.
    func mask(for outline: GlyphOutline, offset: SIMD2<Double>, tolerance: Double,
              make: () throws(RasterError) -> CoverageMask) throws(RasterError) -> CoverageMask {
        let key = MaskKey(glyph: outline.key, offsetX: offset.x, offsetY: offset.y, tolerance: tolerance)
        if let cached = masks[key] { return cached }
        let mask = try make()
        if maskBytes + mask.byteCount > FontFace.maximumMaskBytes {
            masks.removeAll()
            maskBytes = 0
        }
        masks[key] = mask
        maskBytes += mask.byteCount
        return mask
    }

    /// Memory the glyph masks of one face may take (16 MiB).
    static let maximumMaskBytes = 16 << 20

    /// How many outlines are cached.
    package var cachedOutlineCount: Int { outlineList.count + otherOutlines.count }
}

/// Vertical metrics of a face at one size, in pixels, y down.
public struct FontMetrics: Hashable, Sendable {
    /// From the baseline up to the top of the line box (positive).
    public var ascent: Double
    /// From the baseline down to the bottom of the line box (positive).
    public var descent: Double
    /// Baseline-to-baseline distance the font recommends (ascent + descent + line gap).
    public var lineHeight: Double
}

/// A glyph's outline at one size: pixels, y down, origin on the baseline.
/// Immutable, and a class so that the face's cache and every glyph placed
/// with it share one copy (a struct of its size took a copy and several
/// reference counts per placed glyph, in laying out and in drawing).
public final class GlyphOutline: Sendable {
    /// The outline in device pixels at the layout's size, y down, origin on
    /// the glyph origin (pen position on the baseline); hinted and emboldened
    /// as asked. Filled with the non-zero rule. Empty for a space or a colour glyph.
    public let path: Path
    /// How far the pen moves after the glyph, in pixels.
    public let advance: Double
    /// `path.bounds`, worked out once when the outline is loaded (layouts
    /// ask for their ink bounds on every marker; the outline is cached).
    public let bounds: Rect?
    /// A colour glyph's picture (its `path` is then empty); nil for outline glyphs.
    public let color: ColorGlyph?
    /// Which glyph, size, hinting and emboldening this is (for the mask cache).
    let key: GlyphKey

    init(path: Path, advance: Double, key: GlyphKey) {
        self.path = path
        self.advance = advance
        self.key = key
        bounds = path.bounds
        color = nil
    }

    /// A colour glyph (or, with no picture, an empty one); `bounds` are the picture's.
    init(color: ColorGlyph?, advance: Double, key: GlyphKey) {
        path = Path()
        self.advance = advance
        self.key = key
        self.color = color
        bounds = color?.bounds
    }
}

/// A glyph mask: the glyph, its sub-pixel offset and the flattening tolerance.
struct MaskKey: Hashable {
    let glyph: GlyphKey
    let offsetX: Double, offsetY: Double
    let tolerance: Double

    /// The glyph and the offset folded into one word (see `HashFold`).
    func hash(into hasher: inout Hasher) {
        var fold = glyph.fold
        fold.add(offsetX)
        fold.add(offsetY)
        hasher.combine(fold.value)
    }
}

/// What an outline depends on; sizes in 26.6 fixed point, as FreeType sees them.
struct GlyphKey: Hashable, Sendable {
    let glyph: UInt32
    let size26Dot6: Int
    let hinting: Hinting
    let embolden26Dot6: Int

    /// Glyph, size and emboldening folded (hinting is left to `==`).
    var fold: HashFold {
        var fold = HashFold()
        fold.add(UInt64(glyph))
        fold.add(UInt64(bitPattern: Int64(size26Dot6)))
        fold.add(UInt64(bitPattern: Int64(embolden26Dot6)))
        return fold
    }

    func hash(into hasher: inout Hasher) { hasher.combine(fold.value) }

    /// The key in one word, when it fits: emboldening in bits 0 ..< 14
    /// (strengths below 256 px), the size in 14 ..< 33 (every size, to
    /// `maximumPixelSize`), hinting in 33 ..< 35, the glyph above (indices
    /// below 2²⁸; OpenType's are below 2¹⁶). Never all ones.
    var word: UInt64? {
        guard embolden26Dot6 < 1 << 14, glyph < 1 << 28 else { return nil }
        let hint: UInt64 = switch hinting {
        case .none: 0
        case .light: 1
        case .normal: 2
        }
        return UInt64(glyph) << 35 | hint << 33 | UInt64(size26Dot6) << 14 | UInt64(embolden26Dot6)
    }

    init(glyph: UInt32, pixelSize: Double, hinting: Hinting, emboldenStrength: Double) {
        self.glyph = glyph
        size26Dot6 = GlyphKey.size26Dot6(pixelSize)
        self.hinting = hinting
        embolden26Dot6 = Int((emboldenStrength.clamped(to: 0...GlyphKey.maximumPixelSize) * 64).rounded())
    }

    /// The largest pixel size (and emboldening strength) an outline is loaded at.
    static let maximumPixelSize = 4096.0

    /// FreeType accepts sizes from 1/64 px; Pinmint caps them at 4096 px.
    /// A NaN size is taken as the smallest (callers that can throw refuse it first).
    static func size26Dot6(_ pixelSize: Double) -> Int {
        Int((pixelSize.clamped(to: (1.0 / 64)...maximumPixelSize) * 64).rounded())
    }
}

/// Cache keys' fields folded into one 64-bit word (FNV-1a, a word at a
/// time), which the `Hasher` then takes in one `combine`: feeding it each
/// field cost more than the rest of a cached glyph's lookup. Equal keys fold
/// alike; different keys that fold alike only cost `==` a comparison.
struct HashFold {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ word: UInt64) { value = (value ^ word) &* 0x100_0000_01b3 }

    /// A length by its bits, with 0 and -0 (equal) folded alike.
    mutating func add(_ length: Double) { add(length == 0 ? 0 : length.bitPattern) }
}


/// A left-to-right shaping plan as `shapeByCharacter` tells its tables apart.
struct CharacterPlan: Equatable {
    let script: UInt32
    let language: String?
    let features: [TextFeature]
}

/// What `shapeByCharacter` keeps for one plan: characters shaped alone,
/// by code point and text ends, and whether each pair met shapes apart.
struct CharacterTable {
    let plan: CharacterPlan
    var characters = WordTable<ShapedCharacter>(limit: FontFace.maximumShapedRuns)
    var pairs = WordTable<Bool>(limit: FontFace.maximumShapedRuns)
    /// Pieces of characters that shape together, by `piece`'s key; nil
    /// for a piece that may not be set apart from its neighbours.
    var pieces: [[UInt32]: [ShapedGlyph]?] = [:]
}

/// A character shaped alone: its glyph (most characters), its glyphs, or
/// `withNeighbours` when HarfBuzz marked it as shaped differently beside
/// other text (kerning, ligatures, contextual forms).
enum ShapedCharacter {
    case glyph(ShapedGlyph)
    case glyphs([ShapedGlyph])
    case withNeighbours
}

/// What a shaped run depends on (not its size: design units). Hashed by
/// one fold of the text and the flags, worked out once (see `HashFold`):
/// hashing the fields one by one cost more than shaping a short run.
struct RunKey: Hashable {
    let text: [UInt32]
    let startsText: Bool, endsText: Bool
    let rightToLeft: Bool
    let script: UInt32
    let language: String?
    let features: [TextFeature]
    private let fold: UInt64

    init(text: [UInt32], startsText: Bool, endsText: Bool, rightToLeft: Bool, script: UInt32, language: String?,
         features: [TextFeature]) {
        self.text = text
        self.startsText = startsText
        self.endsText = endsText
        self.rightToLeft = rightToLeft
        self.script = script
        self.language = language
        self.features = features
        var fold = HashFold()
        for scalar in text { fold.add(UInt64(scalar)) }
        fold.add(UInt64(script) << 3 | (startsText ? 1 : 0) | (endsText ? 2 : 0) | (rightToLeft ? 4 : 0))
        self.fold = fold.value
    }

    func hash(into hasher: inout Hasher) { hasher.combine(fold) }

    static func == (left: RunKey, right: RunKey) -> Bool {
        left.fold == right.fold && left.text == right.text && left.startsText == right.startsText && left.endsText == right.endsText
            && left.rightToLeft == right.rightToLeft && left.script == right.script && left.language == right.language
            && left.features == right.features
    }
}
