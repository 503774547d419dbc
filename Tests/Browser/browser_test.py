#!/usr/bin/env python3
"""Pinmint's sprites in a real MapLibre GL JS map, in headless Chromium, checked by pixels.

`make test-browser` runs this after it has Chromium, MapLibre GL JS (PyPI's
`maplibre` wheel) and the Python modules (numpy, Pillow, freetype-py). Steps:

1. `pinmint sprite` of Tests/Browser/markers.json and Tests/Browser/icons/ at
   @1x and @2x; `pinmint render --meta` of each marker for its anchor and its
   MapLibre `icon-anchor` / `icon-offset`; a glyph set from Pinmint's fonts
   (glyphs.py).
2. A page (page.html) on 127.0.0.1 with an empty map of one background colour,
   opened in Chromium (software WebGL) through the DevTools protocol
   (cdp.py) at devicePixelRatio 1 and 2.
3. Scenes, each read back with Page.captureScreenshot:
   - icons: every sprite id is in the map (map.hasImage) and each image drawn
     with `icon-anchor: top-left` on a whole CSS pixel is the sprite's
     pixels over the background, at its place and size (a ring of background
     around it);
   - anchors: each anchored marker with the `icon-anchor` / `icon-offset`
     its @1x metadata gives (a style has one, for every ratio): the tip lies
     on map.project(coordinate) within 0.5 CSS px;
   - stretch: each stretchable marker (drawn without text) under
     `icon-text-fit: both` around "1", a long Latin and a CJK label: its
     fixed corners and its pointer are the unstretched image's pixels (up to
     the sub-pixel shift of MapLibre's linear sampling), a centred pointer
     stays centred within 1 CSS px, and the label's pixels lie inside the
     content box (as MapLibre stretched it, within 1 CSS px).
Prints one line per check, the time, then "browser: N passed, M failed"; exits 1 when a
check failed, 2 when the test could not run.
"""
import argparse
import base64
import functools
import http.server
import io
import json
import os
import shutil
import subprocess
import sys
import threading
import time

import numpy
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BACKGROUND = (224, 224, 224)
VIEWPORT = (1280, 800)
RATIOS = (1, 2)
FONT_STACK = "Pinmint Sans"
FONTS = ["Fonts/NotoSans-Regular-Subset.ttf", "Fonts/NotoSansCJKsc-Regular-Subset.otf"]
# Labels a stretchable marker is fitted around: one digit, long Latin, CJK.
LABELS = {"short": "1", "latin": "O'Reilly's Pub & Grill", "cjk": "我是商户名"}
TEXT_COLOR = "#ff00ff"  # magenta: no marker draws it, so its pixels are the label's
TEXT_SIZE = 14
ICON_TOLERANCE = 8      # 0...255 per channel: the sprite's pixels as MapLibre blends them
BLOCK_TOLERANCE = 24    # a fixed corner or pointer against the unstretched image, after the best sub-pixel shift
TIP_TOLERANCE = 0.5     # CSS px
CENTRE_TOLERANCE = 1.0  # CSS px
CONTENT_TOLERANCE = 1.0  # CSS px
CONTROL_TIPS = {"frame": 20}  # icons/frame.svg's pointer tip, x in @1x pixels


