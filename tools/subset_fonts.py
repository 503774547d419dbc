#!/usr/bin/env python3
"""Makes the fonts shipped in Fonts/ (development only; needs fonttools).

    apt-get install fonts-noto-core fonts-noto-cjk
    pip install fonttools
    python3 tools/subset_fonts.py [--seeds DIR]

Latin: Noto Sans Regular and Bold (fonts-noto-core), subset to ASCII,
Latin-1, Latin Extended-A, general punctuation, currency and a few symbols.

CJK: Noto Sans CJK SC Regular and Bold (face 2 of the fonts-noto-cjk TTCs),
subset to the character sets marker labels need:
  - GB2312 level 1 (rows 16-55: 3755 hanzi),
  - the Big5 common set (0xA440-0xC67E: 5401 hanzi),
  - Japanese kana, and all kanji of JIS X 0208 (levels 1 and 2), which
    contain every Jōyō kanji except the four 2010 additions that JIS X 0208
    lacks (𠮟 塡 剝 頰); those four are added by name below,
  - the Hangul syllables of KS X 1001 (EUC-KR 0xB0A1-0xC8FE: 2350),
  - every character of the seed documents (--seeds, default
    /work/shared/seeds), ASCII, Latin-1 and CJK/fullwidth punctuation.
The script prints how many requested characters the source font lacks.

Hinting: the CJK subsets keep their CFF hints, because FreeType's light
hinting of CFF fonts uses those hints (without them a 12 px hanzi is as
blurry as unhinted); the Latin subsets drop their TrueType instructions,
which light hinting never runs (it uses FreeType's auto-hinter).
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
LATIN = BASIC | ranges((0x100, 0x17F), (0x2000, 0x206F), (0x20A0, 0x20BF), (0x2190, 0x2193),
                       (0x2122, 0x2122), (0x2026, 0x2026), (0x25A0, 0x25CF))
KANA = ranges((0x3040, 0x309F), (0x30A0, 0x30FF), (0x31F0, 0x31FF))
CJK_PUNCTUATION = ranges((0x3000, 0x303F), (0xFF00, 0xFFEF), (0x2010, 0x2027), (0x2030, 0x203B))


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


def subset(source, index, characters, output, keep_hints):
    unicodes = ",".join("U+%04X" % ord(c) for c in sorted(characters))
    listing = output + ".unicodes"
    with open(listing, "w") as handle:
        handle.write(unicodes)
    command = [sys.executable, "-m", "fontTools.subset", source, "--font-number=%d" % index,
               "--unicodes-file=" + listing, "--output-file=" + output,
               "--layout-features=kern,locl,vert,vrt2", "--name-IDs=*", "--name-languages=*",
               "--notdef-outline"] + ([] if keep_hints else ["--no-hinting"])
    subprocess.run(command, check=True)
    os.remove(listing)
    print("%s: %d characters, %.2f MB" % (os.path.basename(output), len(characters),
                                         os.path.getsize(output) / 1e6))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="/work/shared/seeds")
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
    cjk = set().union(*cjk_sets.values())
    for weight in ("Regular", "Bold"):
        source = os.path.join(NOTO_CJK, "NotoSansCJK-%s.ttc" % weight)
        available = cmap_of(source, CJK_FACE_INDEX)
        missing = sorted(c for c in cjk if c not in available and ord(c) > 0x7F)
        print("CJK %s lacks %d requested characters: %s" % (weight, len(missing), "".join(missing[:40])))
        subset(source, CJK_FACE_INDEX, cjk & available,
               os.path.join(FONTS, "NotoSansCJKsc-%s-Subset.otf" % weight), keep_hints=True)
        latin_source = os.path.join(NOTO_CORE, "NotoSans-%s.ttf" % weight)
        subset(latin_source, 0, LATIN & cmap_of(latin_source),
               os.path.join(FONTS, "NotoSans-%s-Subset.ttf" % weight), keep_hints=False)


if __name__ == "__main__":
    main()
