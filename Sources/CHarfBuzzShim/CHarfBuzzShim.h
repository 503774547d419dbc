// CHarfBuzzShim: HarfBuzz, the OpenType shaper, for Swift.
//
// Why this shim exists: HarfBuzz's tags (HB_TAG), its "whole buffer"
// feature range (HB_FEATURE_GLOBAL_START/END) and its language and
// direction helpers are macros Swift cannot import; each one needed is a
// `pinmint_hb_` inline function here. Everything else (hb_buffer_*,
// hb_shape, hb_ft_font_create_referenced …) Swift calls directly, and only
// from Sources/PinmintText/HarfBuzz.swift. HarfBuzz shapes over the
// FreeType faces Pinmint already loads (hb-ft), so both read one font file
// through one FT_Face.
//
// The include paths (harfbuzz, freetype2) come from pkg-config
// (`harfbuzz`, Debian package libharfbuzz-dev); see Package.swift.
#ifndef CHARFBUZZSHIM_H
#define CHARFBUZZSHIM_H

#include <hb.h>
#include <hb-ft.h>
#include <hb-ot.h>

/// HB_TAG('k','e','r','n').
static inline hb_tag_t pinmint_hb_tag(char a, char b, char c, char d) { return HB_TAG(a, b, c, d); }

/// A feature set over the whole buffer (HB_FEATURE_GLOBAL_START ... END).
static inline hb_feature_t pinmint_hb_global_feature(hb_tag_t tag, uint32_t value) {
    hb_feature_t feature = { tag, value, HB_FEATURE_GLOBAL_START, HB_FEATURE_GLOBAL_END };
    return feature;
}

/// HB_DIRECTION_IS_BACKWARD: right to left (or bottom to top).
static inline int pinmint_hb_direction_is_backward(hb_direction_t direction) { return HB_DIRECTION_IS_BACKWARD(direction) ? 1 : 0; }

#endif
