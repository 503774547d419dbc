#!/usr/bin/env python3
"""Draw the four seed markers (shared/seeds/) as independent reference PNGs.

Development-time only: nothing in `make test` runs or needs this script. It
needs skia-python (`pip install skia-python pillow numpy`; only skia is used
for drawing). It writes, for each scale s in 1, 2, 3,

    docs/images/seed-price-tag@<s>x.png         seed 000, MyAnnotation
    docs/images/seed-callout@<s>x.png           seed 004, CustomCalloutViewSwift
    docs/images/seed-avatar@<s>x.png            seed 001, unselected
    docs/images/seed-avatar-selected@<s>x.png   seed 001, selected
    docs/images/seed-pin@<s>x.png               seed 002, numbered pin

so that the README can show "seed (reference) | Pinmint" side by side.

Each marker is drawn by following the seed's UIKit code literally, translated
to Skia calls with UIKit semantics, and independently of Pinmint's own code:
  * lengths are points; the canvas is scaled by s, so @2x/@3x are drawn at
    their own resolution (text is rasterised at the target size, never
    upscaled); origin top-left, y down, like UIKit;
  * UIView frame + backgroundColor = filled rect; layer.cornerRadius r = rect
    rounded by r (a 20x20 view with cornerRadius 10 is a circle); a
    CAShapeLayer mask = the view's fill clipped to the mask path;
  * CGContext addArc(tangent1End:tangent2End:radius:) = Skia arcTo with
    tangents (same definition as PostScript arct / HTML canvas arcTo);
  * CALayer shadow without shadowPath = a shadow cast by the alpha of the
    layer *with its sublayers*, drawn beneath them; shadowRadius 3 is taken as
    a Gaussian of standard deviation 3 pt (skia ImageFilters.DropShadow, the
    same Gaussian as MaskFilter.MakeBlur(kNormal, sigma=3)); the shadow is
    not clipped to the view's bounds, so the PNG gets a 3-sigma margin;
  * UILabel: the text is drawn on one line; `sizeToFit` gives a frame of the
    line's advance width and line height, each rounded up to whole points; a
    label with a fixed frame centres the line box vertically in its bounds
    (UILabel's behaviour) and aligns the text left unless textAlignment says
    otherwise. The line box (ascent, descent) is by default that of the iOS
    system font the seeds ask for (UIFont.systemFont, San Francisco: ascender
    1950/2048 em, descender 494/2048 em, no line gap; e.g. systemFont(ofSize:
    17).lineHeight = 20.287), because the seeds' hand-tuned positions were
    tuned for it: seed 000 puts a 12 pt label at y 7 in a 28 pt body, which
    centres San Francisco's 14.3 pt line (7 + 14.3/2 = 14.2) but would put
    Noto's taller line 1 to 2.5 pt low. Whether iOS grows the line for the
    PingFang fallback glyphs is not modelled (assumed not). With
    --font-line-box the line box is instead max ascent + max descent of the
    shipped fonts the string uses (Noto Sans 1.069/0.293 em, Noto Sans CJK
    1.16/0.288 em).

FONTS. The iOS system fonts (San Francisco, PingFang) are not available
here, so all text uses the fonts shipped in Fonts/: Noto Sans Regular/Bold
stand in for UIFont.systemFont / boldSystemFont, and characters Noto Sans
lacks (the hanzi) fall back, per character, to Noto Sans CJK SC of the same
weight, as iOS falls back to PingFang. Glyph shapes, advances and line
heights therefore differ from the screenshots in the seed posts by a point
or so; positions and sizes of every non-text part are the seeds' own.
Text is grey-scale anti-aliased, unhinted, with subpixel positioning.

Output: transparent background, drawn on a premultiplied N32 Skia raster
and encoded by Skia's PNG encoder, which converts to straight (unpremultiplied)
alpha, as PNG requires.

Usage:
  python3 tools/seed_reference.py                  # all markers, @1x @2x @3x
  python3 tools/seed_reference.py callout pin      # only these
  --scales 1,2   --out DIR (default docs/images)   --font-line-box (see above)
"""

import argparse
import math
import os

import skia

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONT_DIR = os.path.join(REPOSITORY, "Fonts")
OUTPUT = os.path.join(REPOSITORY, "docs", "images")
SCALES = (1, 2, 3)


def colour(r, g, b, a=1.0):
    """UIColor(red:green:blue:alpha:) with components in 0...1 -> skia Color4f."""
    return skia.Color4f(r, g, b, a)


