#include "CPNGShim.h"
#include "image_deflate.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <zlib.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: Errors

/// What libpng's callbacks report into: the caller's message buffer and a
/// prefix that says which stage failed.
struct pinmint_error_state {
    char *message;
    const char *prefix;
};

static void pinmint_copy_message(char *target, const char *text) {
    if (!target) return;
    snprintf(target, PINMINT_PNG_MESSAGE_CAPACITY, "%s", text ? text : "unknown libpng error");
}

static void pinmint_error(png_structp png, png_const_charp text) {
    struct pinmint_error_state *state = png_get_error_ptr(png);
    if (state && state->message && state->message[0] == 0) {
        snprintf(state->message, PINMINT_PNG_MESSAGE_CAPACITY, "%s%s", state->prefix ? state->prefix : "",
                 text ? text : "unknown libpng error");
    }
    png_longjmp(png, 1);
}

static void pinmint_warning(png_structp png, png_const_charp text) {
    // Warnings (a bad CRC in an ancillary chunk, extra data after the image)
    // do not stop decoding; browsers show such files too.
    (void)png; (void)text;
}

// MARK: Encoding

/// A growable memory buffer that libpng writes into.
struct pinmint_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
};

static void pinmint_write(png_structp png, png_bytep bytes, size_t count) {
    struct pinmint_buffer *buffer = png_get_io_ptr(png);
    if (buffer->size + count > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->size + count) capacity *= 2;
        uint8_t *grown = realloc(buffer->data, capacity);
        if (!grown) png_error(png, "out of memory while encoding PNG");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, count);
    buffer->size += count;
}

static void pinmint_flush(png_structp png) { (void)png; }

// MARK: Own deflate (grey / true colour, filter none or up)

/// One part of the IDAT stream (a run of whole rows), compressed by
/// pinmint_image_deflate; its Adler-32 is combined afterwards.
struct pinmint_part {
    const uint8_t *data; size_t data_size;
    size_t start, end;
    size_t pixel_bytes, row_stride;
    int last;
    uint8_t *output; size_t output_size;
    uLong adler; int ok;
    /// Set by whichever thread compresses the part first (the helper thread, or the caller once done with its own).
    atomic_int claimed;
};

static void *pinmint_deflate_part(void *argument) {
    struct pinmint_part *part = argument;
    int unclaimed = 0;
    if (!atomic_compare_exchange_strong(&part->claimed, &unclaimed, 1)) return NULL;
    part->adler = adler32(1L, part->data + part->start, (uInt)(part->end - part->start));
    part->ok = pinmint_image_deflate(part->data, part->data_size, part->start, part->end, part->pixel_bytes,
                                     part->row_stride, part->last, &part->output, &part->output_size);
    return NULL;
}

/// Writes row `y` with filter 0 (none) or 2 (up) as filter byte + bytes.
static void pinmint_filter_row(const pinmint_png_encode_request *request, uint32_t y, int up, uint8_t *target) {
    const uint8_t *row = request->rows + (size_t)y * request->row_bytes;
    size_t count = request->row_bytes;
    target[0] = (uint8_t)(up ? 2 : 0);
    if (!up || y == 0) { memcpy(target + 1, row, count); return; }
    const uint8_t *above = row - request->row_bytes;
    for (size_t i = 0; i < count; i++) target[1 + i] = (uint8_t)(row[i] - above[i]);
}

/// Bytes from one pixel to the next (1 for indices and grey below 8 bits).
static size_t pinmint_pixel_bytes(const pinmint_png_encode_request *request) {
    int channels = request->color_type == 2 ? 3 : request->color_type == 4 ? 2 : request->color_type == 6 ? 4 : 1;
    size_t bits = (size_t)channels * (size_t)request->bit_depth;
    return bits < 8 ? 1 : bits / 8;
}

/// Estimated bits for the bytes of `counts` (a histogram of `total` bytes) coded by their entropy.
static double pinmint_entropy_bits(const uint32_t counts[256], uint32_t total) {
    double bits = 0;
    for (int value = 0; value < 256; value++) {
        if (counts[value]) bits += counts[value] * log2((double)total / counts[value]);
    }
    return bits;
}

