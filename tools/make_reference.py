#!/usr/bin/env python3
"""Render Pinmint's reference PNGs for the SVG scenes in Golden/scenes/.

Development-time only: `make test` compares against the committed PNGs and
never runs this script. It needs skia-python, numpy, scipy and Pillow.

How a reference is made (per scene, per scale s in 1, 2, 3):

1. Skia's SVG module (skia.SVGDOM, an implementation independent of Pinmint)
   draws the scene onto a premultiplied RGBA float32 raster surface of
   (W*s*16) x (H*s*16) pixels with canvas.scale(16*s): 16 x 16 samples per
   output pixel, each anti-aliased by Skia itself, no colour management, no
   dithering, no 8-bit rounding anywhere in between.
2. Each block of 16*s x 16*s high-resolution pixels (one output pixel) is
   averaged (box filter, float64 sums of premultiplied floats): the exact-area
   coverage of the output pixel up to Skia's own error on the fine grid.
3. The average is un-premultiplied, scaled by 255, rounded to nearest and
   written as a straight-alpha RGBA8 PNG: Golden/reference/<scene>@<s>x.png.
   A pixel fully covered by rgba(77,77,77,0.8) comes out exactly
   (77,77,77,204); the script checks this on start-up.

Drop shadows. Skia's SVG module does not render <feDropShadow>, so this
script draws it. A scene may put filter="url(#id)" on exactly ONE element,
where #id is a <filter> holding exactly one <feDropShadow>. That element and
its ancestors must carry no opacity, clip-path, mask or transform (only
translation-free user space, so stdDeviation is in canvas units), and the
root viewBox must be "0 0 W H". Then, at the high resolution of step 1:
  below  = the scene up to (not including) the filtered element,
  above  = the filtered element (filter removed) and everything after it,
  source = the filtered element alone (filter removed),
  shadow = Gaussian blur of source's alpha with standard deviation
           stdDeviation*s*16 high-resolution pixels (zero outside the canvas,
           kernel truncated at 4 sigma; computed by FFT convolution with
           exactly the kernel scipy.ndimage.gaussian_filter(mode="constant",
           truncate=4) uses), shifted by (dx, dy)*s*16 pixels, times
           flood-color x flood-opacity (premultiplied);
  result = above OVER (shadow OVER below), premultiplied,
and the result goes through steps 2 and 3. The filter region is ignored
(scenes set one big enough that it never clips). This is the SVG definition
of feDropShadow with a true Gaussian; browsers may approximate the Gaussian
with three box blurs.

Skia SVG limitations found while building the scenes (the scenes avoid them):
  * stroke-dasharray is ignored on <line> (honoured on path, polyline,
    polygon, rect, circle, ellipse), so dashed scenes never use <line>.
  * objectBoundingBox paint on <ellipse> and <line> renders black (Skia
    gives them no bounding box), so such gradients go on a <path>.
  * <feDropShadow> is not rendered (handled above).
Accuracy: Skia flattens curves to about 1/4 high-resolution pixel, so curved
edges can be off by up to ~4 in 8-bit units at @1x (see Golden/README.md).
A long cubic it flattens into too few lines (up to 9 off on the bench
pin's at @3x): the scenes in CUBIC_PIECES reach it with their cubics split
into exact pieces (see split_cubics).
Behaviour worth knowing when matching these references:
  * gradients interpolate colours in straight (non-premultiplied) sRGB;
  * odd-count dash arrays are repeated to an even count (SVG rule);
  * a zero-length subpath ("M x y l 0 0" or "M x y z") with round caps is a
    dot; with square caps an axis-aligned square;
  * an unfilled dashed <circle> reaches Skia as a path of its dashes, exact
    arcs computed here (see exact_circle_dashes): Skia's own dash layout
    drifts along a circle by 1/10000 of its length.

Usage:
  python3 tools/make_reference.py                 # (re)write every reference
  python3 tools/make_reference.py callout pin     # only these scenes
  python3 tools/make_reference.py --check         # re-render to a temporary
      directory and report whether the committed PNGs are identical
      (exit status 0: identical, 1: some differ or are missing)
  --scales 1,2   limits the scales (default 1,2,3)
"""

import argparse
import copy
import math
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

