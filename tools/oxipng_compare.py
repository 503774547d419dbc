#!/usr/bin/env python3
"""Development only: oxipng next to Pinmint's `small` PNG mode.

Reads the files `PinmintBench png --write DIR` saved (NAME.libpng.png with
libpng's defaults, NAME.small.png from `--png small`), runs oxipng (through
pyoxipng: pip install pyoxipng) on each libpng file at preset 2 (oxipng's
default) and preset 6 (its slowest without zopfli), checks that oxipng kept
the pixels, and prints bytes and time.  Run by `make bench-png`.
Usage: python3 tools/oxipng_compare.py DIR
"""
import math
import os
import sys
import time

import oxipng


def main(folder):
    names = sorted(n[: -len(".libpng.png")] for n in os.listdir(folder) if n.endswith(".libpng.png"))
    if not names:
        print(f"no *.libpng.png files in {folder}")
        return 1
    print(f"oxipng {getattr(oxipng, '__version__', '')} on libpng-default PNGs vs Pinmint --png small (bytes; ms)")
    print(f"{'image':22}{'libpng':>10}{'small':>10}{'oxipng-o2':>11}{'ms':>8}{'oxipng-o6':>11}{'ms':>8}{'small/o2':>10}{'small/o6':>10}")
    logs = {2: 0.0, 6: 0.0}
    for name in names:
        libpng = open(os.path.join(folder, f"{name}.libpng.png"), "rb").read()
        small = open(os.path.join(folder, f"{name}.small.png"), "rb").read()
        row = [f"{name:22}", f"{len(libpng):>10}", f"{len(small):>10}"]
        ratios = []
        for level in (2, 6):
            start = time.perf_counter()
            optimized = oxipng.optimize_from_memory(libpng, level=level)
            elapsed = (time.perf_counter() - start) * 1000
            row += [f"{len(optimized):>11}", f"{elapsed:>8.1f}"]
            ratio = len(small) / len(optimized)
            logs[level] += math.log(ratio)
            ratios.append(f"{ratio:>10.3f}")
        print("".join(row + ratios))
    for level in (2, 6):
        print(f"geometric mean of small/oxipng-o{level} over {len(names)} images: {math.exp(logs[level] / len(names)):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "Benchmarks/.work/png"))
