#!/usr/bin/env python3
"""Writes a MapLibre glyph set (SDF glyph PBFs) from Pinmint's own fonts.

MapLibre GL fetches text glyphs from the style's `glyphs` URL,
`.../{fontstack}/{range}.pbf`, one file per block of 256 code points. Each file
is the Mapbox glyphs protobuf:

    glyphs { repeated fontstack stacks = 1; }
    fontstack { string name = 1; string range = 2; repeated glyph glyphs = 3; }
    glyph { uint32 id = 1; bytes bitmap = 2; uint32 width = 3; uint32 height = 4;
            sint32 left = 5; sint32 top = 6; uint32 advance = 7; }

A glyph's bitmap is a signed distance field of (width + 6) x (height + 6)
bytes: the glyph drawn at 24 px (MapLibre's ONE_EM) with a 3 px border, 192 on
the outline, 8 px of distance across 0...255 (cutoff 0.25, radius 8). The
distance transform is Felzenszwalb and Huttenlocher's "Distance Transforms of
Sampled Functions" over TinySDF's grids (coverage a gives (0.5 - a)^2 inside
and outside), as Mapbox's tiny-sdf computes it; written here with numpy.
`top` is the bitmap's top above the baseline less 27, as MapLibre's own
local-glyph path (TinySDF) places glyphs.

Usage: glyphs.py --font A.ttf [--font B.otf ...] --name STACK --text TEXT... --out DIR
Each code point comes from the first font that has it. Writes
DIR/STACK/START-END.pbf for every block that TEXT touches (block 0 always, with
all of printable ASCII), each holding every character of TEXT in that block.
"""
import argparse
import os
import sys

import freetype
import numpy

EM = 24          # MapLibre lays text out at 24 px per em
BORDER = 3       # MapLibre's GLYPH_PBF_BORDER
RADIUS = 8.0     # distance in pixels across the 0...255 range
CUTOFF = 0.25    # the outline's place in that range: 255 * (1 - 0.25) = 191.25
TOP_SHIFT = 27   # MapLibre's local glyphs: top = ascent above the baseline - 27.5 (at 24 px)


def distance_transform_1d(grid, offset, stride, length, f, v, z):
    """Felzenszwalb-Huttenlocher lower envelope of parabolas along one line, in place."""
    v[0] = 0
    z[0] = -numpy.inf
    z[1] = numpy.inf
    f[:length] = grid[offset:offset + stride * length:stride]
    k = 0
    for q in range(1, length):
        while True:
            r = v[k]
            s = (f[q] - f[r] + q * q - r * r) / (q - r) / 2
            if s <= z[k]:
                k -= 1
                if k > -1:
                    continue
            break
        k += 1
        v[k] = q
        z[k] = s
        z[k + 1] = numpy.inf
    k = 0
    for q in range(length):
        while z[k + 1] < q:
            k += 1
        r = v[k]
        grid[offset + q * stride] = f[r] + (q - r) * (q - r)


def distance_transform_2d(grid, width, height):
    size = max(width, height)
    f = numpy.zeros(size)
    v = numpy.zeros(size, dtype=numpy.int64)
    z = numpy.zeros(size + 1)
    for x in range(width):
        distance_transform_1d(grid, x, width, height, f, v, z)
    for y in range(height):
        distance_transform_1d(grid, y * width, 1, width, f, v, z)


def signed_distance_field(coverage):
    """coverage: height x width floats 0...1 -> (height + 6) x (width + 6) bytes."""
    height, width = coverage.shape
    padded_width, padded_height = width + 2 * BORDER, height + 2 * BORDER
    alpha = numpy.zeros((padded_height, padded_width))
    alpha[BORDER:BORDER + height, BORDER:BORDER + width] = coverage
    outer = numpy.where(alpha == 1, 0.0, numpy.where(alpha == 0, 1e20, numpy.maximum(0, 0.5 - alpha) ** 2)).ravel()
    inner = numpy.where(alpha == 1, 1e20, numpy.where(alpha == 0, 0.0, numpy.maximum(0, alpha - 0.5) ** 2)).ravel()
    distance_transform_2d(outer, padded_width, padded_height)
    distance_transform_2d(inner, padded_width, padded_height)
    distance = numpy.sqrt(outer) - numpy.sqrt(inner)
    values = numpy.clip(numpy.round(255 - 255 * (distance / RADIUS + CUTOFF)), 0, 255)
    return values.astype(numpy.uint8).tobytes()


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, wire_type, payload):
    return varint((number << 3) | wire_type) + payload


def uint_field(number, value):
    return field(number, 0, varint(value))


def sint_field(number, value):
    return field(number, 0, varint((value << 1) ^ (value >> 63)))


def bytes_field(number, data):
    return field(number, 2, varint(len(data)) + data)


def glyph_message(face, code_point):
    face.load_char(chr(code_point), freetype.FT_LOAD_RENDER | freetype.FT_LOAD_NO_HINTING)
    slot = face.glyph
    bitmap = slot.bitmap
    width, height = bitmap.width, bitmap.rows
    advance = int(round(slot.advance.x / 64))
    message = uint_field(1, code_point)
    if width > 0 and height > 0:
        rows = numpy.array(bitmap.buffer, dtype=numpy.uint8).reshape(height, bitmap.pitch)[:, :width]
        message += bytes_field(2, signed_distance_field(rows / 255.0))
    message += uint_field(3, width) + uint_field(4, height)
    message += sint_field(5, slot.bitmap_left) + sint_field(6, slot.bitmap_top - TOP_SHIFT) + uint_field(7, advance)
    return message


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--font", action="append", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--text", action="append", default=[])
    parser.add_argument("--out", required=True)
    options = parser.parse_args()

    faces = []
    for path in options.font:
        face = freetype.Face(path)
        face.set_pixel_sizes(0, EM)
        faces.append(face)
    code_points = {ord(c) for text in options.text for c in text} | set(range(32, 127))
    blocks = {}
    for code_point in sorted(code_points):
        blocks.setdefault(code_point // 256, []).append(code_point)
    folder = os.path.join(options.out, options.name)
    os.makedirs(folder, exist_ok=True)
    missing = []
    for block, members in sorted(blocks.items()):
        glyphs = b""
        for code_point in members:
            face = next((f for f in faces if f.get_char_index(code_point)), None)
            if face is None:
                missing.append(code_point)
                continue
            glyphs += bytes_field(3, glyph_message(face, code_point))
        start, end = block * 256, block * 256 + 255
        stack = bytes_field(1, options.name.encode()) + bytes_field(2, f"{start}-{end}".encode()) + glyphs
        with open(os.path.join(folder, f"{start}-{end}.pbf"), "wb") as out:
            out.write(bytes_field(1, stack))
    if missing:
        sys.exit("glyphs.py: no font has " + ", ".join(f"U+{c:04X}" for c in missing))


if __name__ == "__main__":
    main()
