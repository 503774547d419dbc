/*
 * bench_blend2d: Blend2D on the same replay as bench_cairo (format and usage
 * in ../common/replay.h), the renderer issue 2's speed target refers to.
 *
 * Blend2D comes from PyPI (`blend2d-python`, whose wheel carries the static
 * library libblend2d.a with its JIT pipelines, but no header), so the few C
 * API functions used here are declared below from Blend2D's public C API
 * (blend2d/context.h, image.h, path.h; zlib licence). `make blend2d` (run by
 * `make bench`) downloads the wheel into Benchmarks/.work/blend2d, checks its
 * SHA-256, unpacks it and links this file against the library.
 *
 * Build:  cc -O2 bench_blend2d.c PATH/libblend2d.a -lstdc++ -lm -lpthread -lrt -o bench_blend2d
 * Usage:  bench_blend2d REPLAY [ITERATIONS=200] [PNG_DIRECTORY]
 *
 * One iteration = blContextClearAll, then for each op: build the path, set
 * the fill rule or stroke parameters, and fill or stroke it with a solid
 * colour (source-over, Blend2D's default flattening tolerance of 0.2 px and
 * its analytic anti-aliasing), drawn synchronously on a PRGB32 image;
 * blContextFlush ends it.
 */
#include "../common/replay.h"
#include <stdint.h>

/* Blend2D objects are 16-byte cores (BLObjectDetail) handed to the C API by pointer. */
typedef struct { _Alignas(16) uint64_t detail[2]; } BLObjectCore;
typedef BLObjectCore BLImageCore, BLContextCore, BLPathCore;
typedef struct { double x, y; } BLPoint;
typedef uint32_t BLResult;

enum { BL_FORMAT_PRGB32 = 1, BL_FILL_RULE_NON_ZERO = 0, BL_FILL_RULE_EVEN_ODD = 1 };
enum { BL_STROKE_CAP_BUTT = 0, BL_STROKE_CAP_SQUARE = 1, BL_STROKE_CAP_ROUND = 2 };
/* MITER_BEVEL: a miter past the limit becomes a bevel, as in cairo and SVG. */
enum { BL_STROKE_JOIN_MITER_BEVEL = 1, BL_STROKE_JOIN_BEVEL = 3, BL_STROKE_JOIN_ROUND = 4 };
enum { BL_CONTEXT_FLUSH_SYNC = 0x80000000u };

BLResult blImageInitAs(BLImageCore *self, int w, int h, uint32_t format);
BLResult blImageDestroy(BLImageCore *self);
BLResult blImageWriteToFile(const BLImageCore *self, const char *fileName, const void *codec);
BLResult blContextInitAs(BLContextCore *self, BLImageCore *image, const void *createInfo);
BLResult blContextDestroy(BLContextCore *self);
BLResult blContextEnd(BLContextCore *self);
BLResult blContextFlush(BLContextCore *self, uint32_t flags);
BLResult blContextClearAll(BLContextCore *self);
BLResult blContextSetFillRule(BLContextCore *self, uint32_t fillRule);
BLResult blContextSetStrokeWidth(BLContextCore *self, double width);
BLResult blContextSetStrokeMiterLimit(BLContextCore *self, double miterLimit);
BLResult blContextSetStrokeCaps(BLContextCore *self, uint32_t strokeCap);
BLResult blContextSetStrokeJoin(BLContextCore *self, uint32_t strokeJoin);
BLResult blContextFillPathDRgba32(BLContextCore *self, const BLPoint *origin, const BLPathCore *path, uint32_t rgba32);
BLResult blContextStrokePathDRgba32(BLContextCore *self, const BLPoint *origin, const BLPathCore *path, uint32_t rgba32);
BLResult blPathInit(BLPathCore *self);
BLResult blPathDestroy(BLPathCore *self);
BLResult blPathClear(BLPathCore *self);
BLResult blPathMoveTo(BLPathCore *self, double x0, double y0);
BLResult blPathLineTo(BLPathCore *self, double x1, double y1);
BLResult blPathCubicTo(BLPathCore *self, double x1, double y1, double x2, double y2, double x3, double y3);
BLResult blPathClose(BLPathCore *self);

typedef struct {
    BLImageCore image;
    BLContextCore context;
    BLPathCore path;
} blend2d_target;