/// Whether Up should beat none, judged on up to 32 evenly spaced rows: a
/// byte the matcher finds cheaply (equal to the byte one pixel back in the
/// same filtered row, or, unfiltered, to the byte above) counts nothing;
/// every other byte counts its entropy among such bytes. Up wins where
/// colours change smoothly from row to row (glows, gradients); none where
/// flat colours meet (anti-aliased edges keep their colour bytes).
static int pinmint_prefers_up(const pinmint_png_encode_request *request) {
    if (request->height < 2) return 0;
    uint32_t samples = request->height - 1 < 32 ? request->height - 1 : 32;
    size_t pixel_bytes = pinmint_pixel_bytes(request);
    uint32_t none_counts[256] = { 0 }, up_counts[256] = { 0 }, none_total = 0, up_total = 0;
    for (uint32_t index = 0; index < samples; index++) {
        uint32_t y = 1 + (uint32_t)((uint64_t)index * (request->height - 1) / samples);
        const uint8_t *row = request->rows + (size_t)y * request->row_bytes, *above = row - request->row_bytes;
        for (size_t x = 0; x < request->row_bytes; x++) {
            uint8_t value = row[x], up = (uint8_t)(value - above[x]);
            int has_left = x >= pixel_bytes;
            if (value != above[x] && !(has_left && value == row[x - pixel_bytes])) { none_counts[value]++; none_total++; }
            if (!(has_left && up == (uint8_t)(row[x - pixel_bytes] - above[x - pixel_bytes]))) { up_counts[up]++; up_total++; }
        }
    }
    return pinmint_entropy_bits(up_counts, up_total) < pinmint_entropy_bits(none_counts, none_total);
}

/// Filters all rows and compresses them into a zlib stream (malloc'ed into *out_stream); 0 on
/// failure (out of memory).
static int pinmint_own_zlib_stream(const pinmint_png_encode_request *request, uint8_t **out_stream, size_t *out_size) {
    int none = request->filter_mask & PNG_FILTER_NONE, up = request->filter_mask & PNG_FILTER_UP;
    int useUp = up && (!none || pinmint_prefers_up(request));
    size_t stride = request->row_bytes + 1, total = stride * request->height;
    uint8_t *filtered = malloc(total);
    if (!filtered) return 0;
    for (uint32_t y = 0; y < request->height; y++) pinmint_filter_row(request, y, useUp, filtered + y * stride);
    // Two parts when there is enough work (about a millisecond) to pay for a
    // thread; the second matches into the first, so the bytes do not depend
    // on which thread compresses which part. On a busy machine the helper
    // thread may start late: the caller then compresses both parts itself.
    int halves = total >= ((size_t)1 << 20) && request->height >= 2 ? 2 : 1;
    size_t split = halves == 2 ? (size_t)(request->height / 2) * stride : total;
    size_t pixel_bytes = pinmint_pixel_bytes(request);
    struct pinmint_part parts[2];
    memset(parts, 0, sizeof parts);
    for (int index = 0; index < halves; index++) {
        parts[index].data = filtered;
        parts[index].data_size = total;
        parts[index].start = index ? split : 0;
        parts[index].end = index == halves - 1 ? total : split;
        parts[index].pixel_bytes = pixel_bytes;
        parts[index].row_stride = stride;
        parts[index].last = index == halves - 1;
        atomic_init(&parts[index].claimed, 0);
    }
    pthread_t thread;
    int threaded = halves == 2 && pthread_create(&thread, NULL, pinmint_deflate_part, &parts[1]) == 0;
    pinmint_deflate_part(&parts[0]);
    if (halves == 2) pinmint_deflate_part(&parts[1]);  // returns at once when the helper has claimed it
    if (threaded) pthread_join(thread, NULL);
    int ok = parts[0].ok && (halves == 1 || parts[1].ok);
    uint8_t *stream = NULL;
    size_t size = 0;
    if (ok) {
        size_t capacity = 2 + parts[0].output_size + parts[1].output_size + 4;
        stream = malloc(capacity);
        ok = stream != NULL;
    }
    if (ok) {
        // zlib header: deflate, 32 KiB window, FLEVEL 1 ("fast"), check bits (0x785e % 31 == 0).
        stream[size++] = 0x78;
        stream[size++] = 0x5e;
        uLong adler = parts[0].adler;
        for (int index = 0; index < halves; index++) {
            memcpy(stream + size, parts[index].output, parts[index].output_size);
            size += parts[index].output_size;
            if (index) adler = adler32_combine(adler, parts[index].adler, (z_off_t)(parts[index].end - parts[index].start));
        }
        for (int shift = 24; shift >= 0; shift -= 8) stream[size++] = (uint8_t)(adler >> shift);
    }
    free(parts[0].output);
    free(parts[1].output);
    free(filtered);
    if (!ok) { free(stream); return 0; }
    *out_stream = stream;
    *out_size = size;
    return 1;
}

