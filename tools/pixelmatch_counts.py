#!/usr/bin/env python3
"""Expected pixelmatch counts for PinmintDiff's tests (development time only).

`make test` never runs this: it reads the table this script writes,
Tests/PinmintDiffTests/Resources/pixelmatch-counts.tsv.

What it does:

1. Writes the image pairs under Tests/PinmintDiffTests/Resources/pairs/
   (NAME.expected.png, NAME.actual.png, all 8-bit RGBA):
   - the same scene drawn by two rasterizers: Golden/reference (skia, 16x16
     supersampled) as expected, Pinmint's own rendering (`pinmint render`,
     taken from --renders, default out/) as actual; transparent backgrounds,
     so their anti-aliased edges are semi-transparent; and the same pairs
     composited over an opaque colour (`-opaque`);
   - synthetic pairs from a fixed seed: noise with small and large changes,
     semi-transparent noise, a shape moved by a fraction of a pixel, edge
     cases (1x1, one row, one column, transparent pixels of different
     colour, identical images).
   Pairs already present are kept (delete one to regenerate it).
2. Runs both reference implementations on every pair for every option set
   and writes one line per (pair, semantics, options):
       pair  semantics  options  diffPixels  diffImageFNV1a64
   - semantics 5: `pixelmatch` 0.4.0 from PyPI (a port of mapbox/pixelmatch 5);
   - semantics 7: `pixelmatch-fast` 1.3.4 from PyPI (a numba port of
     mapbox/pixelmatch 7.1), which also has diffColorAlt.
   The diff image hash is FNV-1a 64 over its RGBA bytes (row-major).
   For opaque pairs the script checks that both give the same count.

Both packages install a module named `pixelmatch`, so each is installed
with `pip install --no-deps --target` into its own folder under
Benchmarks/.work/python/ (numpy, numba and Pillow from the normal
environment: `pip install numpy numba pillow`).

    python3 tools/pixelmatch_counts.py [--renders out]
"""
import argparse
import importlib
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESOURCES = os.path.join(REPOSITORY, "Tests", "PinmintDiffTests", "Resources")
PAIRS = os.path.join(RESOURCES, "pairs")
TABLE = os.path.join(RESOURCES, "pixelmatch-counts.tsv")
PYTHON_WORK = os.path.join(REPOSITORY, "Benchmarks", ".work", "python")
PACKAGES = {"5": ("pixelmatch5", "pixelmatch==0.4.0"), "7": ("pixelmatch7", "pixelmatch-fast==1.3.4")}

RASTERIZER_SCENES = ["pin@1x", "ring@1x", "star-evenodd@1x", "caps@1x", "thin-lines@1x", "opacity@1x",
                     "callout-shadow@1x", "gradient-radial@1x", "subpixel@2x", "price-tag@2x",
                     "caps@2x", "thin-lines@3x", "dashes@2x"]
OPAQUE_SCENES = {"pin@1x": (255, 255, 255), "star-evenodd@1x": (255, 255, 255), "thin-lines@1x": (240, 236, 228),
                 "caps@1x": (30, 40, 60), "ring@1x": (255, 255, 255)}

# Option sets: (name written in the table, keyword arguments). Names are what
# the Swift test parses: key=value separated by spaces, "default" for none.
OPTION_SETS = [
    ("default", {}),
    ("threshold=0", {"threshold": 0.0}),
    ("threshold=0.05", {"threshold": 0.05}),
    ("threshold=0 includeAA=1", {"threshold": 0.0, "includeAA": True}),
    ("threshold=0.3", {"threshold": 0.3}),
    ("threshold=1", {"threshold": 1.0}),
    ("includeAA=1", {"includeAA": True}),
    ("threshold=0.05 includeAA=1", {"threshold": 0.05, "includeAA": True}),
    ("alpha=0.5", {"alpha": 0.5}),
    ("alpha=0", {"alpha": 0.0}),
    ("alpha=1", {"alpha": 1.0}),
    ("aaColor=0,128,255 diffColor=255,0,255", {"aa_color": (0, 128, 255), "diff_color": (255, 0, 255)}),
    ("diffMask=1", {"diff_mask": True}),
    ("diffMask=1 includeAA=1", {"diff_mask": True, "includeAA": True}),
    ("diffColorAlt=0,160,0", {"diff_color_alt": (0, 160, 0)}),
]


def ensure_package(semantics):
    folder, requirement = PACKAGES[semantics]
    target = os.path.join(PYTHON_WORK, folder)
    if not os.path.isdir(os.path.join(target, "pixelmatch")):
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target, requirement])
    return target


def load_pixelmatch(semantics):
    """Imports one of the two `pixelmatch` modules from its own folder."""
    for name in [name for name in sys.modules if name == "pixelmatch" or name.startswith("pixelmatch.")]:
        del sys.modules[name]
    target = ensure_package(semantics)
    sys.path.insert(0, target)
    try:
        module = importlib.import_module("pixelmatch")
        if semantics == "5":
            core = importlib.import_module("pixelmatch.core")
            return core.pixelmatch
        return module.pixelmatch
    finally:
        sys.path.remove(target)


