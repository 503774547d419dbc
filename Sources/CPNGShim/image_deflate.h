// A deflate compressor for filtered PNG rows (private to CPNGShim).
//
// zlib's match finder hashes every byte it passes; on marker images (long
// transparent and flat runs, anti-aliased edges) that bookkeeping is most of
// the encoding time. This one looks where image data repeats: the previous
// pixel, the pixel above, and one hashed earlier position, and codes the
// result with dynamic Huffman blocks (RFC 1951). The same idea as fpng and
// fpnge (fast PNG encoders that match only pixel runs and rows above);
// written from the RFC.
#ifndef PINMINT_IMAGE_DEFLATE_H
#define PINMINT_IMAGE_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

/// Compresses `data[start..<end]` as raw deflate blocks (no zlib header).
/// Matches may reach back into `data[0..<start]` (at most 32 KiB), which the
/// decoder must already have inflated: so consecutive parts compressed
/// separately (even at the same time) concatenate into one stream. A part
/// that is not `last` ends with an empty stored block (byte-aligned, like
/// zlib's Z_SYNC_FLUSH); the last part's final block has BFINAL set.
/// `pixel_bytes` is the distance to the previous pixel, `row_stride` the
/// distance to the same byte in the row above (filter byte included).
/// The output depends only on the arguments. Returns 0 when out of memory;
/// on success `*output` is malloc'ed (free it) and holds `*output_size` bytes.
int pinmint_image_deflate(const uint8_t *data, size_t data_size, size_t start, size_t end,
                          size_t pixel_bytes, size_t row_stride, int last,
                          uint8_t **output, size_t *output_size);

#endif
