#!/usr/bin/env python3
"""Makes ColrFixture.ttf, "Pinmint COLR Fixture": a COLRv0 colour font drawn
here (no outside glyphs), 1000 units per em. "A" (U+0041) is a plain
outline, a square from 100 to 600 units; "star" (U+2B50, ⭐) is two colour
layers: a red square (0 to 700 units) under a green one (200 to 500).
The tests use it to check FreeType's COLR painting (FT_LOAD_COLOR +
FT_Render_Glyph). Development only: /usr/bin/python3 with Debian's
python3-fonttools (4.38)."""
import os

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.colorLib.builder import buildCOLR, buildCPAL

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, "ColrFixture.ttf")


def square(low, high):
    pen = TTGlyphPen(None)
    pen.moveTo((low, low))
    pen.lineTo((low, high))
    pen.lineTo((high, high))
    pen.lineTo((high, low))
    pen.closePath()
    return pen.glyph()


order = [".notdef", "A", "star", "redLayer", "greenLayer"]
builder = FontBuilder(1000, isTTF=True)
builder.setupGlyphOrder(order)
builder.setupCharacterMap({0x41: "A", 0x2B50: "star"})
builder.setupGlyf({".notdef": square(50, 650), "A": square(100, 600), "star": square(0, 700),
                   "redLayer": square(0, 700), "greenLayer": square(200, 500)})
# Left side bearings equal to each glyph's xMin, as TrueType requires (FreeType shifts outlines by the difference).
builder.setupHorizontalMetrics({".notdef": (800, 50), "A": (800, 100), "star": (800, 0), "redLayer": (800, 0),
                                "greenLayer": (800, 200)})
builder.setupHorizontalHeader(ascent=900, descent=-200)
builder.setupNameTable({"familyName": "Pinmint COLR Fixture", "styleName": "Regular"})
builder.setupOS2(sTypoAscender=900, sTypoDescender=-200, usWinAscent=900, usWinDescent=200)
builder.setupPost()
builder.font["CPAL"] = buildCPAL([[(1.0, 0.0, 0.0, 1.0), (0.0, 0.8, 0.0, 1.0)]])
builder.font["COLR"] = buildCOLR({"star": [("redLayer", 0), ("greenLayer", 1)]})
builder.save(OUTPUT)
print(OUTPUT, os.path.getsize(OUTPUT), "bytes")
