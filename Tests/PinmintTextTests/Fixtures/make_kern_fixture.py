#!/usr/bin/env python3
"""Makes KernFixture.ttf: Noto Sans Regular (fonts-noto-core, OFL 1.1, see
Fonts/OFL-NotoSans.txt) cut down to "AVTo " and renamed "Pinmint Kern
Fixture", with a TrueType `kern` table holding two of Noto's GPOS pairs
(A V: -40, T o: -70 units of 1000). Noto itself has no `kern` table, so this
is the font the tests use to check FT_Get_Kerning. Development only (fonttools)."""
import os
import subprocess
import sys

from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
OUTPUT = os.path.join(HERE, "KernFixture.ttf")

subprocess.run([sys.executable, "-m", "fontTools.subset", SOURCE, "--text=AVTo ", "--layout-features=",
                "--no-hinting", "--notdef-outline", "--output-file=" + OUTPUT], check=True)
font = TTFont(OUTPUT)
for record in font["name"].names:
    if record.nameID in (1, 4, 16):
        record.string = "Pinmint Kern Fixture"
    elif record.nameID == 6:
        record.string = "PinmintKernFixture-Regular"
for table in ("GPOS", "GSUB", "GDEF"):
    if table in font:
        del font[table]
kern = newTable("kern")
kern.version = 0
subtable = KernTable_format_0()
subtable.version, subtable.coverage, subtable.format = 0, 1, 0
subtable.kernTable = {("A", "V"): -40, ("T", "o"): -70}
kern.kernTables = [subtable]
font["kern"] = kern
font.save(OUTPUT)
print(OUTPUT, os.path.getsize(OUTPUT), "bytes")
