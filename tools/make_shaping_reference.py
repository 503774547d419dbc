#!/usr/bin/env python3
"""Reference glyph positions and images for Golden/text/shaping/ (development time only).

For each case of Golden/text/shaping/cases.json this writes NAME.json: the
glyphs a label must have, in visual order, with their positions in pixels at
32 px; and NAME.png: those glyphs drawn by FreeType's own rasterizer at those
positions (unhinted outlines).

Independent of Pinmint's text code: the bidirectional levels come from
python-bidi's pure-Python UAX #9 (`bidi.algorithm`, not FriBidi), the
font of each character from the fonts' cmaps (first listed font that has
it; a grapheme's combining marks stay with their base), and the shaping
from HarfBuzz's command-line `hb-shape` on each run; the pixels from
freetype-py's own FreeType build.

Needs: hb-shape (Debian libharfbuzz-bin), pip python-bidi fonttools
freetype-py numpy pillow. (hb-view is no pixel reference: cairo puts each
glyph on a whole pixel.) `make test` never runs this; the Swift test
(Tests/PinmintTextTests/ShapingReferenceTests.swift) reads what it wrote.
"""

import json
import math
import os
import subprocess
import sys
import unicodedata

import freetype
import numpy
from bidi import algorithm as uax9
from PIL import Image
from fontTools.ttLib import TTFont

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "Golden", "text", "shaping")
SIZE = 32  # pixels per em

# Family → the shipped files that hold it, in the order Pinmint's chain takes
# them (the CJK family's Hangul is a file of its own, after the main one).
FILES = {
    "Noto Sans": ["NotoSans-Regular-Subset.ttf"],
    "Noto Sans Arabic": ["NotoSansArabic-Regular.ttf"],
    "Noto Sans Hebrew": ["NotoSansHebrew-Regular.ttf"],
    "Noto Sans Devanagari": ["NotoSansDevanagari-Regular.ttf"],
    "Noto Sans Thai": ["NotoSansThai-Regular.ttf"],
    "Noto Sans CJK SC": ["NotoSansCJKsc-Regular-Subset.otf", "NotoSansCJKsc-Regular-Hangul.otf"],
}


def levels(text, direction):
    """UAX #9 embedding levels of each character (rules P2–I2), from python-bidi's pure-Python algorithm."""
    storage = uax9.get_empty_storage()
    base = {"rtl": 1, "ltr": 0}.get(direction)
    if base is None:
        base = uax9.get_base_level(text, False)   # rules P2, P3
    storage["base_level"] = base
    storage["base_dir"] = "R" if base else "L"
    uax9.get_embedding_levels(text, storage, upper_is_rtl=False, debug=False)
    uax9.explicit_embed_and_overrides(storage)
    uax9.resolve_weak_types(storage)
    uax9.resolve_neutral_types(storage, False)
    uax9.resolve_implicit_levels(storage, False)
    # Rule L1: trailing whitespace takes the paragraph level.
    result = [char["level"] for char in storage["chars"]]
    index = len(text) - 1
    while index >= 0 and unicodedata.bidirectional(text[index]) in ("WS", "B", "S"):
        result[index] = storage["base_level"]
        index -= 1
    return result, storage["base_level"]


def fonts_of(text, families, cmaps):
    """The (family, file) of each character: the first file of the first family that has the grapheme's base;
    marks and joiners follow their base."""
    chosen = []
    for index, char in enumerate(text):
        if index > 0 and (unicodedata.category(char).startswith("M") or char in "\u200c\u200d"):
            chosen.append(chosen[-1])
            continue
        choices = [(name, file) for name in families for file in FILES[name]]
        chosen.append(next((choice for choice in choices if ord(char) in cmaps[choice[1]]), choices[0]))
    return chosen


def shape(run_text, file, rtl, case):
    arguments = ["hb-shape", "--output-format=json", "--no-glyph-names", "--direction=" + ("rtl" if rtl else "ltr")]
    if case.get("language"):
        arguments.append("--language=" + case["language"])
    if case.get("features"):
        arguments.append("--features=" + ",".join(case["features"]))
    arguments += [os.path.join(ROOT, "Fonts", file), run_text]
    return json.loads(subprocess.run(arguments, check=True, capture_output=True, text=True).stdout)


FACES = {}


