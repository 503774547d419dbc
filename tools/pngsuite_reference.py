#!/usr/bin/env python3
"""Development only: writes Tests/PinmintPNGTests/Resources/pngsuite-expected.tsv.

For every PngSuite file the table holds the size and the SHA-256 of the
straight-alpha RGBA8 pixels Pinmint's decoder must produce, computed with
decoders independent of libpng:

* sources of up to 8 bits: Pillow (`Image.convert("RGBA")`);
* 16-bit sources: pypng (pure Python; Pillow cannot give 16-bit RGB),
  cross-checked against Pillow's 8-bit result (the high byte);
* then Pinmint's documented policy, in plain Python:
  - gAMA without sRGB or iCCP: sample' = round(max * (sample/max)^(1/(gamma*2.2)))
    at the source precision (8 or 16 bits), colour channels only,
    skipped when that exponent is within 0.001 of 1;
  - 16-bit samples to 8: (v * 255 + 32767) // 65535 (round to nearest).

Corrupt files (x*.png) must be refused: their line says `refused`.
Usage: python3 tools/pngsuite_reference.py   (pip install pillow pypng)
"""
import hashlib
import math
import os
import struct
import sys

import png  # pypng
from PIL import Image

ROOT = os.path.join(os.path.dirname(__file__), "..", "Tests", "PinmintPNGTests", "Resources")
SUITE = os.path.join(ROOT, "pngsuite")


def chunks(path):
    data = open(path, "rb").read()
    offset, found = 8, {}
    while offset + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        found.setdefault(kind.decode("latin-1"), data[offset + 8:offset + 8 + length])
        offset += 12 + length
    return data, found


def gamma_exponent(found):
    if "gAMA" not in found or "sRGB" in found or "iCCP" in found:
        return None
    gamma = struct.unpack(">I", found["gAMA"])[0]
    if gamma == 0:
        return None
    exponent = 100000.0 / (gamma * 2.2)
    return exponent if abs(exponent - 1.0) > 0.001 else None


def correct(samples, maximum, exponent):
    table = [math.floor(maximum * math.pow(v / maximum, exponent) + 0.5) for v in range(maximum + 1)]
    out = list(samples)
    for i in range(0, len(out), 4):
        out[i], out[i + 1], out[i + 2] = table[out[i]], table[out[i + 1]], table[out[i + 2]]
    return out


def expected(path):
    data, found = chunks(path)
    bit_depth = data[24]
    exponent = gamma_exponent(found)
    low_bit_grey_with_trns = data[25] == 0 and bit_depth < 8 and "tRNS" in found
    if bit_depth == 16 or low_bit_grey_with_trns:
        # pypng here: Pillow compares a low-bit grey tRNS value with the
        # already-scaled 8-bit samples, so it never matches (tbbn0g04).
        # read(), not asDirect(): asDirect rescales to the sBIT depth, which libpng
        # and browsers do not do. tRNS is applied here by hand.
        width, height, rows, info = png.Reader(filename=path).read()
        planes, top = info["planes"], (1 << bit_depth) - 1
        transparent = list(info.get("transparent") or []) if isinstance(info.get("transparent"), tuple) \
            else ([info["transparent"]] if info.get("transparent") is not None else None)
        samples = []
        for row in rows:
            row = list(row)
            for x in range(width):
                pixel = row[x * planes:(x + 1) * planes]
                grey = planes <= 2
                colour = pixel[:1] * 3 if grey else pixel[:3]
                alpha = pixel[-1] if planes in (2, 4) else top
                if transparent is not None and planes in (1, 3) and pixel == transparent:
                    alpha = 0
                samples += colour + [alpha]
        if bit_depth < 8:
            scale = 255 // top  # 1, 2 and 4 bits: exact integer scaling to 8 bits
            samples = [v * scale if i % 4 != 3 else (255 if v == top else 0) for i, v in enumerate(samples)]
            pixels = bytes(correct(samples, 255, exponent) if exponent else samples)
            return width, height, hashlib.sha256(pixels).hexdigest()
        pillow = Image.open(path).convert("RGBA")
        if pillow.mode == "RGBA" and data[25] not in (0, 4):  # Pillow clips 16-bit grey instead of scaling
            assert list(pillow.tobytes()) == [v >> 8 for v in samples], path
        if exponent:
            samples = correct(samples, 65535, exponent)
        pixels = bytes((v * 255 + 32767) // 65535 for v in samples)
    else:
        image = Image.open(path)
        image.load()
        width, height = image.size
        samples = list(image.convert("RGBA").tobytes())
        if exponent:
            samples = correct(samples, 255, exponent)
        pixels = bytes(samples)
    assert len(pixels) == width * height * 4
    return width, height, hashlib.sha256(pixels).hexdigest()


def main():
    lines = ["# file\twidth\theight\tsha256 of straight RGBA8 (see tools/pngsuite_reference.py)"]
    for name in sorted(os.listdir(SUITE)):
        if not name.endswith(".png"):
            continue
        if name.startswith("x"):
            lines.append(f"{name}\trefused")
            continue
        width, height, digest = expected(os.path.join(SUITE, name))
        lines.append(f"{name}\t{width}\t{height}\t{digest}")
    with open(os.path.join(ROOT, "pngsuite-expected.tsv"), "w") as table:
        table.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 1} entries", file=sys.stderr)


if __name__ == "__main__":
    main()
