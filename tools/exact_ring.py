#!/usr/bin/env python3
"""Exact coverage of the left ring of Golden/scenes/ring.svg, to measure flattening.

Development-time only. The ring (centre (40, 40), radii 30 and 18, even-odd)
is integrated per output pixel: exactly in x (the overlap of each row's
circle span with the pixel) and numerically in y (2048 samples per pixel
row), so the result is the true area coverage to far below 1/255. It checks
Pinmint's renderings (or the Skia references) against that truth; the Skia
references themselves are biased inward by their own flattening.

Usage: python3 tools/exact_ring.py DIR...   (DIR holds ring@1x.png, ring@2x.png, ring@3x.png)
e.g.   for s in 1 2 3; do .build/release/pinmint render Golden/scenes/ring.svg --scale $s -o /tmp/r/ring@${s}x.png; done
       python3 tools/exact_ring.py /tmp/r Golden/reference
Needs numpy and Pillow.
"""
import sys

import numpy as np
from PIL import Image


def exact_alpha(scale, samples=2048):
    """255 x the exact coverage of the ring's 80 x 80 (x scale) square."""
    side = 80 * scale
    centre, outer, inner = 40 * scale, 30 * scale, 18 * scale
    columns = np.arange(side)
    image = np.zeros((side, side))
    for row in range(side):
        dy = row + (np.arange(samples) + 0.5) / samples - centre

        def span_overlap(radius):
            half = np.sqrt(np.maximum(radius * radius - dy * dy, 0))
            low, high = centre - half, centre + half
            return np.clip(np.minimum(high[:, None], columns[None, :] + 1) - np.maximum(low[:, None], columns[None, :]), 0, 1)

        image[row] = (span_overlap(outer) - span_overlap(inner)).mean(axis=0)
    return image * 255


def main(folders):
    for scale in (1, 2, 3):
        truth = exact_alpha(scale)
        for folder in folders:
            rendered = np.asarray(Image.open(f"{folder}/ring@{scale}x.png").convert("RGBA"), dtype=float)
            alpha = rendered[:, :80 * scale, 3]
            difference = alpha - truth
            print(f"{folder} @{scale}x: max {np.abs(difference).max():.2f}  mean {np.abs(difference).mean():.4f}"
                  f"  bias {difference.mean():+.4f}  (8-bit alpha)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