WHITE = colour(1, 1, 1)
BLACK = colour(0, 0, 0)
LIGHT_GRAY = colour(2 / 3, 2 / 3, 2 / 3)      # UIColor.lightGray = white 0.667


# ----------------------------------------------------------------- text

# Line box of UIFont.systemFont (San Francisco hhea metrics, units per em 2048).
SYSTEM_FONT_ASCENDER = 1950 / 2048
SYSTEM_FONT_DESCENDER = 494 / 2048
FONT_LINE_BOX = False       # --font-line-box: use the shipped fonts' own line boxes

_TYPEFACES = {}


def typeface(name):
    if name not in _TYPEFACES:
        face = skia.Typeface.MakeFromFile(os.path.join(FONT_DIR, name))
        if face is None:
            raise SystemExit("cannot load font " + name)
        _TYPEFACES[name] = face
    return _TYPEFACES[name]


def make_font(size, bold, cjk):
    name = {(False, False): "NotoSans-Regular-Subset.ttf",
            (True, False): "NotoSans-Bold-Subset.ttf",
            (False, True): "NotoSansCJKsc-Regular-Subset.otf",
            (True, True): "NotoSansCJKsc-Bold-Subset.otf"}[(bold, cjk)]
    font = skia.Font(typeface(name), size)
    font.setEdging(skia.Font.Edging.kAntiAlias)
    font.setHinting(skia.FontHinting.kNone)
    font.setSubpixel(True)
    font.setLinearMetrics(True)
    return font


class Line:
    """One line of UILabel text: runs of (font, text) with per-character fallback."""

    def __init__(self, text, size, bold=False):
        latin = make_font(size, bold, cjk=False)
        cjk = make_font(size, bold, cjk=True)
        self.runs = []
        for character in text:
            font = latin if latin.textToGlyphs(character)[0] != 0 else cjk
            if self.runs and self.runs[-1][0] is font:
                self.runs[-1][1] += character
            else:
                self.runs.append([font, character])
        if FONT_LINE_BOX:
            metrics = [font.getMetrics() for font in {id(f): f for f, _ in self.runs}.values()]
            self.ascent = max(-m.fAscent for m in metrics)
            self.descent = max(m.fDescent for m in metrics)
        else:
            self.ascent = size * SYSTEM_FONT_ASCENDER
            self.descent = size * SYSTEM_FONT_DESCENDER
        self.height = self.ascent + self.descent
        self.width = sum(font.measureText(part) for font, part in self.runs)

    def fitted_size(self):
        """UILabel.sizeToFit: advance width x line height, rounded up to points."""
        # round first: float advances of a 1000-unit em come out as 24.0002 for 24
        return math.ceil(round(self.width, 3)), math.ceil(round(self.height, 3))

    def draw(self, canvas, x, baseline, fill):
        paint = skia.Paint(fill)
        paint.setAntiAlias(True)
        for font, part in self.runs:
            canvas.drawString(part, x, baseline, font, paint)
            x += font.measureText(part)


def draw_label(canvas, line, frame, fill, alignment="left"):
    """UILabel with frame (x, y, w, h): line box centred vertically."""
    x, y, w, h = frame
    baseline = y + (h - line.height) / 2 + line.ascent
    if alignment == "center":
        x += (w - line.width) / 2
    line.draw(canvas, x, baseline, fill)


# ----------------------------------------------------------------- shapes

def fill_paint(fill):
    paint = skia.Paint(fill)
    paint.setAntiAlias(True)
    return paint


def fill_rounded_rect(canvas, frame, radius, fill):
    """UIView(frame:) with backgroundColor and layer.cornerRadius."""
    x, y, w, h = frame
    canvas.drawRRect(skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(x, y, w, h), radius, radius),
                     fill_paint(fill))


def teardrop(cx, cy, radius, tip_y):
    """Circle (cx, cy, radius) joined to the point (cx, tip_y) by its two tangents."""
    theta = math.acos(radius / (tip_y - cy))       # tangent point, from the downward vertical
    path = skia.Path()
    path.moveTo(cx, tip_y)
    path.lineTo(cx + radius * math.sin(theta), cy + radius * math.cos(theta))
    # skia angles: degrees, clockwise from +x (y down); go the long way over the top
    path.arcTo(skia.Rect.MakeLTRB(cx - radius, cy - radius, cx + radius, cy + radius),
               90 - math.degrees(theta), -(360 - 2 * math.degrees(theta)), False)
    path.close()
    return path


