import PinmintGeometry

/// Per pixel, how many drawings left it partly covered: the pixels where
/// separately drawn shapes meet (see `Canvas.drawResolvingConflation`).
final class CoverageCensus {
    let width: Int, height: Int
    /// Row-major, saturating at 255.
    private(set) var counts: [UInt8]
    /// Per block of `tile × tile` pixels (row-major, `tilesPerRow` a row):
    /// whether one of its pixels is shared, so that finding them reads only those blocks.
    private(set) var sharedTiles: [Bool]
    let tile: Int, tilesPerRow: Int

    /// Coverage closer than this to 0 or 1 moves no 8-bit value by half a
    /// level, whatever it is composited with, so it does not count as partial.
    static let margin: Float = 1.0 / 512

    init(width: Int, height: Int, tile: Int) {
        self.width = width
        self.height = height
        self.tile = tile
        counts = [UInt8](repeating: 0, count: width * height)
        tilesPerRow = (width + tile - 1) / tile
        sharedTiles = [Bool](repeating: false, count: tilesPerRow * ((height + tile - 1) / tile))
    }

    /// Counts pixel `index` (of column `x`, row `y`) once more.
    @inline(__always)
    private func count(_ index: Int, x: Int, y: Int) {
        switch counts[index] {
        case 255: break
        case 1:
            counts[index] = 2
            sharedTiles[(y / tile) * tilesPerRow + x / tile] = true
        default: counts[index] += 1
        }
    }

    @inline(__always)
    static func isPartial(_ coverage: Float) -> Bool {
        coverage > margin && coverage < 1 - margin
    }

    /// Counts the partly covered pixels of `coverage`, columns `x0 ..< x0 +
    /// coverage.count` of row `y`, each value multiplied by `mask` when given
    /// (a clip's coverage over the same columns).
    func record(y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>, mask: UnsafePointer<Float>? = nil) {
        guard y >= 0, y < height else { return }
        let first = max(0, -x0), end = min(coverage.count, width - x0)
        guard first < end else { return }
        let row = y * width + x0
        for i in first..<end {
            let value = mask.map { coverage[i] * $0[i] } ?? coverage[i]
            if CoverageCensus.isPartial(value) { count(row + i, x: x0 + i, y: y) }
        }
    }

    /// Counts the partly covered pixels of `span` (a row `y` inside the
    /// canvas), each value multiplied by `mask` when given.
    func record(y: Int, span: CoverageSpan, mask: UnsafePointer<Float>?) {
        if let values = span.values {
            record(y: y, x0: span.x, coverage: UnsafeBufferPointer(start: values, count: span.count), mask: mask)
        } else if mask != nil || CoverageCensus.isPartial(span.constant) {
            // Full spans (a shape's inside) count nowhere unless a clip's edge crosses them.
            withUnsafeTemporaryAllocation(of: Float.self, capacity: span.count) { values in
                values.initialize(repeating: span.constant)
                record(y: y, x0: span.x, coverage: UnsafeBufferPointer(values), mask: mask)
            }
        }
    }

    /// Counts pixel (x, y) once more.
    func record(x: Int, y: Int) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        count(y * width + x, x: x, y: y)
    }

    /// Whether two drawings or more left pixel (x, y) partly covered.
    @inline(__always)
    func isShared(x: Int, y: Int) -> Bool { counts[y * width + x] >= 2 }
}

/// A row consumer that counts the partly covered pixels of each span in a
/// census before handing it on (unclipped drawings written row by row).
struct CountingRowConsumer<Inner: CoverageRowConsumer>: CoverageRowConsumer {
    var inner: Inner
    let census: CoverageCensus
    var y = 0

    mutating func beginRow(_ y: Int, clipApplied: Bool) {
        self.y = y
        inner.beginRow(y, clipApplied: clipApplied)
    }
    mutating func constantSpan(x: Int, count: Int, coverage: Float) {
        census.record(y: y, span: CoverageSpan(x: x, count: count, constant: coverage, values: nil), mask: nil)
        inner.constantSpan(x: x, count: count, coverage: coverage)
    }
    mutating func perPixelSpan(x: Int, count: Int, coverage: UnsafePointer<Float>) {
        census.record(y: y, x0: x, coverage: UnsafeBufferPointer(start: coverage, count: count))
        inner.perPixelSpan(x: x, count: count, coverage: coverage)
    }
    mutating func endRow() { inner.endRow() }
}