static void check(BLResult result, const char *what) {
    if (result != 0) {
        char message[128];
        snprintf(message, sizeof message, "%s failed with Blend2D error 0x%x", what, (unsigned)result);
        fail(4, message, 0);
    }
}

static void *create(int width, int height) {
    blend2d_target *target = malloc(sizeof *target);
    if (!target) fail(4, "out of memory", 0);
    check(blImageInitAs(&target->image, width, height, BL_FORMAT_PRGB32), "blImageInitAs");
    check(blContextInitAs(&target->context, &target->image, NULL), "blContextInitAs");
    check(blPathInit(&target->path), "blPathInit");
    return target;
}

/* A straight-alpha colour as Blend2D's 0xAARRGGBB, each channel rounded to nearest. */
static uint32_t rgba32(const operation *op) {
    double channels[4] = {op->alpha, op->red, op->green, op->blue};
    uint32_t value = 0;
    for (int i = 0; i < 4; i++) {
        double c = channels[i] < 0 ? 0 : channels[i] > 1 ? 1 : channels[i];
        value = value << 8 | (uint32_t)(c * 255 + 0.5);
    }
    return value;
}

static void draw(void *opaque, const scene *sc) {
    blend2d_target *target = opaque;
    BLContextCore *context = &target->context;
    BLPathCore *path = &target->path;
    static const BLPoint origin = {0, 0};
    check(blContextClearAll(context), "blContextClearAll");
    for (size_t i = 0; i < sc->operation_count; i++) {
        const operation *op = &sc->operations[i];
        blPathClear(path);
        for (size_t j = 0; j < op->segment_count; j++) {
            const double *p = op->segments[j].points;
            switch (op->segments[j].kind) {
            case SEGMENT_MOVE: blPathMoveTo(path, p[0], p[1]); break;
            case SEGMENT_LINE: blPathLineTo(path, p[0], p[1]); break;
            case SEGMENT_CUBIC: blPathCubicTo(path, p[0], p[1], p[2], p[3], p[4], p[5]); break;
            case SEGMENT_CLOSE: blPathClose(path); break;
            }
        }
        if (op->is_stroke) {
            if (op->dash_count > 0) fail(4, "dashed strokes are not supported by this baseline", 0);
            static const uint32_t caps[] = {
                [REPLAY_CAP_BUTT] = BL_STROKE_CAP_BUTT, [REPLAY_CAP_ROUND] = BL_STROKE_CAP_ROUND,
                [REPLAY_CAP_SQUARE] = BL_STROKE_CAP_SQUARE};
            static const uint32_t joins[] = {
                [REPLAY_JOIN_MITER] = BL_STROKE_JOIN_MITER_BEVEL, [REPLAY_JOIN_ROUND] = BL_STROKE_JOIN_ROUND,
                [REPLAY_JOIN_BEVEL] = BL_STROKE_JOIN_BEVEL};
            blContextSetStrokeWidth(context, op->line_width);
            blContextSetStrokeCaps(context, caps[op->cap]);
            blContextSetStrokeJoin(context, joins[op->join]);
            blContextSetStrokeMiterLimit(context, op->miter_limit);
            check(blContextStrokePathDRgba32(context, &origin, path, rgba32(op)), "blContextStrokePathDRgba32");
        } else {
            blContextSetFillRule(context, op->fill_rule == REPLAY_EVEN_ODD ? BL_FILL_RULE_EVEN_ODD
                                                                           : BL_FILL_RULE_NON_ZERO);
            check(blContextFillPathDRgba32(context, &origin, path, rgba32(op)), "blContextFillPathDRgba32");
        }
    }
    check(blContextFlush(context, BL_CONTEXT_FLUSH_SYNC), "blContextFlush");
}

static int write_png(void *opaque, const char *path) {
    blend2d_target *target = opaque;
    return blImageWriteToFile(&target->image, path, NULL) == 0 ? 0 : -1;
}

static void destroy(void *opaque) {
    blend2d_target *target = opaque;
    check(blContextEnd(&target->context), "blContextEnd");
    blContextDestroy(&target->context);
    blPathDestroy(&target->path);
    blImageDestroy(&target->image);
    free(target);
}

int main(int argc, char **argv) {
    static const replay_backend backend = {create, draw, write_png, destroy};
    return replay_main(argc, argv, "bench_blend2d", &backend);
}
