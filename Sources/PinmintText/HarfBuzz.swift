import CFreeTypeShim
import CHarfBuzzShim

// Every raw HarfBuzz call of Pinmint lives in this file. HarfBuzz reads the
// font's tables through the FT_Face Pinmint already has open
// (hb_ft_face_create_referenced) and positions glyphs with its own
// OpenType functions (hb_ot_font), at a scale of one unit per font design
// unit: positions are exact integers in design units, the same for every
// pixel size, and the layout scales them to pixels itself.

/// One glyph as HarfBuzz placed it, in font design units (y up).
struct ShapedGlyph: Sendable, Hashable {
    let glyph: UInt32
    /// The index, in the shaped run, of the first code point of the
    /// cluster this glyph belongs to (clusters are kept whole: HarfBuzz's
    /// default cluster level merges marks with their base).
    let cluster: Int32
    let advance: Int32
    let xOffset: Int32, yOffset: Int32

    /// The glyph with its cluster `offset` code points further on (a
    /// character's or a piece's glyphs set at its place in a run).
    func moved(by offset: Int32) -> ShapedGlyph {
        ShapedGlyph(glyph: glyph, cluster: cluster + offset, advance: advance, xOffset: xOffset, yOffset: yOffset)
    }
}

/// An OpenType feature setting for the whole text: `liga` on, `-liga` off,
/// `tnum`, `ss01=1`, `aalt=2` (HarfBuzz's feature syntax, whole-text only).
public struct TextFeature: Sendable, Hashable, CustomStringConvertible {
    let tag: UInt32
    let value: UInt32
    /// The setting as written.
    public let description: String

    /// Parses `text`; nil when it is not a feature setting (a tag of one to
    /// four printable ASCII characters, an optional `+`/`-` in front and
    /// `=N` after; ranges `[a:b]` are not accepted: a label's feature is
    /// for the whole label).
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 32, !text.contains("["), text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 })
        else { return nil }
        var feature = hb_feature_t()
        let parsed = text.withCString { hb_feature_from_string($0, Int32(text.utf8.count), &feature) }
        guard parsed != 0 else { return nil }
        tag = feature.tag
        value = feature.value
        description = text
    }
}

/// The writing systems HarfBuzz tells apart, by their ISO 15924 tags (`Latn`, `Arab`, `Zyyy` …).
enum UnicodeScript {
    /// The script property of `scalar` (UAX #24), HarfBuzz's tag.
    static func of(_ scalar: UInt32) -> UInt32 {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue
    }

    /// `Zyyy`, characters shared by scripts (spaces, digits, punctuation).
    static let common = HB_SCRIPT_COMMON.rawValue
    /// `Zinh`, combining marks that take their base's script.
    static let inherited = HB_SCRIPT_INHERITED.rawValue
    /// `Zzzz`, unassigned.
    static let unknown = HB_SCRIPT_UNKNOWN.rawValue
    static let han = HB_SCRIPT_HAN.rawValue
    static let hiragana = HB_SCRIPT_HIRAGANA.rawValue
    static let katakana = HB_SCRIPT_KATAKANA.rawValue
    static let hangul = HB_SCRIPT_HANGUL.rawValue
    static let latin = HB_SCRIPT_LATIN.rawValue
    static let arabic = HB_SCRIPT_ARABIC.rawValue
    static let hebrew = HB_SCRIPT_HEBREW.rawValue