def stop(message):
    """The test could not run: one line, exit code 2."""
    print(f"browser test: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, name, ok, detail):
        print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed.append(name)


# MARK: Inputs

def run(command):
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        stop(f"{command[0]}: {error.strerror}")
    if done.returncode != 0:
        stop(f"{' '.join(command[:3])} ... failed: {done.stderr.strip()}")
    return done


def prepare(pinmint, work, maplibre):
    site = os.path.join(work, "site")
    shutil.rmtree(site, ignore_errors=True)
    os.makedirs(os.path.join(site, "sprite"))
    os.makedirs(os.path.join(work, "render"), exist_ok=True)
    markers_file = os.path.join(HERE, "markers.json")
    # frame-sidecar.json gives icons/frame.svg hand-made stretch metadata: the control the
    # stretch checks must pass with whatever Pinmint's markers do.
    run([pinmint, "sprite", markers_file, os.path.join(HERE, "icons"), os.path.join(HERE, "frame-sidecar.json"), "-o", os.path.join(site, "sprite", "sprite"),
         "--ratio", "1,2", "--quiet"])
    # The same images split over sheets of at most 400 px (pinmint sprite --split): MapLibre's multiple sprites.
    run([pinmint, "sprite", markers_file, os.path.join(HERE, "icons"), os.path.join(HERE, "frame-sidecar.json"), "-o",
         os.path.join(site, "split", "sprite"), "--ratio", "1,2", "--max-size", "400", "--split", "--quiet"])
    markers = json.load(open(markers_file, encoding="utf-8"))
    metadata = {}
    for marker in markers:
        description = {key: value for key, value in marker.items() if key != "id"}
        path = os.path.join(work, "render", marker["id"] + ".description.json")
        with open(path, "w", encoding="utf-8") as out:
            json.dump(description, out, ensure_ascii=False)
        meta = os.path.join(work, "render", marker["id"] + ".meta.json")
        run([pinmint, "render", path, "--scale", "1,2", "-o", os.path.join(work, "render", marker["id"] + ".png"),
             "--id", marker["id"], "--meta", meta, "--quiet"])
        for entry in json.load(open(meta, encoding="utf-8")):
            metadata[(entry["id"], entry["pixelRatio"])] = entry
    run([sys.executable, os.path.join(HERE, "glyphs.py"), *sum((["--font", os.path.join(ROOT, f)] for f in FONTS), []),
         "--name", FONT_STACK, *sum((["--text", t] for t in LABELS.values()), []), "--out", os.path.join(site, "glyphs")])
    for name in ("maplibre-gl.js", "maplibre-gl.css"):
        shutil.copyfile(os.path.join(maplibre, name), os.path.join(site, name))
    shutil.copyfile(os.path.join(HERE, "page.html"), os.path.join(site, "index.html"))
    sheets = {}
    for ratio in RATIOS:
        base = os.path.join(site, "sprite", "sprite" if ratio == 1 else f"sprite@{ratio}x")
        sheets[ratio] = (json.load(open(base + ".json", encoding="utf-8")),
                         numpy.asarray(Image.open(base + ".png").convert("RGBA"), dtype=numpy.float64))
    return site, metadata, sheets


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# MARK: Pixels

def sprite_image(sheets, ratio, image_id):
    index, pixels = sheets[ratio]
    entry = index[image_id]
    return entry, pixels[entry["y"]:entry["y"] + entry["height"], entry["x"]:entry["x"] + entry["width"]]


def over_background(rgba):
    """Straight-alpha RGBA (floats 0...255) over the page's background: RGB floats."""
    alpha = rgba[..., 3:4] / 255
    return rgba[..., :3] * alpha + numpy.array(BACKGROUND, dtype=numpy.float64) * (1 - alpha)


def screenshot(page):
    data = base64.b64decode(page.send("Page.captureScreenshot", {"format": "png"})["data"])
    return numpy.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=numpy.float64)


def shifted(template, dx, dy):
    """template moved right by dx and down by dy (0 <= dx, dy < 1), bilinear, edges repeated."""
    padded = numpy.pad(template, ((1, 0), (1, 0), (0, 0)), mode="edge")
    top = padded[:-1, 1:] * (1 - dx) + padded[:-1, :-1] * dx
    bottom = padded[1:, 1:] * (1 - dx) + padded[1:, :-1] * dx
    return bottom * (1 - dy) + top * dy