def draw(glyphs, files, width, height, baseline):
    """Coverage of the placed glyphs (each from the file beside it) as a black image with alpha (straight)."""
    coverage = numpy.zeros((height, width), dtype=numpy.float64)
    for glyph, file in zip(glyphs, files):
        face = FACES.get(file)
        if face is None:
            face = FACES[file] = freetype.Face(os.path.join(ROOT, "Fonts", file))
            face.set_pixel_sizes(0, SIZE)
        # Whole pixels by placement, the fraction (in 1/64 px) by FreeType's transform.
        x, y = glyph["x"], baseline + glyph["y"]
        ix, iy = math.floor(x), math.floor(y)
        delta = freetype.Vector(round((x - ix) * 64), -round((y - iy) * 64))
        face.set_transform(freetype.Matrix(0x10000, 0, 0, 0x10000), delta)
        face.load_glyph(glyph["glyph"], freetype.FT_LOAD_NO_HINTING | freetype.FT_LOAD_NO_BITMAP | freetype.FT_LOAD_RENDER)
        slot = face.glyph
        bitmap = slot.bitmap
        if bitmap.width == 0 or bitmap.rows == 0:
            continue
        pixels = numpy.array(bitmap.buffer, dtype=numpy.float64).reshape(bitmap.rows, bitmap.pitch)[:, :bitmap.width] / 255
        left, top = ix + slot.bitmap_left, iy - slot.bitmap_top
        for row in range(bitmap.rows):
            y0 = top + row
            if not 0 <= y0 < height:
                continue
            for column in range(bitmap.width):
                x0 = left + column
                if 0 <= x0 < width:
                    a = pixels[row, column]
                    coverage[y0, x0] = coverage[y0, x0] + a * (1 - coverage[y0, x0])
    rgba = numpy.zeros((height, width, 4), dtype=numpy.uint8)
    rgba[:, :, 3] = numpy.round(coverage * 255).astype(numpy.uint8)
    return Image.fromarray(rgba, "RGBA")


def main():
    cases = json.load(open(os.path.join(FOLDER, "cases.json"), encoding="utf-8"))
    files = {file: TTFont(os.path.join(ROOT, "Fonts", file)) for names in FILES.values() for file in names}
    cmaps = {file: set(font.getBestCmap()) for file, font in files.items()}
    fonts = {name: files[names[0]] for name, names in FILES.items()}  # a family's metrics: its first file's
    for case in cases:
        text, families = case["text"], case["fonts"]
        level_of, base = levels(text, case.get("direction"))
        family_of = fonts_of(text, families, cmaps)
        # Logical runs of one level and one family, then their visual order (rule L2).
        runs = []
        for index in range(len(text)):
            key = (level_of[index], family_of[index])
            if runs and runs[-1][0] == key:
                runs[-1][2] = index + 1
            else:
                runs.append([key, index, index + 1])
        order = list(range(len(runs)))
        highest = max(level_of)
        lowest_odd = min(level for level in level_of if level % 2) if any(level % 2 for level in level_of) else highest + 1
        for level in range(highest, lowest_odd - 1, -1):
            position = 0
            while position < len(order):
                if runs[order[position]][0][0] >= level:
                    end = position
                    while end < len(order) and runs[order[end]][0][0] >= level:
                        end += 1
                    order[position:end] = reversed(order[position:end])
                    position = end
                else:
                    position += 1
        glyphs, glyph_files, pen = [], [], 0.0
        for run_index in order:
            (level, (family, file)), start, end = runs[run_index]
            scale = SIZE / files[file]["head"].unitsPerEm
            for glyph in shape(text[start:end], file, level % 2 == 1, case):
                glyphs.append({"font": family, "glyph": glyph["g"], "cluster": start + glyph["cl"],
                               "x": round(pen + glyph["dx"] * scale, 4), "y": round(-glyph["dy"] * scale, 4)})
                glyph_files.append(file)
                pen += glyph["ax"] * scale
        reference = {"text": text, "fonts": families, "size": SIZE, "advance": round(pen, 4),
                     "rightToLeft": base == 1, "glyphs": glyphs}
        for key in ("language", "features", "direction"):
            if key in case:
                reference[key] = case[key]
        # The image: every glyph drawn by FreeType's own rasterizer (freetype-py's
        # bundled FreeType, unhinted) at the reference's position, composited
        # source-over; the baseline on a whole pixel, as Pinmint's layouts put it.
        ascent = max(fonts[name]["hhea"].ascent * SIZE / fonts[name]["head"].unitsPerEm for name in families)
        descent = max(-fonts[name]["hhea"].descent * SIZE / fonts[name]["head"].unitsPerEm for name in families)
        baseline = math.ceil(ascent)
        width, height = math.ceil(pen), baseline + math.ceil(descent)
        reference["image"] = {"file": case["name"] + ".png", "baseline": baseline}
        draw(glyphs, glyph_files, width, height, baseline).save(os.path.join(FOLDER, case["name"] + ".png"))
        with open(os.path.join(FOLDER, case["name"] + ".json"), "w", encoding="utf-8") as out:
            json.dump(reference, out, ensure_ascii=False, indent=1)
            out.write("\n")
        print(case["name"], len(glyphs), "glyphs", "%.2f px" % pen, "image" if "image" in reference else "")


if __name__ == "__main__":
    sys.exit(main())