def save(array, path):
    Image.fromarray(np.ascontiguousarray(array, dtype=np.uint8), "RGBA").save(path, optimize=True)


def over(rgba, background):
    """Straight RGBA8 composited over an opaque colour, rounded: an opaque image."""
    colour = rgba[..., :3].astype(np.float64)
    alpha = rgba[..., 3:4].astype(np.float64) / 255
    result = np.empty_like(rgba)
    result[..., :3] = np.rint(colour * alpha + np.array(background, dtype=np.float64) * (1 - alpha))
    result[..., 3] = 255
    return result


def supersampled_disc(size, center, radius, colour, background, factor=8):
    """A disc anti-aliased by 8x8 supersampling (PIL's own drawing is not anti-aliased)."""
    large = Image.new("RGBA", (size[0] * factor, size[1] * factor), background)
    draw = ImageDraw.Draw(large)
    cx, cy = center[0] * factor, center[1] * factor
    draw.ellipse([cx - radius * factor, cy - radius * factor, cx + radius * factor, cy + radius * factor], fill=colour)
    return np.array(large.resize(size, Image.BOX))


def write_pairs(renders):
    os.makedirs(PAIRS, exist_ok=True)
    pairs = {}
    for scene in RASTERIZER_SCENES:
        expected = np.array(Image.open(os.path.join(REPOSITORY, "Golden", "reference", scene + ".png")).convert("RGBA"))
        actual = np.array(Image.open(os.path.join(renders, scene + ".png")).convert("RGBA"))
        pairs["rasterizers-" + scene.replace("@", "-")] = (expected, actual)
        if scene in OPAQUE_SCENES:
            background = OPAQUE_SCENES[scene]
            pairs["rasterizers-" + scene.replace("@", "-") + "-opaque"] = (over(expected, background), over(actual, background))

    random = np.random.default_rng(20261129)
    noise = random.integers(0, 256, (48, 64, 4), dtype=np.uint8)
    noise[..., 3] = 255
    changed = noise.copy()
    where = random.random((48, 64)) < 0.08
    changed[where, :3] = np.clip(changed[where, :3].astype(int) + random.integers(-40, 41, (where.sum(), 3)), 0, 255)
    pairs["noise-opaque"] = (noise, changed)

    translucent = random.integers(0, 256, (40, 40, 4), dtype=np.uint8)
    translucent_changed = translucent.copy()
    where = random.random((40, 40)) < 0.15
    translucent_changed[where] = np.clip(translucent_changed[where].astype(int) + random.integers(-60, 61, (where.sum(), 4)), 0, 255)
    pairs["noise-semi-transparent"] = (translucent, translucent_changed)

    # A smooth image (many equal neighbours, like a marker) with local edits.
    flat = np.zeros((50, 70, 4), dtype=np.uint8)
    flat[...] = (232, 228, 220, 255)
    flat[10:40, 10:60] = (66, 133, 244, 255)
    flat[20:30, 20:50] = (255, 255, 255, 255)
    edited = flat.copy()
    edited[25:28, 30:33] = (250, 250, 250, 255)     # below the default threshold
    edited[12:15, 12:40] = (40, 100, 220, 255)      # a darker strip
    edited[41:44, 60:66] = (20, 20, 20, 255)        # a new dark mark
    edited[10, 10:60] = (140, 170, 230, 255)        # a softened edge
    pairs["flat-edits"] = (flat, edited)

    background = (250, 248, 240, 255)
    pairs["disc-moved-subpixel"] = (supersampled_disc((40, 40), (20.0, 20.0), 12.3, (200, 40, 40, 255), background),
                                    supersampled_disc((40, 40), (20.4, 19.7), 12.3, (200, 40, 40, 255), background))
    pairs["disc-translucent-moved"] = (supersampled_disc((32, 32), (16.0, 16.0), 9.5, (0, 90, 200, 160), (0, 0, 0, 0)),
                                       supersampled_disc((32, 32), (16.6, 16.2), 9.5, (0, 90, 200, 160), (0, 0, 0, 0)))

    # One star, two rasterizers: Pillow's aliased polygon fill (pixel centres
    # sampled) against 4x4 box-filtered supersampling of the same polygon.
    import math
    star = [(30 + 24 * math.cos(math.pi / 2 + k * 4 * math.pi / 5), 30 - 24 * math.sin(math.pi / 2 + k * 4 * math.pi / 5))
            for k in range(5)]
    def star_image(factor):
        image = Image.new("RGBA", (60 * factor, 60 * factor), (255, 255, 255, 255))
        ImageDraw.Draw(image).polygon([(x * factor - 0.5, y * factor - 0.5) for x, y in star], fill=(20, 60, 160, 255))
        return np.array(image.resize((60, 60), Image.BOX) if factor > 1 else image)
    pairs["star-aliased-vs-supersampled"] = (star_image(4), star_image(1))

    pairs["single-pixel"] = (np.array([[[10, 20, 30, 255]]], dtype=np.uint8), np.array([[[200, 20, 30, 255]]], dtype=np.uint8))
    row = np.tile(np.array([0, 0, 0, 255], dtype=np.uint8), (1, 17, 1))
    row_changed = row.copy()
    row_changed[0, 3] = (255, 255, 255, 255)
    row_changed[0, 9:11] = (128, 128, 128, 255)
    row_changed[0, 16] = (255, 0, 0, 255)
    pairs["single-row"] = (row, row_changed)
    column = np.tile(np.array([255, 255, 255, 255], dtype=np.uint8), (9, 1, 1))
    column_changed = column.copy()
    column_changed[0, 0] = (0, 0, 0, 255)
    column_changed[4, 0] = (128, 128, 128, 128)
    pairs["single-column"] = (column, column_changed)
    clear = np.zeros((8, 8, 4), dtype=np.uint8)
    clear_changed = clear.copy()
    clear_changed[:4, :, :3] = 255                  # transparent pixels of another colour
    clear_changed[6, 2:6] = (0, 0, 0, 255)          # opaque black over transparent
    clear_changed[7, 2:6] = (255, 255, 255, 1)      # nearly transparent white
    pairs["transparent-pixels"] = (clear, clear_changed)
    ramp = np.zeros((16, 16, 4), dtype=np.uint8)
    ramp[..., 0] = np.arange(16)[None, :] * 16
    ramp[..., 1] = np.arange(16)[:, None] * 16
    ramp[..., 2] = 128
    ramp[..., 3] = 255
    brighter_darker = ramp.copy()
    brighter_darker[2:6, 2:6, :3] = np.clip(brighter_darker[2:6, 2:6, :3].astype(int) + 90, 0, 255)
    brighter_darker[9:13, 9:13, :3] = np.clip(brighter_darker[9:13, 9:13, :3].astype(int) - 90, 0, 255)
    pairs["brighter-and-darker"] = (ramp, brighter_darker)
    pairs["identical"] = (ramp, ramp.copy())

    for name, (expected, actual) in pairs.items():
        for role, array in (("expected", expected), ("actual", actual)):
            path = os.path.join(PAIRS, "%s.%s.png" % (name, role))
            if not os.path.exists(path):
                save(array, path)
    return sorted(pairs)