def best_match(screen, template, x0, y0, search, subpixel=True):
    """Where `template` (RGB floats) best matches `screen` near top-left (x0, y0) in device pixels:
    ((x, y) with sub-pixel fractions, largest channel difference there, mean difference)."""
    height, width = template.shape[:2]
    best = None
    x0, y0 = int(round(x0)), int(round(y0))
    for y in range(y0 - search, y0 + search + 1):
        for x in range(x0 - search, x0 + search + 1):
            if x < 0 or y < 0 or y + height > screen.shape[0] or x + width > screen.shape[1]:
                continue
            mean = numpy.abs(screen[y:y + height, x:x + width] - template).mean()
            if best is None or mean < best[0]:
                best = (mean, x, y)
    if best is None:
        return None
    _, bx, by = best
    candidates = [(bx, by, 0.0, 0.0)]
    if subpixel:
        # MapLibre samples stretched icons linearly: an image drawn at a fractional position is
        # the image moved by that fraction. Try moves of quarter pixels from the pixel before.
        steps = [i / 4 for i in range(4)]
        candidates = [(bx + ix, by + iy, fx, fy) for ix in (-1, 0) for iy in (-1, 0) for fx in steps for fy in steps
                      if not (fx == 0 and ix == -1) and not (fy == 0 and iy == -1)]
    result = None
    for x, y, fx, fy in candidates:
        # The template moved by (fx, fy) covers one more pixel on the right and bottom.
        moved = shifted(numpy.pad(template, ((0, 1), (0, 1), (0, 0)), mode="edge"), fx, fy)
        if fx == 0:
            moved = moved[:, :-1]
        if fy == 0:
            moved = moved[:-1]
        h, w = moved.shape[:2]
        if x < 0 or y < 0 or y + h > screen.shape[0] or x + w > screen.shape[1]:
            continue
        # The outermost pixels mix with whatever MapLibre drew beside the block: not compared.
        difference = numpy.abs(screen[y:y + h, x:x + w] - moved)[1:-1, 1:-1]
        mean = difference.mean()
        if result is None or mean < result[2]:
            result = ((x + fx, y + fy), difference.max(), mean)
    return result


def text_pixels(region):
    """Pixels of the magenta label (its anti-aliased fringe excepted): (ys, xs)."""
    red, green, blue = region[..., 0], region[..., 1], region[..., 2]
    return numpy.nonzero((red - green > 60) & (blue - green > 60))


def foreground_box(region):
    """The box of pixels that are not background (label pixels not counted): (x0, y0, x1, y1) or None."""
    difference = numpy.abs(region - numpy.array(BACKGROUND)).max(axis=2)
    red, green, blue = region[..., 0], region[..., 1], region[..., 2]
    tinted = (red - green > 6) & (blue - green > 6)
    ys, xs = numpy.nonzero((difference > 10) & ~tinted)
    if len(xs) == 0:
        return None
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


# MARK: Scenes

def grid(sizes, gap, width):
    """Top-left CSS positions for boxes of `sizes` in rows across `width`."""
    places, x, y, row = [], gap, gap, 0
    for w, h in sizes:
        if x + w + gap > width and x > gap:
            x, y, row = gap, y + row + gap, 0
        places.append((x, y))
        x += w + gap
        row = max(row, h)
    return places, y + row + gap


