#!/usr/bin/env python3
"""Makes the fonts shipped in Fonts/ (development only; needs fonttools).

    apt-get install fonts-noto-core fonts-noto-cjk
    pip install fonttools
    python3 tools/subset_fonts.py [--seeds DIR] [--noto-core DIR] [--noto-cjk DIR]

(--noto-core and --noto-cjk name the folders of the packages' fonts when
they are unpacked elsewhere, e.g. `apt-get download` then `dpkg -x`.)

Every face keeps all of its OpenType layout features for horizontal text
(`--layout-features=*`, or for CJK every feature but the vertical ones:
HarfBuzz shapes with them: kerning, ligatures, marks, Arabic forms, Indic
conjuncts, `locl` forms) and the .notdef box (`--notdef-outline`).

Latin, Greek, Cyrillic: Noto Sans Regular and Bold (fonts-noto-core),
subset to Latin (Basic, Latin-1, Extended-A, -B and Additional, which holds
Vietnamese; IPA and spacing modifiers), combining diacritical marks, Greek
and Greek Extended, Cyrillic with its supplement and extensions, general
punctuation, super- and subscripts, currency, letterlike symbols, number
forms, arrows, the basic mathematical operators and geometric shapes.

Arabic, Hebrew, Devanagari, Thai: Noto Sans Arabic, Hebrew, Devanagari and
Thai, Regular and Bold, whole (each well under 300 KB).

CJK: Noto Sans CJK SC (face 2 of the fonts-noto-cjk TTCs).
  - Regular, in two files of the one family and style, because one file
    with everything (13.3 MB) is over the repository's 12 MiB per-file
    limit:
    - NotoSansCJKsc-Regular-Subset.otf: the whole unified ideographs block
      (U+4E00-9FFF: 20,992 Han, name characters such as 喆 堃 燊 among
      them) and the compatibility ideographs, kana, bopomofo, CJK symbols
      and punctuation, enclosed and squared forms (㈱ ㎡), halfwidth and
      fullwidth forms, ASCII and Latin-1;
    - NotoSansCJKsc-Regular-Hangul.otf: every Hangul syllable (11,172, 똠
      among them) with the jamo (conjoining, compatibility, extended A
      and B). FontLibrary puts a face's companions (same family and style,
      same source, other scripts) right after it in every chain.
  - Bold: the common sets marker labels need (GB2312 level 1, the Big5
    common set, kana, JIS X 0208 kanji and the Jōyō additions, KS X 1001
    Hangul, the seed documents, punctuation); a bold label with a rarer
    character takes it from the Regular files, emboldened (the family's
    other faces fill the gaps of the one asked for; see FontLibrary).
  Both weights drop what only vertical text uses: the vhea, vmtx and VORG
  tables and the vert, vrt2, vhal, vkrn, vpal, valt, vkna and vrtr
  features with the glyphs only they reach. Pinmint lays text out
  horizontally only (HarfBuzz buffers are LTR or RTL, glyphs load without
  FT_LOAD_VERTICAL_LAYOUT).

Measured for the Regular face (fonttools 4.68, sizes in bytes; the limit
is 12,582,912, the target at most 11.5 MiB = 12,058,624):
  everything in one file, as before                    13,326,748
  without the vertical tables and features             13,047,712  (-279,036)
  then also without F900-FAFF, 3200-33FF, bopomofo     12,981,508  (-66,204;
      dlig and locl still reach most of their glyphs, e.g. the squared
      katakana words; still over 12 MiB, so these blocks stay: ㈱ ㎡ ㎞
      are on real labels)
  vertical text dropped and Hangul in its own file     11,242,452 + Hangul
      (chosen)                                          1,816,496 (11,623 characters)
  with `--desubroutinize` (vertical text dropped)      14,608,300  (+1,560,588:
      every glyph inlines its subroutines), not used.
  Glyph names: a CID-keyed CFF has none (post format 3), nothing to drop.
  Not chosen: dropping the Traditional Chinese, Hong Kong and Korean
      `locl` lookups (8,943 glyphs: 10,482,200 with vertical text dropped)
      would also fit in one file, but `"language": "zh-Hant"` and `"ko"`
      would lose their regional glyph forms.
The script prints how many requested characters each source font lacks.

Hinting: the CJK subsets keep their CFF hints, because FreeType's light
hinting of CFF fonts uses those hints (without them a 12 px hanzi is as
blurry as unhinted); the TrueType faces drop their instructions, which
light hinting never runs (it uses FreeType's auto-hinter).
"""
import argparse
import codecs
import glob
import os
import subprocess
import sys

