/*
 * replay.h: the replay reader and timing loop shared by the C baselines of
 * Pinmint's benchmarks (bench_cairo, bench_blend2d). Each baseline includes
 * this file once and supplies a backend: create a surface, draw a scene on it
 * (clear, then every operation), write it as PNG, destroy it.
 *
 * Usage of a baseline:  PROGRAM REPLAY [ITERATIONS=200] [PNG_DIRECTORY]
 *   Prints one line per scene: "<scene-name> <median us per iteration> <min us>".
 *   With PNG_DIRECTORY, also writes each scene's image as <scene-name>.png.
 * Exit status: 0 success, 1 usage, 2 cannot read the replay, 3 malformed
 * replay (line number in the message), 4 library error.
 *
 * Replay format, one command per line, numbers as decimal text:
 *   scene NAME WIDTH HEIGHT
 *   fill nonzero|evenodd R G B A          straight-alpha colour, each 0...1
 *   stroke WIDTH butt|round|square miter|round|bevel MITERLIMIT R G B A [DASHOFFSET D1 D2 ...]
 *   M x y | L x y | Q x1 y1 x y | C x1 y1 x2 y2 x y | Z
 *   draw                                   fill or stroke the op's path now
 *   end                                    ends the scene
 * Blank lines and lines starting with '#' are ignored. Quadratics are raised
 * to cubics as they are read. The scene is parsed once, outside the timed loop.
 */
#ifndef PINMINT_REPLAY_H
#define PINMINT_REPLAY_H
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { WARM_UP_ITERATIONS = 5, MAX_DASHES = 32, MAX_TOKENS = 64, MAX_SIDE = 16384 };
/* Timed iterations per scene at most (their timings are kept to take the median). */
#define MAX_ITERATIONS 10000000L

typedef enum { REPLAY_NON_ZERO, REPLAY_EVEN_ODD } replay_fill_rule;
typedef enum { REPLAY_CAP_BUTT, REPLAY_CAP_ROUND, REPLAY_CAP_SQUARE } replay_cap;
typedef enum { REPLAY_JOIN_MITER, REPLAY_JOIN_ROUND, REPLAY_JOIN_BEVEL } replay_join;

typedef enum { SEGMENT_MOVE, SEGMENT_LINE, SEGMENT_CUBIC, SEGMENT_CLOSE } segment_kind;

typedef struct {
    segment_kind kind;
    double points[6];
} segment;

typedef struct {
    int is_stroke;
    replay_fill_rule fill_rule;
    double red, green, blue, alpha;
    double line_width, miter_limit, dash_offset;
    replay_cap cap;
    replay_join join;
    int dash_count;
    double dashes[MAX_DASHES];
    segment *segments;
    size_t segment_count, segment_capacity;
} operation;

typedef struct {
    char name[128];
    int width, height;
    operation *operations;
    size_t operation_count, operation_capacity;
} scene;

/* The program name in error messages, set by replay_main. */
static const char *replay_program = "bench";

static void fail(int status, const char *message, long line) {
    if (line > 0) fprintf(stderr, "%s: line %ld: %s\n", replay_program, line, message);
    else fprintf(stderr, "%s: %s\n", replay_program, message);
    exit(status);
}

static void *grow(void *buffer, size_t *capacity, size_t element_size) {
    *capacity = *capacity ? *capacity * 2 : 16;
    void *result = realloc(buffer, *capacity * element_size);
    if (!result) fail(4, "out of memory", 0);
    return result;
}

static double number(const char *text, long line) {
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || end == text || *end) fail(3, "expected a number", line);
    return value;
}

static void add_segment(operation *op, segment_kind kind, const double *points, int count) {
    if (op->segment_count == op->segment_capacity)
        op->segments = grow(op->segments, &op->segment_capacity, sizeof(segment));
    segment *s = &op->segments[op->segment_count++];
    s->kind = kind;
    memset(s->points, 0, sizeof s->points);
    memcpy(s->points, points, (size_t)count * sizeof(double));
}

static void free_scene(scene *sc) {
    for (size_t i = 0; i < sc->operation_count; i++) free(sc->operations[i].segments);
    free(sc->operations);
    memset(sc, 0, sizeof *sc);
}

