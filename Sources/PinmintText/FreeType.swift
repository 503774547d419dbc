import CFreeTypeShim
import PinmintGeometry

// Every raw FreeType call of Pinmint lives in this file. Each FT_Error
// becomes a thrown `FontError`; pointers never leave the file except as the
// opaque handles `FreeTypeLibrary` and `FreeTypeFace` below.

/// An error from FreeType or from reading a font file.
public struct FontError: Error, Equatable, CustomStringConvertible {
    /// The font file (or "FreeType" for library-wide failures).
    public let file: String
    /// What went wrong, with FreeType's error code when there is one.
    public let problem: String
    /// An error about `file`; `problem` should not repeat the file name.
    public init(file: String, problem: String) { self.file = file; self.problem = problem }
    /// `FILE: PROBLEM` on one line (line breaks and control characters escaped).
    public var description: String { MessageText.oneLine("\(file): \(problem)") }
}

/// One FreeType library instance (`FT_Library`). Faces keep their library
/// alive. Not thread-safe: FreeType allows one thread per library at a time.
public final class FreeTypeLibrary {
    let handle: FT_Library

    /// Initialises FreeType. Throws when FreeType cannot start (out of memory).
    public init() throws(FontError) {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else { throw FontError(file: "FreeType", problem: FreeType.message(error, "FT_Init_FreeType")) }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }

