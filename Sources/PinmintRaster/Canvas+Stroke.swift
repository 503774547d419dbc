import PinmintGeometry

extension Canvas {
    /// Strokes `path` (user space) with `style` (user-space units, so the
    /// pen is transformed with the path) and fills the outline with `paint`.
    /// Same opacity, blend and shadow rules as `fill`. Throws
    /// `RasterError.nonFinite` for NaN or infinite coordinates, widths or dashes.
    public func stroke(_ path: Path, style: StrokeStyle, paint: Paint, transform: AffineMap = .identity,
                       opacity: Double = 1, blend: BlendMode = .sourceOver, shadow: Shadow? = nil) throws(RasterError) {
        try Canvas.validate(path: path, transform: transform, opacity: opacity)
        guard style.width.isFinite, style.miterLimit.isFinite, style.dashOffset.isFinite,
              style.dashes.allSatisfy(\.isFinite) else { throw .nonFinite("stroke style") }
        polylines.removeAll()
        stroker.stroke(path, style: style, transform: transform, tolerance: flatteningTolerance, into: &polylines)
        try drawPolylines(rule: .nonZero, paint: paint, transform: transform, opacity: opacity, blend: blend,
                          shadow: shadow)
    }
}
