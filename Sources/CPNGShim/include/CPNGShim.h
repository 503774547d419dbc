// CPNGShim: the only code that calls libpng.
//
// libpng reports errors by longjmp; a longjmp through Swift frames is
// undefined behaviour. Every setjmp therefore lives in these C functions,
// which return a status and fill in a message instead. Swift reaches these
// functions only through Sources/PinmintPNG/LibPNG.swift.
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

// MARK: Encoding

/// zlib strategies, as in zlib.h (repeated so Swift need not import zlib).
enum {
    pinmint_png_strategy_default = 0,
    pinmint_png_strategy_filtered = 1,
    pinmint_png_strategy_huffman_only = 2,
    pinmint_png_strategy_rle = 3,
};

/// PNG row filters as a mask, as libpng's PNG_FILTER_* (0x08 none ... 0x80 Paeth).
enum {
    pinmint_png_filter_none = 0x08,
    pinmint_png_filter_sub = 0x10,
    pinmint_png_filter_up = 0x20,
    pinmint_png_filter_average = 0x40,
    pinmint_png_filter_paeth = 0x80,
    pinmint_png_filter_all = 0xf8,
};

/// One PNG to write. Rows are already packed in the target format:
/// `row_bytes` per row (bit depths below 8 packed most significant bit
/// first), 16-bit samples big-endian as in the file.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA).
    int color_type;
    /// 1, 2, 4, 8 or 16, valid for the colour type.
    int bit_depth;
    const uint8_t *rows;
    size_t row_bytes;
    /// Palette as RGB triples (colour type 3 only), 1...256 entries.
    const uint8_t *palette_rgb;
    int palette_count;
    /// tRNS alpha per palette entry (the first `alpha_count` entries), 0 for none.
    const uint8_t *palette_alpha;
    int alpha_count;
    /// > 0 writes a pHYs chunk (same value both axes, unit metre).
    uint32_t pixels_per_meter;
    /// zlib level 0...9.
    int compression_level;
    /// One of pinmint_png_strategy_*.
    int compression_strategy;
    /// A mask of pinmint_png_filter_*; one bit fixes the filter, several let
    /// libpng pick per row (minimum sum of absolute differences).
    int filter_mask;
    /// Non-zero (bit depth 8 or less): the shim filters the rows and
    /// compresses them with its own image deflate instead of zlib (level and
    /// strategy unused; filter_mask must be none, up, or none|up, then chosen
    /// once per image by an entropy estimate on sampled rows), the stream
    /// split at a row in two halves compressed on two threads when large (the
    /// second matches into the first; output does not depend on timing).
    int own_deflate;
} pinmint_png_encode_request;

/// Encodes one PNG in memory; no time, text or other varying chunks, so
/// identical requests give identical bytes. On success *out_data is
/// malloc'ed and owned by the caller (free with pinmint_png_free); on
/// failure `message` says why.
int pinmint_png_encode(const pinmint_png_encode_request *request,
                       uint8_t **out_data, size_t *out_size,
                       char message[PINMINT_PNG_MESSAGE_CAPACITY]);

// MARK: Decoding

/// Limits checked from the header before any pixel memory is allocated.
typedef struct {
    /// Widest and tallest image accepted, in pixels.
    uint32_t max_side;
    /// Most pixels (width × height) accepted.
    uint64_t max_pixels;
    /// Most bytes any one ancillary chunk may occupy once decompressed
    /// (iCCP, zTXt, iTXt...): bounds decompression bombs outside IDAT.
    uint32_t max_chunk_bytes;
    /// Non-zero applies a gAMA chunk (when no sRGB or iCCP chunk overrides
    /// it) for a display gamma of 2.2, as browsers do.
    int apply_gamma;
} pinmint_png_decode_options;

/// A decoded PNG: straight-alpha RGBA, 8 bits per sample for sources of up
/// to 8 bits and 16 bits (host byte order) for 16-bit sources.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// From IHDR: the file's colour type, bit depth and interlace method.
    int color_type;
    int bit_depth;
    int interlace;
    /// 1 or 2: bytes per output sample.
    int bytes_per_sample;
    /// width × height × 4 samples, malloc'ed (free with pinmint_png_free).
    void *pixels;
    /// The gAMA value × 100000 (0 when absent), the sRGB rendering intent
    /// (-1 when absent), whether an iCCP chunk is present, and whether the
    /// gamma was applied to the pixels.
    uint32_t gamma_times_100000;
    int srgb_intent;
    int has_iccp;
    int gamma_applied;
} pinmint_png_decoded;

/// Decodes a PNG held in memory: every colour type, bit depth and Adam7
/// interlacing. Refuses a wrong signature, a truncated file, bad CRCs,
/// bad zlib data and images past `options`' limits, filling in `message`.
int pinmint_png_decode(const uint8_t *data, size_t size, const pinmint_png_decode_options *options,
                       pinmint_png_decoded *result, char message[PINMINT_PNG_MESSAGE_CAPACITY]);

/// Frees memory returned by the shim.
void pinmint_png_free(void *data);

/// libpng's version string, e.g. "1.6.39".
const char *pinmint_png_version(void);

#endif