// MARK: Own chunk writer (the own-deflate path)

/// What libpng's png_check_IHDR accepts for a write with its default limits (sides of 1 to
/// 1,000,000 pixels, a bit depth the colour type allows).
static int pinmint_header_is_valid(const pinmint_png_encode_request *request) {
    if (request->width == 0 || request->height == 0 || request->width > PNG_USER_WIDTH_MAX || request->height > PNG_USER_HEIGHT_MAX) return 0;
    int depth = request->bit_depth;
    switch (request->color_type) {
    case 0: return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
    case 3: return depth == 1 || depth == 2 || depth == 4 || depth == 8;
    case 2: case 4: case 6: return depth == 8 || depth == 16;
    default: return 0;
    }
}

static void pinmint_put_u32(uint8_t *target, uint32_t value) {
    target[0] = (uint8_t)(value >> 24); target[1] = (uint8_t)(value >> 16);
    target[2] = (uint8_t)(value >> 8); target[3] = (uint8_t)value;
}

/// Appends one chunk (length, type, data, CRC-32 of type and data) at `*size`.
static void pinmint_put_chunk(uint8_t *file, size_t *size, const char type[4], const uint8_t *data, size_t count) {
    uint8_t *start = file + *size;
    pinmint_put_u32(start, (uint32_t)count);
    memcpy(start + 4, type, 4);
    if (count) memcpy(start + 8, data, count);
    pinmint_put_u32(start + 8 + count, (uint32_t)crc32(0L, start + 4, (uInt)(count + 4)));
    *size += 12 + count;
}

