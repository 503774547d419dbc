// CICUShim: ICU's line breaking (UAX #14, with its dictionaries for Thai,
// Lao, Khmer and Burmese, which write no spaces between words), for Swift.
//
// Why this shim exists: ICU renames every C function with its version
// (ubrk_open becomes ubrk_open_72) through macros Swift cannot see
// through, and its headers clash with the copy of ICU inside the Swift
// toolchain's Foundation (module _FoundationICU) when both are imported.
// So ICU is reached only from shim.c, and this header holds no ICU type:
// one job, the line break opportunities of a paragraph.
//
// Debian package libicu-dev; see Package.swift.
#ifndef CICUSHIM_H
#define CICUSHIM_H

#include <stdint.h>

/// Writes into `positions` the UTF-16 offsets (in `text`, `length` units)
/// where a line may break, after the first character and up to `length`
/// included, at most `capacity` of them; `mandatory[i]` is set to 1 for a
/// hard break (after a line separator). `locale` ("" for the root) tailors
/// the rules (e.g. "ja" for Japanese kinsoku). Returns the number written,
/// or -1 with ICU's error code in `*error`.
int32_t pinmint_icu_line_breaks(const uint16_t *text, int32_t length, const char *locale,
                                int32_t *positions, uint8_t *mandatory, int32_t capacity, int32_t *error);

#endif