def check_icons(page, ratio, sheets, results, names=None, label=""):
    """names: each id's image name in the map (a split sprite's SHEET:ID), else the id itself."""
    index = sheets[1][0]
    ids = sorted(index)
    names = names or {i: i for i in ids}
    present = page.evaluate(f"hasImages({json.dumps([names.get(i, i) for i in ids])})")
    missing = [names.get(i, i) for i, there in zip(ids, present) if not there]
    results.check(f"@{ratio}x{label} sprite ids", not missing,
                  f"{len(ids) - len(missing)} of {len(ids)} ids in the map" + (f"; missing {missing}" if missing else ""))
    sizes = [(-(-sheets[ratio][0][i]["width"] // ratio), -(-sheets[ratio][0][i]["height"] // ratio)) for i in ids]
    places, height = grid([(w + 4, h + 4) for w, h in sizes], 8, VIEWPORT[0])
    if height > VIEWPORT[1]:
        stop(f"the icons need {height} CSS px, more than the viewport's {VIEWPORT[1]}")
    points = [{"x": x + 2, "y": y + 2, "properties": {"image": names.get(i, i)}} for (x, y), i in zip(places, ids)]
    layer = {"type": "symbol", "layout": {"icon-image": ["get", "image"], "icon-anchor": "top-left",
                                          "icon-allow-overlap": True, "icon-ignore-placement": True}}
    scene = page.evaluate(f"showScene({json.dumps({'points': points, 'layers': [layer]})})")
    screen = screenshot(page)
    for image_id, point, projected in zip(ids, points, scene["projected"]):
        entry, pixels = sprite_image(sheets, ratio, image_id)
        expected = over_background(pixels)
        x, y = int(round(projected[0] * ratio)), int(round(projected[1] * ratio))
        h, w = expected.shape[:2]
        drawn = screen[y:y + h, x:x + w]
        difference = numpy.abs(drawn - expected).max()
        ring = numpy.concatenate([screen[y - 2:y, x - 2:x + w + 2].reshape(-1, 3), screen[y + h:y + h + 2, x - 2:x + w + 2].reshape(-1, 3),
                                  screen[y:y + h, x - 2:x].reshape(-1, 3), screen[y:y + h, x + w:x + w + 2].reshape(-1, 3)])
        outside = numpy.abs(ring - numpy.array(BACKGROUND)).max()
        ok = difference <= ICON_TOLERANCE and outside <= ICON_TOLERANCE and abs(projected[0] - point["x"]) < 0.01
        results.check(f"@{ratio}x{label} icon {names.get(image_id, image_id)}", ok,
                      f"{w}x{h} px at ({x}, {y}): largest difference {difference:.0f} inside, {outside:.0f} around it")
    return scene["problems"]


def check_anchors(page, ratio, sheets, metadata, results):
    # Markers drawn with text, and their variants: (sprite id, metadata @1x).
    items = [(image_id, entry) for (image_id, scale), entry in sorted(metadata.items())
             if scale == 1 and not image_id.startswith("stretch-")]
    sizes = [(entry["width"] + 8, entry["height"] + 8) for _, entry in items]
    places, _ = grid(sizes, 16, VIEWPORT[0])
    points = []
    for (image_id, entry), (x, y) in zip(items, places):
        anchor = entry["leaflet"]["iconAnchor"]
        # The coordinate on a whole CSS pixel; the image then lies where its anchor puts it.
        points.append({"x": x + 4 + round(anchor[0]), "y": y + 4 + round(anchor[1]),
                       "properties": {"image": image_id, "anchor": entry["maplibre"]["icon-anchor"],
                                      "offset": entry["maplibre"]["icon-offset"]}})
    layer = {"type": "symbol", "layout": {"icon-image": ["get", "image"], "icon-anchor": ["get", "anchor"],
                                          "icon-offset": ["get", "offset"],
                                          "icon-allow-overlap": True, "icon-ignore-placement": True}}
    scene = page.evaluate(f"showScene({json.dumps({'points': points, 'layers': [layer]})})")
    screen = screenshot(page)
    for (image_id, entry), projected in zip(items, scene["projected"]):
        sheet_entry, pixels = sprite_image(sheets, ratio, image_id)
        meta = metadata.get((image_id, ratio))
        if meta is None or (meta["width"], meta["height"]) != (sheet_entry["width"], sheet_entry["height"]):
            results.check(f"@{ratio}x tip {image_id}", False, "the sprite's image is not the rendered marker's size")
            continue
        tip = (meta["anchor"]["x"], meta["anchor"]["y"])  # pixels of the @ratio image
        px, py = projected[0] * ratio, projected[1] * ratio
        match = best_match(screen, over_background(pixels), px - tip[0], py - tip[1], search=4 * ratio)
        if match is None:
            results.check(f"@{ratio}x tip {image_id}", False, "the marker is not on the screen")
            continue
        (x, y), largest, _ = match
        error = max(abs(x + tip[0] - px), abs(y + tip[1] - py)) / ratio
        size = f"{sheet_entry['width'] / ratio:g}x{sheet_entry['height'] / ratio:g} pt"
        results.check(f"@{ratio}x tip {image_id}", error <= TIP_TOLERANCE + 1e-6 and largest <= BLOCK_TOLERANCE,
                      f"tip {error:.2f} CSS px from map.project(coordinate) with icon-offset "
                      f"{entry['maplibre']['icon-offset']} ({size}; image differs by up to {largest:.0f})")
    return scene["problems"]


def fixed_segments(runs, length):
    """The parts of 0...length outside the stretch runs, as (start, end) pairs."""
    segments, position = [], 0
    for start, end in sorted(runs):
        if start > position:
            segments.append((position, start))
        position = max(position, end)
    if position < length:
        segments.append((position, length))
    return segments


def stretch_mapping(runs, length, screen_start, screen_end):
    """MapLibre's stretch: fixed pixels keep their size, every run grows by one factor
    (getIconQuads in maplibre-gl-js src/symbol/quads.ts). Returns a function from image
    pixels to screen pixels."""
    stretch_total = sum(end - start for start, end in runs)
    scale = (screen_end - screen_start - (length - stretch_total)) / stretch_total if stretch_total else 0

    def position(u):
        stretched = sum(max(0, min(u, end) - start) for start, end in runs)
        return screen_start + (u - stretched) + stretched * scale
    return position


def check_stretch(page, ratio, sheets, metadata, results):
    stretchables = sorted(i for i in sheets[1][0] if "content" in sheets[1][0][i] or i.startswith("stretch-"))
    if "frame" not in stretchables:
        stop("the sprite lost the control icon 'frame' and its stretch metadata")
    cells = [(image_id, label_name) for image_id in stretchables for label_name in LABELS]
    # The point sits low in its cell: a marker whose tip is on it lies above it, one centred on its label around it.
    cell_width, cell_height, point_y = 400, 155, 100
    columns = VIEWPORT[0] // cell_width
    if (len(cells) + columns - 1) // columns * cell_height > VIEWPORT[1]:
        stop("the stretch scene needs a taller viewport")
    points = [{"x": (n % columns) * cell_width + cell_width // 2, "y": (n // columns) * cell_height + point_y,
               "properties": {"image": image_id, "label": LABELS[label_name]}} for n, (image_id, label_name) in enumerate(cells)]
    fits = {image_id: text_fit(sheets, metadata, image_id) for image_id in stretchables}
    # One layer per image: icon-text-fit-padding is the same for every feature of a layer.
    layers = [{"type": "symbol", "filter": ["==", ["get", "image"], image_id], "layout": {
        "icon-image": ["get", "image"], "icon-text-fit": "both",
        "icon-text-fit-padding": (fits[image_id] or {}).get("icon-text-fit-padding", [0, 0, 0, 0]),
        "icon-offset": (fits[image_id] or {}).get("icon-offset", [0, 0]),
        "text-offset": (fits[image_id] or {}).get("text-offset", [0, 0]),
        "text-field": ["get", "label"], "text-font": [FONT_STACK], "text-size": (fits[image_id] or {}).get("text-size", TEXT_SIZE),
        "text-line-height": (fits[image_id] or {}).get("text-line-height", 1.2),
        "icon-allow-overlap": True, "icon-ignore-placement": True, "text-allow-overlap": True, "text-ignore-placement": True},
        "paint": {"text-color": TEXT_COLOR}} for image_id in stretchables]
    scene = page.evaluate(f"showScene({json.dumps({'points': points, 'layers': layers})})")
    screen = screenshot(page)
    for n, (image_id, label_name) in enumerate(cells):
        name = f"@{ratio}x stretch {image_id} '{LABELS[label_name]}'"
        x0, y0 = (n % columns) * cell_width * ratio, (n // columns) * cell_height * ratio
        region = screen[y0:y0 + cell_height * ratio, x0:x0 + cell_width * ratio]
        projected = scene["projected"][n]
        point = (projected[0] * ratio - x0, projected[1] * ratio - y0)
        problems = stretch_problems(region, ratio, sheets, metadata, image_id, fits[image_id], point)
        results.check(name, not problems, "; ".join(problems) if problems else
                      "corners and pointer unchanged, pointer centred, label inside the content box"
                      + (", tip on the point" if fits[image_id] and "text-offset" in fits[image_id] else ""))
    return scene["problems"]


def text_fit(sheets, metadata, image_id):
    """The layer settings that put the tip on the point under icon-text-fit: the marker's
    @1x metadata (`maplibre` / `icon-text-fit`: text-size, text-offset in ems,
    icon-text-fit-padding, icon-offset), or for the control icon, worked out here from
    MapLibre's rule: the content box is laid over the label's box (1.2 em tall, centred
    on the point), and the rows below the content keep their size."""
    meta = metadata.get((image_id, 1))
    if meta:
        return meta.get("maplibre", {}).get("icon-text-fit")
    if image_id in CONTROL_TIPS:
        entry = sheets[1][0][image_id]
        below = entry["height"] - entry["content"][3]  # the tip is the image's bottom row
        return {"text-size": TEXT_SIZE, "text-offset": [0, -(0.6 * TEXT_SIZE + below) / TEXT_SIZE]}
    return None


def stretch_problems(region, ratio, sheets, metadata, image_id, fit, point):
    """point: the coordinate's place in `region` (device pixels)."""
    entry, pixels = sprite_image(sheets, ratio, image_id)
    image = over_background(pixels)
    width, height = entry["width"], entry["height"]
    content = entry.get("content")
    if not content:
        return ["no content box in the sprite's metadata"]
    runs_x = entry.get("stretchX") or [[0, width]]  # MapLibre's default: the whole width stretches
    runs_y = entry.get("stretchY") or [[0, height]]
    columns, rows = fixed_segments(runs_x, width), fixed_segments(runs_y, height)
    problems = []
    if not entry.get("stretchX"):
        problems.append("no stretchX: MapLibre stretches every column, corners included")
    if not entry.get("stretchY"):
        problems.append("no stretchY: MapLibre stretches every row, corners included")
    if problems:
        return problems
    if columns[0][0] != 0 or columns[-1][1] != width or rows[0][0] != 0 or rows[-1][1] != height:
        return [f"a stretch run touches the image's edge (stretchX {runs_x}, stretchY {runs_y})"]

    drawn = foreground_box(region)
    own = foreground_box(image)
    if drawn is None or own is None:
        return ["nothing drawn"]
    # Where the stretched image's edges are, from its drawn box and the image's transparent margins.
    left_guess, top_guess = drawn[0] - own[0], drawn[1] - own[1]
    right_guess, bottom_guess = drawn[2] + (width - own[2]), drawn[3] + (height - own[3])

    def block(column, row):
        (cx0, cx1), (ry0, ry1) = column, row
        guess_x = left_guess + cx0 if column is columns[0] else right_guess - (width - cx0) if column is columns[-1] else None
        guess_y = top_guess + ry0 if row is rows[0] else bottom_guess - (height - ry0)
        if guess_x is None:  # a middle block: where MapLibre's stretch puts it, from the guessed edges
            guess_x = stretch_mapping(runs_x, width, left_guess, right_guess)(cx0)
        return best_match(region, image[ry0:ry1, cx0:cx1], guess_x, guess_y, search=4 * ratio)

    found = {}
    for column in columns:
        for row in (rows[0], rows[-1]):
            if row is rows[0] and column is not columns[0] and column is not columns[-1]:
                continue  # the flat top between corners matches anywhere along it
            match = block(column, row)
            if match is None:
                problems.append(f"block x {column} y {row} not found")
                continue
            (x, y), largest, _ = match
            found[(column, row)] = (x, y)
            if largest > BLOCK_TOLERANCE:
                kind = "corner" if column in (columns[0], columns[-1]) else "pointer"
                problems.append(f"{kind} (x {column[0]}-{column[1]}, y {row[0]}-{row[1]}) differs from the unstretched image "
                                f"by up to {largest:.0f}")
    if problems:
        return problems
    left = found[(columns[0], rows[0])][0]
    top = found[(columns[0], rows[0])][1]
    right = found[(columns[-1], rows[0])][0] + (width - columns[-1][0])
    bottom = found[(columns[0], rows[-1])][1] + (height - rows[-1][0])
    if abs(found[(columns[0], rows[-1])][0] - left) > 0.5 or abs(found[(columns[-1], rows[-1])][0] - found[(columns[-1], rows[0])][0]) > 0.5:
        problems.append("the left or right corners are not above one another")

    # The pointer: its tip from the marker's metadata, in the fixed column that holds it.
    meta = metadata.get((image_id, ratio))
    tip = ((meta["anchor"]["x"], meta["anchor"]["y"]) if meta else
           (CONTROL_TIPS[image_id] * ratio, height) if image_id in CONTROL_TIPS else None)
    if tip is not None:
        holder = next((c for c in columns if c[0] <= tip[0] <= c[1]), None)
        if holder is None:
            problems.append(f"the pointer's tip (x {tip[0]:g}) is in a stretch run {runs_x}")
        else:
            tip_x = found[(holder, rows[-1])][0] + (tip[0] - holder[0])
            tip_y = found[(holder, rows[-1])][1] + (tip[1] - rows[-1][0])
            off = abs(tip_x - (left + right) / 2) / ratio
            if abs(tip[0] - width / 2) <= 0.5 and off > CENTRE_TOLERANCE:
                problems.append(f"the pointer is {off:.1f} CSS px off the centre")
            distance = max(abs(tip_x - point[0]), abs(tip_y - point[1])) / ratio
            if not fit or "text-offset" not in fit:
                problems.append(f"the metadata gives no text-offset for icon-text-fit (maplibre.icon-text-fit): "
                                f"the tip is {distance:.1f} CSS px from the point")
            elif distance > TIP_TOLERANCE + 1e-6:
                problems.append(f"with text-offset {fit['text-offset']} the tip is {distance:.2f} CSS px from the point")

    map_x = stretch_mapping(runs_x, width, left, right)
    map_y = stretch_mapping(runs_y, height, top, bottom)
    box = (map_x(content[0]), map_y(content[1]), map_x(content[2]), map_y(content[3]))
    ys, xs = text_pixels(region)
    if len(xs) == 0:
        problems.append("no label drawn")
    else:
        slack = CONTENT_TOLERANCE * ratio
        ink = (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
        if ink[0] < box[0] - slack or ink[1] < box[1] - slack or ink[2] > box[2] + slack or ink[3] > box[3] + slack:
            problems.append(f"label {ink[2] - ink[0]}x{ink[3] - ink[1]} px at ({ink[0]}, {ink[1]}) is outside the content box "
                            f"({box[0]:.1f}, {box[1]:.1f})-({box[2]:.1f}, {box[3]:.1f}) (content {content})")
    return problems


# MARK: Main

def main():
    parser = argparse.ArgumentParser(description="Pinmint's sprites in MapLibre GL JS in headless Chromium")
    parser.add_argument("--pinmint", required=True)
    parser.add_argument("--maplibre", required=True, help="the folder with maplibre-gl.js and maplibre-gl.css")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--work", required=True)
    parser.add_argument("--keep", help="also save each screenshot into this folder")
    options = parser.parse_args()
    started = time.monotonic()
    site, metadata, sheets = prepare(os.path.abspath(options.pinmint), os.path.abspath(options.work),
                                              os.path.abspath(options.maplibre))
    server = serve(site)
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    results = Results()
    browser = cdp.Browser(shutil.which(options.chromium) or options.chromium, os.path.join(options.work, "profile"))
    try:
        for ratio in RATIOS:
            page = browser.new_page()
            page.send("Emulation.setDeviceMetricsOverride",
                      {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": ratio, "mobile": False})
            page.navigate(url)
            page.evaluate("ready", timeout=60)
            renderer = page.evaluate("(() => { const g = map.painter.context.gl; "
                                     "const i = g.getExtension('WEBGL_debug_renderer_info'); "
                                     "return i ? g.getParameter(i.UNMASKED_RENDERER_WEBGL) : g.getParameter(g.RENDERER); })()")
            print(f"devicePixelRatio {page.evaluate('devicePixelRatio')}: MapLibre {page.evaluate('maplibregl.getVersion()')}, {renderer}")
            problems = []
            for check in (lambda: check_icons(page, ratio, sheets, results),
                          lambda: check_anchors(page, ratio, sheets, metadata, results),
                          lambda: check_stretch(page, ratio, sheets, metadata, results)):
                problems += check()
                if options.keep:
                    os.makedirs(options.keep, exist_ok=True)
                    shot = base64.b64decode(page.send("Page.captureScreenshot", {"format": "png"})["data"])
                    with open(os.path.join(options.keep, f"scene{len(os.listdir(options.keep))}@{ratio}x.png"), "wb") as out:
                        out.write(shot)
            results.check(f"@{ratio}x map errors", not problems, "; ".join(sorted(set(problems))) or "none")
            page.close()

            # The split sprite, loaded from its style snippet: every id under its SHEET:ID name, same pixels.
            snippet = json.load(open(os.path.join(site, "split", "sprite.style.json"), encoding="utf-8"))
            page = browser.new_page()
            page.send("Emulation.setDeviceMetricsOverride",
                      {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": ratio, "mobile": False})
            page.navigate(url + "?snippet=split/sprite.style.json")
            page.evaluate("ready", timeout=60)
            results.check(f"@{ratio}x split sheets", len(snippet["sprite"]) > 1, f"{len(snippet['sprite'])} sheets")
            problems = check_icons(page, ratio, sheets, results, names=snippet["icon-image"], label=" split")
            results.check(f"@{ratio}x split map errors", not problems, "; ".join(sorted(set(problems))) or "none")
            page.close()
    finally:
        browser.close()
        server.shutdown()
    print(f"browser test: {time.monotonic() - started:.1f} s")
    print(f"browser: {results.passed} passed, {len(results.failed)} failed")
    sys.exit(1 if results.failed else 0)


if __name__ == "__main__":
    try:
        main()
    except (cdp.ProtocolError, OSError) as error:
        stop(f"could not run: {error}")
