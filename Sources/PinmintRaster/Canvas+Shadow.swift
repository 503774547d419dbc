import Glibc
import PinmintGeometry

/// Drop shadows and glows: the shape's coverage, blurred, tinted and composited under it.
extension Canvas {
    /// Draws the shadow of the shape held in `polylines` (device space).
    func drawShadow(_ shadow: Shadow, rule: FillRule, transform: AffineTransform, opacity: Double) throws(RasterError) {
        guard shadow.offset.isFinite, shadow.blurRadius.isFinite else { throw .nonFinite("shadow") }
        let color = Canvas.premultipliedFloat(shadow.color, opacity: opacity)
        guard color.w > 0, let shapeBounds = Canvas.deviceBounds(of: polylines) else { return }
        let scale = transform.maximumScale
        let sigma = max(0, shadow.blurRadius) * scale
        let offset = shadow.offset * scale
        let margin = sigma > 0 ? Int((4 * sigma).rounded(.up)) + 1 : 0
        // The visible part of the shadow, and around it the pixels the blur reads.
        let offsetLow = (x: Int(offset.x.rounded(.down)), y: Int(offset.y.rounded(.down)))
        let offsetHigh = (x: Int(offset.x.rounded(.up)), y: Int(offset.y.rounded(.up)))
        let shadowBounds = PixelBounds(x0: shapeBounds.x0 + offsetLow.x - margin, y0: shapeBounds.y0 + offsetLow.y - margin,
                                       x1: shapeBounds.x1 + offsetHigh.x + margin, y1: shapeBounds.y1 + offsetHigh.y + margin)
        let visible = shadowBounds.intersection(drawableBounds)
        guard !visible.isEmpty else { return }
        let region = PixelBounds(x0: visible.x0 - margin, y0: visible.y0 - margin,
                                 x1: visible.x1 + margin, y1: visible.y1 + margin).intersection(shadowBounds)
        let regionWidth = region.x1 - region.x0, regionHeight = region.y1 - region.y0
        let cellCount = regionWidth * regionHeight
        if shadowAlpha.count < cellCount { shadowAlpha = [Float](repeating: 0, count: cellCount) }
        if shadowScratch.count < cellCount { shadowScratch = [Float](repeating: 0, count: cellCount) }

        // Coverage of the shape moved by the offset.
        for index in polylines.points.indices { polylines.points[index] = polylines.points[index] + offset }
        shadowAlpha.withUnsafeMutableBufferPointer { alpha in
            alpha.baseAddress!.update(repeating: 0, count: cellCount)
            rasterizer.rasterize(polylines, rule: rule, bounds: region) { y, x0, coverage, _ in
                let row = alpha.baseAddress! + (y - region.y0) * regionWidth + (x0 - region.x0)
                for i in 0..<coverage.count { row[i] = coverage[i] }
            }
        }
        for index in polylines.points.indices { polylines.points[index] = polylines.points[index] - offset }

        if sigma > 0 {
            shadowAlpha.withUnsafeMutableBufferPointer { alpha in
                shadowScratch.withUnsafeMutableBufferPointer { scratch in
                    GaussianBlur.blur(alpha.baseAddress!, width: regionWidth, height: regionHeight, sigma: sigma,
                                      scratch: scratch.baseAddress!)
                }
            }
        }

        let target = layers[layers.count - 1]
        let clip = clips.last
        // The colour is prepared once for the whole shadow, not once per row.
        let solid = SolidSource(color: color, blend: .sourceOver)
        shadowAlpha.withUnsafeBufferPointer { alpha in
            for y in visible.y0..<visible.y1 {
                let source = alpha.baseAddress! + (y - region.y0) * regionWidth + (visible.x0 - region.x0)
                let overTransparent = target.prepareRow(y, writing: visible.x0, visible.x1)
                let row = target.row(y) + visible.x0 * 4
                let maskRow = clip.map { UnsafePointer($0.row(y: y, x: visible.x0)) }
                let span = UnsafeBufferPointer<Float>(start: source, count: visible.x1 - visible.x0)
                Canvas.compositeSolid(row: row, coverage: span, mask: maskRow, source: solid,
                                      overTransparent: overTransparent)
            }
        }
    }
}

/// A separable Gaussian blur whose weights are the Gaussian's integral over
/// each pixel (not its value at the pixel centre), so small radii stay exact.
enum GaussianBlur {
    /// The weights for offsets −radius ... +radius, summing to 1; radius is ⌈4σ⌉.
    static func kernel(sigma: Double) -> [Float] {
        let radius = max(1, Int((4 * sigma).rounded(.up)))
        let scale = 1 / (sigma * 2.0.squareRoot())
        var weights = (-radius...radius).map { k in
            0.5 * (erf((Double(k) + 0.5) * scale) - erf((Double(k) - 0.5) * scale))
        }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        return weights.map(Float.init)
    }

    /// Blurs `values` (width × height, row-major) in place; `scratch` holds as many floats.
    /// Pixels outside the buffer count as 0.
    static func blur(_ values: UnsafeMutablePointer<Float>, width: Int, height: Int, sigma: Double,
                     scratch: UnsafeMutablePointer<Float>) {
        let weights = kernel(sigma: sigma)
        let radius = weights.count / 2
        let count = width * height
        // Horizontal: values -> scratch, one tap at a time over whole rows (vectorises).
        scratch.update(repeating: 0, count: count)
        for y in 0..<height {
            let input = values + y * width, output = scratch + y * width
            for tap in 0..<weights.count {
                let shift = tap - radius, weight = weights[tap]
                let first = max(0, -shift), last = min(width, width - shift)
                var x = first
                while x < last { output[x] += weight * input[x + shift]; x += 1 }
            }
        }
        // Vertical: scratch -> values, one tap at a time over whole rows.
        values.update(repeating: 0, count: count)
        for y in 0..<height {
            let output = values + y * width
            for tap in 0..<weights.count {
                let sourceRow = y + tap - radius
                guard sourceRow >= 0 && sourceRow < height else { continue }
                let input = scratch + sourceRow * width, weight = weights[tap]
                var x = 0
                while x < width { output[x] += weight * input[x]; x += 1 }
            }
        }
    }
}