    /// The four-letter tag, e.g. "Arab".
    static func name(_ script: UInt32) -> String {
        let bytes = [UInt8(script >> 24 & 0xFF), UInt8(script >> 16 & 0xFF), UInt8(script >> 8 & 0xFF), UInt8(script & 0xFF)]
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// HarfBuzz's font for one FreeType face, with a buffer and the shape
/// plans it has used kept for the next run (a plan per script, direction,
/// language and features: HarfBuzz's own cache lookup per call cost as
/// much as shaping a short label). Shaping is thread-safe in HarfBuzz, but
/// the buffer and the face it reads tables through belong to one thread,
/// like every FreeType object here.
final class HarfBuzzFont {
    private let font: OpaquePointer
    private let face: OpaquePointer
    private let buffer: OpaquePointer
    private var plans: [PlanKey: OpaquePointer] = [:]
    /// Kept so that the FT_Face, and its library, outlive HarfBuzz's
    /// reference to it (FT_Done_FreeType frees every face it made).
    private let freeType: FreeTypeFace

    private struct PlanKey: Hashable {
        let rightToLeft: Bool
        let script: UInt32
        let language: String?
        let features: [TextFeature]
    }

    init(freeType: FreeTypeFace) {
        self.freeType = freeType
        face = hb_ft_face_create_referenced(freeType.handle)
        font = hb_font_create(face)!
        let unitsPerEm = Int32(freeType.unitsPerEm)
        hb_font_set_scale(font, unitsPerEm, unitsPerEm)
        hb_ot_font_set_funcs(font)
        buffer = hb_buffer_create()
    }

    deinit {
        for plan in plans.values { hb_shape_plan_destroy(plan) }
        hb_buffer_destroy(buffer)
        hb_font_destroy(font)
        hb_face_destroy(face)
    }

    /// Shapes `text` (code points of one run: one script, one direction,
    /// this face) in `script` and the direction given, with `language` (a
    /// BCP 47 tag such as "sr" or "ja"; nil for the script's default forms)
    /// and `features`; `startsText` and `endsText` say that no text comes
    /// before or after the run (HarfBuzz's BOT and EOT flags). A run is
    /// shaped without the text around it, as a browser shapes each font's
    /// and script's run: nothing joins or reorders across such a boundary.
    /// Glyphs come in visual order: left to right, also for right-to-left text.
    ///
    /// `marksConcatenation` asks HarfBuzz to mark the glyphs whose shaping
    /// could change if text were put next to them
    /// (HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT; see `shapeMarkingEach`).
    func shape(_ text: UnsafeBufferPointer<UInt32>, startsText: Bool, endsText: Bool, rightToLeft: Bool, script: UInt32,
               language: String?, features: [TextFeature], marksConcatenation: Bool = false,
               into glyphs: inout [ShapedGlyph]) {
        guard !text.isEmpty else { return }
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), 0, Int32(text.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, hb_script_t(rawValue: script))
        if let language, !language.isEmpty {
            hb_buffer_set_language(buffer, language.withCString { hb_language_from_string($0, -1) })
        } else {
            hb_buffer_set_language(buffer, hb_language_get_default())
        }
        var flags = HB_BUFFER_FLAG_DEFAULT.rawValue
        if startsText { flags |= HB_BUFFER_FLAG_BOT.rawValue }
        if endsText { flags |= HB_BUFFER_FLAG_EOT.rawValue }
        if marksConcatenation { flags |= HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT.rawValue }
        hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: flags))
        let settings = features.map { pinmint_hb_global_feature($0.tag, $0.value) }
        let key = PlanKey(rightToLeft: rightToLeft, script: script, language: language, features: features)
        let plan: OpaquePointer
        if let kept = plans[key] {
            plan = kept
        } else {
            var properties = hb_segment_properties_t()
            hb_buffer_get_segment_properties(buffer, &properties)
            plan = settings.withUnsafeBufferPointer {
                hb_shape_plan_create_cached(face, &properties, $0.baseAddress, UInt32($0.count), nil)
            }
            plans[key] = plan
        }
        _ = settings.withUnsafeBufferPointer { hb_shape_plan_execute(plan, font, buffer, $0.baseAddress, UInt32($0.count)) }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return }
        glyphs.reserveCapacity(glyphs.count + Int(count))
        for index in 0..<Int(count) {
            glyphs.append(ShapedGlyph(glyph: infos[index].codepoint, cluster: Int32(bitPattern: infos[index].cluster),
                                      advance: positions[index].x_advance, xOffset: positions[index].x_offset,
                                      yOffset: positions[index].y_offset))
        }
    }

    /// `text` shaped left to right with HarfBuzz's concatenation marks (see
    /// `shape`), and for each glyph whether HarfBuzz marked it
    /// (HB_GLYPH_FLAG_UNSAFE_TO_CONCAT: text changed on one side of the
    /// start of its cluster could change the shaping of the other side).
    /// HarfBuzz documents the marks for reshaping only a line's ends after
    /// line breaking; `FontFace.shapeByCharacter` uses them to set runs
    /// from characters and pieces shaped apart.
    func shapeMarkingEach(_ text: [UInt32], startsText: Bool, endsText: Bool, script: UInt32, language: String?,
                          features: [TextFeature]) -> (glyphs: [ShapedGlyph], marked: [Bool]) {
        guard !text.isEmpty else { return ([], []) }
        var glyphs: [ShapedGlyph] = []
        text.withUnsafeBufferPointer { pointer in
            shape(pointer, startsText: startsText, endsText: endsText, rightToLeft: false, script: script,
                  language: language, features: features, marksConcatenation: true, into: &glyphs)
        }
        // The buffer still holds what `shape` read the glyphs from.
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), Int(count) == glyphs.count else {
            return (glyphs, Array(repeating: true, count: glyphs.count))
        }
        let marked = (0..<Int(count)).map { infos[$0].mask & HB_GLYPH_FLAG_UNSAFE_TO_CONCAT.rawValue != 0 }
        return (glyphs, marked)
    }

    /// HarfBuzz's version, e.g. "6.0.0".
    static var version: String { String(cString: hb_version_string()) }
}
