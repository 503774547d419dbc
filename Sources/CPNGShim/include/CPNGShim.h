// CPNGShim: the only code that calls libpng.
//
// libpng reports errors by longjmp; a longjmp through Swift frames is
// undefined behaviour. Every setjmp therefore lives in these C functions,
// which return a status and fill in a message instead.
#ifndef CPNGSHIM_H
#define CPNGSHIM_H

#include <stddef.h>
#include <stdint.h>

/// Status codes returned by the shim.
enum {
    pinmint_png_ok = 0,
    pinmint_png_error = 1,
};

/// Bytes of the error message buffer callers pass in.
#define PINMINT_PNG_MESSAGE_CAPACITY 256

/// Encodes straight-alpha RGBA8 rows (width * 4 bytes each, `height` rows)
/// as a PNG in memory. `pixels_per_meter` > 0 writes a pHYs chunk.
/// `compression_level` is zlib's 0-9; `filter_mask` is a PNG_FILTER_* mask
/// (0 lets libpng choose). On success *out_data is malloc'ed and owned by the
/// caller (free with pinmint_png_free); on failure `message` says why.
int pinmint_png_encode_rgba8(const uint8_t *pixels, uint32_t width, uint32_t height,
                             uint32_t pixels_per_meter, int compression_level, int filter_mask,
                             uint8_t **out_data, size_t *out_size,
                             char message[PINMINT_PNG_MESSAGE_CAPACITY]);

/// Decodes a PNG held in memory into straight-alpha RGBA8 (libpng's
/// simplified API: every colour type, bit depth and interlacing). Refuses
/// images wider or taller than `max_side` or with more than `max_pixels`
/// pixels before allocating. On success *out_pixels is malloc'ed (free with
/// pinmint_png_free).
int pinmint_png_decode_rgba8(const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
                             uint8_t **out_pixels, uint32_t *out_width, uint32_t *out_height,
                             char message[PINMINT_PNG_MESSAGE_CAPACITY]);

/// Frees memory returned by the shim.
void pinmint_png_free(void *data);

/// libpng's version string, e.g. "1.6.39".
const char *pinmint_png_version(void);

#endif