    /// FreeType's version, e.g. "2.12.1".
    public var version: String {
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(handle, &major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}

/// A glyph rendered by FreeType itself (`FT_Render_Glyph`): 8-bit coverage,
/// rows top to bottom, placed with its top-left corner at (`left`, `-top`)
/// from the glyph origin (y down). Used to check our rasterizer.
package struct FreeTypeBitmap: Sendable {
    /// Size of the bitmap in device pixels.
    package let width: Int, height: Int
    /// Offset of the top-left corner from the glyph origin, in pixels:
    /// `left` rightwards, `top` upwards (FreeType's `bitmap_left` and `bitmap_top`).
    package let left: Int, top: Int
    /// Row-major coverage, 0 (empty) to 255 (full), `width * height` bytes.
    package let coverage: [UInt8]
}

/// A colour glyph as FreeType loaded it (FT_LOAD_COLOR): premultiplied
/// RGBA bytes (FreeType's BGRA reordered), rows top to bottom, drawn at
/// `pixelsPerEm` (a CBDT strike's size, or the size asked for when FreeType
/// painted COLR layers) with its top-left corner at (`left`, `-top`) from
/// the glyph origin, y down, in that size's pixels.
struct FreeTypeColorBitmap {
    let width: Int, height: Int
    let left: Int, top: Int
    /// The em size, in pixels, the bitmap was drawn at.
    let pixelsPerEm: Double
    /// The pen's advance at `pixelsPerEm`, pixels.
    let advance: Double
    /// `width * height * 4` bytes, premultiplied red, green, blue, alpha.
    let premultipliedRGBA: [UInt8]
}

/// An open face (`FT_Face`) with the pixel size last set on it.
final class FreeTypeFace {
    let library: FreeTypeLibrary
    let handle: FT_Face
    let file: String
    private var currentSize26Dot6 = -1
    /// The strike FT_Select_Size last chose (faces without outlines).
    private var currentStrike = -1

    init(library: FreeTypeLibrary, file: String, index: Int) throws(FontError) {
        var face: FT_Face?
        let error = FT_New_Face(library.handle, file, FT_Long(index), &face)
        guard error == 0, let face else {
            throw FontError(file: file, problem: FreeType.message(error, "FT_New_Face (face \(index))"))
        }
        guard pinmint_ft_is_scalable(face) != 0 || pinmint_ft_has_color(face) != 0 else {
            FT_Done_Face(face)
            throw FontError(file: file, problem: "face \(index) has no outlines and no colour glyphs (monochrome bitmap fonts are not supported)")
        }
        self.library = library
        self.handle = face
        self.file = file
    }

    deinit { FT_Done_Face(handle) }

    /// How many faces a file holds (1 for TTF/OTF, n for a TTC).
    static func faceCount(library: FreeTypeLibrary, file: String) throws(FontError) -> Int {
        var face: FT_Face?
        let error = FT_New_Face(library.handle, file, -1, &face)
        guard error == 0, let face else { throw FontError(file: file, problem: FreeType.message(error, "FT_New_Face")) }
        defer { FT_Done_Face(face) }
        return Int(face.pointee.num_faces)
    }

    var familyName: String { handle.pointee.family_name.map { String(cString: $0) } ?? "" }
    var styleName: String { handle.pointee.style_name.map { String(cString: $0) } ?? "" }
    var isBold: Bool { pinmint_ft_is_bold(handle) != 0 }
    var isItalic: Bool { pinmint_ft_is_italic(handle) != 0 }
    var weightClass: Int { Int(pinmint_ft_weight_class(handle)) }
    var hasKerningTable: Bool { pinmint_ft_has_kerning(handle) != 0 }
    var glyphCount: Int { Int(handle.pointee.num_glyphs) }
    var unitsPerEm: Int { Int(pinmint_ft_units_per_em(handle)) }
    /// Whether the face has outlines (else it only has bitmap strikes).
    var isScalable: Bool { pinmint_ft_is_scalable(handle) != 0 }
    /// Whether the face has colour glyphs (CBDT/sbix bitmaps or COLR layers).
    var hasColor: Bool { pinmint_ft_has_color(handle) != 0 }
    /// hhea (or typo) ascender, descender (negative) and line height in font
    /// units; the `hhea` table's for a face without outlines.
    var designMetrics: (ascender: Int, descender: Int, height: Int) {
        var ascender: Int32 = 0, descender: Int32 = 0, height: Int32 = 0
        pinmint_ft_design_metrics(handle, &ascender, &descender, &height)
        return (Int(ascender), Int(descender), Int(height))
    }

    /// The glyph index of a Unicode scalar, or 0 (.notdef) when the face has none.
    func glyphIndex(of scalar: Unicode.Scalar) -> UInt32 {
        UInt32(FT_Get_Char_Index(handle, FT_ULong(scalar.value)))
    }

    /// Sets the em size in pixels (26.6 fixed point, so fractional sizes work).
    func setPixelSize(_ size26Dot6: Int) throws(FontError) {
        guard size26Dot6 != currentSize26Dot6 else { return }
        let error = FT_Set_Char_Size(handle, 0, FT_F26Dot6(size26Dot6), 72, 72)
        guard error == 0 else { throw FontError(file: file, problem: FreeType.message(error, "FT_Set_Char_Size")) }
        currentSize26Dot6 = size26Dot6
    }

    /// The colour glyph `glyph` for an em of `size26Dot6` (26.6 pixels), or
    /// nil when the glyph has no colour form. A face with bitmap strikes and
    /// no outlines (CBDT) gives the strike nearest above the size (else the
    /// largest) through FT_Select_Size, for the caller to scale; a face with
    /// outlines (COLR) is set to the size and FreeType paints the layers
    /// (FT_Render_Glyph), nil when the glyph has none.
    func colorBitmap(_ glyph: UInt32, size26Dot6: Int) throws(FontError) -> FreeTypeColorBitmap? {
        let slot = handle.pointee.glyph!
        let pixelsPerEm: Double
        if isScalable {
            try setPixelSize(size26Dot6)
            pixelsPerEm = Double(size26Dot6) / 64
            guard FT_Load_Glyph(handle, glyph, pinmint_ft_color_load_flags()) == 0 else { return nil }
            if slot.pointee.format != FT_GLYPH_FORMAT_BITMAP {
                guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
            }
        } else {
            pixelsPerEm = try selectStrike(for: Double(size26Dot6) / 64)
            // A glyph the strike has no bitmap for (a space, .notdef) is no colour glyph.
            guard FT_Load_Glyph(handle, glyph, pinmint_ft_color_load_flags()) == 0 else { return nil }
        }
        guard let bitmap = pinmint_ft_slot_bgra_bitmap(slot) else { return nil }
        let width = Int(bitmap.pointee.width), height = Int(bitmap.pointee.rows), pitch = Int(bitmap.pointee.pitch)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        if let buffer = bitmap.pointee.buffer, width > 0, height > 0 {
            for y in 0..<height {
                let row = pitch >= 0 ? buffer + y * pitch : buffer + (height - 1 - y) * (-pitch)
                for x in 0..<width {
                    let target = (y * width + x) * 4
                    rgba[target] = row[x * 4 + 2]
                    rgba[target + 1] = row[x * 4 + 1]
                    rgba[target + 2] = row[x * 4]
                    rgba[target + 3] = row[x * 4 + 3]
                }
            }
        }
        return FreeTypeColorBitmap(width: width, height: height, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
                                   pixelsPerEm: pixelsPerEm, advance: Double(slot.pointee.advance.x) / 64, premultipliedRGBA: rgba)
    }

    /// Selects the strike whose em is the smallest at least `pixelSize`
    /// (the largest when none is), and returns its em in pixels.
    private func selectStrike(for pixelSize: Double) throws(FontError) -> Double {
        let count = Int(handle.pointee.num_fixed_sizes)
        guard count > 0, let sizes = handle.pointee.available_sizes else {
            throw FontError(file: file, problem: "face has neither outlines nor bitmap strikes")
        }
        var chosen = 0
        for index in 0..<count {
            let size = Double(sizes[index].y_ppem) / 64, best = Double(sizes[chosen].y_ppem) / 64
            if best < pixelSize ? size > best : (size >= pixelSize && size < best) { chosen = index }
        }
        if chosen != currentStrike {
            let error = FT_Select_Size(handle, FT_Int(chosen))
            guard error == 0 else { throw FontError(file: file, problem: FreeType.message(error, "FT_Select_Size \(chosen)")) }
            currentStrike = chosen
        }
        return Double(sizes[chosen].y_ppem) / 64
    }

    /// Loads a glyph at the current size with the given hinting, emboldened
    /// by `embolden26Dot6` (0 for none) with FT_Outline_Embolden. Returns the
    /// horizontal advance in pixels (hinted modes round it to whole pixels).
    private func load(_ glyph: UInt32, hinting: Hinting, embolden26Dot6: Int) throws(FontError) -> Double {
        let error = FT_Load_Glyph(handle, glyph, pinmint_ft_load_flags(hinting.freeTypeMode))
        guard error == 0 else { throw FontError(file: file, problem: FreeType.message(error, "FT_Load_Glyph \(glyph)")) }
        let slot = handle.pointee.glyph!
        var advance = Double(slot.pointee.advance.x) / 64
        if embolden26Dot6 > 0, let outline = pinmint_ft_slot_outline(slot) {
            let emboldenError = FT_Outline_Embolden(outline, FT_Pos(embolden26Dot6))
            guard emboldenError == 0 else {
                throw FontError(file: file, problem: FreeType.message(emboldenError, "FT_Outline_Embolden"))
            }
            // FT_GlyphSlot_Embolden's rule: the advance grows by the added width,
            // rounded to whole pixels when hinting.
            let extra = Double(embolden26Dot6) / 64
            advance += hinting == .none ? extra : extra.rounded()
        }
        return advance
    }

    /// The glyph's outline in pixels, y down, origin on the baseline, and its advance.
    func outline(_ glyph: UInt32, hinting: Hinting, embolden26Dot6: Int) throws(FontError) -> (path: Path, advance: Double) {
        let advance = try load(glyph, hinting: hinting, embolden26Dot6: embolden26Dot6)
        guard let outline = pinmint_ft_slot_outline(handle.pointee.glyph!) else { return (Path(), advance) }
        var builder = OutlineBuilder()
        var functions = FT_Outline_Funcs(
            move_to: { to, user in OutlineBuilder.from(user).move(to!.pointee); return 0 },
            line_to: { to, user in OutlineBuilder.from(user).line(to!.pointee); return 0 },
            conic_to: { control, to, user in OutlineBuilder.from(user).quad(control!.pointee, to!.pointee); return 0 },
            cubic_to: { c1, c2, to, user in OutlineBuilder.from(user).cubic(c1!.pointee, c2!.pointee, to!.pointee); return 0 },
            shift: 0, delta: 0)
        let error = withUnsafeMutablePointer(to: &builder) { pointer in
            FT_Outline_Decompose(outline, &functions, UnsafeMutableRawPointer(pointer))
        }
        guard error == 0 else { throw FontError(file: file, problem: FreeType.message(error, "FT_Outline_Decompose")) }
        builder.path.close()
        return (builder.path, advance)
    }

    /// FreeType's own rendering of the glyph (FT_Render_Glyph, the smooth
    /// rasterizer) with the same hinting and emboldening as `outline`.
    func referenceBitmap(_ glyph: UInt32, hinting: Hinting, embolden26Dot6: Int) throws(FontError) -> FreeTypeBitmap {
        _ = try load(glyph, hinting: hinting, embolden26Dot6: embolden26Dot6)
        let slot = handle.pointee.glyph!
        let error = FT_Render_Glyph(slot, pinmint_ft_render_mode(hinting.freeTypeMode))
        guard error == 0 else { throw FontError(file: file, problem: FreeType.message(error, "FT_Render_Glyph")) }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * height)
        if let buffer = bitmap.buffer, width > 0, height > 0 {
            for y in 0..<height {
                let row = pitch >= 0 ? buffer + y * pitch : buffer + (height - 1 - y) * (-pitch)
                for x in 0..<width { coverage[y * width + x] = row[x] }
            }
        }
        return FreeTypeBitmap(width: width, height: height, left: Int(slot.pointee.bitmap_left),
                              top: Int(slot.pointee.bitmap_top), coverage: coverage)
    }

    /// The `kern`-table adjustment between two glyphs in pixels at the
    /// current size (FT_Get_Kerning, unfitted). 0 when the face has no `kern`
    /// table (GPOS kerning is HarfBuzz's to apply).
    func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        guard hasKerningTable else { return 0 }
        var vector = FT_Vector()
        let error = FT_Get_Kerning(handle, left, right, FT_UInt(FT_KERNING_UNFITTED.rawValue), &vector)
        return error == 0 ? Double(vector.x) / 64 : 0
    }
}