/* Reads the next scene; returns 0 at end of file. */
static int read_scene(FILE *file, scene *sc, long *line_number) {
    char line[4096];
    char *tokens[MAX_TOKENS];
    operation *current = NULL;
    int in_scene = 0;
    double current_x = 0, current_y = 0, start_x = 0, start_y = 0;
    memset(sc, 0, sizeof *sc);
    while (fgets(line, sizeof line, file)) {
        (*line_number)++;
        if (!strchr(line, '\n') && !feof(file)) fail(3, "line longer than 4095 characters", *line_number);
        int count = 0;
        for (char *token = strtok(line, " \t\r\n"); token && count < MAX_TOKENS; token = strtok(NULL, " \t\r\n"))
            tokens[count++] = token;
        if (count == 0 || tokens[0][0] == '#') continue;
        const char *command = tokens[0];
        long n = *line_number;
        if (!strcmp(command, "scene")) {
            if (in_scene || count != 4) fail(3, "scene NAME WIDTH HEIGHT (inside no other scene)", n);
            snprintf(sc->name, sizeof sc->name, "%s", tokens[1]);
            double width = number(tokens[2], n), height = number(tokens[3], n);
            if (!(width >= 1 && width <= MAX_SIDE && height >= 1 && height <= MAX_SIDE))
                fail(3, "scene sides must be 1 to 16384 pixels", n);
            sc->width = (int)width;
            sc->height = (int)height;
            in_scene = 1;
            continue;
        }
        if (!in_scene) fail(3, "command outside a scene", n);
        if (!strcmp(command, "end")) {
            if (current) fail(3, "op without draw before end", n);
            return 1;
        }
        if (!strcmp(command, "fill") || !strcmp(command, "stroke")) {
            if (current) fail(3, "previous op has no draw", n);
            if (sc->operation_count == sc->operation_capacity)
                sc->operations = grow(sc->operations, &sc->operation_capacity, sizeof(operation));
            current = &sc->operations[sc->operation_count++];
            memset(current, 0, sizeof *current);
            int colour_at;
            if (!strcmp(command, "fill")) {
                if (count != 6) fail(3, "fill nonzero|evenodd R G B A", n);
                if (!strcmp(tokens[1], "nonzero")) current->fill_rule = REPLAY_NON_ZERO;
                else if (!strcmp(tokens[1], "evenodd")) current->fill_rule = REPLAY_EVEN_ODD;
                else fail(3, "fill rule must be nonzero or evenodd", n);
                colour_at = 2;
            } else {
                if (count < 9 || count == 10) fail(3, "stroke WIDTH CAP JOIN MITERLIMIT R G B A [OFFSET D1 D2 ...]", n);
                current->is_stroke = 1;
                current->line_width = number(tokens[1], n);
                if (!strcmp(tokens[2], "butt")) current->cap = REPLAY_CAP_BUTT;
                else if (!strcmp(tokens[2], "round")) current->cap = REPLAY_CAP_ROUND;
                else if (!strcmp(tokens[2], "square")) current->cap = REPLAY_CAP_SQUARE;
                else fail(3, "cap must be butt, round or square", n);
                if (!strcmp(tokens[3], "miter")) current->join = REPLAY_JOIN_MITER;
                else if (!strcmp(tokens[3], "round")) current->join = REPLAY_JOIN_ROUND;
                else if (!strcmp(tokens[3], "bevel")) current->join = REPLAY_JOIN_BEVEL;
                else fail(3, "join must be miter, round or bevel", n);
                current->miter_limit = number(tokens[4], n);
                colour_at = 5;
                if (count > 10) {
                    current->dash_offset = number(tokens[9], n);
                    current->dash_count = count - 10;
                    if (current->dash_count > MAX_DASHES) fail(3, "too many dash lengths", n);
                    for (int i = 0; i < current->dash_count; i++) current->dashes[i] = number(tokens[10 + i], n);
                }
            }
            current->red = number(tokens[colour_at], n);
            current->green = number(tokens[colour_at + 1], n);
            current->blue = number(tokens[colour_at + 2], n);
            current->alpha = number(tokens[colour_at + 3], n);
            continue;
        }
        if (!current) fail(3, "path command outside an op", n);
        double p[6];
        if (!strcmp(command, "M") || !strcmp(command, "L")) {
            if (count != 3) fail(3, "M/L take x y", n);
            p[0] = number(tokens[1], n); p[1] = number(tokens[2], n);
            add_segment(current, command[0] == 'M' ? SEGMENT_MOVE : SEGMENT_LINE, p, 2);
            current_x = p[0]; current_y = p[1];
            if (command[0] == 'M') { start_x = p[0]; start_y = p[1]; }
        } else if (!strcmp(command, "Q")) {
            if (count != 5) fail(3, "Q takes x1 y1 x y", n);
            double qx = number(tokens[1], n), qy = number(tokens[2], n);
            double x = number(tokens[3], n), y = number(tokens[4], n);
            /* Degree elevation: control points at 2/3 of the way to the quadratic's control. */
            p[0] = current_x + 2.0 / 3.0 * (qx - current_x); p[1] = current_y + 2.0 / 3.0 * (qy - current_y);
            p[2] = x + 2.0 / 3.0 * (qx - x);                 p[3] = y + 2.0 / 3.0 * (qy - y);
            p[4] = x; p[5] = y;
            add_segment(current, SEGMENT_CUBIC, p, 6);
            current_x = x; current_y = y;
        } else if (!strcmp(command, "C")) {
            if (count != 7) fail(3, "C takes x1 y1 x2 y2 x y", n);
            for (int i = 0; i < 6; i++) p[i] = number(tokens[1 + i], n);
            add_segment(current, SEGMENT_CUBIC, p, 6);
            current_x = p[4]; current_y = p[5];
        } else if (!strcmp(command, "Z")) {
            add_segment(current, SEGMENT_CLOSE, p, 0);
            current_x = start_x; current_y = start_y;
        } else if (!strcmp(command, "draw")) {
            current = NULL;
        } else {
            fail(3, "unknown command", n);
        }
    }
    if (in_scene) fail(3, "missing end at end of file", *line_number);
    return 0;
}

