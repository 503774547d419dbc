// CFriBidiShim: GNU FriBidi, the Unicode Bidirectional Algorithm (UAX #9),
// for Swift.
//
// Why this shim exists: FriBidi's paragraph types (FRIBIDI_PAR_LTR …) and
// its level test (FRIBIDI_LEVEL_IS_RTL) are macros, and resolving a
// paragraph's embedding levels takes three calls over two temporary
// arrays (bidi types, bracket types). `pinmint_fribidi_levels` does that
// one job; Sources/PinmintText/Bidi.swift is its only caller.
//
// The include path comes from pkg-config (`fribidi`, Debian package
// libfribidi-dev); see Package.swift.
#ifndef CFRIBIDISHIM_H
#define CFRIBIDISHIM_H

#include <fribidi.h>
#include <stdlib.h>

/// The paragraph's base direction asked for.
enum {
    pinmint_fribidi_base_auto = 0,   // from the first strong character (rules P2, P3), left to right when none
    pinmint_fribidi_base_ltr = 1,
    pinmint_fribidi_base_rtl = 2,
};

/// Resolves the embedding level of each of the `length` code points of one
/// paragraph into `levels` (even: left to right, odd: right to left), with
/// the base direction `base`. Returns the paragraph's level (0 or 1), or -1
/// when FriBidi fails (out of memory).
static inline int pinmint_fribidi_levels(const uint32_t *text, int length, int base, int8_t *levels) {
    if (length <= 0) return base == pinmint_fribidi_base_rtl ? 1 : 0;
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
    if (!types || !brackets) { free(types); free(brackets); return -1; }
    fribidi_get_bidi_types((const FriBidiChar *)text, length, types);
    fribidi_get_bracket_types((const FriBidiChar *)text, length, types, brackets);
    FriBidiParType direction = base == pinmint_fribidi_base_ltr ? FRIBIDI_PAR_LTR
        : base == pinmint_fribidi_base_rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_ON;
    FriBidiLevel maximum = fribidi_get_par_embedding_levels_ex(types, brackets, length, &direction, (FriBidiLevel *)levels);
    free(types);
    free(brackets);
    if (maximum == 0) return -1;
    return FRIBIDI_IS_RTL(direction) ? 1 : 0;
}

#endif
