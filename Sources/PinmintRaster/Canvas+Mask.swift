import PinmintGeometry

/// A shape's coverage, rasterized once and composited many times: how text
/// draws a glyph it has drawn before. Coverage is 0...1 per device pixel,
/// exactly what `fill` would composite for the same path at the same
/// sub-pixel position; a mask moves only by whole pixels, so that position
/// is kept.
public struct CoverageMask: Sendable {
    /// Offset of the mask's top-left pixel from the drawing origin it was
    /// rasterized at, device pixels.
    public let originX: Int, originY: Int
    public let width: Int, height: Int
    /// Row-major, `width × height` values.
    let coverage: [Float]
    /// Per row, the columns `start ..< end` (mask coordinates) outside which
    /// coverage is 0: compositing skips the rest of the row.
    let rowStarts: [Int32], rowEnds: [Int32]

    /// Bytes held, for caches that bound their memory.
    public var byteCount: Int { coverage.count * MemoryLayout<Float>.size }
}

extension Canvas {
    /// Rasterizes `path` (user space, mapped by `transform`) into a mask.
    /// The mask does not depend on this canvas's size, clip or pixels; the
    /// canvas only lends its rasterizer. Throws `RasterError.nonFinite` for
    /// NaN or infinite coordinates; a mask has at most `Canvas.maximumSide`
    /// pixels a side (larger shapes give an empty mask: fill them instead).
    public func makeCoverageMask(_ path: Path, rule: FillRule = .nonZero,
                                 transform: AffineTransform = .identity) throws(RasterError) -> CoverageMask {
        try Canvas.validate(path: path, transform: transform, opacity: 1)
        path.flatten(transform: transform, tolerance: fillFlatteningTolerance, centred: true, into: &polylines)
        guard let bounds = Canvas.deviceBounds(of: polylines), !bounds.isEmpty,
              bounds.x1 - bounds.x0 <= Canvas.maximumSide, bounds.y1 - bounds.y0 <= Canvas.maximumSide else {
            return CoverageMask(originX: 0, originY: 0, width: 0, height: 0, coverage: [], rowStarts: [], rowEnds: [])
        }
        let width = bounds.x1 - bounds.x0, height = bounds.y1 - bounds.y0
        var coverage = [Float](repeating: 0, count: width * height)
        coverage.withUnsafeMutableBufferPointer { values in
            rasterizer.rasterize(polylines, rule: rule, bounds: bounds) { y, x0, rowCoverage, _ in
                let row = values.baseAddress! + (y - bounds.y0) * width + (x0 - bounds.x0)
                for i in 0..<rowCoverage.count { row[i] = rowCoverage[i] }
            }
        }
        var rowStarts = [Int32](repeating: 0, count: height), rowEnds = [Int32](repeating: 0, count: height)
        for y in 0..<height {
            let row = coverage[(y * width)..<((y + 1) * width)]
            guard let first = row.firstIndex(where: { $0 != 0 }), let last = row.lastIndex(where: { $0 != 0 }) else { continue }
            rowStarts[y] = Int32(first - y * width)
            rowEnds[y] = Int32(last - y * width + 1)
        }
        return CoverageMask(originX: bounds.x0, originY: bounds.y0, width: width, height: height, coverage: coverage,
                            rowStarts: rowStarts, rowEnds: rowEnds)
    }

    /// Composites `color` (× `opacity`) through `mask`, moved by whole device
    /// pixels (`x`, `y`), source-over, inside the current clip and layer.
    public func fill(mask: CoverageMask, x: Int, y: Int, color: Color, opacity: Double = 1) throws(RasterError) {
        guard opacity.isFinite else { throw .nonFinite("opacity") }
        let premultiplied = Canvas.premultipliedFloat(color, opacity: opacity)
        guard premultiplied.w > 0, mask.width > 0 else { return }
        let left = mask.originX + x, top = mask.originY + y
        let area = PixelBounds(x0: left, y0: top, x1: left + mask.width, y1: top + mask.height).intersection(drawableBounds)
        guard !area.isEmpty else { return }
        let target = layers[layers.count - 1]
        let clip = clips.last
        let solid = SolidSource(color: premultiplied, blend: .sourceOver)
        mask.coverage.withUnsafeBufferPointer { values in
            for row in area.y0..<area.y1 {
                let x0 = max(area.x0, left + Int(mask.rowStarts[row - top]))
                let x1 = min(area.x1, left + Int(mask.rowEnds[row - top]))
                guard x1 > x0 else { continue }
                let source = values.baseAddress! + (row - top) * mask.width + (x0 - left)
                let overTransparent = target.prepareRow(row, writing: x0, x1)
                let pixels = target.row(row) + x0 * 4
                let clipRow = clip.map { UnsafePointer($0.row(y: row, x: x0)) }
                Canvas.compositeSolid(row: pixels, coverage: UnsafeBufferPointer(start: source, count: x1 - x0),
                                      mask: clipRow, source: solid, overTransparent: overTransparent)
            }
        }
    }
}
