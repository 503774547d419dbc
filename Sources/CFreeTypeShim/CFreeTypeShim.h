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

/// The OS/2 table's usWeightClass (100…900), or 0 when the face has none.
static inline int pinmint_ft_weight_class(FT_Face face) {
    TT_OS2 *os2 = (TT_OS2 *)FT_Get_Sfnt_Table(face, FT_SFNT_OS2);
    return (os2 && os2->version != 0xFFFF) ? os2->usWeightClass : 0;
}

#endif