extension Canvas {
    /// The supersampling factor `drawResolvingConflation` redraws shared edge pixels at, per side.
    public static let conflationFactor = 16
    /// The side, in pixels, of the blocks `drawResolvingConflation` redraws at a time.
    static let conflationTile = 8

    /// The most blocks `drawResolvingConflation` redraws: 65,536 shared
    /// pixels at most, some 0.1 s. The scenes of Golden/scenes need at most
    /// 23 (the pin @1x).
    public static let maximumConflationBlocks = 1024

    /// The work `drawResolvingConflation` may spend redrawing after a
    /// drawing that took `drawing`: 16 times as much, and 2²⁴ more (about
    /// 16 ms). The scenes of Golden/scenes take up to 10 times their
    /// drawing's work (the pin @1x: a small drawing with 128 shared pixels)
    /// and 241,000 at most (`PinmintBench svg`).
    static func conflationWorkBudget(drawing: Int) -> Int {
        let (scaled, overflow) = drawing.multipliedReportingOverflow(by: 16)
        return overflow ? Int.max : scaled.addingReportingOverflow(1 << 24).partialValue
    }

    /// Draws with `draw` (called with this canvas and the identity), then
    /// draws again, more exactly, every pixel that two drawings or more
    /// left partly covered.
    ///
    /// Each fill, stroke or clip is exact on its own, but compositing one
    /// partial coverage over another (a 0.5 px guide line over a shape's
    /// edge, two translucent circles crossing) is not the area where they
    /// overlap: the result of `1 − (1 − a)(1 − b)` is too light or too dark
    /// (conflation; cairo, Skia and Blend2D all draw it so). While `draw`
    /// draws, each drawing counts the pixels it leaves partly covered. Then
    /// for each 8 × 8 block holding pixels that two or more share, `draw`
    /// is called again for the box around those pixels, onto a canvas
    /// `conflationFactor` (16) times finer per side, with the transform that
    /// maps this canvas's device space onto it; each shared pixel
    /// becomes the mean of its 16 × 16 fine pixels, whose coverages are
    /// still exact areas. This is what a 16 × 16 supersampled reference
    /// renderer measures, and only shared edge pixels pay for it.
    ///
    /// `draw` must draw the same thing every time it is called, in device
    /// space mapped by the transform it is given (concatenated after the
    /// drawing's own), and close every layer and clip it opens. The pixels
    /// redrawn start from the colour they had before `draw`; hard shadows'
    /// edges count, blurred shadows do not. Throws when `draw` throws, when
    /// a clip or layer is open on this canvas (a redrawn block would not
    /// have it), or when the drawing itself goes past the work limit.
    /// Returns whether the shared pixels were redrawn: not when that would
    /// take the canvas past its work limit (the redrawing counts against it,
    /// also the part done before it was given up, up to the limit) or
    /// past 16 times the drawing's own work and 2²⁴ more, when more than
    /// `maximumConflationBlocks` blocks hold shared pixels, or when
    /// a drawing 16 times larger goes out of range (a shadow's extent, a
    /// coordinate); the canvas then holds the drawing as composited in turn.
    @discardableResult
    public func drawResolvingConflation(_ draw: (Canvas, AffineMap) throws(RasterError) -> Void) throws(RasterError) -> Bool {
        guard clips.isEmpty, layers.count == 1, census == nil else {
            throw .unbalanced("drawResolvingConflation needs a canvas without open clips, layers or another such drawing")
        }
        // The pixels as they were, for blocks over a canvas that is not transparent.
        let before = layers[0].isTransparent ? nil : layers[0].packedCopy()
        let tile = Canvas.conflationTile, factor = Canvas.conflationFactor
        let census = CoverageCensus(width: width, height: height, tile: tile)
        let workBefore = work
        self.census = census
        do {
            try draw(self, .identity)
        } catch {
            self.census = nil
            throw error
        }
        self.census = nil
        guard clips.isEmpty, layers.count == 1 else {
            throw .unbalanced("a drawing resolving conflation left a clip or layer open")
        }

        // The redrawn pixels are stored once every block is drawn: when the
        // blocks would take the canvas past its work limit, none is, and the
        // drawing stays as composited in turn rather than failing.
        // Each block draws the whole drawing again (what lies outside it is
        // cheap, but not free): past `maximumConflationBlocks`, none is.
        guard census.sharedTiles.lazy.filter({ $0 }).count <= Canvas.maximumConflationBlocks else { return false }
        var resolved: [(x: Int, y: Int, pixel: SIMD4<UInt16>)] = []
        var redrawingWork = 0
        let budget = min(workLimit - work, Canvas.conflationWorkBudget(drawing: work - workBefore))
        for (index, shared) in census.sharedTiles.enumerated() where shared {
            let tileX = index % census.tilesPerRow * tile, tileY = index / census.tilesPerRow * tile
            // The box around the block's shared pixels is drawn again, finely.
            var box = PixelBounds(x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
            for y in tileY..<min(tileY + tile, height) {
                for x in tileX..<min(tileX + tile, width) where census.isShared(x: x, y: y) {
                    box = PixelBounds(x0: min(box.x0, x), y0: min(box.y0, y), x1: max(box.x1, x + 1), y1: max(box.y1, y + 1))
                }
            }
            let fine = try Canvas(width: (box.x1 - box.x0) * factor, height: (box.y1 - box.y0) * factor)
            // As exact in this canvas's pixels as the drawing itself, not `factor` times more.
            fine.fillFlatteningTolerance = fillFlatteningTolerance * Double(factor)
            fine.flatteningTolerance = flatteningTolerance * Double(factor)
            fine.rasterizer.resolvesSharedPixelsExactly = false
            fine.inheritedLayerCount = inheritedLayerCount
            fine.inheritedLayerBytes = inheritedLayerBytes
            let left = budget - redrawingWork
            guard left > 0 else { chargeUpToLimit(redrawingWork); return false }
            fine.workLimit = left
            if let before {
                for y in box.y0..<box.y1 {
                    for x in box.x0..<box.x1 {
                        fine.layers[0].fill(before[y * width + x], x0: (x - box.x0) * factor, y0: (y - box.y0) * factor,
                                            side: factor)
                    }
                }
            }
            do {
                try draw(fine, AffineMap.translation(Double(-box.x0), Double(-box.y0)).concatenating(.scale(Double(factor))))
            } catch .outOfRange {
                // Past the work limit, or 16 times larger than a shadow or a coordinate may be.
                chargeUpToLimit(redrawingWork + fine.work)
                return false
            }
            redrawingWork += fine.work
            guard fine.clips.isEmpty, fine.layers.count == 1 else {
                throw .unbalanced("a drawing resolving conflation left a clip or layer open")
            }
            for y in box.y0..<box.y1 {
                for x in box.x0..<box.x1 where census.isShared(x: x, y: y) {
                    resolved.append((x, y, fine.layers[0].mean(x0: (x - box.x0) * factor, y0: (y - box.y0) * factor, side: factor)))
                }
            }
        }
        try charge(redrawingWork)
        for (x, y, pixel) in resolved { layers[0].store(pixel, x: x, y: y) }
        return true
    }
}

extension Canvas {
    /// `drawResolvingConflation` for a drawing that goes onto a canvas that
    /// already has clips or layers open (an SVG icon inside a marker): `draw`
    /// draws as a group, onto a transparent layer of its own with conflation
    /// resolved there, and the layer is composited with `opacity` through the
    /// clips in force into the innermost open layer, as `beginLayer` and
    /// `endLayer(opacity:clipped:)` would. Source-over composites the same
    /// colours grouped or in turn, so only the pixels where the group's
    /// drawings meet change (and pixels where a clip's edge crosses one of
    /// them: the clip now cuts the group once, as SVG clips a group).
    ///
    /// `bounds` (device pixels; nil for the whole canvas) is where the group
    /// may draw: its layer covers only the whole pixels these bounds touch
    /// within the clips in force, and what the drawing puts outside is cut.
    /// `opacity` is clamped to 0...1; at 0 nothing is drawn. `draw` is as for
    /// `drawResolvingConflation`. The group's work counts against this
    /// canvas's work limit; its layer counts against `maximumLayerDepth` and
    /// `maximumLayerBytes`, and so do layers the drawing opens within it.
    /// Where this canvas is itself being drawn by `drawResolvingConflation`,
    /// the group's own partly covered pixels do not count in that census (its
    /// clip's edges do). Throws `RasterError.nonFinite` for a non-finite
    /// opacity or bounds, and as `drawResolvingConflation` does. Returns
    /// whether the group's shared pixels were redrawn.
    @discardableResult
    public func drawGroupResolvingConflation(within bounds: Rect? = nil, opacity: Double = 1,
                                             _ draw: (Canvas, AffineMap) throws(RasterError) -> Void) throws(RasterError) -> Bool {
        guard opacity.isFinite else { throw .nonFinite("group opacity") }
        try checkRoomForLayer()
        guard opacity > 0 else { return false }
        var box = drawableBounds
        if let bounds {
            guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else {
                throw .nonFinite("group bounds")
            }
            // Clamped to the canvas before converting, so that any finite bounds convert.
            func clamped(_ value: Double, _ limit: Int) -> Int { Int(min(max(value, 0), Double(limit))) }
            box = box.intersection(PixelBounds(x0: clamped(bounds.minX.rounded(.down), width),
                                               y0: clamped(bounds.minY.rounded(.down), height),
                                               x1: clamped(bounds.maxX.rounded(.up), width),
                                               y1: clamped(bounds.maxY.rounded(.up), height)))
        }
        guard !box.isEmpty else { return false }
        let group = try Canvas(width: box.x1 - box.x0, height: box.y1 - box.y0)
        group.inheritedLayerCount = inheritedLayerCount + layers.count
        group.inheritedLayerBytes = inheritedLayerBytes + layers.count * width * height * 8
        group.fillFlatteningTolerance = fillFlatteningTolerance
        group.flatteningTolerance = flatteningTolerance
        // What this canvas's limit leaves after compositing the group (a
        // limit near Int.min leaves nothing rather than overflowing).
        let compositeWork = (box.x1 - box.x0) * (box.y1 - box.y0) * Canvas.compositeWorkPerPixel
        let (left, overflow) = workLimit.subtractingReportingOverflow(work)
        group.workLimit = overflow ? Int.min : left - min(compositeWork, max(0, left))
        let origin = AffineMap.translation(Double(-box.x0), Double(-box.y0))
        let resolved: Bool
        do {
            resolved = try group.drawResolvingConflation { (target, device) throws(RasterError) in
                try draw(target, origin.concatenating(device))
            }
        } catch {
            try charge(group.work)
            throw error
        }
        try charge(group.work)
        try composite(group.layers[0], x0: box.x0, y0: box.y0, factor: Float(min(opacity, 1)), clip: clips.last)
        return resolved
    }
}

extension PixelBuffer {
    /// Whether every pixel is transparent (every row stale or without dirty columns).
    var isTransparent: Bool {
        (0..<height).allSatisfy { nonZeroColumns($0) == nil }
    }

