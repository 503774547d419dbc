import Glibc
import PinmintGeometry

/// Drop shadows and glows: the shape's coverage, blurred, tinted and composited under it.
extension Canvas {
    /// The work a shadow is charged per pixel of the region it blurs
    /// (rasterizing, the blur's passes, compositing), for `workLimit`, up
    /// front: callgrind measured 96 instructions a cell for blurs of σ 10
    /// and 50 (the passes cost the same whatever the radius; the region
    /// grows by 4σ a side), 16 units at 5.6 instructions a unit.
    static let shadowPassesCharged = 16

    /// The farthest a shadow may reach, device pixels: its offset, and four
    /// times its blur's standard deviation (`Shadow.blurRadius` × the
    /// transform's scale). 2²⁰, 64 of the largest canvases; a shadow that
    /// wide would exceed `defaultWorkLimit` anyway, and beyond it the pixel
    /// arithmetic could overflow. Larger shadows throw `RasterError.outOfRange`.
    public static let maximumShadowExtent = Double(1 << 20)

    /// Draws the shadow of the shape held in `polylines` (device space).
    func drawShadow(_ shadow: Shadow, rule: FillRule, transform: AffineMap, opacity: Double) throws(RasterError) {
        guard shadow.offset.isFinite, shadow.blurRadius.isFinite else { throw .nonFinite("shadow") }
        let color = Canvas.premultipliedFloat(shadow.color, opacity: opacity)
        guard color.w > 0, let shapeBounds = Canvas.deviceBounds(of: polylines) else { return }
        let scale = transform.maximumScale
        let sigma = max(0, shadow.blurRadius) * scale
        let offset = shadow.offset * scale
        // Refused before any conversion to Int: a blur reaching (4σ) or an
        // offset beyond `maximumShadowExtent` device pixels cannot fit the work limit.
        guard 4 * sigma <= Canvas.maximumShadowExtent, abs(offset.x) <= Canvas.maximumShadowExtent,
              abs(offset.y) <= Canvas.maximumShadowExtent else {
            throw .outOfRange("shadow blur radius \(shadow.blurRadius) or offset (\(shadow.offset.x), \(shadow.offset.y)) "
                              + "reaches beyond \(Int(Canvas.maximumShadowExtent)) device pixels once transformed")
        }
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
        // Rasterizing, blurring (a few passes over the region) and compositing, charged up front.
        try charge(cellCount * Canvas.shadowPassesCharged)
        if shadowAlpha.count < cellCount { shadowAlpha = [Float](repeating: 0, count: cellCount) }
        if shadowScratch.count < cellCount { shadowScratch = [Float](repeating: 0, count: cellCount) }

        // Coverage of the shape moved by the offset. The moved points are
        // rasterized in place of the shape's own, which wait untouched in
        // `shadowPoints` and are swapped back after: moving them by the
        // offset and back would not always give the same values again.
        swap(&polylines.points, &shadowPoints)
        polylines.points.removeAll(keepingCapacity: true)
        for point in shadowPoints { polylines.points.append(point + offset) }
        shadowAlpha.withUnsafeMutableBufferPointer { alpha in
            alpha.baseAddress!.update(repeating: 0, count: cellCount)
            // A hard shadow's edge is partial coverage like a shape's; a blurred one has none.
            let census = sigma > 0 ? nil : self.census
            rasterizer.rasterize(polylines, rule: rule, bounds: region) { y, x0, coverage, _ in
                let row = alpha.baseAddress! + (y - region.y0) * regionWidth + (x0 - region.x0)
                for i in 0..<coverage.count { row[i] = coverage[i] }
                census?.record(y: y, x0: x0, coverage: coverage)
            }
        }
        swap(&polylines.points, &shadowPoints)

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
    ///
    /// A shape's coverage is flat almost everywhere: rows through a bubble's
    /// body are identical, and along a row the value changes only at the
    /// edges. So each pass convolves the signal's *differences* with the
    /// kernel's running sum C (the step response): with d[i] = in[i] −
    /// in[i−1], out[x] = in[x−r−1] + Σ d[i]·C(x−i) over |x−i| ≤ r, and a
    /// zero difference costs nothing. Along rows the differences are single
    /// values; down the columns they are whole rows, and identical rows are
    /// skipped. The same sums as the direct convolution, in another order
    /// (the tests check it against one).
    static func blur(_ values: UnsafeMutablePointer<Float>, width: Int, height: Int, sigma: Double,
                     scratch: UnsafeMutablePointer<Float>) {
        let weights = kernel(sigma: sigma)
        let radius = weights.count / 2
        // cumulative[t + radius] = Σ weights[k + radius] for k ≤ t; exactly 1 at the far end.
        var cumulative = [Float](repeating: 0, count: weights.count)
        var running = 0.0
        for (index, weight) in weights.enumerated() {
            running += Double(weight)
            cumulative[index] = Float(running)
        }
        cumulative[weights.count - 1] = 1
        cumulative.withUnsafeBufferPointer { steps in
            let step = steps.baseAddress!
            // Horizontal: values -> scratch.
            for y in 0..<height {
                let input = values + y * width, output = scratch + y * width
                for x in 0..<width { output[x] = x > radius ? input[x - radius - 1] : 0 }
                var previous: Float = 0
                for i in 0...width {
                    let current = i < width ? input[i] : 0
                    let difference = current - previous
                    previous = current
                    guard difference != 0 else { continue }
                    let low = max(0, i - radius), high = min(width - 1, i + radius)
                    guard low <= high else { continue }
                    for x in low...high { output[x] += difference * step[x - i + radius] }
                }
            }
            // Vertical: scratch -> values, a row of differences at a time.
            for y in 0..<height {
                let output = values + y * width
                if y > radius {
                    output.update(from: scratch + (y - radius - 1) * width, count: width)
                } else {
                    output.update(repeating: 0, count: width)
                }
            }
            let difference = UnsafeMutablePointer<Float>.allocate(capacity: max(width, 1))
            defer { difference.deallocate() }
            for i in 0...height {
                var changes = false
                for x in 0..<width {
                    let current = i < height ? scratch[i * width + x] : 0
                    let previous = i > 0 ? scratch[(i - 1) * width + x] : 0
                    difference[x] = current - previous
                    if difference[x] != 0 { changes = true }
                }
                guard changes else { continue }
                let low = max(0, i - radius), high = min(height - 1, i + radius)
                guard low <= high else { continue }
                for y in low...high {
                    let factor = step[y - i + radius], output = values + y * width
                    for x in 0..<width { output[x] += difference[x] * factor }
                }
            }
        }
    }
}
