// CFontconfigShim: fontconfig, the way Linux programs find installed
// fonts, for Swift.
//
// Why this shim exists: fontconfig names pattern properties with string
// macros (FC_FILE, FC_FAMILY …) and builds object sets with a variadic
// function, neither of which Swift imports well. `pinmint_fc_list_fonts`
// lists every installed font file (path, face index, family, style,
// weight, slant) through a callback, `pinmint_fc_font_for_character` finds
// the installed face (or colour face) fontconfig prefers for a character;
// Sources/PinmintText/Fontconfig.swift is their only caller.
//
// The include path comes from pkg-config (`fontconfig`, Debian package
// libfontconfig1-dev); see Package.swift.
#ifndef CFONTCONFIGSHIM_H
#define CFONTCONFIGSHIM_H

#include <fontconfig/fontconfig.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/// Called once per font face fontconfig knows: its file, face index, first
/// family name, style name, weight (fontconfig's scale, 80 regular, 200
/// bold) and slant (0 roman, 100 italic, 110 oblique), and `context`.
typedef void (*pinmint_fc_font_callback)(const char *file, int index, const char *family, const char *style,
                                         int weight, int slant, void *context);

/// Lists the fonts of `config` (from FcInitLoadConfigAndFonts) through
/// `callback`. Returns the number listed, or -1 when fontconfig fails.
static inline int pinmint_fc_list_fonts(FcConfig *config, pinmint_fc_font_callback callback, void *context) {
    if (!config) return -1;
    FcPattern *pattern = FcPatternCreate();
    FcObjectSet *objects = FcObjectSetBuild(FC_FILE, FC_INDEX, FC_FAMILY, FC_STYLE, FC_WEIGHT, FC_SLANT, (char *)0);
    FcFontSet *set = pattern && objects ? FcFontList(config, pattern, objects) : NULL;
    int count = 0;
    if (set) {
        for (int i = 0; i < set->nfont; i++) {
            FcPattern *font = set->fonts[i];
            FcChar8 *file = NULL, *family = NULL, *style = NULL;
            int index = 0, weight = FC_WEIGHT_REGULAR, slant = FC_SLANT_ROMAN;
            if (FcPatternGetString(font, FC_FILE, 0, &file) != FcResultMatch || !file) continue;
            FcPatternGetInteger(font, FC_INDEX, 0, &index);
            FcPatternGetString(font, FC_FAMILY, 0, &family);
            FcPatternGetString(font, FC_STYLE, 0, &style);
            FcPatternGetInteger(font, FC_WEIGHT, 0, &weight);
            FcPatternGetInteger(font, FC_SLANT, 0, &slant);
            callback((const char *)file, index, family ? (const char *)family : "", style ? (const char *)style : "",
                     weight, slant, context);
            count++;
        }
        FcFontSetDestroy(set);
    }
    if (objects) FcObjectSetDestroy(objects);
    if (pattern) FcPatternDestroy(pattern);
    return count;
}

/// The face fontconfig prefers for the character `scalar` at `weight`
/// (fontconfig's scale) and `slant`, among those that have it (FcFontSort
/// over a pattern holding the character, the first sorted font whose
/// charset has it): its file copied into `file` (`capacity` bytes, NUL
/// ended) and face index. Returns 1 when found, 0 when no installed font
/// has the character (or the path does not fit). With `color` 1, only
/// colour fonts count (FC_COLOR: emoji fonts such as Noto Color Emoji).
static inline int pinmint_fc_font_for_character(FcConfig *config, uint32_t scalar, int weight, int slant, int color,
                                                char *file, int capacity, int *index) {
    if (!config) return 0;
    FcPattern *pattern = FcPatternCreate();
    FcCharSet *characters = FcCharSetCreate();
    if (!pattern || !characters) {
        if (pattern) FcPatternDestroy(pattern);
        if (characters) FcCharSetDestroy(characters);
        return 0;
    }
    FcCharSetAddChar(characters, scalar);
    FcPatternAddCharSet(pattern, FC_CHARSET, characters);
    FcPatternAddInteger(pattern, FC_WEIGHT, weight);
    FcPatternAddInteger(pattern, FC_SLANT, slant);
    if (color) FcPatternAddBool(pattern, FC_COLOR, FcTrue);
    FcConfigSubstitute(config, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result = FcResultNoMatch;
    FcFontSet *sorted = FcFontSort(config, pattern, FcFalse, NULL, &result);
    int found = 0;
    if (sorted) {
        for (int i = 0; i < sorted->nfont && !found; i++) {
            FcCharSet *set = NULL;
            FcChar8 *path = NULL;
            if (FcPatternGetCharSet(sorted->fonts[i], FC_CHARSET, 0, &set) != FcResultMatch || !set) continue;
            if (!FcCharSetHasChar(set, scalar)) continue;
            FcBool isColor = FcFalse;
            if (color && (FcPatternGetBool(sorted->fonts[i], FC_COLOR, 0, &isColor) != FcResultMatch || !isColor)) continue;
            if (FcPatternGetString(sorted->fonts[i], FC_FILE, 0, &path) != FcResultMatch || !path) continue;
            size_t length = strlen((const char *)path);
            if (length + 1 > (size_t)capacity) continue;
            memcpy(file, path, length + 1);
            *index = 0;
            FcPatternGetInteger(sorted->fonts[i], FC_INDEX, 0, index);
            found = 1;
        }
        FcFontSetDestroy(sorted);
    }
    FcCharSetDestroy(characters);
    FcPatternDestroy(pattern);
    return found;
}

#endif
