/*
 * bench_cairo: the cairo baseline for Pinmint's benchmarks.
 *
 * Reads a replay file (scenes as fill and stroke operations on paths, already
 * in device pixels; format and usage in ../common/replay.h) and times cairo's
 * C API drawing each scene onto an ARGB32 image surface with cairo's default
 * tolerance (0.1 px) and antialiasing.
 *
 * Build:  cc -O2 bench_cairo.c $(pkg-config --cflags --libs cairo) -o bench_cairo
 * Usage:  bench_cairo REPLAY [ITERATIONS=200] [PNG_DIRECTORY]
 *
 * One iteration = clear the surface (operator CLEAR + paint, then OVER), then
 * for each op: build the path, set the source, fill rule or stroke
 * parameters, and cairo_fill / cairo_stroke; cairo_surface_flush ends it.
 */
#include "../common/replay.h"
#include <cairo.h>

typedef struct {
    cairo_surface_t *surface;
    cairo_t *cr;
} cairo_target;

static void check(cairo_t *cr) {
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) fail(4, cairo_status_to_string(cairo_status(cr)), 0);
}

static void *create(int width, int height) {
    cairo_target *target = malloc(sizeof *target);
    if (!target) fail(4, "out of memory", 0);
    target->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    target->cr = cairo_create(target->surface);
    check(target->cr);
    return target;
}

static void draw(void *opaque, const scene *sc) {
    cairo_target *target = opaque;
    cairo_t *cr = target->cr;
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    for (size_t i = 0; i < sc->operation_count; i++) {
        const operation *op = &sc->operations[i];
        cairo_new_path(cr);
        for (size_t j = 0; j < op->segment_count; j++) {
            const double *p = op->segments[j].points;
            switch (op->segments[j].kind) {
            case SEGMENT_MOVE: cairo_move_to(cr, p[0], p[1]); break;
            case SEGMENT_LINE: cairo_line_to(cr, p[0], p[1]); break;
            case SEGMENT_CUBIC: cairo_curve_to(cr, p[0], p[1], p[2], p[3], p[4], p[5]); break;
            case SEGMENT_CLOSE: cairo_close_path(cr); break;
            }
        }
        cairo_set_source_rgba(cr, op->red, op->green, op->blue, op->alpha);
        if (op->is_stroke) {
            static const cairo_line_cap_t caps[] = {
                [REPLAY_CAP_BUTT] = CAIRO_LINE_CAP_BUTT, [REPLAY_CAP_ROUND] = CAIRO_LINE_CAP_ROUND,
                [REPLAY_CAP_SQUARE] = CAIRO_LINE_CAP_SQUARE};
            static const cairo_line_join_t joins[] = {
                [REPLAY_JOIN_MITER] = CAIRO_LINE_JOIN_MITER, [REPLAY_JOIN_ROUND] = CAIRO_LINE_JOIN_ROUND,
                [REPLAY_JOIN_BEVEL] = CAIRO_LINE_JOIN_BEVEL};
            cairo_set_line_width(cr, op->line_width);
            cairo_set_line_cap(cr, caps[op->cap]);
            cairo_set_line_join(cr, joins[op->join]);
            cairo_set_miter_limit(cr, op->miter_limit);
            cairo_set_dash(cr, op->dashes, op->dash_count, op->dash_offset);
            cairo_stroke(cr);
        } else {
            cairo_set_fill_rule(cr, op->fill_rule == REPLAY_EVEN_ODD ? CAIRO_FILL_RULE_EVEN_ODD
                                                                     : CAIRO_FILL_RULE_WINDING);
            cairo_fill(cr);
        }
    }
    cairo_surface_flush(target->surface);
}

static int write_png(void *opaque, const char *path) {
    cairo_target *target = opaque;
    return cairo_surface_write_to_png(target->surface, path) == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

static void destroy(void *opaque) {
    cairo_target *target = opaque;
    check(target->cr);
    cairo_destroy(target->cr);
    cairo_surface_destroy(target->surface);
    free(target);
}

int main(int argc, char **argv) {
    static const replay_backend backend = {create, draw, write_png, destroy};
    return replay_main(argc, argv, "bench_cairo", &backend);
}