static double now_microseconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What a baseline supplies; `target` is its surface and context. */
typedef struct {
    void *(*create)(int width, int height);
    /* One iteration: clear the surface, then draw every operation, and
       finish (flush) so that the pixels are written when it returns. */
    void (*draw)(void *target, const scene *sc);
    /* Returns 0 on success. */
    int (*write_png)(void *target, const char *path);
    void (*destroy)(void *target);
} replay_backend;

/* The whole program: reads the replay, times each scene, prints the lines. */
static int replay_main(int argc, char **argv, const char *program, const replay_backend *backend) {
    replay_program = program;
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s REPLAY [ITERATIONS=200] [PNG_DIRECTORY]\n", argv[0]);
        return 1;
    }
    long iterations = 200;
    if (argc > 2) {
        char *end;
        errno = 0;
        iterations = strtol(argv[2], &end, 10);
        if (errno || end == argv[2] || *end || iterations < 1 || iterations > MAX_ITERATIONS)
            fail(1, "ITERATIONS must be an integer from 1 to 10000000", 0);
    }
    const char *png_directory = argc > 3 ? argv[3] : NULL;
    FILE *file = fopen(argv[1], "r");
    if (!file) { perror(argv[1]); return 2; }

    double *timings = malloc((size_t)iterations * sizeof(double));
    if (!timings) fail(4, "out of memory", 0);
    long line_number = 0;
    scene sc;
    while (read_scene(file, &sc, &line_number)) {
        void *target = backend->create(sc.width, sc.height);
        for (int i = 0; i < WARM_UP_ITERATIONS; i++) backend->draw(target, &sc);
        for (long i = 0; i < iterations; i++) {
            double start = now_microseconds();
            backend->draw(target, &sc);
            timings[i] = now_microseconds() - start;
        }
        qsort(timings, (size_t)iterations, sizeof(double), compare_doubles);
        double median = iterations % 2 ? timings[iterations / 2]
                                       : 0.5 * (timings[iterations / 2 - 1] + timings[iterations / 2]);
        printf("%s %.2f %.2f\n", sc.name, median, timings[0]);
        fflush(stdout);
        if (png_directory) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.png", png_directory, sc.name);
            if (backend->write_png(target, path) != 0) fail(4, "cannot write the PNG", 0);
        }
        backend->destroy(target);
        free_scene(&sc);
    }
    free(timings);
    fclose(file);
    return 0;
}

#endif
