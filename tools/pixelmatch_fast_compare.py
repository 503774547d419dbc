#!/usr/bin/env python3
"""pixelmatch-fast (PyPI, a numba port of mapbox/pixelmatch 7.1) on the pairs
`PinmintBench diff --write DIR` saved, next to Pinmint's times from
DIR/pinmint.txt: checks that both count the same pixels and prints the
ratios (target: Pinmint at least 2x faster). Run by `make bench-diff`.

pixelmatch-fast is installed with `pip install --no-deps --target` into
Benchmarks/.work/python/pixelmatch7 (its module is named `pixelmatch`, like
PyPI's other `pixelmatch`); numpy, numba and Pillow come from the normal
environment. numba's JIT compilation is excluded: every function is
compiled and run once on a small pair before timing.

    python3 tools/pixelmatch_fast_compare.py Benchmarks/.work/diff [--iterations N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.path.join(REPOSITORY, "Benchmarks", ".work", "python", "pixelmatch7")


def load():
    if not os.path.isdir(os.path.join(TARGET, "pixelmatch")):
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", TARGET,
                               "pixelmatch-fast==1.3.4"])
    sys.path.insert(0, TARGET)
    from pixelmatch import pixelmatch  # noqa: E402  (pixelmatch-fast)
    return pixelmatch


def median_ms(iterations, function):
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder")
    parser.add_argument("--iterations", type=int, default=7)
    arguments = parser.parse_args()
    from PIL import Image
    import numpy as np
    pixelmatch = load()

    # JIT warm-up on a small pair with differences (every code path compiled).
    small_a = np.zeros((32, 32, 4), dtype=np.uint8)
    small_a[..., 3] = 255
    small_b = small_a.copy()
    small_b[10:20, 10:20] = (255, 255, 255, 255)
    small_b[5, 5] = (128, 128, 128, 200)
    for _ in range(2):
        pixelmatch(Image.fromarray(small_a, "RGBA"), Image.fromarray(small_b, "RGBA"), None)

    ours = {}
    with open(os.path.join(arguments.folder, "pinmint.txt")) as table:
        for line in table:
            name, count, excluded, included = line.split()
            ours[name] = (int(count), float(excluded), float(included))

    print("pixelmatch-fast %s (numba %s), median of %d runs after JIT warm-up" %
          (getattr(sys.modules.get("pixelmatch"), "__version__", "?"), __import__("numba").__version__, arguments.iterations))
    print("pair              count  pixelmatch-fast ms  pinmint ms  speed-up   (decoding excluded | included)")
    worst = None
    failed = False
    for name in sorted(ours):
        count, our_excluded, our_included = ours[name]
        expected_path = os.path.join(arguments.folder, name + ".expected.png")
        actual_path = os.path.join(arguments.folder, name + ".actual.png")
        expected = Image.open(expected_path).convert("RGBA")
        actual = Image.open(actual_path).convert("RGBA")
        theirs = pixelmatch(expected, actual, None)
        if theirs != count:
            print("%s: COUNTS DIFFER: pixelmatch-fast %d, pinmint %d" % (name, theirs, count))
            failed = True
        excluded = median_ms(arguments.iterations, lambda: pixelmatch(expected, actual, None))
        included = median_ms(arguments.iterations, lambda: pixelmatch(expected_path, actual_path, None))
        for label, their_ms, our_ms in (("excluded", excluded, our_excluded), ("included", included, our_included)):
            ratio = their_ms / our_ms
            worst = ratio if worst is None else min(worst, ratio)
            print("%-16s %7d %18.2f %11.2f %8.2fx   decoding %s" % (name, count, their_ms, our_ms, ratio, label))
    print("counts: %s" % ("identical on every pair" if not failed else "DIFFER"))
    print("slowest speed-up over pixelmatch-fast: %.2fx (target >= 2x): %s" % (worst, "met" if worst >= 2 else "NOT met"))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