# ----------------------------------------------------------------- markers
#
# Each marker function returns (width, height, anchor, draw) in points;
# draw(canvas) paints in the marker's own coordinates.

SEED_BLUE = colour(0.208, 0.596, 0.859)   # seed 000: UIColor(red: 0.208, green: 0.596, blue: 0.859)


def price_tag():
    """Seed 000, MyAnnotation.DrawCustomerView(), final version of the post.

    From the seed: title "5200萬", white, systemFont 12, origin (24, 7), sizeToFit;
    rectangoView (0, 0, title width + 30, 28), colour (0.208, 0.596, 0.859),
    cornerRadius 3; lblIcon "成", boldSystemFont 14 (the 11 pt line before is
    overwritten), text colour = the body colour, sizeToFit, centre (10, 10) in
    circleView; circleView (2, 4, 20, 20), white, cornerRadius 10; triangle view
    (22, 28, 20, 20) in the body colour masked by the path (0,0) (10,10) (20,0),
    i.e. the triangle (22,28) (32,38) (42,28): not centred under the body, kept
    as the seed has it. Nothing clips (no clipsToBounds), so the canvas is the
    union of the views: max(body width, 42) x 38. Anchor: the triangle's tip
    (32, 38) (the seed moves it there by hand with centerOffset (0, -21)).
    Z-order: rectangoView (title, then circle with its label), then triangle.
    Assumed: only the fonts and the line box (San Francisco metrics, see the
    module docstring); with them the 12 pt title is centred in the 28 pt body.
    """
    title = Line("5200萬", 12)
    title_w, title_h = title.fitted_size()
    body_w = title_w + 30
    icon = Line("成", 14, bold=True)
    icon_w, icon_h = icon.fitted_size()
    width, height = max(body_w, 42), 38

    def draw(canvas):
        fill_rounded_rect(canvas, (0, 0, body_w, 28), 3, SEED_BLUE)           # rectangoView
        draw_label(canvas, title, (24, 7, title_w, title_h), WHITE)           # lblTitle
        fill_rounded_rect(canvas, (2, 4, 20, 20), 10, WHITE)                  # circleView
        # lblIcon: centre (10, 10) in circleView, i.e. (12, 14) in rectangoView
        draw_label(canvas, icon, (2 + 10 - icon_w / 2, 4 + 10 - icon_h / 2, icon_w, icon_h),
                   SEED_BLUE)
        mask = skia.Path()                                                    # triangle + mask
        mask.moveTo(22 + 0, 28 + 0)
        mask.lineTo(22 + 10, 28 + 10)
        mask.lineTo(22 + 20, 28 + 0)
        mask.lineTo(22 + 0, 28 + 0)
        canvas.save()
        canvas.clipPath(mask, doAntiAlias=True)
        canvas.drawRect(skia.Rect.MakeXYWH(22, 28, 20, 20), fill_paint(SEED_BLUE))
        canvas.restore()

    return width, height, (32, 38), draw


