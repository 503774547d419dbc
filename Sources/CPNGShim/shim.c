#include "CPNGShim.h"

#include <math.h>
#include <pthread.h>
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

/// One half of the IDAT stream: raw deflate, ending on a byte boundary (sync
/// flush) unless last; its Adler-32 is combined afterwards.
struct pinmint_part {
    const uint8_t *input; size_t input_size;
    const uint8_t *dictionary; size_t dictionary_size;
    int level, strategy, last;
    uint8_t *output; size_t output_size;
    uLong adler; int ok;
};

static void *pinmint_deflate_part(void *argument) {
    struct pinmint_part *part = argument;
    part->ok = 0;
    part->adler = adler32(1L, part->input, (uInt)part->input_size);
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, part->level, Z_DEFLATED, -15, 8, part->strategy) != Z_OK) return NULL;
    if (part->dictionary_size) deflateSetDictionary(&stream, part->dictionary, (uInt)part->dictionary_size);
    size_t capacity = deflateBound(&stream, part->input_size) + 64;
    part->output = malloc(capacity);
    if (part->output) {
        stream.next_in = (Bytef *)part->input; stream.avail_in = (uInt)part->input_size;
        stream.next_out = part->output; stream.avail_out = (uInt)capacity;
        int result = deflate(&stream, part->last ? Z_FINISH : Z_SYNC_FLUSH);
        part->output_size = capacity - stream.avail_out;
        part->ok = part->last ? result == Z_STREAM_END : (result == Z_OK && stream.avail_in == 0);
    }
    deflateEnd(&stream);
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

/// Size of up to 64 evenly spaced rows filtered one way, deflated at level 1.
static size_t pinmint_sample_size(const pinmint_png_encode_request *request, int up) {
    uint32_t samples = request->height < 64 ? request->height : 64;
    size_t stride = request->row_bytes + 1, size = (size_t)samples * stride;
    uint8_t *buffer = malloc(size);
    if (!buffer) return (size_t)-1;
    for (uint32_t index = 0; index < samples; index++) {
        uint32_t y = (uint32_t)((uint64_t)index * request->height / samples);
        pinmint_filter_row(request, y, up, buffer + index * stride);
    }
    uLongf bound = compressBound((uLong)size);
    uint8_t *output = malloc(bound);
    size_t result = (size_t)-1;
    if (output && compress2(output, &bound, buffer, (uLong)size, 1) == Z_OK) result = bound;
    free(output);
    free(buffer);
    return result;
}

/// Filters all rows and writes the IDAT chunk and IEND; 0 on failure (out of memory).
static int pinmint_write_own_idat(png_structp png, const pinmint_png_encode_request *request) {
    int none = request->filter_mask & PNG_FILTER_NONE, up = request->filter_mask & PNG_FILTER_UP;
    int useUp = up && (!none || pinmint_sample_size(request, 1) < pinmint_sample_size(request, 0));
    size_t stride = request->row_bytes + 1, total = stride * request->height;
    uint8_t *filtered = malloc(total);
    if (!filtered) return 0;
    for (uint32_t y = 0; y < request->height; y++) pinmint_filter_row(request, y, useUp, filtered + y * stride);
    // Two halves when there is enough work to pay for a thread.
    int halves = total >= (1u << 16) && request->height >= 2 ? 2 : 1;
    size_t split = halves == 2 ? (size_t)(request->height / 2) * stride : total;
    struct pinmint_part parts[2];
    memset(parts, 0, sizeof parts);
    for (int index = 0; index < halves; index++) {
        parts[index].input = filtered + (index ? split : 0);
        parts[index].input_size = index ? total - split : split;
        parts[index].dictionary_size = index ? (split < 32768 ? split : 32768) : 0;
        parts[index].dictionary = index ? filtered + split - parts[index].dictionary_size : NULL;
        parts[index].level = request->compression_level;
        parts[index].strategy = request->compression_strategy;
        parts[index].last = index == halves - 1;
    }
    pthread_t thread;
    int threaded = halves == 2 && pthread_create(&thread, NULL, pinmint_deflate_part, &parts[1]) == 0;
    pinmint_deflate_part(&parts[0]);
    if (halves == 2) { if (threaded) pthread_join(thread, NULL); else pinmint_deflate_part(&parts[1]); }
    int ok = parts[0].ok && (halves == 1 || parts[1].ok);
    uint8_t *stream = NULL;
    size_t size = 0;
    if (ok) {
        size_t capacity = 2 + parts[0].output_size + parts[1].output_size + 4;
        stream = malloc(capacity);
        ok = stream != NULL;
    }
    if (ok) {
        int level = request->compression_level, strategy = request->compression_strategy;
        unsigned flevel = level < 2 || strategy >= Z_HUFFMAN_ONLY ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
        unsigned header = (0x78u << 8) | (flevel << 6);
        header += 31 - header % 31;
        stream[size++] = (uint8_t)(header >> 8);
        stream[size++] = (uint8_t)header;
        uLong adler = parts[0].adler;
        for (int index = 0; index < halves; index++) {
            memcpy(stream + size, parts[index].output, parts[index].output_size);
            size += parts[index].output_size;
            if (index) adler = adler32_combine(adler, parts[index].adler, (z_off_t)parts[index].input_size);
        }
        for (int shift = 24; shift >= 0; shift -= 8) stream[size++] = (uint8_t)(adler >> shift);
    }
    free(parts[0].output);
    free(parts[1].output);
    free(filtered);
    if (!ok) { free(stream); return 0; }
    png_write_chunk(png, (png_const_bytep)"IDAT", stream, size);
    free(stream);
    png_write_chunk(png, (png_const_bytep)"IEND", NULL, 0);
    return 1;
}

int pinmint_png_encode(const pinmint_png_encode_request *request,
                       uint8_t **out_data, size_t *out_size,
                       char message[PINMINT_PNG_MESSAGE_CAPACITY]) {
    *out_data = NULL;
    *out_size = 0;
    if (message) message[0] = 0;
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
    // zlib's counts are 32-bit: images of 1 GiB of rows or more go through libpng.
    if (request->own_deflate && request->color_type != PNG_COLOR_TYPE_PALETTE && request->bit_depth == 8
        && (request->row_bytes + 1) * (size_t)request->height < ((size_t)1 << 30)) {
        if (!pinmint_write_own_idat(png, request)) png_error(png, "out of memory while compressing");
        png_destroy_write_struct(&png, &info);
        *out_data = buffer.data;
        *out_size = buffer.size;
        return pinmint_png_ok;
    }
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
