#include "CPNGShim.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A growable memory buffer that libpng writes into.
struct pinmint_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
};

/// The error state libpng's callbacks report into.
struct pinmint_error_state {
    char *message;
};

static void pinmint_copy_message(char *target, const char *text) {
    if (!target) return;
    strncpy(target, text ? text : "unknown libpng error", PINMINT_PNG_MESSAGE_CAPACITY - 1);
    target[PINMINT_PNG_MESSAGE_CAPACITY - 1] = 0;
}

static void pinmint_error(png_structp png, png_const_charp text) {
    struct pinmint_error_state *state = png_get_error_ptr(png);
    if (state) pinmint_copy_message(state->message, text);
    png_longjmp(png, 1);
}

static void pinmint_warning(png_structp png, png_const_charp text) {
    (void)png; (void)text;  // Warnings are not errors; libpng's are not actionable for writing.
}

static void pinmint_write(png_structp png, png_bytep bytes, size_t count) {
    struct pinmint_buffer *buffer = png_get_io_ptr(png);
    if (buffer->failed) return;
    if (buffer->size + count > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->size + count) capacity *= 2;
        uint8_t *grown = realloc(buffer->data, capacity);
        if (!grown) { buffer->failed = 1; png_error(png, "out of memory while encoding PNG"); return; }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, count);
    buffer->size += count;
}

static void pinmint_flush(png_structp png) { (void)png; }

int pinmint_png_encode_rgba8(const uint8_t *pixels, uint32_t width, uint32_t height,
                             uint32_t pixels_per_meter, int compression_level, int filter_mask,
                             uint8_t **out_data, size_t *out_size,
                             char message[PINMINT_PNG_MESSAGE_CAPACITY]) {
    *out_data = NULL;
    *out_size = 0;
    if (message) message[0] = 0;
    struct pinmint_error_state state = { message };
    struct pinmint_buffer buffer = { NULL, 0, 0, 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, pinmint_error, pinmint_warning);
    if (!png) { pinmint_copy_message(message, "cannot create libpng write struct"); return pinmint_png_error; }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        pinmint_copy_message(message, "cannot create libpng info struct");
        return pinmint_png_error;
    }
    png_bytep *rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rows);
        free(buffer.data);
        return pinmint_png_error;
    }
    rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (!rows) png_error(png, "out of memory for row pointers");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width * 4);

    png_set_write_fn(png, &buffer, pinmint_write, pinmint_flush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (pixels_per_meter > 0) png_set_pHYs(png, info, pixels_per_meter, pixels_per_meter, PNG_RESOLUTION_METER);
    if (compression_level >= 0) png_set_compression_level(png, compression_level);
    if (filter_mask != 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, filter_mask);
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    *out_data = buffer.data;
    *out_size = buffer.size;
    return pinmint_png_ok;
}

int pinmint_png_decode_rgba8(const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
                             uint8_t **out_pixels, uint32_t *out_width, uint32_t *out_height,
                             char message[PINMINT_PNG_MESSAGE_CAPACITY]) {
    *out_pixels = NULL;
    *out_width = 0;
    *out_height = 0;
    if (message) message[0] = 0;
    // The simplified API catches libpng's longjmp itself and reports failure in image.message.
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        pinmint_copy_message(message, image.message);
        return pinmint_png_error;
    }
    if (image.width > max_side || image.height > max_side ||
        (uint64_t)image.width * (uint64_t)image.height > max_pixels) {
        char text[PINMINT_PNG_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "image of %ux%u pixels exceeds the limit (%u per side, %llu pixels)",
                 image.width, image.height, max_side, (unsigned long long)max_pixels);
        pinmint_copy_message(message, text);
        png_image_free(&image);
        return pinmint_png_error;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t stride = PNG_IMAGE_ROW_STRIDE(image);
    uint8_t *pixels = malloc(PNG_IMAGE_BUFFER_SIZE(image, stride));
    if (!pixels) {
        pinmint_copy_message(message, "out of memory");
        png_image_free(&image);
        return pinmint_png_error;
    }
    if (!png_image_finish_read(&image, NULL, pixels, (png_int_32)stride, NULL)) {
        pinmint_copy_message(message, image.message);
        free(pixels);
        png_image_free(&image);
        return pinmint_png_error;
    }
    *out_pixels = pixels;
    *out_width = image.width;
    *out_height = image.height;
    return pinmint_png_ok;
}

void pinmint_png_free(void *data) { free(data); }

const char *pinmint_png_version(void) { return png_get_libpng_ver(NULL); }