/// Writes the whole file for the own-deflate path without libpng: the same chunks, in the same
/// order and with the same bytes as libpng writes for this request (signature, IHDR, PLTE, tRNS,
/// pHYs, one IDAT, IEND), but none of libpng's per-image setup, which cost more than compressing
/// a marker-sized image. The request is one PNGEncoder built (valid colour type, depth and sizes).
/// 0 on failure (out of memory).
static int pinmint_write_own_png(const pinmint_png_encode_request *request, uint8_t **out_data, size_t *out_size) {
    uint8_t *stream = NULL;
    size_t stream_size = 0;
    if (!pinmint_own_zlib_stream(request, &stream, &stream_size)) return 0;
    int palette_count = 0, alpha_count = 0;
    if (request->color_type == 3) {
        palette_count = request->palette_count < 1 ? 1 : (request->palette_count > 256 ? 256 : request->palette_count);
        alpha_count = request->alpha_count > palette_count ? palette_count : request->alpha_count;
    }
    size_t capacity = 8 + (12 + 13) + (12 + 3 * 256) + (12 + 256) + (12 + 9) + (12 + stream_size) + 12;
    uint8_t *file = malloc(capacity);
    if (!file) { free(stream); return 0; }
    static const uint8_t signature[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    memcpy(file, signature, 8);
    size_t size = 8;
    uint8_t header[13];
    pinmint_put_u32(header, request->width);
    pinmint_put_u32(header + 4, request->height);
    header[8] = (uint8_t)request->bit_depth;
    header[9] = (uint8_t)request->color_type;
    header[10] = 0;  // compression: deflate
    header[11] = 0;  // filter method 0
    header[12] = 0;  // not interlaced
    pinmint_put_chunk(file, &size, "IHDR", header, 13);
    if (request->color_type == 3) {
        pinmint_put_chunk(file, &size, "PLTE", request->palette_rgb, (size_t)palette_count * 3);
        if (alpha_count > 0) pinmint_put_chunk(file, &size, "tRNS", request->palette_alpha, (size_t)alpha_count);
    }
    if (request->pixels_per_meter > 0) {
        uint8_t physical[9];
        pinmint_put_u32(physical, request->pixels_per_meter);
        pinmint_put_u32(physical + 4, request->pixels_per_meter);
        physical[8] = 1;  // unit: metre
        pinmint_put_chunk(file, &size, "pHYs", physical, 9);
    }
    pinmint_put_chunk(file, &size, "IDAT", stream, stream_size);
    free(stream);
    pinmint_put_chunk(file, &size, "IEND", NULL, 0);
    *out_data = file;
    *out_size = size;
    return 1;
}

int pinmint_png_encode(const pinmint_png_encode_request *request,
                       uint8_t **out_data, size_t *out_size,
                       char message[PINMINT_PNG_MESSAGE_CAPACITY]) {
    *out_data = NULL;
    *out_size = 0;
    if (message) message[0] = 0;
    // zlib's counts are 32-bit: images of 1 GiB of rows or more go through libpng. So does a
    // header libpng would refuse (its messages stay the ones callers get).
    if (request->own_deflate && request->bit_depth <= 8 && pinmint_header_is_valid(request)
        && (request->row_bytes + 1) * (size_t)request->height < ((size_t)1 << 30)) {
        if (pinmint_write_own_png(request, out_data, out_size)) return pinmint_png_ok;
        pinmint_copy_message(message, "cannot encode PNG: out of memory while compressing");
        return pinmint_png_error;
    }
    struct pinmint_error_state state = { message, "cannot encode PNG: " };
    struct pinmint_buffer buffer = { NULL, 0, 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, pinmint_error, pinmint_warning);
    if (!png) { pinmint_copy_message(message, "cannot create libpng write struct"); return pinmint_png_error; }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        pinmint_copy_message(message, "cannot create libpng info struct");
        return pinmint_png_error;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buffer.data);
        return pinmint_png_error;
    }
    png_set_write_fn(png, &buffer, pinmint_write, pinmint_flush);
    png_set_IHDR(png, info, request->width, request->height, request->bit_depth, request->color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (request->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        int count = request->palette_count < 1 ? 1 : (request->palette_count > 256 ? 256 : request->palette_count);
        for (int index = 0; index < count; index++) {
            palette[index].red = request->palette_rgb[index * 3];
            palette[index].green = request->palette_rgb[index * 3 + 1];
            palette[index].blue = request->palette_rgb[index * 3 + 2];
        }
        png_set_PLTE(png, info, palette, count);
        if (request->alpha_count > 0) {
            png_set_tRNS(png, info, request->palette_alpha, request->alpha_count > count ? count : request->alpha_count, NULL);
        }
    }
    if (request->pixels_per_meter > 0) {
        png_set_pHYs(png, info, request->pixels_per_meter, request->pixels_per_meter, PNG_RESOLUTION_METER);
    }
    png_set_compression_level(png, request->compression_level);
    png_set_compression_strategy(png, request->compression_strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, request->filter_mask ? request->filter_mask : PNG_FILTER_NONE);
    // One large IDAT instead of 8 KiB pieces: 12 bytes saved per piece.
    png_set_compression_buffer_size(png, 1 << 20);
    png_write_info(png, info);
    for (uint32_t y = 0; y < request->height; y++) {
        png_write_row(png, (png_const_bytep)(request->rows + (size_t)y * request->row_bytes));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out_data = buffer.data;
    *out_size = buffer.size;
    return pinmint_png_ok;
}

// MARK: Decoding

/// The bytes libpng reads from.
struct pinmint_source {
    const uint8_t *data;
    size_t size;
    size_t offset;
};

static void pinmint_read(png_structp png, png_bytep target, size_t count) {
    struct pinmint_source *source = png_get_io_ptr(png);
    if (count > source->size - source->offset) {
        char text[96];
        snprintf(text, sizeof text, "file is truncated (it ends after %zu bytes)", source->size);
        png_error(png, text);
    }
    memcpy(target, source->data + source->offset, count);
    source->offset += count;
}

static uint32_t pinmint_big_endian(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

/// Checks the signature and the IHDR's size fields before libpng runs, so
/// these refusals get a precise message and nothing is allocated.
static int pinmint_check_header(const uint8_t *data, size_t size, const pinmint_png_decode_options *options,
                                char *message) {
    static const uint8_t signature[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    if (size < 8) {
        snprintf(message, PINMINT_PNG_MESSAGE_CAPACITY, "not a PNG file (only %zu bytes)", size);
        return pinmint_png_error;
    }
    if (memcmp(data, signature, 8) != 0) {
        if (memcmp(data + 1, "PNG", 3) == 0) {
            pinmint_copy_message(message, "damaged PNG signature (line endings changed by a text-mode transfer, "
                                          "or a flipped bit)");
        } else {
            pinmint_copy_message(message, "not a PNG file (wrong signature)");
        }
        return pinmint_png_error;
    }
    if (size < 8 + 8 + 13 + 4) {
        snprintf(message, PINMINT_PNG_MESSAGE_CAPACITY, "file is truncated (it ends after %zu bytes, inside the header)", size);
        return pinmint_png_error;
    }
    if (pinmint_big_endian(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0) {
        pinmint_copy_message(message, "corrupt PNG: the first chunk is not a 13-byte IHDR");
        return pinmint_png_error;
    }
    uint32_t width = pinmint_big_endian(data + 16), height = pinmint_big_endian(data + 20);
    if (width == 0 || height == 0) {
        snprintf(message, PINMINT_PNG_MESSAGE_CAPACITY, "corrupt PNG: image size %ux%u is empty", width, height);
        return pinmint_png_error;
    }
    int bit_depth = data[24], color_type = data[25];
    int valid_depth;
    switch (color_type) {
    case 0: valid_depth = bit_depth == 1 || bit_depth == 2 || bit_depth == 4 || bit_depth == 8 || bit_depth == 16; break;
    case 3: valid_depth = bit_depth == 1 || bit_depth == 2 || bit_depth == 4 || bit_depth == 8; break;
    case 2: case 4: case 6: valid_depth = bit_depth == 8 || bit_depth == 16; break;
    default:
        snprintf(message, PINMINT_PNG_MESSAGE_CAPACITY, "corrupt PNG: IHDR: colour type %d does not exist", color_type);
        return pinmint_png_error;
    }
    if (!valid_depth) {
        snprintf(message, PINMINT_PNG_MESSAGE_CAPACITY, "corrupt PNG: IHDR: bit depth %d is not allowed for colour type %d",
                 bit_depth, color_type);
        return pinmint_png_error;
    }
    if (width > options->max_side || height > options->max_side ||
        (uint64_t)width * (uint64_t)height > options->max_pixels) {
        snprintf(message, PINMINT_PNG_MESSAGE_CAPACITY,
                 "image of %ux%u pixels exceeds the limit (%u per side, %llu pixels); nothing was allocated",
                 width, height, options->max_side, (unsigned long long)options->max_pixels);
        return pinmint_png_error;
    }
    return pinmint_png_ok;
}

/// exponent applied to a sample in 0...1 to display a gAMA image on a
/// gamma-2.2 display: (sample^(1/file gamma))^(1/2.2).
static double pinmint_display_exponent(uint32_t gamma_times_100000) {
    return 100000.0 / ((double)gamma_times_100000 * 2.2);
}

static void pinmint_apply_gamma8(uint8_t *pixels, size_t count, double exponent) {
    uint8_t table[256];
    for (int value = 0; value < 256; value++) table[value] = (uint8_t)floor(255.0 * pow(value / 255.0, exponent) + 0.5);
    for (size_t index = 0; index < count; index += 4) {
        pixels[index] = table[pixels[index]];
        pixels[index + 1] = table[pixels[index + 1]];
        pixels[index + 2] = table[pixels[index + 2]];
    }
}

static int pinmint_apply_gamma16(uint16_t *pixels, size_t count, double exponent) {
    uint16_t *table = malloc(65536 * sizeof(uint16_t));
    if (!table) return pinmint_png_error;
    for (int value = 0; value < 65536; value++) table[value] = (uint16_t)floor(65535.0 * pow(value / 65535.0, exponent) + 0.5);
    for (size_t index = 0; index < count; index += 4) {
        pixels[index] = table[pixels[index]];
        pixels[index + 1] = table[pixels[index + 1]];
        pixels[index + 2] = table[pixels[index + 2]];
    }
    free(table);
    return pinmint_png_ok;
}

int pinmint_png_decode(const uint8_t *data, size_t size, const pinmint_png_decode_options *options,
                       pinmint_png_decoded *result, char message[PINMINT_PNG_MESSAGE_CAPACITY]) {
    memset(result, 0, sizeof *result);
    result->srgb_intent = -1;
    message[0] = 0;
    if (pinmint_check_header(data, size, options, message) != pinmint_png_ok) return pinmint_png_error;

    struct pinmint_error_state state = { message, "corrupt PNG: " };
    struct pinmint_source source = { data, size, 0 };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, pinmint_error, pinmint_warning);
    if (!png) { pinmint_copy_message(message, "cannot create libpng read struct"); return pinmint_png_error; }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        pinmint_copy_message(message, "cannot create libpng info struct");
        return pinmint_png_error;
    }
    // Locals changed after setjmp are volatile so their values survive the longjmp.
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        if (message[0] == 0) pinmint_copy_message(message, "corrupt PNG");
        return pinmint_png_error;
    }
    png_set_read_fn(png, &source, pinmint_read);
    png_set_user_limits(png, options->max_side, options->max_side);
    png_set_chunk_malloc_max(png, options->max_chunk_bytes);
    png_set_chunk_cache_max(png, 1000);
    png_read_info(png, info);

    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info), bit_depth = png_get_bit_depth(png, info);
    result->width = width;
    result->height = height;
    result->color_type = color_type;
    result->bit_depth = bit_depth;
    result->interlace = png_get_interlace_type(png, info);

    png_fixed_point gamma = 0;
    if (png_get_gAMA_fixed(png, info, &gamma) && gamma > 0) result->gamma_times_100000 = (uint32_t)gamma;
    int intent = 0;
    if (png_get_sRGB(png, info, &intent)) result->srgb_intent = intent;
    result->has_iccp = png_get_valid(png, info, PNG_INFO_iCCP) ? 1 : 0;

    // Expand everything to RGBA at 8 or 16 bits.
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    int has_transparency_chunk = png_get_valid(png, info, PNG_INFO_tRNS) ? 1 : 0;
    if (has_transparency_chunk) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_transparency_chunk) {
        png_set_add_alpha(png, bit_depth == 16 ? 0xffff : 0xff, PNG_FILLER_AFTER);
    }
    if (bit_depth == 16) {
        uint16_t probe = 1;
        if (*(uint8_t *)&probe == 1) png_set_swap(png);  // little-endian host: samples in host order
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    int bytes_per_sample = bit_depth == 16 ? 2 : 1;
    size_t row_bytes = (size_t)width * 4 * (size_t)bytes_per_sample;
    if (png_get_rowbytes(png, info) != row_bytes) png_error(png, "unexpected row size after expansion");
    pixels = malloc(row_bytes * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        message[0] = 0;
        state.prefix = "";
        png_error(png, "out of memory for the pixels");
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = pixels + (size_t)y * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);

    // Gamma policy (browsers): sRGB or iCCP present -> samples are sRGB as
    // they stand; gAMA alone -> corrected for a 2.2 display.
    if (options->apply_gamma && result->gamma_times_100000 > 0 && result->srgb_intent < 0 && !result->has_iccp) {
        double exponent = pinmint_display_exponent(result->gamma_times_100000);
        if (fabs(exponent - 1.0) > 0.001) {
            size_t count = (size_t)width * height * 4;
            if (bytes_per_sample == 1) {
                pinmint_apply_gamma8(pixels, count, exponent);
            } else if (pinmint_apply_gamma16((uint16_t *)pixels, count, exponent) != pinmint_png_ok) {
                free(pixels);
                pinmint_copy_message(message, "out of memory for the gamma table");
                return pinmint_png_error;
            }
            result->gamma_applied = 1;
        }
    }
    result->bytes_per_sample = bytes_per_sample;
    result->pixels = pixels;
    return pinmint_png_ok;
}

void pinmint_png_free(void *data) { free(data); }

const char *pinmint_png_version(void) { return png_get_libpng_ver(NULL); }