def fnv1a64(data):
    value = 0xcbf29ce484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


def run(semantics, function, expected, actual, options):
    height, width = expected.shape[:2]
    if semantics == "5":
        if "diff_color_alt" in options:
            return None
        output = bytearray(width * height * 4)
        count = function(expected.tobytes(), actual.tobytes(), width, height, output, **options)
        return count, fnv1a64(bytes(output))
    output = Image.new("RGBA", (width, height))
    count = function(Image.fromarray(expected, "RGBA"), Image.fromarray(actual, "RGBA"), output, **options)
    return count, fnv1a64(np.array(output).tobytes())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--renders", default=os.path.join(REPOSITORY, "out"),
                        help="folder with Pinmint's renders NAME@Sx.png (make demo)")
    arguments = parser.parse_args()
    names = write_pairs(arguments.renders)
    lines = ["# pair\tsemantics\toptions\tdiffPixels\tdiffImageFNV1a64",
             "# written by tools/pixelmatch_counts.py: semantics 5 = PyPI pixelmatch 0.4.0, 7 = PyPI pixelmatch-fast 1.3.4"]
    counts = {}
    for semantics in ("5", "7"):
        function = load_pixelmatch(semantics)
        for name in names:
            # The committed PNGs, as both libraries' users would read them.
            expected = np.array(Image.open(os.path.join(PAIRS, name + ".expected.png")).convert("RGBA"))
            actual = np.array(Image.open(os.path.join(PAIRS, name + ".actual.png")).convert("RGBA"))
            for option_name, options in OPTION_SETS:
                result = run(semantics, function, np.ascontiguousarray(expected), np.ascontiguousarray(actual), options)
                if result is None:
                    continue
                counts[(name, semantics, option_name)] = result[0]
                lines.append("%s\t%s\t%s\t%d\t%s" % (name, semantics, option_name, result[0], result[1]))
            print("semantics %s: %s" % (semantics, name), file=sys.stderr)
    disagreements = []
    for (name, semantics, option_name), count in counts.items():
        opaque = name.endswith("-opaque") or name in ("noise-opaque", "flat-edits", "disc-moved-subpixel", "single-pixel",
                                                      "star-aliased-vs-supersampled", "single-row", "brighter-and-darker", "identical")
        if semantics == "5" and opaque and counts.get((name, "7", option_name)) not in (None, count):
            disagreements.append((name, option_name, count, counts[(name, "7", option_name)]))
    if disagreements:
        raise SystemExit("pixelmatch 5 and 7 disagree on opaque pairs: %r" % disagreements)
    with open(TABLE, "w") as table:
        table.write("\n".join(lines) + "\n")
    print("wrote %d rows to %s" % (len(lines) - 2, os.path.relpath(TABLE, REPOSITORY)), file=sys.stderr)


if __name__ == "__main__":
    main()