/// Collects FT_Outline_Decompose's callbacks into a Path: FreeType's 26.6
/// pixels with y up become Doubles with y down, and curves become line
/// segments exactly where FreeType's own rasterizer would put them (`GlyphFlattening`). Reached through the `user`
/// pointer, never through globals.
private struct OutlineBuilder {
    var path = Path()

    static func from(_ user: UnsafeMutableRawPointer?) -> Reference {
        .init(pointer: user!.assumingMemoryBound(to: OutlineBuilder.self))
    }

    struct Reference {
        let pointer: UnsafeMutablePointer<OutlineBuilder>
        func move(_ p: FT_Vector) { pointer.pointee.path.close(); pointer.pointee.path.move(to: point(p)) }
        func line(_ p: FT_Vector) { pointer.pointee.path.line(to: point(p)) }
        func quad(_ c: FT_Vector, _ p: FT_Vector) {
            let start = pointer.pointee.path.currentPoint ?? point(c)
            GlyphFlattening.quadratic(from: start, control: point(c), to: point(p), into: &pointer.pointee.path)
        }
        func cubic(_ c1: FT_Vector, _ c2: FT_Vector, _ p: FT_Vector) {
            let start = pointer.pointee.path.currentPoint ?? point(c1)
            GlyphFlattening.cubic(from: start, point(c1), point(c2), to: point(p), into: &pointer.pointee.path)
        }
        private func point(_ v: FT_Vector) -> Point { Point(Double(v.x) / 64, -Double(v.y) / 64) }
    }
}

enum FreeType {
    /// "FT_Load_Glyph failed: FreeType error 0x24 (invalid pixel size)".
    static func message(_ error: FT_Error, _ call: String) -> String {
        // FT_Error_String returns NULL unless FreeType was built with error
        // strings (Debian's is not), so the common codes are named here.
        let names: [FT_Error: String] = [
            0x01: "cannot open resource", 0x02: "unknown file format", 0x03: "broken file",
            0x06: "invalid argument", 0x07: "unimplemented feature", 0x10: "invalid glyph index",
            0x17: "invalid pixel size", 0x40: "out of memory", 0x55: "invalid table",
        ]
        return "\(call) failed: FreeType error 0x\(String(error, radix: 16)) (\(names[error] ?? "see fterrdef.h"))"
    }
}

extension Hinting {
    var freeTypeMode: Int32 {
        switch self {
        case .none: Int32(pinmint_ft_hinting_none)
        case .light: Int32(pinmint_ft_hinting_light)
        case .normal: Int32(pinmint_ft_hinting_normal)
        }
    }
}
