import PinmintGeometry
import PinmintRaster

/// A halo: the glyph outlines stroked under the fill, so that text stays
/// legible on a busy map.
public struct TextHalo: Sendable, Hashable {
    /// The halo's colour, straight alpha; the text's opacity multiplies it.
    /// Default opaque white.
    public var color: Color
    /// How far the halo reaches beyond the glyph edge, in points (the stroke
    /// is twice as wide, centred on the edge); default 1.
    public var width: Double
    /// A halo of `color` reaching `width` points past the glyph edges; a
    /// width of 0 or less draws no halo.
    public init(color: Color = .white, width: Double = 1) {
        self.color = color
        self.width = width
    }
}

extension TextLayout {
    /// Draws the text with the layout box's top-left corner at `origin`
    /// (points; multiplied by `scale`). The origin is rounded to whole device
    /// pixels, so baselines stay on whole pixels. The halo (round joins) is
    /// drawn for every glyph before any fill. Throws `RasterError.nonFinite`
    /// for a non-finite origin, and `RasterError.outOfRange` when a glyph
    /// would land beyond `Canvas.maximumDeviceCoordinate` device pixels (a
    /// huge origin, letter spacing or line height), as a path there would. Glyph fills are composited from coverage
    /// masks cached per face (see `FontFace`), the same coverage a path fill
    /// would give.
    public func draw(on canvas: Canvas, at origin: Point = .zero, color: Color = .black,
                     halo: TextHalo? = nil, opacity: Double = 1) throws(RasterError) {
        guard origin.isFinite else { throw .nonFinite("text origin") }
        let left = (origin.x * scale).rounded(), top = (origin.y * scale).rounded()
        if let halo, halo.width > 0 {
            let pen = StrokeStyle(width: 2 * halo.width * scale, cap: .round, join: .round)
            try forEachGlyph(left: left, top: top) { (outline, transform) throws(RasterError) in
                try canvas.stroke(outline.path, style: pen, paint: .solid(halo.color), transform: transform,
                                  opacity: opacity)
            }
            try forEachColorGlyph(left: left, top: top) { (color, x, y) throws(RasterError) in
                // The dilation is charged first: a wide halo on a large emoji is a lot of work.
                let radius = halo.width * scale / color.scale
                try canvas.charge(color.haloWork(radius: radius))
                let ring = color.halo(radius: radius, color: halo.color)
                let margin = Double(ring.margin) * color.scale
                try Self.drawPicture(ring.image, on: canvas, x: Double(x + color.left) - margin, y: Double(y + color.top) - margin,
                                     scale: color.scale, opacity: opacity)
            }
        }
        // Colour glyphs (emoji) are pictures: drawn as they are, under the text's opacity, not its colour.
        try forEachColorGlyph(left: left, top: top) { (color, x, y) throws(RasterError) in
            try Self.drawPicture(color.image, on: canvas, x: Double(x + color.left), y: Double(y + color.top), scale: color.scale,
                                 opacity: opacity)
        }
        // Fills go through glyph masks cached in the face: a glyph at the same
        // size and sub-pixel offset (hinted glyphs sit on whole pixels) is
        // rasterized once, then composited wherever it recurs. Under a clip
        // the glyph is filled as a path, whose edges the rasterizer resolves
        // against the clip's exactly (a mask could only multiply coverages).
        if canvas.clipDepth > 0 {
            try forEachGlyph(left: left, top: top) { (outline, transform) throws(RasterError) in
                try canvas.fill(outline.path, paint: .solid(color), transform: transform, opacity: opacity)
            }
            return
        }
        for line in lines {
            for glyph in line.glyphs where !glyph.outline.path.isEmpty {
                let x = left + line.x + glyph.x, y = top + line.baseline
                let wholeX = x.rounded(.down), wholeY = y.rounded(.down)
                // Checked before the conversions to Int below, which would trap.
                guard abs(wholeX) <= Canvas.maximumDeviceCoordinate, abs(wholeY) <= Canvas.maximumDeviceCoordinate else {
                    throw .outOfRange("text placed beyond ±1e12 device pixels (origin, letter spacing or line height)")
                }
                let offset = SIMD2(x - wholeX, y - wholeY)
                let face = fallback.members[glyph.member].face
                let mask = try face.mask(for: glyph.outline, offset: offset, tolerance: canvas.flatteningTolerance) {
                    () throws(RasterError) -> CoverageMask in
                    try canvas.makeCoverageMask(glyph.outline.path, transform: .translation(offset.x, offset.y))
                }
                try canvas.fill(mask: mask, x: Int(wholeX), y: Int(wholeY), color: color, opacity: opacity)
            }
        }
    }

    /// Calls `body` with each colour glyph and its origin, on whole device pixels.
    private func forEachColorGlyph(left: Double, top: Double,
                                   _ body: (ColorGlyph, Int, Int) throws(RasterError) -> Void) throws(RasterError) {
        for line in lines {
            for glyph in line.glyphs {
                guard let color = glyph.outline.color else { continue }
                let x = (left + line.x + glyph.x).rounded(), y = (top + line.baseline + glyph.y).rounded()
                guard abs(x) <= Canvas.maximumDeviceCoordinate, abs(y) <= Canvas.maximumDeviceCoordinate else {
                    throw .outOfRange("text placed beyond ±1e12 device pixels (origin, letter spacing or line height)")
                }
                try body(color, Int(x), Int(y))
            }
        }
    }

    /// Composites a premultiplied picture with its top-left corner at device
    /// (`x`, `y`), `scale` device pixels per image pixel, under the canvas's
    /// clip. At scale 1 on whole pixels (every picture up to
    /// `ColorGlyph.maximumPixelsPerEm`) it is pixel for pixel: image paint
    /// sampled at texel centres is exact.
    private static func drawPicture(_ image: Image, on canvas: Canvas, x: Double, y: Double, scale: Double,
                                    opacity: Double) throws(RasterError) {
        guard image.width > 0, image.height > 0 else { return }
        var frame = Path()
        frame.addRect(Rect(x: x, y: y, width: Double(image.width) * scale, height: Double(image.height) * scale))
        let placement = AffineMap.scale(scale, scale).concatenating(.translation(x, y))
        try canvas.fill(frame, paint: .image(ImagePattern(image: image, transform: placement)), opacity: opacity)
    }

    private func forEachGlyph(left: Double, top: Double,
                              _ body: (GlyphOutline, AffineMap) throws(RasterError) -> Void) throws(RasterError) {
        for line in lines {
            for glyph in line.glyphs where !glyph.outline.path.isEmpty {
                try body(glyph.outline, .translation(left + line.x + glyph.x, top + line.baseline))
            }
        }
    }
}
