// CFontconfigShim: fontconfig, the way Linux programs find installed
// fonts, for Swift.
//
// Why this shim exists: fontconfig names pattern properties with string
// macros (FC_FILE, FC_FAMILY …) and builds object sets with a variadic
// function, neither of which Swift imports well. `pinmint_fc_list_fonts`
// lists every installed font file (path, face index, family, style,
// weight, slant) through a callback; Sources/PinmintText/Fontconfig.swift
// is its only caller.
//
// The include path comes from pkg-config (`fontconfig`, Debian package
// libfontconfig1-dev); see Package.swift.
#ifndef CFONTCONFIGSHIM_H
#define CFONTCONFIGSHIM_H

#include <fontconfig/fontconfig.h>
#include <stddef.h>

/// Called once per font face fontconfig knows: its file, face index, first
/// family name, style name, weight (fontconfig's scale, 80 regular, 200
/// bold) and slant (0 roman, 100 italic, 110 oblique), and `context`.
typedef void (*pinmint_fc_font_callback)(const char *file, int index, const char *family, const char *style,
                                         int weight, int slant, void *context);

/// Lists the installed fonts with the configuration fontconfig loads by
/// default (FONTCONFIG_FILE and FONTCONFIG_PATH select another). Returns
/// the number listed, or -1 when fontconfig cannot start.
static inline int pinmint_fc_list_fonts(pinmint_fc_font_callback callback, void *context) {
    FcConfig *config = FcInitLoadConfigAndFonts();
    if (!config) return -1;
    FcPattern *pattern = FcPatternCreate();
    FcObjectSet *objects = FcObjectSetBuild(FC_FILE, FC_INDEX, FC_FAMILY, FC_STYLE, FC_WEIGHT, FC_SLANT, FC_OUTLINE, FC_COLOR, (char *)0);
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
    FcConfigDestroy(config);
    return count;
}

#endif
