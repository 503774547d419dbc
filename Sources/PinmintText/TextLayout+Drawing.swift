import PinmintGeometry
import PinmintRaster

/// A halo: the glyph outlines stroked under the fill, so that text stays
/// legible on a busy map.
public struct TextHalo: Sendable, Hashable {
    public var color: Color
    /// How far the halo reaches beyond the glyph edge, in points (the stroke
    /// is twice as wide, centred on the edge); default 1.
    public var width: Double
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
    /// for a non-finite origin.
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
        }
        try forEachGlyph(left: left, top: top) { (outline, transform) throws(RasterError) in
            try canvas.fill(outline.path, paint: .solid(color), transform: transform, opacity: opacity)
        }
    }

    private func forEachGlyph(left: Double, top: Double,
                              _ body: (GlyphOutline, AffineTransform) throws(RasterError) -> Void) throws(RasterError) {
        for line in lines {
            for glyph in line.glyphs where !glyph.outline.path.isEmpty {
                try body(glyph.outline, .translation(left + line.x + glyph.x, top + line.baseline))
            }
        }
    }
}
