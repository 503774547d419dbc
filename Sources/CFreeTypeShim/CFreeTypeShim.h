// CFreeTypeShim: FreeType for Swift.
//
// Why this shim exists: FreeType's public API leans on function-like macros
// (FT_HAS_KERNING, FT_LOAD_TARGET_, FT_IS_SCALABLE …) and on flag macros
// built from shifts, which Swift cannot import. Each one we need is wrapped
// here as a `pinmint_ft_` inline function with the same meaning. Everything
// else (FT_Init_FreeType, FT_Load_Glyph, FT_Outline_Decompose …) Swift calls
// directly, and only from Sources/PinmintText/FreeType.swift.
//
// The include path (/usr/include/freetype2) comes from pkg-config
// (`freetype2`, Debian package libfreetype-dev); see Package.swift.
#ifndef CFREETYPESHIM_H
#define CFREETYPESHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H
#include FT_SFNT_NAMES_H

/// Hinting modes, in the order Pinmint's `Hinting` enum lists them.
enum {
    pinmint_ft_hinting_none = 0,
    pinmint_ft_hinting_light = 1,
    pinmint_ft_hinting_normal = 2,
};

/// FT_Load_Glyph flags for outlines in one of the hinting modes above.
/// `none` loads unhinted outlines (FT_LOAD_NO_HINTING); `light` is
/// FT_LOAD_TARGET_LIGHT (the auto-hinter, vertical only); `normal` is
/// FT_LOAD_TARGET_NORMAL (the font's own hinting, or the auto-hinter).
/// Bitmaps embedded in the font are always ignored: we draw outlines.
static inline FT_Int32 pinmint_ft_load_flags(int hinting) {
    FT_Int32 flags = FT_LOAD_NO_BITMAP;
    switch (hinting) {
    case pinmint_ft_hinting_none: return flags | FT_LOAD_NO_HINTING;
    case pinmint_ft_hinting_light: return flags | FT_LOAD_TARGET_LIGHT;
    default: return flags | FT_LOAD_TARGET_NORMAL;
    }
}

/// FT_Render_Mode matching pinmint_ft_load_flags (FT_LOAD_TARGET_MODE).
static inline FT_Render_Mode pinmint_ft_render_mode(int hinting) {
    return (FT_Render_Mode)FT_LOAD_TARGET_MODE(pinmint_ft_load_flags(hinting));
}

/// FT_HAS_KERNING: the face has a TrueType `kern` table FT_Get_Kerning reads
/// (GPOS kerning is not visible here: HarfBuzz applies it).
static inline int pinmint_ft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }

/// FT_IS_SCALABLE: the face has outlines.
static inline int pinmint_ft_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }

/// The face's style flags, unpacked.
static inline int pinmint_ft_is_bold(FT_Face face) { return (face->style_flags & FT_STYLE_FLAG_BOLD) ? 1 : 0; }
static inline int pinmint_ft_is_italic(FT_Face face) { return (face->style_flags & FT_STYLE_FLAG_ITALIC) ? 1 : 0; }

/// The glyph slot's outline, or NULL when the slot holds no outline.
static inline FT_Outline *pinmint_ft_slot_outline(FT_GlyphSlot slot) {
    return slot->format == FT_GLYPH_FORMAT_OUTLINE ? &slot->outline : NULL;
}

/// FT_HAS_COLOR: the face has colour glyphs (CBDT/sbix bitmaps or COLR layers).
static inline int pinmint_ft_has_color(FT_Face face) { return FT_HAS_COLOR(face) ? 1 : 0; }

/// FT_HAS_FIXED_SIZES: the face has bitmap strikes (FT_Select_Size picks one).
static inline int pinmint_ft_has_fixed_sizes(FT_Face face) { return FT_HAS_FIXED_SIZES(face) ? 1 : 0; }

/// FT_Load_Glyph flags for a colour glyph: FT_LOAD_COLOR, which loads a
/// CBDT/sbix glyph as a BGRA bitmap and lets FT_Render_Glyph paint a COLR
/// glyph's layers into one.
static inline FT_Int32 pinmint_ft_color_load_flags(void) { return FT_LOAD_COLOR; }

/// The glyph slot's bitmap when it is a colour one (FT_PIXEL_MODE_BGRA:
/// premultiplied blue, green, red, alpha bytes), else NULL.
static inline FT_Bitmap *pinmint_ft_slot_bgra_bitmap(FT_GlyphSlot slot) {
    return (slot->format == FT_GLYPH_FORMAT_BITMAP && slot->bitmap.pixel_mode == FT_PIXEL_MODE_BGRA) ? &slot->bitmap : NULL;
}

/// Design units per em: `units_per_EM`, which FreeType leaves 0 for a face
/// without outlines (Noto Color Emoji's CBDT), else the `head` table's.
static inline int pinmint_ft_units_per_em(FT_Face face) {
    if (face->units_per_EM > 0) return face->units_per_EM;
    TT_Header *head = (TT_Header *)FT_Get_Sfnt_Table(face, FT_SFNT_HEAD);
    return head ? head->Units_Per_EM : 0;
}

/// Ascender, descender (negative) and line height in design units: the
/// face's own, which FreeType leaves 0 for a face without outlines, else
/// the `hhea` table's (height = ascender - descender + line gap).
static inline void pinmint_ft_design_metrics(FT_Face face, int *ascender, int *descender, int *height) {
    *ascender = face->ascender; *descender = face->descender; *height = face->height;
    if (face->ascender != 0 || face->descender != 0) return;
    TT_HoriHeader *hhea = (TT_HoriHeader *)FT_Get_Sfnt_Table(face, FT_SFNT_HHEA);
    if (!hhea) return;
    *ascender = hhea->Ascender; *descender = hhea->Descender;
    *height = hhea->Ascender - hhea->Descender + hhea->Line_Gap;
}

/// The OS/2 table's usWeightClass (100…900), or 0 when the face has none.
static inline int pinmint_ft_weight_class(FT_Face face) {
    TT_OS2 *os2 = (TT_OS2 *)FT_Get_Sfnt_Table(face, FT_SFNT_OS2);
    return (os2 && os2->version != 0xFFFF) ? os2->usWeightClass : 0;
}

#endif