from fontTools.ttLib import TTCollection, TTFont

HERE = os.path.dirname(os.path.abspath(__file__))
FONTS = os.path.join(HERE, "..", "Fonts")
NOTO_CORE = "/usr/share/fonts/truetype/noto"
NOTO_CJK = "/usr/share/fonts/opentype/noto"
CJK_FACE_INDEX = 2  # NotoSansCJK-*.ttc: 0 JP, 1 KR, 2 SC, 3 TC, 4 HK


def decode_range(encoding, lead_bytes, trail_bytes):
    """Every character a two-byte encoding maps in the given byte ranges."""
    characters = set()
    for lead in lead_bytes:
        for trail in trail_bytes:
            try:
                text = bytes([lead, trail]).decode(encoding)
            except UnicodeDecodeError:
                continue
            characters.update(text)
    return characters


def gb2312_level1():
    # Rows 16-55 are EUC-CN lead bytes 0xB0-0xD7; row 55 ends at 0xD7F9.
    return decode_range("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))


def big5_common():
    characters = set()
    for code in range(0xA440, 0xC67F):
        lead, trail = code >> 8, code & 0xFF
        if not (0x40 <= trail <= 0x7E or 0xA1 <= trail <= 0xFE):
            continue
        try:
            characters.update(bytes([lead, trail]).decode("big5"))
        except UnicodeDecodeError:
            pass
    return characters


def jis_x0208_kanji():
    # Rows 16-84 (EUC-JP lead bytes 0xB0-0xF4): levels 1 and 2.
    return decode_range("euc_jp", range(0xB0, 0xF5), range(0xA1, 0xFF))


JOYO_OUTSIDE_JIS_X0208 = set("\U00020B9F\u5861\u525D\u9830")  # 𠮟 塡 剝 頰


def ks_x1001_hangul():
    return decode_range("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))


def ranges(*pairs):
    return {chr(c) for low, high in pairs for c in range(low, high + 1)}


BASIC = ranges((0x20, 0x7E), (0xA0, 0xFF))
LATIN = BASIC | ranges(
    (0x100, 0x24F), (0x250, 0x2FF), (0x300, 0x36F), (0x370, 0x3FF), (0x400, 0x52F), (0x1C80, 0x1C8F),
    (0x1D00, 0x1DBF), (0x1DC0, 0x1DFF), (0x1E00, 0x1EFF), (0x1F00, 0x1FFF), (0x2000, 0x206F), (0x2070, 0x209F),
    (0x20A0, 0x20CF), (0x20D0, 0x20FF), (0x2100, 0x214F), (0x2150, 0x218F), (0x2190, 0x21FF), (0x2200, 0x22FF),
    (0x25A0, 0x25FF), (0x2C60, 0x2C7F), (0x2DE0, 0x2DFF), (0xA640, 0xA69F), (0xA720, 0xA7FF), (0xFB00, 0xFB06),
    (0xFE20, 0xFE2F), (0xFFFD, 0xFFFD))
KANA = ranges((0x3040, 0x309F), (0x30A0, 0x30FF), (0x31F0, 0x31FF))
CJK_PUNCTUATION = ranges((0x3000, 0x303F), (0xFF00, 0xFFEF), (0x2010, 0x2027), (0x2030, 0x203B))
HANGUL = ranges((0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xD7B0, 0xD7FF))
CJK_FULL = BASIC | CJK_PUNCTUATION | KANA | HANGUL | ranges(
    (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x3100, 0x312F), (0x31A0, 0x31BF), (0x3200, 0x32FF), (0x3300, 0x33FF),
    (0x2E80, 0x2FDF), (0x31C0, 0x31EF), (0xFE30, 0xFE4F))
# OpenType features only vertical text applies, and the tables only it reads.
VERTICAL_FEATURES = {"vert", "vrt2", "vhal", "vkrn", "vpal", "valt", "vkna", "vrtr"}
VERTICAL_TABLES = ["vhea", "vmtx", "VORG"]
WHOLE = ("Arabic", "Hebrew", "Devanagari", "Thai")


def seed_characters(folder):
    characters = set()
    for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
        with open(path, encoding="utf-8") as handle:
            characters.update(handle.read())
    return {c for c in characters if ord(c) >= 0x20}


def cmap_of(path, index=0):
    if path.endswith(".ttc"):
        font = TTCollection(path).fonts[index]
    else:
        font = TTFont(path)
    return {chr(c) for c in font.getBestCmap()}


def feature_tags(path, index):
    """Every GSUB and GPOS feature tag of the face."""
    font = TTCollection(path).fonts[index] if path.endswith(".ttc") else TTFont(path)
    return {record.FeatureTag for tag in ("GSUB", "GPOS") if tag in font
            for record in font[tag].table.FeatureList.FeatureRecord}


def subset(source, index, characters, output, keep_hints, horizontal_only=False):
    unicodes = ",".join("U+%04X" % ord(c) for c in sorted(characters))
    listing = output + ".unicodes"
    with open(listing, "w") as handle:
        handle.write(unicodes)
    if horizontal_only:
        # Every feature but the vertical ones ("*" cannot exclude any).
        features = ["--layout-features=" + ",".join(sorted(feature_tags(source, index) - VERTICAL_FEATURES)),
                    "--drop-tables+=" + ",".join(VERTICAL_TABLES)]
    else:
        features = ["--layout-features=*"]
    command = [sys.executable, "-m", "fontTools.subset", source, "--font-number=%d" % index,
               "--unicodes-file=" + listing, "--output-file=" + output] + features + [
               "--name-IDs=*", "--name-languages=*", "--notdef-outline"] + ([] if keep_hints else ["--no-hinting"])
    subprocess.run(command, check=True)
    os.remove(listing)
    print("%s: %d characters, %d bytes (%.2f MiB)" % (os.path.basename(output), len(characters),
                                                    os.path.getsize(output), os.path.getsize(output) / 2**20))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="/work/shared/seeds")
    parser.add_argument("--noto-core", default=NOTO_CORE,
                        help="folder of fonts-noto-core's TTFs (default %(default)s)")
    parser.add_argument("--noto-cjk", default=NOTO_CJK,
                        help="folder of fonts-noto-cjk's TTCs (default %(default)s)")
    arguments = parser.parse_args()
    seeds = seed_characters(arguments.seeds)
    cjk_sets = {
        "GB2312 level 1": gb2312_level1(),
        "Big5 common": big5_common(),
        "kana": KANA,
        "JIS X 0208 kanji + Jōyō additions": jis_x0208_kanji() | JOYO_OUTSIDE_JIS_X0208,
        "KS X 1001 Hangul": ks_x1001_hangul(),
        "seed documents": seeds,
        "ASCII, Latin-1, punctuation": BASIC | CJK_PUNCTUATION,
    }
    for name, characters in cjk_sets.items():
        print("%-36s %5d characters" % (name, len(characters)))
    common = set().union(*cjk_sets.values())
    for weight in ("Regular", "Bold"):
        source = os.path.join(arguments.noto_cjk, "NotoSansCJK-%s.ttc" % weight)
        available = cmap_of(source, CJK_FACE_INDEX)
        wanted = CJK_FULL | common if weight == "Regular" else common
        missing = sorted(c for c in wanted if c not in available and ord(c) > 0x7F)
        print("CJK %s lacks %d requested characters: %s" % (weight, len(missing), "".join(missing[:40])))
        if weight == "Regular":
            # Hangul in a file of its own: one file would be over 12 MiB (see above).
            files = {"Subset": (wanted - HANGUL) & available, "Hangul": wanted & HANGUL & available}
        else:
            files = {"Subset": wanted & available}
        for part, characters in files.items():
            subset(source, CJK_FACE_INDEX, characters,
                   os.path.join(FONTS, "NotoSansCJKsc-%s-%s.otf" % (weight, part)), keep_hints=True,
                   horizontal_only=True)
        latin_source = os.path.join(arguments.noto_core, "NotoSans-%s.ttf" % weight)
        subset(latin_source, 0, LATIN & cmap_of(latin_source),
               os.path.join(FONTS, "NotoSans-%s-Subset.ttf" % weight), keep_hints=False)
        for script in WHOLE:
            script_source = os.path.join(arguments.noto_core, "NotoSans%s-%s.ttf" % (script, weight))
            subset(script_source, 0, cmap_of(script_source),
                   os.path.join(FONTS, "NotoSans%s-%s.ttf" % (script, weight)), keep_hints=False)


if __name__ == "__main__":
    main()