def callout():
    """Seed 004, CustomCalloutViewSwift of frame (0, 0, 200, 70).

    From the seed: drawInContext fills with (0.3, 0.3, 0.3, alpha 0.8) the path
    of getDrawPath: kArrorHeight 10, radius 6, maxy = maxY - 10 = 60;
    move (midx + 10, maxy), line (midx, maxy + 10), line (midx - 10, maxy),
    then four addArc(tangent1End:tangent2End:radius: 6) and closePath.
    The seed's typos `(minx, minx)` and `(maxx, maxx)` are followed literally:
    with bounds at the origin minx = miny = 0, and (maxx, maxx) = (200, 200)
    lies on the same line x = 200 as the intended (maxx, maxy), so the arcs are
    the intended ones. setLineWidth(2) is irrelevant (the path is only filled).
    Shadow: layer.shadowColor red, shadowOpacity 1, shadowOffset (0, 0),
    shadowRadius not set = CALayer's default 3; no shadowPath, so the shadow is
    cast by the whole layer tree (bubble, portrait, labels), beneath it, and
    shows through the 80 %-opaque bubble (as it does on iOS).
    Subviews: portraitView (5, 5, 70, 50) black (no image given here); titleLabel
    (80, 5, 120, 20) systemFont 14 white "我是商户名"; subtitleLabel
    (80, 30, 120, 20) systemFont 12 lightGray "我是商户地址" (the text set in
    initSubViews; setTitle later passes "我是商家名", the initSubViews text is
    the one the brief and MARKERS use). Both labels are left-aligned (default)
    and vertically centred in their 20 pt frames.
    Assumed: shadowRadius 3 = Gaussian sigma 3 pt; a MARGIN of 9 pt (3 sigma)
    around the 200 x 70 frame so the glow is not cut: the PNG is 218 x 88 and
    the arrow tip (100, 70) of the view is at (109, 79) in it.
    """
    margin = 9
    title = Line("我是商户名", 14)
    subtitle = Line("我是商户地址", 12)

    def bubble_path():
        rect = skia.Rect.MakeXYWH(0, 0, 200, 70)
        arrow, radius = 10, 6.0
        minx, midx, maxx = rect.left(), rect.centerX(), rect.right()
        miny, maxy = rect.top(), rect.bottom() - 10
        path = skia.Path()
        path.moveTo(midx + arrow, maxy)
        path.lineTo(midx, maxy + arrow)
        path.lineTo(midx - arrow, maxy)
        path.arcTo(minx, maxy, minx, miny, radius)
        path.arcTo(minx, minx, maxx, miny, radius)     # seed typo (minx, minx), kept
        path.arcTo(maxx, miny, maxx, maxx, radius)     # seed typo (maxx, maxx), kept
        path.arcTo(maxx, maxy, midx, maxy, radius)
        path.close()
        return path

    def draw(canvas):
        canvas.translate(margin, margin)
        shadow = skia.Paint(ImageFilter=skia.ImageFilters.DropShadow(
            0, 0, 3, 3, skia.Color4f(1, 0, 0, 1).toColor()))
        canvas.saveLayer(skia.Rect.MakeXYWH(-margin, -margin, 200 + 2 * margin, 70 + 2 * margin),
                         shadow)
        canvas.drawPath(bubble_path(), fill_paint(colour(0.3, 0.3, 0.3, 0.8)))
        canvas.drawRect(skia.Rect.MakeXYWH(5, 5, 70, 50), fill_paint(BLACK))   # portraitView
        draw_label(canvas, title, (80, 5, 120, 20), WHITE)                    # titleLabel
        draw_label(canvas, subtitle, (80, 30, 120, 20), LIGHT_GRAY)           # subtitleLabel
        canvas.restore()

    return 200 + 2 * margin, 70 + 2 * margin, (100 + margin, 70 + margin), draw


AVATAR_ORANGE = colour(1.0, 0.584, 0.0)   # assumed: iOS systemOrange #FF9500
LABEL_TEXT = colour(0.2, 0.2, 0.2)        # assumed: #333333


def avatar_marker(selected):
    """Seed 001, the person marker (CustomAnnotationView), two states.

    From the seed: unselected = "小头像+顶部name" (small avatar, name on top);
    selected = "大头像+顶部name&phone" (large avatar, name and phone on top);
    selectAnnoAtPoint assumes the unselected icon is 36 x 53 pt and starts at
    y 25 in the view (assumeUnselectedAnnoIconSize, assumeUnselectedAnnoIconY),
    so the name label takes the top 25 pt.
    Assumed (the post shows its drawing only as screenshots): the 36 x 53 icon
    is a 36 pt round avatar with a 2 pt white ring and a pointer running down to
    a point 53 pt below the icon's top (the anchor); no photo, so the initial
    "张" (white, bold) on an orange disc; the label is a white rounded rectangle
    (corner 4) with #333333 text, 12 pt, 20 pt high, 5 pt above the icon.
    Selected: avatar 56 pt with a 3 pt ring, pointer scaled by the same
    53/36 ratio (82 pt); label of two lines, "张三" bold 14 pt and
    "138 0013 8000" 12 pt, 6 pt side padding, 3 pt top/bottom padding.
    Name "张三" and the phone number are placeholders.
    """
    if not selected:
        diameter, ring, icon_height = 36, 2, 53
        lines = [Line("张三", 12)]
        initial_size = 16
    else:
        diameter, ring, icon_height = 56, 3, 82
        lines = [Line("张三", 14, bold=True), Line("138 0013 8000", 12)]
        initial_size = 26
    pad_x, pad_y, gap = 6, 3 if selected else 0, 5
    line_heights = [20] if not selected else [l.fitted_size()[1] for l in lines]
    label_w = max(l.fitted_size()[0] for l in lines) + 2 * pad_x
    label_h = sum(line_heights) + 2 * pad_y
    width = max(label_w, diameter)
    icon_y = label_h + gap                       # 25 unselected, as in the seed
    height = icon_y + icon_height
    cx = width / 2
    initial = Line("张", initial_size, bold=True)

    def draw(canvas):
        fill_rounded_rect(canvas, ((width - label_w) / 2, 0, label_w, label_h), 4, WHITE)
        y = pad_y
        for line, line_h in zip(lines, line_heights):
            draw_label(canvas, line, ((width - label_w) / 2, y, label_w, line_h), LABEL_TEXT,
                       alignment="center")
            y += line_h
        r = diameter / 2
        canvas.drawPath(teardrop(cx, icon_y + r, r, icon_y + icon_height), fill_paint(WHITE))
        canvas.drawCircle(cx, icon_y + r, r - ring, fill_paint(AVATAR_ORANGE))
        draw_label(canvas, initial, (cx - r, icon_y, diameter, diameter), WHITE,
                   alignment="center")

    return width, height, (cx, height), draw