import numpy as np
import skia
from PIL import Image, ImageColor
from scipy import signal

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENES = os.path.join(REPOSITORY, "Golden", "scenes")
REFERENCES = os.path.join(REPOSITORY, "Golden", "reference")
SCALES = (1, 2, 3)
SUPERSAMPLING = 16          # high-resolution pixels per output pixel, per axis
GAUSSIAN_TRUNCATE = 4.0     # kernel radius in standard deviations
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
NOT_RENDERED = {"defs", "clipPath", "filter", "linearGradient", "radialGradient",
                "mask", "pattern", "symbol", "marker", "style", "title", "desc"}

ET.register_namespace("", SVG_NAMESPACE)


def local_name(element):
    return element.tag.rsplit("}", 1)[-1]


# ----------------------------------------------------------------- rendering

def render_high_resolution(svg_bytes, width, height, samples_per_unit):
    """Draws SVG text with Skia; returns (surface, H*k x W*k x 4 float32 premultiplied view)."""
    with tempfile.NamedTemporaryFile(suffix=".svg", delete=False) as handle:
        handle.write(svg_bytes)
        path = handle.name
    try:
        dom = skia.SVGDOM.MakeFromStream(skia.Stream.MakeFromFile(path))
    finally:
        os.unlink(path)
    if dom is None:
        raise SystemExit("skia could not parse the SVG")
    dom.setContainerSize(skia.Size(width, height))
    info = skia.ImageInfo.Make(width * samples_per_unit, height * samples_per_unit,
                               skia.kRGBA_F32_ColorType, skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRaster(info)
    canvas = surface.getCanvas()
    canvas.clear(skia.Color4f(0, 0, 0, 0))
    canvas.scale(samples_per_unit, samples_per_unit)
    dom.render(canvas)
    pixmap = skia.Pixmap()
    if not surface.peekPixels(pixmap):
        raise SystemExit("cannot read the skia surface")
    return surface, np.asarray(pixmap)


def box_downsample(premultiplied, factor):
    """Averages factor x factor blocks of premultiplied floats (float64 result)."""
    rows, columns, _ = premultiplied.shape
    blocks = premultiplied.reshape(rows // factor, factor, columns // factor, factor, 4)
    return blocks.mean(axis=(1, 3), dtype=np.float64)


def to_straight_rgba8(premultiplied):
    """Premultiplied floats 0...1 -> straight-alpha RGBA8, rounded to nearest."""
    alpha = np.clip(premultiplied[..., 3], 0.0, 1.0)
    straight = np.zeros_like(premultiplied)
    visible = alpha > 0
    straight[visible, :3] = premultiplied[visible, :3] / alpha[visible, None]
    straight[..., 3] = alpha
    result = np.floor(np.clip(straight, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)
    result[result[..., 3] == 0] = 0     # fully transparent pixels are (0, 0, 0, 0)
    return result


# ----------------------------------------------------------------- drop shadow

def parse_colour(text):
    """CSS colour (named, #rgb, #rrggbb, rgb(), rgba()) -> (r, g, b, a) in 0...1."""
    text = text.strip()
    match = re.fullmatch(r"rgba?\(([^)]*)\)", text)
    if match:
        parts = [part.strip() for part in match.group(1).split(",")]
        channels = [float(part[:-1]) * 2.55 if part.endswith("%") else float(part)
                    for part in parts[:3]]
        alpha = float(parts[3]) if len(parts) > 3 else 1.0
        return tuple(channel / 255.0 for channel in channels) + (alpha,)
    red, green, blue = ImageColor.getrgb(text)[:3]
    return (red / 255.0, green / 255.0, blue / 255.0, 1.0)


def style_properties(element):
    declarations = element.get("style", "")
    return {key.strip(): value.strip()
            for key, _, value in (part.partition(":") for part in declarations.split(";"))
            if key.strip()}


def find_drop_shadow(root):
    """Returns (filtered element, shadow parameters) or None; validates the restrictions."""
    filtered = [element for element in root.iter()
                if element.get("filter") or "filter" in style_properties(element)]
    if not filtered:
        return None
    if len(filtered) != 1:
        raise SystemExit("only one element may carry a filter, found %d" % len(filtered))
    element = filtered[0]
    reference = element.get("filter", "")
    match = re.fullmatch(r"\s*url\(#([^)]+)\)\s*", reference)
    if not match:
        raise SystemExit("filter must be an attribute url(#id), got %r" % reference)
    definition = next((candidate for candidate in root.iter()
                       if local_name(candidate) == "filter" and candidate.get("id") == match.group(1)), None)
    primitives = list(definition) if definition is not None else []
    if len(primitives) != 1 or local_name(primitives[0]) != "feDropShadow":
        raise SystemExit("filter #%s must hold exactly one feDropShadow" % match.group(1))
    shadow = primitives[0]
    deviation = shadow.get("stdDeviation", "2").replace(",", " ").split()
    if len(deviation) != 1:
        raise SystemExit("stdDeviation must be one number")
    red, green, blue, alpha = parse_colour(shadow.get("flood-color", "black"))
    parameters = {
        "dx": float(shadow.get("dx", "2")),
        "dy": float(shadow.get("dy", "2")),
        "deviation": float(deviation[0]),
        "colour": (red, green, blue),
        "opacity": alpha * float(shadow.get("flood-opacity", "1")),
    }
    parents = {child: parent for parent in root.iter() for child in parent}
    chain, node = [], element
    while node is not None:
        chain.append(node)
        node = parents.get(node)
    for node in chain:
        properties = style_properties(node)
        for name in ("opacity", "clip-path", "mask", "transform"):
            if node is root and name == "transform":
                continue
            if node.get(name) is not None or name in properties:
                raise SystemExit("the filtered element and its ancestors may not use %s" % name)
    return element, parameters


def split_documents(root, target):
    """Returns (below, above, source) documents as SVG bytes, each without the filter."""
    order = {element: index for index, element in enumerate(root.iter())}
    target_index = order[target]
    ancestors = set()
    parents = {child: parent for parent in root.iter() for child in parent}
    node = parents.get(target)
    while node is not None:
        ancestors.add(node)
        node = parents.get(node)

    def variant(keep_before, keep_target, keep_after):
        tree_root = copy.deepcopy(root)
        mapping = dict(zip(root.iter(), tree_root.iter()))
        copy_parents = {child: parent for parent in tree_root.iter() for child in parent}
        for original, duplicate in mapping.items():
            if original is root or local_name(original) in NOT_RENDERED or original in ancestors:
                continue
            if any(local_name(node) in NOT_RENDERED for node in _ancestors(original, parents)):
                continue
            if any(node is not root and node not in ancestors for node in _ancestors(original, parents)):
                continue  # removed (or kept) together with its top-most drawable ancestor
            if original is target:
                keep = keep_target
            elif order[original] < target_index:
                keep = keep_before
            else:
                keep = keep_after
            if not keep:
                copy_parents[duplicate].remove(duplicate)
        mapping[target].attrib.pop("filter", None)
        return ET.tostring(tree_root, encoding="utf-8")

    return variant(True, False, False), variant(False, True, True), variant(False, True, False)


def _ancestors(element, parents):
    node = parents.get(element)
    while node is not None:
        yield node
        node = parents.get(node)


def gaussian_kernel(deviation):
    """The kernel scipy.ndimage.gaussian_filter1d uses (same radius, normalised)."""
    radius = int(GAUSSIAN_TRUNCATE * deviation + 0.5)
    offsets = np.arange(-radius, radius + 1, dtype=np.float64)
    kernel = np.exp(-0.5 * (offsets / deviation) ** 2)
    return kernel / kernel.sum()


def blur(alpha, deviation):
    """Separable Gaussian blur, zero outside the array (scipy mode="constant")."""
    if deviation <= 0:
        return alpha.astype(np.float64)
    kernel = gaussian_kernel(deviation)
    rows = signal.oaconvolve(alpha.astype(np.float64), kernel[None, :], mode="same", axes=1)
    return signal.oaconvolve(rows, kernel[:, None], mode="same", axes=0)


def shift(image, dx, dy):
    """Moves image content by whole pixels (dx right, dy down), filling with zero."""
    result = np.zeros_like(image)
    rows, columns = image.shape
    if abs(dx) >= columns or abs(dy) >= rows:
        return result
    source_rows = slice(max(0, -dy), rows - max(0, dy))
    source_columns = slice(max(0, -dx), columns - max(0, dx))
    target_rows = slice(max(0, dy), rows - max(0, -dy))
    target_columns = slice(max(0, dx), columns - max(0, -dx))
    result[target_rows, target_columns] = image[source_rows, source_columns]
    return result


def over(top, bottom):
    """Porter-Duff source-over on premultiplied arrays."""
    return top + (1.0 - top[..., 3:4]) * bottom


# ----------------------------------------------------------------- exact dashes on circles

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def exact_circle_dashes(svg_bytes):
    """Replaces every unfilled <circle> with a stroke-dasharray by a <path> of
    its dashes as exact arcs, so that Skia strokes arcs and does not measure
    the circle itself.

    Why: Skia lays dashes out along its contour measure of the circle's
    Bezier approximation, and on the dashes scene its dash ends drift
    along the circle, 0.02 units late by the last dash (measured against a
    48 x 48 sampled exact annular-sector coverage; a 1/10000 relative
    length error), enough to move the corner pixels of late dashes by 13-19
    levels at @2x-@3x. On a circle arc length is r x angle, so the dash
    boundaries follow from the SVG rules exactly: the circle starts at
    (cx + r, cy) and runs clockwise on screen; an odd-count dasharray is
    repeated; the offset is taken modulo the pattern. Each dash becomes an
    arc subpath (split at half turns) with the element's own stroke, caps
    and width; Skia strokes arcs with their true end tangents.
    """
    ET.register_namespace("", SVG_NAMESPACE)
    root = ET.fromstring(svg_bytes)
    changed = False
    for parent in root.iter():
        for index, element in enumerate(list(parent)):
            if local_name(element) != "circle" or element.get("stroke-dasharray") in (None, "none"):
                continue
            if "style" in element.attrib or element.get("fill") != "none":
                raise SystemExit("exact circle dashes: give the dashed circle fill=\"none\" and no style=\"\"")
            cx, cy, r = (float(element.get(name)) for name in ("cx", "cy", "r"))
            pattern = [float(value) for value in element.get("stroke-dasharray").replace(",", " ").split()]
            if any(value < 0 or not math.isfinite(value) for value in pattern) or sum(pattern) <= 0:
                continue    # SVG strokes such a pattern solid: Skia draws the circle as it is
            if any(value == 0 for value in pattern):
                raise SystemExit("exact circle dashes: zero-length dashes (dots) are not supported")
            if len(pattern) % 2:
                pattern = pattern * 2
            period = sum(pattern)
            length = 2 * math.pi * r
            phase = float(element.get("stroke-dashoffset", "0")) % period
            # Where arc length 0 falls in the pattern (an interval ending exactly
            # at the phase is stepped over, as the stroker and Skia do).
            interval = 0
            while phase >= pattern[interval]:
                phase -= pattern[interval]
                interval = (interval + 1) % len(pattern)
            dashes, position = [], 0.0
            remaining = pattern[interval] - phase
            while position < length:
                end = min(position + remaining, length)
                if interval % 2 == 0 and end > position:
                    dashes.append((position, end))
                position = end
                interval = (interval + 1) % len(pattern)
                remaining = pattern[interval]
            if dashes and dashes[0][0] == 0 and dashes[-1][1] == length:
                raise SystemExit("exact circle dashes: a dash across the circle's start point is not supported")
            data = []
            for start, end in dashes:
                angles = [start / r]
                while end / r - angles[-1] > math.pi:
                    angles.append(angles[-1] + math.pi)
                angles.append(end / r)
                data.append("M %r %r" % (cx + r * math.cos(angles[0]), cy + r * math.sin(angles[0])))
                for angle in angles[1:]:
                    data.append("A %r %r 0 0 1 %r %r" % (r, r, cx + r * math.cos(angle), cy + r * math.sin(angle)))
            path = ET.Element("{%s}path" % SVG_NAMESPACE)
            for name, value in element.attrib.items():
                if name not in ("cx", "cy", "r", "stroke-dasharray", "stroke-dashoffset"):
                    path.set(name, value)
            path.set("d", " ".join(data))
            parent.remove(element)
            parent.insert(index, path)
            changed = True
    return ET.tostring(root) if changed else svg_bytes


# ----------------------------------------------------------------- cubics in pieces

# Scenes whose path cubics reach Skia split into this many exact pieces
# (see split_cubics). Only these: splitting every scene's cubics would
# change references committed before (pin, dashes, ...), which were made
# without it.
CUBIC_PIECES = {"bench-pin": 16}

PATH_TOKEN = re.compile(r"[A-Za-z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
PATH_ARGUMENTS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "A": 7, "Z": 0}


def path_number(value):
    """A number for path data: integers without a fraction (arc flags must be 0 or 1)."""
    value = float(value)
    return repr(int(value)) if value.is_integer() else repr(value)


def split_cubics(svg_bytes, pieces):
    """Replaces every cubic of every <path> by `pieces` sub-cubics of equal
    parameter length, exactly the same curve (the sub-cubics' control
    points follow from the curve's points and derivatives).

    Why: Skia flattens a cubic into a bounded number of lines, however
    large it is drawn; at 16 x 16 samples per pixel the bench pin's cubics
    span up to 1,700 high-resolution pixels at @3x, and drawn whole they
    came out up to 5.4 / 8.3 / 8.9 levels (alpha, @1x / @2x / @3x) off the
    exact coverage along them (a finely flattened outline clipped to each
    pixel), where Pinmint is within 1.5; the gate allows 8. In 4 pieces
    the error there is at most 2.9, in 16 at most 2.0, in 64 at most 1.6.

    Handles absolute M, L, H, V, C, A and Z (implicit repetition allowed,
    arc flags separated by spaces or commas); anything else is an error.
    """
    ET.register_namespace("", SVG_NAMESPACE)
    root = ET.fromstring(svg_bytes)
    for element in root.iter():
        if local_name(element) != "path":
            continue
        tokens = PATH_TOKEN.findall(element.get("d", ""))
        output, command, index = [], None, 0
        current = start = (0.0, 0.0)
        while index < len(tokens):
            if tokens[index].isalpha():
                command = tokens[index]
                index += 1
                if command not in PATH_ARGUMENTS:
                    raise SystemExit("split cubics: path command %r is not supported" % command)
                if command == "Z":
                    output.append("Z")
                    current = start
                    continue
            elif command in (None, "Z"):
                raise SystemExit("split cubics: a number without a command in %r" % element.get("d"))
            count = PATH_ARGUMENTS[command]
            arguments = tokens[index:index + count]
            if len(arguments) != count or any(token.isalpha() for token in arguments):
                raise SystemExit("split cubics: %s needs %d numbers" % (command, count))
            values = [float(token) for token in arguments]
            index += count
            if command == "C":
                p0, p1, p2, p3 = (np.array(point) for point in
                                  (current, values[0:2], values[2:4], values[4:6]))

                def point(t):
                    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3

                def derivative(t):
                    return 3 * ((1 - t) ** 2 * (p1 - p0) + 2 * (1 - t) * t * (p2 - p1) + t ** 2 * (p3 - p2))

                for piece in range(pieces):
                    t0, t1 = piece / pieces, (piece + 1) / pieces
                    step = (t1 - t0) / 3
                    c1 = point(t0) + derivative(t0) * step
                    c2 = point(t1) - derivative(t1) * step
                    end = p3 if piece == pieces - 1 else point(t1)
                    output.append("C " + " ".join(path_number(value) for value in (*c1, *c2, *end)))
                current = tuple(values[4:6])
                continue
            output.append(command + " " + " ".join(path_number(value) for value in values))
            if command == "M":
                current = start = tuple(values)
                command = "L"       # further pairs are lines
            elif command == "H":
                current = (values[0], current[1])
            elif command == "V":
                current = (current[0], values[0])
            else:
                current = tuple(values[-2:])
        element.set("d", " ".join(output))
    return ET.tostring(root)


# ----------------------------------------------------------------- per scene

def scene_size(root):
    width, height = int(float(root.get("width"))), int(float(root.get("height")))
    view_box = [float(value) for value in root.get("viewBox", "").replace(",", " ").split()]
    if view_box != [0.0, 0.0, float(width), float(height)]:
        raise SystemExit("viewBox must be 0 0 width height")
    return width, height


def render_scene(path, scale):
    """Returns the straight-alpha RGBA8 reference of one scene at one scale."""
    with open(path, "rb") as handle:
        svg_bytes = exact_circle_dashes(handle.read())
    pieces = CUBIC_PIECES.get(os.path.basename(path)[:-4])
    if pieces:
        svg_bytes = split_cubics(svg_bytes, pieces)
    root = ET.fromstring(svg_bytes)
    width, height = scene_size(root)
    factor = SUPERSAMPLING * scale
    shadowed = find_drop_shadow(root)
    if shadowed is None:
        _surface, pixels = render_high_resolution(svg_bytes, width, height, factor)
        return to_straight_rgba8(box_downsample(pixels, SUPERSAMPLING))

    element, shadow = shadowed
    below_svg, above_svg, source_svg = split_documents(root, element)
    _source_surface, source = render_high_resolution(source_svg, width, height, factor)
    blurred = blur(source[..., 3], shadow["deviation"] * factor)
    del _source_surface, source
    offset_x, offset_y = shadow["dx"] * factor, shadow["dy"] * factor
    if offset_x != round(offset_x) or offset_y != round(offset_y):
        raise SystemExit("dx and dy must be multiples of 1/%d" % SUPERSAMPLING)
    blurred = shift(blurred, int(round(offset_x)), int(round(offset_y)))
    coverage = (blurred * shadow["opacity"]).astype(np.float32)
    del blurred
    premultiplied_shadow = np.empty(coverage.shape + (4,), dtype=np.float32)
    for channel, value in enumerate(shadow["colour"]):
        premultiplied_shadow[..., channel] = coverage * np.float32(value)
    premultiplied_shadow[..., 3] = coverage
    del coverage
    _below_surface, below = render_high_resolution(below_svg, width, height, factor)
    composite = over(premultiplied_shadow, below)
    del _below_surface, below, premultiplied_shadow
    _above_surface, above = render_high_resolution(above_svg, width, height, factor)
    composite = over(above, composite)
    del _above_surface, above
    return to_straight_rgba8(box_downsample(composite, SUPERSAMPLING))


def write_png(pixels, path):
    Image.fromarray(pixels, "RGBA").save(path, compress_level=9)


def read_png(path):
    with Image.open(path) as image:
        return np.asarray(image.convert("RGBA"))


def check_exactness():
    """A full-coverage pixel of rgba(77,77,77,0.8) must come out as (77,77,77,204)."""
    svg_bytes = (b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4" viewBox="0 0 4 4">'
                 b'<rect x="0" y="0" width="4" height="4" fill="rgba(77,77,77,0.8)"/></svg>')
    for scale in SCALES:
        _surface, pixels = render_high_resolution(svg_bytes, 4, 4, SUPERSAMPLING * scale)
        result = to_straight_rgba8(box_downsample(pixels, SUPERSAMPLING))
        if not (result == np.array([77, 77, 77, 204], dtype=np.uint8)).all():
            raise SystemExit("exactness check failed at @%dx: %s" % (scale, result[1, 1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenes", nargs="*", help="scene names (default: every Golden/scenes/*.svg)")
    parser.add_argument("--check", action="store_true",
                        help="render to a temporary directory and compare with the committed PNGs")
    parser.add_argument("--scales", default=",".join(map(str, SCALES)))
    arguments = parser.parse_args()
    scales = [int(value) for value in arguments.scales.split(",")]
    names = arguments.scenes or sorted(name[:-4] for name in os.listdir(SCENES) if name.endswith(".svg"))

    check_exactness()
    output = tempfile.mkdtemp(prefix="pinmint-reference-") if arguments.check else REFERENCES
    os.makedirs(output, exist_ok=True)
    differing = 0
    for name in names:
        for scale in scales:
            file_name = "%s@%dx.png" % (name, scale)
            pixels = render_scene(os.path.join(SCENES, name + ".svg"), scale)
            write_png(pixels, os.path.join(output, file_name))
            if not arguments.check:
                print("wrote %s (%dx%d)" % (file_name, pixels.shape[1], pixels.shape[0]))
                continue
            committed = os.path.join(REFERENCES, file_name)
            if not os.path.exists(committed):
                print("MISSING   %s" % file_name)
                differing += 1
                continue
            expected = read_png(committed)
            if expected.shape != pixels.shape:
                print("DIFFERENT %s: size %s, committed %s" % (file_name, pixels.shape, expected.shape))
                differing += 1
            elif (expected != pixels).any():
                difference = np.abs(expected.astype(int) - pixels.astype(int))
                print("DIFFERENT %s: %d channel values differ, max %d"
                      % (file_name, int((difference > 0).sum()), int(difference.max())))
                differing += 1
            else:
                print("identical %s" % file_name)
    if arguments.check:
        print("%s (fresh renders in %s)" % ("all identical" if differing == 0 else "%d differ" % differing, output))
        return 1 if differing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