    /// Every pixel packed (as `Canvas.pack`), row-major.
    func packedCopy() -> [UInt64] {
        prepareAll()
        return (0..<width * height).map { UnsafeRawPointer(pointer + 4 * $0).load(as: UInt64.self) }
    }

    /// Sets the `side × side` pixels from (x0, y0) to `packed`.
    func fill(_ packed: UInt64, x0: Int, y0: Int, side: Int) {
        for y in y0..<y0 + side {
            prepareRow(y, writing: x0, x0 + side)
            Canvas.fillRun(row(y) + 4 * x0, count: side, packed: packed)
        }
    }

    /// The mean of the `side × side` pixels from (x0, y0), rounded to nearest.
    func mean(x0: Int, y0: Int, side: Int) -> SIMD4<UInt16> {
        var sum = SIMD4<UInt32>.zero
        for y in y0..<y0 + side {
            prepareRow(y, writing: 0, 0)
            let pixels = row(y) + 4 * x0
            for x in 0..<side {
                sum &+= SIMD4<UInt32>(UInt32(pixels[4 * x]), UInt32(pixels[4 * x + 1]), UInt32(pixels[4 * x + 2]),
                                      UInt32(pixels[4 * x + 3]))
            }
        }
        let count = UInt32(side * side)
        return SIMD4<UInt16>(truncatingIfNeeded: (sum &+ count / 2) / count)
    }

    /// Stores `pixel` (premultiplied, 0...65535) at (x, y).
    func store(_ pixel: SIMD4<UInt16>, x: Int, y: Int) {
        prepareRow(y, writing: x, x + 1)
        let target = row(y) + 4 * x
        target[0] = pixel.x; target[1] = pixel.y; target[2] = pixel.z; target[3] = pixel.w
    }
}