PIN_RED = colour(1.0, 0.231, 0.188)       # assumed: iOS systemRed #FF3B30


def pin():
    """Seed 002, the numbered pin (PlaceAnnotationView with a label = index).

    From the seed: a custom view carrying a UILabel whose text is the
    annotation's index (annotation.index = index.description, so "1" for the
    first place); centerOffset (0, -height / 2), i.e. the bottom centre of the
    view is the map point. The view itself comes from a xib that the post shows
    only as screenshots, and the image pin's picture (R.image.ic_annotation) is
    not given.
    Assumed: a classic teardrop pin 30 x 42 pt (head circle 30 pt, point at the
    bottom centre, joined by the circle's tangents), fill iOS systemRed
    #FF3B30, the index "1" white bold 16 pt centred in the head. Anchor (15, 42).
    """
    width, height, r = 30, 42, 15
    number = Line("1", 16, bold=True)

    def draw(canvas):
        canvas.drawPath(teardrop(width / 2, r, r, height), fill_paint(PIN_RED))
        draw_label(canvas, number, (0, 0, width, 2 * r), WHITE, alignment="center")

    return width, height, (width / 2, height), draw


MARKERS = {
    "price-tag": price_tag,
    "callout": callout,
    "avatar": lambda: avatar_marker(False),
    "avatar-selected": lambda: avatar_marker(True),
    "pin": pin,
}


# ----------------------------------------------------------------- output

def render(width, height, draw, scale):
    pixel_w, pixel_h = math.ceil(width * scale - 1e-9), math.ceil(height * scale - 1e-9)
    info = skia.ImageInfo.MakeN32Premul(pixel_w, pixel_h)
    surface = skia.Surface.MakeRaster(info)
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT)
    canvas.scale(scale, scale)
    draw(canvas)
    return surface.makeImageSnapshot()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("markers", nargs="*", help="marker names (default: all): " +
                        ", ".join(MARKERS))
    parser.add_argument("--scales", default=",".join(map(str, SCALES)))
    parser.add_argument("--out", default=OUTPUT)
    parser.add_argument("--font-line-box", action="store_true",
                        help="line boxes from the shipped Noto fonts instead of San Francisco's")
    arguments = parser.parse_args()
    global FONT_LINE_BOX
    FONT_LINE_BOX = arguments.font_line_box
    names = arguments.markers or list(MARKERS)
    for name in names:
        if name not in MARKERS:
            raise SystemExit("unknown marker %r (known: %s)" % (name, ", ".join(MARKERS)))
    os.makedirs(arguments.out, exist_ok=True)
    for name in names:
        width, height, anchor, draw = MARKERS[name]()
        for scale in (int(s) for s in arguments.scales.split(",")):
            image = render(width, height, draw, scale)
            data = image.encodeToData(skia.EncodedImageFormat.kPNG, 100)
            if data is None:
                raise SystemExit("PNG encoding failed")
            path = os.path.join(arguments.out, "seed-%s@%dx.png" % (name, scale))
            with open(path, "wb") as handle:
                handle.write(bytes(data))
            print("%s  %dx%d px  (%g x %g pt, anchor %g,%g pt)" % (
                os.path.relpath(path, REPOSITORY), image.width(), image.height(),
                width, height, anchor[0], anchor[1]))


if __name__ == "__main__":
    main()
