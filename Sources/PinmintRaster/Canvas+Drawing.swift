import PinmintGeometry
#if arch(x86_64)
// SSE2 (part of every x86-64 processor) for the four-channel conversions.
import _Builtin_intrinsics.intel
#endif

/// Filling, clipping and layers.
extension Canvas {
    /// Fills `path` (user space, mapped to device pixels by `transform`) with
    /// `paint`. `opacity` (0...1) multiplies the paint's alpha; `shadow`, when
    /// given, is drawn under the shape first. Throws `RasterError.nonFinite`
    /// for NaN or infinite coordinates, transform or opacity, and
    /// `RasterError.outOfRange` for device coordinates beyond ±1e12 pixels
    /// (`maximumDeviceCoordinate`) or a shadow reaching beyond
    /// `maximumShadowExtent`; nothing is drawn then.
    public func fill(_ path: Path, paint: Paint, rule: FillRule = .nonZero,
                     transform: AffineMap = .identity, opacity: Double = 1,
                     blend: BlendMode = .sourceOver, shadow: Shadow? = nil) throws(RasterError) {
        try Canvas.validate(path: path, transform: transform, opacity: opacity)
        path.flatten(transform: transform, tolerance: fillFlatteningTolerance, centred: true, into: &polylines)
        try drawPolylines(rule: rule, paint: paint, transform: transform, opacity: opacity, blend: blend,
                          shadow: shadow)
    }

    /// Restricts drawing to the inside of `path` until the matching
    /// `popClip()`. Clips nest: each one intersects the current clip. Edges
    /// are anti-aliased: a pixel half inside the clip gets half of what is drawn.
    public func pushClip(_ path: Path, rule: FillRule = .nonZero,
                         transform: AffineMap = .identity) throws(RasterError) {
        try Canvas.validate(path: path, transform: transform, opacity: 1)
        path.flatten(transform: transform, tolerance: fillFlatteningTolerance, centred: true, into: &polylines)
        try Canvas.validate(device: polylines)
        let parent = clips.last
        var bounds = drawableBounds
        if let box = Canvas.deviceBounds(of: polylines) { bounds = bounds.intersection(box) }
        if bounds.isEmpty { bounds = PixelBounds(x0: 0, y0: 0, x1: 0, y1: 0) }
        let mask = ClipMask(polylines: polylines, rule: rule, bounds: bounds,
                            coverage: FloatBuffer(count: max(0, bounds.x1 - bounds.x0) * max(0, bounds.y1 - bounds.y0)))
        if !bounds.isEmpty {
            rasterizer.rasterize(polylines, rule: rule, bounds: bounds, clips: clips) { y, x0, rowCoverage, clipApplied in
                let row = mask.row(y: y, x: x0)
                if let parent, !clipApplied {
                    let parentRow = parent.row(y: y, x: x0)
                    for i in 0..<rowCoverage.count { row[i] = rowCoverage[i] * parentRow[i] }
                } else {
                    for i in 0..<rowCoverage.count { row[i] = rowCoverage[i] }
                }
            }
            try charge(rasterizer.lastWork)
        }
        clips.append(mask)
    }

    /// Removes the innermost clip. Throws `RasterError.unbalanced` when there is none.
    public func popClip() throws(RasterError) {
        guard !clips.isEmpty else { throw .unbalanced("popClip() without a matching pushClip()") }
        clips.removeLast()
    }

    /// The number of clips in force.
    public var clipDepth: Int { clips.count }

    /// Layers open at once at most, counting the canvas itself: nested
    /// groups with opacity take one each.
    public static let maximumLayerDepth = 32

    /// Bytes the canvas and its open layers may take together: each layer
    /// is a full canvas of 8-byte pixels (128 MiB at the largest canvas), so
    /// a large canvas allows fewer nested layers than `maximumLayerDepth`.
    public static let maximumLayerBytes = 1 << 30

    /// Starts a transparent layer: everything drawn until `endLayer` goes
    /// into it, and `endLayer` composites it as one image (SVG group opacity).
    /// Throws `RasterError.outOfRange` past `maximumLayerDepth` layers or
    /// `maximumLayerBytes` of them (deeply nested translucent groups).
    public func beginLayer() throws(RasterError) {
        try checkRoomForLayer()
        layers.append(PixelBuffer(width: width, height: height))
    }

    /// Throws unless one more layer stays within `maximumLayerDepth` and `maximumLayerBytes`.
    func checkRoomForLayer() throws(RasterError) {
        guard inheritedLayerCount + layers.count < Canvas.maximumLayerDepth else {
            throw .outOfRange("groups with opacity nested more than \(Canvas.maximumLayerDepth - 1) deep")
        }
        let layerBytes = width * height * 8
        guard inheritedLayerBytes + (layers.count + 1) * layerBytes <= Canvas.maximumLayerBytes else {
            let allowed = Canvas.maximumLayerBytes / layerBytes - 1
            throw .outOfRange("groups with opacity nested more than \(allowed) deep on a \(width)x\(height) canvas "
                              + "(each takes a layer of \(layerBytes >> 20) MiB)")
        }
    }

    /// Composites the innermost layer onto the one below with `opacity`
    /// (source over). Clips in force while drawing into the layer already
    /// shaped its content and are not applied again, unless `clipped` is
    /// true: then the innermost clip masks the layer as it is composited.
    /// Drawing a group unclipped into a layer and clipping the layer once is
    /// how a clip on a group avoids conflation: shapes that share the clip's
    /// edge do not each get the edge's partial coverage.
    public func endLayer(opacity: Double = 1, clipped: Bool = false) throws(RasterError) {
        guard layers.count > 1 else { throw .unbalanced("endLayer() without a matching beginLayer()") }
        guard opacity.isFinite else { throw .nonFinite("layer opacity") }
        let layer = layers.removeLast()
        let factor = Float(min(max(opacity, 0), 1))
        guard factor > 0 else { return }
        try composite(layer, x0: 0, y0: 0, factor: factor, clip: clipped ? clips.last : nil)
    }

    /// The work a layer's composite is charged per pixel of its region
    /// (clearing the layer, blending it back): callgrind measured 43
    /// instructions a pixel for a translucent group of one solid box.
    static let compositeWorkPerPixel = 6
    /// The work of a point of a drawing's outline, on the canvas or off it:
    /// flattening or stroking it, validating it, making its edge. Stroking
    /// round-capped dashes took about 250 ns a point (timed, a cold
    /// canvas); 64 units (about 360 instructions) errs low for strokes and
    /// high for fills. Without it, points off the canvas cost nothing, and
    /// conflation's redrawing, which draws every shape again per block,
    /// could repeat a long dashed line for free: 6.9 s for a 942-byte SVG
    /// (WorkLimitTests.pointsOffTheCanvasAreCharged), 0.76 s now.
    static let workPerPoint = 64

    /// Composites `layer`, whose pixel (0, 0) lands on pixel (x0, y0), onto
    /// the innermost open layer (source over), each pixel weighed by
    /// `factor` (0...1) and by `clip`'s coverage when given. Charges the
    /// area it covers.
    func composite(_ layer: PixelBuffer, x0: Int, y0: Int, factor: Float, clip: ClipMask?) throws(RasterError) {
        // Charged before the pixels are touched.
        let target = layers[layers.count - 1]
        let region = (clip?.bounds ?? fullBounds)
            .intersection(PixelBounds(x0: x0, y0: y0, x1: x0 + layer.width, y1: y0 + layer.height))
        guard !region.isEmpty else { return }
        try charge((region.x1 - region.x0) * (region.y1 - region.y0) * Canvas.compositeWorkPerPixel)
        for y in region.y0..<region.y1 {
            // Outside its non-zero columns the layer is transparent and changes
            // nothing. They may lie wholly outside the region (content beside
            // a clip, in the clip's rows): `clamped` makes that an empty range,
            // where a lower bound past the upper one was iterated past the row.
            guard let nonZero = layer.nonZeroColumns(y - y0) else { continue }
            let columns = (nonZero.lowerBound + x0..<nonZero.upperBound + x0).clamped(to: region.x0..<region.x1)
            guard !columns.isEmpty else { continue }
            target.prepareRow(y, writing: columns.lowerBound, columns.upperBound)
            let sourceRow = layer.row(y - y0), destination = target.row(y)
            let maskRow = clip.map { $0.row(y: y, x: region.x0) }
            for x in columns where sourceRow[(x - x0) * 4 + 3] != 0 {
                let amount = factor * (maskRow?[x - region.x0] ?? 1)
                guard amount > 0 else { continue }
                // A clip's edge over the layer's content is one more partial coverage there.
                if let census, let maskRow, CoverageCensus.isPartial(maskRow[x - region.x0]) { census.record(x: x, y: y) }
                let pixel = sourceRow + (x - x0) * 4
                let color = SIMD4<Float>(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), Float(pixel[3]))
                Canvas.blendPixel(destination + x * 4, source: color, amount: amount, blend: .sourceOver)
            }
        }
    }

    /// The layer count, 1 when no `beginLayer` is open.
    public var layerDepth: Int { layers.count }

    // MARK: Shared drawing path

    static func validate(path: Path, transform: AffineMap, opacity: Double) throws(RasterError) {
        guard path.isFinite else { throw .nonFinite("path coordinates") }
        guard transform.isFinite else { throw .nonFinite("transform") }
        guard opacity.isFinite else { throw .nonFinite("opacity") }
    }

    /// The largest device coordinate a flattened path may have: 10¹² pixels,
    /// sixty million canvases away. Up to there the clipping arithmetic cannot
    /// overflow a Double; beyond it (or where a finite path overflows when
    /// transformed or flattened, e.g. 1e308 at scale 3) a path is refused.
    public static let maximumDeviceCoordinate = 1e12

    /// The most points one drawing's path may become once flattened or
    /// stroked (2²¹, 32 MiB of points): a marker takes a few thousand, a
    /// detailed icon tens of thousands. Past it `fill`, `stroke`, `pushClip`
    /// and `makeCoverageMask` stop building the outline and throw
    /// `RasterError.outOfRange`, so that a short description (a million
    /// round-capped dashes, a long zigzag stroked wide with round joins)
    /// cannot take gigabytes before the work limit is consulted.
    public static let maximumPathPointCount = 1 << 21

    /// Throws `RasterError.outOfRange` when the outline stopped at
    /// `maximumPathPointCount`, or a point of `polylines` (device space) is
    /// beyond `maximumDeviceCoordinate`, infinite or NaN.
    ///
    /// Returns whether every point lies inside `bounds` (sides included;
    /// false for nil bounds): the rasterizer then tests no vertex against
    /// them (`pointsInside`). One pass gathers the points' extent, two
    /// coordinates at once (a `minpd` and a `maxpd` a point), and a NaN
    /// probe (x - x is NaN for NaN and infinities, 0 otherwise); the tests
    /// come after it, so the error is the same for every input.
    @discardableResult
    static func validate(device polylines: Polylines, within bounds: PixelBounds? = nil) throws(RasterError) -> Bool {
        if polylines.reachedPointLimit {
            throw .outOfRange("the path flattens or strokes to more than \(maximumPathPointCount) points "
                              + "(too many or too long curves, round joins or dashes for the tolerance)")
        }
        var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
        var probe = SIMD2<Double>.zero
        polylines.points.withUnsafeBufferPointer { points in
            for point in points {
                let v = SIMD2(point.x, point.y)
                // Selects LLVM turns into minpd/maxpd (NaN is caught by the probe).
                low = low.replacing(with: v, where: v .< low)
                high = high.replacing(with: v, where: v .> high)
                probe += v - v
            }
        }
        let limit = maximumDeviceCoordinate
        guard probe == .zero, low.x >= -limit, low.y >= -limit, high.x <= limit, high.y <= limit else {
            throw .outOfRange("path coordinates beyond ±1e12 device pixels once transformed (or overflowing)")
        }
        guard let bounds else { return false }
        return low.x >= Double(bounds.x0) && high.x <= Double(bounds.x1)
            && low.y >= Double(bounds.y0) && high.y <= Double(bounds.y1)
    }

    /// The device pixels touched by the polylines, or nil when there are none.
    static func deviceBounds(of polylines: Polylines) -> PixelBounds? {
        guard !polylines.points.isEmpty else { return nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for point in polylines.points {
            minX = min(minX, point.x); maxX = max(maxX, point.x)
            minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        let limit = Double(Canvas.maximumSide * 4)
        func clamp(_ v: Double) -> Int { Int(min(max(v, -limit), limit)) }
        return PixelBounds(x0: clamp(minX.rounded(.down)), y0: clamp(minY.rounded(.down)),
                           x1: clamp(maxX.rounded(.up)), y1: clamp(maxY.rounded(.up)))
    }

    /// Composites the shape now held in `polylines` (device space).
    func drawPolylines(rule: FillRule, paint: Paint, transform: AffineMap, opacity: Double,
                       blend: BlendMode, shadow: Shadow?) throws(RasterError) {
        let bounds = drawableBounds
        // The points were flattened or stroked, and are validated and turned
        // into edges, wherever they lie: charged whether or not they reach the canvas.
        try charge(polylines.points.count * Canvas.workPerPoint)
        // A stroke that stopped at the point limit may have written no point at all.
        if polylines.reachedPointLimit { try Canvas.validate(device: polylines) }
        guard !bounds.isEmpty, !polylines.points.isEmpty else { return }
        let pointsInside = try Canvas.validate(device: polylines, within: bounds)
        if let shadow, blend == .sourceOver {
            // The shadow is cast by what is drawn: a translucent solid casts a
            // lighter shadow (SVG's SourceAlpha, CALayer's composited alpha).
            // Gradients and images cast the shadow of their coverage.
            var shadowOpacity = opacity
            if case .solid(let color) = paint { shadowOpacity *= color.alpha }
            try drawShadow(shadow, rule: rule, transform: transform, opacity: shadowOpacity)
        }
        let shader = try PaintShader(paint, transform: transform, opacity: opacity)
        let target = layers[layers.count - 1]
        let clip = clips.last
        // Shading is charged before anything is drawn, for every pixel the shape can reach: a
        // drawing the limit refuses costs nothing (the rasterizer refuses its own work the same way).
        if shader.workPerPixel > 0, let shape = Canvas.deviceBounds(of: polylines) {
            let reach = shape.intersection(clip?.bounds ?? bounds).intersection(bounds)
            if !reach.isEmpty { try charge((reach.x1 - reach.x0) * (reach.y1 - reach.y0) * shader.workPerPixel) }
        }
        let canvasWidth = width
        let solid: SolidSource? = if case .solid(let color) = shader.kind { SolidSource(color: color, blend: blend) } else { nil }
        // Solid, unclipped, not clear: written straight from the rasterizer (no span list).
        let census = self.census
        if let solid, clip == nil, blend != .clear, writesSolidRowsDirectly {
            var writer = SolidRowWriter(target: target, source: solid)
            if let census {
                var counting = CountingRowConsumer(inner: writer, census: census)
                rasterizer.rasterizeRows(polylines, rule: rule, bounds: bounds, clips: clips, pointsInside: pointsInside,
                                         into: &counting)
            } else {
                rasterizer.rasterizeRows(polylines, rule: rule, bounds: bounds, clips: clips, pointsInside: pointsInside,
                                         into: &writer)
            }
            try charge(rasterizer.lastWork)
            return
        }
        if shadeRow.count < width { shadeRow = [SIMD4<Float>](repeating: .zero, count: width) }
        shadeRow.withUnsafeMutableBufferPointer { shade in
            rasterizer.rasterizeSpans(polylines, rule: rule, bounds: bounds, clips: clips,
                                      pointsInside: pointsInside) { y, spans, clipApplied in
                let extentStart = spans[0].x, extentEnd = spans[spans.count - 1].x + spans[spans.count - 1].count
                let overTransparent = target.prepareRow(y, writing: extentStart, extentEnd)
                for span in spans {
                    let row = target.pointer + (y * canvasWidth + span.x) * 4
                    // Rows resolved exactly against the clips already hold the intersection.
                    let maskRow = clipApplied ? nil : clip.map { UnsafePointer($0.row(y: y, x: span.x)) }
                    census?.record(y: y, span: span, mask: maskRow)
                    if let solid {
                        if let values = span.values {
                            Canvas.compositeSolid(row: row, coverage: UnsafeBufferPointer(start: values, count: span.count),
                                                  mask: maskRow, source: solid, overTransparent: overTransparent)
                        } else {
                            Canvas.compositeSolid(row: row, count: span.count, coverage: span.constant,
                                                  mask: maskRow, source: solid, overTransparent: overTransparent)
                        }
                    } else {
                        shader.shade(y: y, x0: span.x, count: span.count, into: shade.baseAddress!)
                        if let values = span.values {
                            Canvas.compositeShaded(row: row, coverage: UnsafeBufferPointer(start: values, count: span.count),
                                                   mask: maskRow, colors: shade.baseAddress!, blend: blend)
                        } else {
                            Canvas.compositeShaded(row: row, count: span.count, coverage: span.constant,
                                                   mask: maskRow, colors: shade.baseAddress!, blend: blend)
                        }
                    }
                }
            }
        }
        try charge(rasterizer.lastWork)
    }

    /// Writes a solid colour's coverage into the target row by row as the
    /// rasterizer delivers spans (unclipped, any blend but `.clear`). Over a
    /// transparent row every pixel of a span is stored, none read (a stale
    /// row's old values are garbage): the values blending over zeros gives,
    /// and the gaps between spans of a stale row are zeroed. Other rows are
    /// blended by `compositeSolid`. The same pixels as compositing the
    /// row's span list (tested against it).
    struct SolidRowWriter: CoverageRowConsumer {
        let target: PixelBuffer
        let source: SolidSource
        var y = 0
        /// The row's first pixel, and the columns written so far (`rowStart ..< position`).
        var row: UnsafeMutablePointer<UInt16>
        var rowStart = 0, position = 0
        /// No span yet in this row: the row is prepared at the first one.
        var waitingForFirstSpan = true
        /// The row was transparent (store, don't blend); and a stale one, whose gaps must be zeroed.
        var overTransparent = false, mustOverwrite = false

        init(target: PixelBuffer, source: SolidSource) {
            self.target = target
            self.source = source
            row = target.pointer
        }

        @inline(__always)
        mutating func beginRow(_ y: Int, clipApplied: Bool) {
            self.y = y
            row = target.row(y)
            waitingForFirstSpan = true
        }

        /// Prepares the row at its first span (column `x`), zeroes a stale
        /// row's gap before column `x`, and advances `position` to `x + count`.
        @inline(__always)
        mutating func reach(_ x: Int, count: Int) {
            if waitingForFirstSpan {
                waitingForFirstSpan = false
                rowStart = x
                (overTransparent, mustOverwrite) = target.beginOverwrite(y, from: x)
            } else if mustOverwrite && x > position {
                (row + position &* 4).update(repeating: 0, count: (x &- position) &* 4)
            }
            position = x &+ count
        }

        @inline(__always)
        mutating func constantSpan(x: Int, count: Int, coverage: Float) {
            // A negligible coverage (the rounding residue a row's sum leaves
            // after its last edge, often to the row's end) writes nothing:
            // `compositeSolid` skips it, and over a transparent row it would
            // store zeros where the row is zero already (a stale row's gaps
            // are zeroed by `reach` and `endOverwrite`).
            if !(coverage >= Canvas.negligibleAmount) { return }
            reach(x, count: count)
            if overTransparent {
                Canvas.fillRun(row + x &* 4, count: count, packed: source.packedOverTransparent(coverage))
            } else if coverage >= 1 && source.storesRuns {
                // What `compositeSolid` does for full coverage (a run of stores), without
                // its call: it is not inlined here, and the call spills the span loop's registers.
                Canvas.fillRun(row + x &* 4, count: count, packed: source.storedPacked)
            } else {
                Canvas.compositeSolid(row: row + x &* 4, count: count, coverage: coverage, mask: nil, source: source,
                                      overTransparent: false)
            }
        }

        @inline(__always)
        mutating func perPixelSpan(x: Int, count: Int, coverage: UnsafePointer<Float>) {
            reach(x, count: count)
            if overTransparent {
                source.storeOverTransparent(row + x &* 4, coverage: coverage, count: count)
            } else if source.blendsWithoutBranches {
                // An opaque colour over drawn pixels: `blendOver`'s branch-free blend, the same values.
                source.blendOver(row + x &* 4, coverage: coverage, count: count)
            } else {
                Canvas.compositeSolid(row: row + x &* 4, coverage: UnsafeBufferPointer(start: coverage, count: count),
                                      mask: nil, source: source, overTransparent: false)
            }
        }

        @inline(__always)
        mutating func endRow() {
            // Only negligible spans: nothing was written, the row is as it was.
            if waitingForFirstSpan { return }
            target.endOverwrite(y, from: rowStart, to: position, mustOverwrite: mustOverwrite)
        }
    }

    // MARK: Compositing kernels

    /// A solid colour prepared for compositing: the float colour for partial
    /// coverage and the rounded 16-bit pixel and fixed-point factor for runs.
    struct SolidSource {
        var color: SIMD4<Float>
        var mode: BlendMode
        /// Runs are plain stores: an opaque colour drawn source-over, or copy.
        var storesRuns: Bool
        var stored: (UInt16, UInt16, UInt16, UInt16)
        /// `stored` packed as `fillRun` writes it (once per drawing, not per run).
        var storedPacked: UInt64
        /// Source over with an alpha scale of exactly 1 (an opaque colour):
        /// `blendOver` may then blend every pixel alike, since coverage 1
        /// gives the colour and 0 the destination. (Testing `storesRuns`
        /// would not do: a `Color` whose alpha field was set past 1 by hand
        /// stores runs with an alpha scale a hair above 1.)
        var blendsWithoutBranches: Bool
        var alphaScale: Float
        /// Source over with full coverage keeps destination × (1 − alpha): as a
        /// 0.16 fixed-point factor that is one multiply-high per channel, which
        /// vectorises (a bias of at most 1/65535 per drawing, far below 8 bits).
        var keepFixed: UInt32

        @inline(__always)
        init(color: SIMD4<Float>, blend: BlendMode) {
            self.color = color
            mode = blend
            let alpha = color.w
            storesRuns = (alpha >= 65535 && blend == .sourceOver) || blend == .copy
            stored = (UInt16(color.x + 0.5), UInt16(color.y + 0.5), UInt16(color.z + 0.5), UInt16(alpha + 0.5))
            storedPacked = Canvas.pack(stored)
            alphaScale = alpha * (1 / 65535)
            blendsWithoutBranches = alphaScale == 1 && blend == .sourceOver
            keepFixed = UInt32(max(0, min(65536, (1 - alphaScale) * 65536)).rounded())
        }

        /// Fully covered, unclipped pixels: one run. Over transparent pixels
        /// source over stores the colour too (blendRun would add zero to it).
        @inline(__always)
        func run(_ start: UnsafeMutablePointer<UInt16>, count: Int, overTransparent: Bool) {
            if storesRuns || overTransparent {
                Canvas.fillRun(start, count: count, packed: storedPacked)
            } else {
                Canvas.blendRun(start, count: count, source: stored, keepFixed: keepFixed)
            }
        }

        /// The pixel that blending with `amount` over a transparent pixel
        /// gives, packed as `fillRun` stores it: the colour for amount ≥ 1
        /// (what runs store), 0 below `negligibleAmount` (what is left
        /// untouched), else each channel of colour × amount rounded (the
        /// destination term of `blend` is exactly 0; colour × amount is in
        /// 0...65535, so `packRounded` rounds it). Not for `.clear`.
        @inline(__always)
        func packedOverTransparent(_ amount: Float) -> UInt64 {
            if amount >= 1 { return storedPacked }
            if !(amount >= Canvas.negligibleAmount) { return 0 }
            return Canvas.packRounded(color * amount)
        }

        /// Stores `count` pixels over transparent ones with per-pixel
        /// `coverage`, reading no destination: what `compositeSolid` writes
        /// over a row of zeros. Coverage must lie in 0...1, as the
        /// rasterizer's and masks' always does (it is not clamped here). Without a branch per pixel: colour ×
        /// coverage rounded is 0 for coverage 0 and the run colour
        /// (`storedPacked`) for coverage 1, so every pixel takes the same
        /// arithmetic, two a step (edge coverage is unpredictable, and a
        /// mispredicted branch costs more than the arithmetic). Not for `.clear`.
        @inline(__always)
        func storeOverTransparent(_ row: UnsafeMutablePointer<UInt16>, coverage: UnsafePointer<Float>, count: Int) {
            let bytes = UnsafeMutableRawPointer(row)
            var i = 0
            while i &+ 1 < count {
                Canvas.storePair(color * coverage[i], color * coverage[i &+ 1], at: bytes + i &* 8, clamped: false)
                i &+= 2
            }
            if i < count {
                bytes.storeBytes(of: Canvas.packRounded(color * coverage[i]), toByteOffset: i &* 8, as: UInt64.self)
            }
        }

        /// Source over `count` drawn pixels with per-pixel `coverage` (in
        /// 0...1, as the rasterizer's and masks' always is), no clip (glyph
        /// and shape masks, the row writer): what `compositeSolid` writes.
        /// For an opaque colour (`blendsWithoutBranches`) without a branch per
        /// pixel, two a step: colour × a + destination × (1 − a) is the
        /// destination exactly for a = 0 and the colour for a = 1, what
        /// skipping and storing the run colour give; glyph edges make those
        /// branches unpredictable. A translucent colour keeps the per-pixel
        /// tests (its full pixels take the fixed-point blend of runs).
        @inline(__always)
        func blendOver(_ row: UnsafeMutablePointer<UInt16>, coverage: UnsafePointer<Float>, count: Int) {
            let bytes = UnsafeMutableRawPointer(row)
            if blendsWithoutBranches {
                var i = 0
                while i &+ 1 < count {
                    let amount0 = coverage[i], amount1 = coverage[i &+ 1]
                    let (destination0, destination1) = Canvas.unpackPair(bytes + i &* 8)
                    // A convex combination of the colour and the destination (alpha
                    // scale 1, coverage in 0...1): in 0...65535 already, no clamp.
                    // 1 − amount is 1 − alphaScale × amount exactly (alphaScale is 1).
                    Canvas.storePair(color * amount0 + destination0 * (1 - amount0),
                                     color * amount1 + destination1 * (1 - amount1),
                                     at: bytes + i &* 8, clamped: false)
                    i &+= 2
                }
                if i < count {
                    let amount = coverage[i]
                    let destination = Canvas.unpack(bytes.load(fromByteOffset: i &* 8, as: UInt64.self))
                    let value = color * amount + destination * (1 - amount)
                    bytes.storeBytes(of: Canvas.packRounded(value), toByteOffset: i &* 8, as: UInt64.self)
                }
                return
            }
            for i in 0..<count {
                let amount = coverage[i]
                if !(amount > 0) { continue }
                if amount >= 1 {
                    // As a run of one (the fixed-point blend of runs).
                    run(row + i &* 4, count: 1, overTransparent: false)
                    continue
                }
                // The values of `blend` for source over: color × amount + destination × (1 − alpha × amount),
                // in 0...65535 up to rounding (`packClamped` clamps all the same).
                let destination = Canvas.unpack(bytes.load(fromByteOffset: i &* 8, as: UInt64.self))
                let value = color * amount + destination * (1 - alphaScale * amount)
                bytes.storeBytes(of: Canvas.packClamped(value), toByteOffset: i &* 8, as: UInt64.self)
            }
        }

        /// One pixel with coverage × clip `amount` (> 0), not part of a run.
        @inline(__always)
        func blend(_ pixel: UnsafeMutablePointer<UInt16>, amount: Float) {
            if amount >= 1 && storesRuns {
                pixel[0] = stored.0; pixel[1] = stored.1; pixel[2] = stored.2; pixel[3] = stored.3
                return
            }
            let keep: Float, sourceWeight: Float
            switch mode {
            case .sourceOver: keep = 1 - alphaScale * amount; sourceWeight = amount
            case .copy: keep = 1 - amount; sourceWeight = amount
            case .clear: keep = 1 - amount; sourceWeight = 0
            }
            // For clear, color × 0 + x is exactly x: the same values as leaving the colour out.
            // Four channels at once: per channel the arithmetic and rounding of one channel.
            let bytes = UnsafeMutableRawPointer(pixel)
            let value = color * sourceWeight + Canvas.unpack(bytes.load(as: UInt64.self)) * keep
            bytes.storeBytes(of: Canvas.packClamped(value), as: UInt64.self)
        }
    }

    /// Below this coverage × clip, blending changes no 16-bit value: the
    /// change is at most 65535 × 2⁻²⁰ < 0.07 before rounding to nearest.
    static let negligibleAmount: Float = 0x1p-20

    /// Composites one colour (premultiplied, 0...65535 scale) over a span.
    /// Scalar float arithmetic: generic SIMD conversions are not reliably
    /// specialised, and rounding instructions are not in the x86-64 baseline.
    /// `overTransparent` says every destination pixel is 0 (a fresh row).
    @inline(__always)
    static func compositeSolid(row: UnsafeMutablePointer<UInt16>, coverage: UnsafeBufferPointer<Float>,
                               mask: UnsafePointer<Float>?, color: SIMD4<Float>, blend: BlendMode,
                               overTransparent: Bool = false) {
        compositeSolid(row: row, coverage: coverage, mask: mask, source: SolidSource(color: color, blend: blend),
                       overTransparent: overTransparent)
    }

    /// `compositeSolid` with the colour already prepared (once per drawing).
    @inline(__always)
    static func compositeSolid(row: UnsafeMutablePointer<UInt16>, coverage: UnsafeBufferPointer<Float>,
                               mask: UnsafePointer<Float>?, source: SolidSource, overTransparent: Bool) {
        let blend = source.mode
        let count = coverage.count
        var i = 0
        while i < count {
            var amount = coverage[i]
            if let mask { amount *= mask[i] }
            if amount <= 0 { i += 1; continue }
            if amount >= 1 && mask == nil && blend != .clear {
                // A run of fully covered pixels.
                var end = i + 1
                while end < count && coverage[end] >= 1 { end += 1 }
                source.run(row + i &* 4, count: end - i, overTransparent: overTransparent)
                i = end
                continue
            }
            source.blend(row + i &* 4, amount: amount)
            i += 1
        }
    }

    /// Composites one colour over `count` pixels that share one `coverage`:
    /// the same values `compositeSolid(row:coverage:...)` writes for a
    /// coverage buffer holding that value `count` times.
    @inline(__always)
    static func compositeSolid(row: UnsafeMutablePointer<UInt16>, count: Int, coverage: Float,
                               mask: UnsafePointer<Float>?, source: SolidSource, overTransparent: Bool) {
        let blend = source.mode
        guard let mask else {
            if coverage < negligibleAmount { return }
            if coverage >= 1 && blend != .clear {
                source.run(row, count: count, overTransparent: overTransparent)
            } else {
                // One coverage for the whole span, so equal destination pixels
                // give equal results: blend once per run of equal pixels and
                // copy the result (exact, and a plain store over a fresh row or a
                // uniform fill; interiors whose coverage sums to just under 1
                // in floating point take this path).
                // Raw loads and stores: untyped, so they may alias the UInt16 writes of `blend`.
                let bytes = UnsafeMutableRawPointer(row)
                var lastInput = ~bytes.load(as: UInt64.self), lastOutput: UInt64 = 0
                for i in 0..<count {
                    let input = bytes.load(fromByteOffset: i &* 8, as: UInt64.self)
                    if input == lastInput {
                        bytes.storeBytes(of: lastOutput, toByteOffset: i &* 8, as: UInt64.self)
                    } else {
                        source.blend(row + i &* 4, amount: coverage)
                        lastInput = input
                        lastOutput = bytes.load(fromByteOffset: i &* 8, as: UInt64.self)
                    }
                }
            }
            return
        }
        for i in 0..<count {
            let amount = coverage * mask[i]
            if amount > 0 { source.blend(row + i &* 4, amount: amount) }
        }
    }

    /// Four values in 0...65535 rounded to nearest (halves up), packed as
    /// `pack` packs: ⌊v + 0.5⌋ per channel. On x86-64 with SSE2: truncate to 32-bit
    /// integers (the floor, as v + 0.5 ≥ 0), then pack to 16 bits with the
    /// signed saturating pack around a bias of 32768 (SSE2 has no unsigned
    /// 32-to-16 pack). Elsewhere four-wide float arithmetic only (the generic
    /// SIMD float-to-integer conversions are not specialised): adding 2²³
    /// rounds to an integer (to nearest even), one compare turns that into
    /// the floor, and the integer is then the low bits of v + 2²³'s pattern.
    @inline(__always)
    static func packRounded(_ value: SIMD4<Float>) -> UInt64 {
        #if arch(x86_64)
        let integers = _mm_sub_epi32(_mm_cvttps_epi32(value + 0.5), _mm_set1_epi32(32768))
        let packed = _mm_xor_si128(_mm_packs_epi32(integers, integers), _mm_set1_epi16(-32768))
        // Lane order is memory order, which is what `pack` gives.
        return UInt64(bitPattern: _mm_cvtsi128_si64(packed))
        #else
        let shifted = value + 0.5
        let magic = SIMD4<Float>(repeating: 8_388_608)
        var rounded = (shifted + magic) - magic
        rounded -= SIMD4<Float>(repeating: 1).replacing(with: 0, where: rounded .<= shifted)
        let bits = unsafeBitCast(rounded + magic, to: SIMD4<UInt32>.self) & 0xFFFF
        // A bit cast keeps memory order, which is what `pack` gives.
        return unsafeBitCast(SIMD4<UInt16>(truncatingIfNeeded: bits), to: UInt64.self)
        #endif
    }

    /// Four values clamped to 0...65535 (NaN to 0) and rounded to nearest,
    /// packed as `pack` packs: how every blend stores its result.
    @inline(__always)
    static func packClamped(_ value: SIMD4<Float>) -> UInt64 {
        #if arch(x86_64)
        // maxps returns its second operand when either is NaN: NaN becomes 0.
        return packRounded(_mm_min_ps(_mm_max_ps(value, SIMD4<Float>()), SIMD4<Float>(repeating: 65535)))
        #else
        let nonNegative = value.replacing(with: 0, where: .!(value .> 0))
        return packRounded(nonNegative.replacing(with: 65535, where: nonNegative .> 65535))
        #endif
    }

    /// A packed pixel (see `pack`) as four floats, exactly.
    @inline(__always)
    static func unpack(_ packed: UInt64) -> SIMD4<Float> {
        #if arch(x86_64)
        let channels = _mm_unpacklo_epi16(_mm_cvtsi64_si128(Int64(bitPattern: packed)), _mm_setzero_si128())
        return _mm_cvtepi32_ps(channels)
        #else
        // Each 16-bit value put in the low mantissa bits of 2²³, then 2²³ subtracted.
        let channels = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(packed, to: SIMD4<UInt16>.self))
        return unsafeBitCast(channels | 0x4B00_0000, to: SIMD4<Float>.self) - 8_388_608
        #endif
    }

    /// Two adjacent packed pixels (16 bytes at `pointer`) as floats, exactly.
    @inline(__always)
    static func unpackPair(_ pointer: UnsafeRawPointer) -> (SIMD4<Float>, SIMD4<Float>) {
        #if arch(x86_64)
        let pixels = pointer.loadUnaligned(as: SIMD2<Int64>.self)
        return (_mm_cvtepi32_ps(_mm_unpacklo_epi16(pixels, _mm_setzero_si128())),
                _mm_cvtepi32_ps(_mm_unpackhi_epi16(pixels, _mm_setzero_si128())))
        #else
        return (unpack(pointer.loadUnaligned(as: UInt64.self)), unpack(pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        #endif
    }

    /// Stores two adjacent pixels at `pointer`: per pixel `packClamped` when
    /// `clamped`, else `packRounded` (values known to lie in 0...65535); one
    /// pack and one 16-byte store for both on x86-64.
    @inline(__always)
    static func storePair(_ first: SIMD4<Float>, _ second: SIMD4<Float>, at pointer: UnsafeMutableRawPointer, clamped: Bool) {
        #if arch(x86_64)
        var first = first, second = second
        if clamped {
            // maxps returns its second operand when either is NaN: NaN becomes 0.
            first = _mm_min_ps(_mm_max_ps(first, SIMD4<Float>()), SIMD4<Float>(repeating: 65535))
            second = _mm_min_ps(_mm_max_ps(second, SIMD4<Float>()), SIMD4<Float>(repeating: 65535))
        }
        let bias = _mm_set1_epi32(32768)
        let low = _mm_sub_epi32(_mm_cvttps_epi32(first + 0.5), bias)
        let high = _mm_sub_epi32(_mm_cvttps_epi32(second + 0.5), bias)
        pointer.storeBytes(of: _mm_xor_si128(_mm_packs_epi32(low, high), _mm_set1_epi16(-32768)), as: SIMD2<Int64>.self)
        #else
        pointer.storeBytes(of: clamped ? packClamped(first) : packRounded(first), as: UInt64.self)
        pointer.storeBytes(of: clamped ? packClamped(second) : packRounded(second), toByteOffset: 8, as: UInt64.self)
        #endif
    }

    /// One pixel's four channels as one 64-bit word in memory order.
    @inline(__always)
    static func pack(_ pixel: (UInt16, UInt16, UInt16, UInt16)) -> UInt64 {
        (UInt64(pixel.0) | UInt64(pixel.1) << 16 | UInt64(pixel.2) << 32 | UInt64(pixel.3) << 48).littleEndian
    }

    /// Writes one pixel value `count` times, as 64-bit stores.
    @inline(__always)
    static func fillRun(_ start: UnsafeMutablePointer<UInt16>, count: Int,
                        pixel: (UInt16, UInt16, UInt16, UInt16)) {
        fillRun(start, count: count, packed: pack(pixel))
    }

    /// Writes one packed pixel (see `pack`) `count` times.
    /// Thirty-two pixels a step as sixteen 16-byte stores (LLVM's own loop
    /// stores four pixels a step; a marker row is hundreds of pixels), then at
    /// most one step of sixteen and one of eight, pairs and a last single
    /// pixel; raw stores, so they may alias the UInt16 accesses of the other kernels.
    @inline(__always)
    static func fillRun(_ start: UnsafeMutablePointer<UInt16>, count: Int, packed: UInt64) {
        let bytes = UnsafeMutableRawPointer(start)
        let pair = SIMD2<UInt64>(repeating: packed)
        var offset = 0
        let widestBlockEnd = (count & ~31) &* 8, end = count &* 8
        while offset < widestBlockEnd {
            storeSixteenPixels(bytes + offset, pair)
            storeSixteenPixels(bytes + (offset &+ 128), pair)
            offset &+= 256
        }
        if count & 16 != 0 {
            storeSixteenPixels(bytes + offset, pair)
            offset &+= 128
        }
        if count & 8 != 0 {
            bytes.storeBytes(of: pair, toByteOffset: offset, as: SIMD2<UInt64>.self)
            bytes.storeBytes(of: pair, toByteOffset: offset &+ 16, as: SIMD2<UInt64>.self)
            bytes.storeBytes(of: pair, toByteOffset: offset &+ 32, as: SIMD2<UInt64>.self)
            bytes.storeBytes(of: pair, toByteOffset: offset &+ 48, as: SIMD2<UInt64>.self)
            offset &+= 64
        }
        while offset &+ 16 <= end {
            bytes.storeBytes(of: pair, toByteOffset: offset, as: SIMD2<UInt64>.self)
            offset &+= 16
        }
        if offset < end { bytes.storeBytes(of: packed, toByteOffset: offset, as: UInt64.self) }
    }

    /// Eight 16-byte stores of `pair` (sixteen pixels), written out: a loop
    /// over offsets is not reliably unrolled.
    @inline(__always)
    static func storeSixteenPixels(_ bytes: UnsafeMutableRawPointer, _ pair: SIMD2<UInt64>) {
        bytes.storeBytes(of: pair, as: SIMD2<UInt64>.self)
        bytes.storeBytes(of: pair, toByteOffset: 16, as: SIMD2<UInt64>.self)
        bytes.storeBytes(of: pair, toByteOffset: 32, as: SIMD2<UInt64>.self)
        bytes.storeBytes(of: pair, toByteOffset: 48, as: SIMD2<UInt64>.self)
        bytes.storeBytes(of: pair, toByteOffset: 64, as: SIMD2<UInt64>.self)
        bytes.storeBytes(of: pair, toByteOffset: 80, as: SIMD2<UInt64>.self)
        bytes.storeBytes(of: pair, toByteOffset: 96, as: SIMD2<UInt64>.self)
        bytes.storeBytes(of: pair, toByteOffset: 112, as: SIMD2<UInt64>.self)
    }

    /// Source over for a run of fully covered pixels: d = s + (d × keep) >> 16
    /// per channel. Two pixels per step as one `SIMD8<UInt16>`, which
    /// compiles to one 8 × 16-bit multiply-high (`pmulhuw`, SSE2) and one add;
    /// a factor of 65536 (a source alpha below 1/131072) does not fit 16 bits
    /// and takes the scalar loop, as does an odd last pixel.
    @inline(__always)
    static func blendRun(_ start: UnsafeMutablePointer<UInt16>, count: Int,
                         source: (UInt16, UInt16, UInt16, UInt16), keepFixed: UInt32) {
        var p = start
        let end = start + count &* 4
        if keepFixed <= 0xFFFF {
            let pair = SIMD8<UInt16>(source.0, source.1, source.2, source.3, source.0, source.1, source.2, source.3)
            blendPixelPairs(UnsafeMutableRawPointer(start), pairCount: count >> 1, source: pair,
                            keep: UInt16(truncatingIfNeeded: keepFixed))
            p = start + (count & ~1) &* 4
        }
        let s0 = UInt32(source.0), s1 = UInt32(source.1), s2 = UInt32(source.2), s3 = UInt32(source.3)
        while p < end {
            p[0] = UInt16(truncatingIfNeeded: s0 &+ ((UInt32(p[0]) &* keepFixed) &>> 16))
            p[1] = UInt16(truncatingIfNeeded: s1 &+ ((UInt32(p[1]) &* keepFixed) &>> 16))
            p[2] = UInt16(truncatingIfNeeded: s2 &+ ((UInt32(p[2]) &* keepFixed) &>> 16))
            p[3] = UInt16(truncatingIfNeeded: s3 &+ ((UInt32(p[3]) &* keepFixed) &>> 16))
            p += 4
        }
    }

    /// The vector loop of `blendRun`: `pairCount` pairs of pixels. Not
    /// inlined, so that `keep` stays visibly 16-bit and LLVM selects `pmulhuw`
    /// (inlined, it knows only that the 32-bit factor is below 65536).
    @inline(never)
    static func blendPixelPairs(_ pixels: UnsafeMutableRawPointer, pairCount: Int, source: SIMD8<UInt16>,
                                keep: UInt16) {
        let wideKeep = SIMD8<UInt32>(repeating: UInt32(keep))
        var offset = 0
        let end = pairCount &* 16
        while offset < end {
            let wide = SIMD8<UInt32>(truncatingIfNeeded: pixels.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt16>.self))
            let blended = source &+ SIMD8<UInt16>(truncatingIfNeeded: (wide &* wideKeep) &>> 16)
            pixels.storeBytes(of: blended, toByteOffset: offset, as: SIMD8<UInt16>.self)
            offset += 16
        }
    }

    /// Composites per-pixel colours (premultiplied, 0...65535 scale) over a span.
    @inline(__always)
    static func compositeShaded(row: UnsafeMutablePointer<UInt16>, coverage: UnsafeBufferPointer<Float>,
                                mask: UnsafePointer<Float>?, colors: UnsafePointer<SIMD4<Float>>, blend: BlendMode) {
        for i in 0..<coverage.count {
            var amount = coverage[i]
            if let mask { amount *= mask[i] }
            if amount <= 0 { continue }
            blendPixel(row + i &* 4, source: colors[i], amount: amount, blend: blend)
        }
    }

    /// Composites per-pixel colours over `count` pixels that share one `coverage`.
    @inline(__always)
    static func compositeShaded(row: UnsafeMutablePointer<UInt16>, count: Int, coverage: Float,
                                mask: UnsafePointer<Float>?, colors: UnsafePointer<SIMD4<Float>>, blend: BlendMode) {
        for i in 0..<count {
            var amount = coverage
            if let mask { amount *= mask[i] }
            if amount <= 0 { continue }
            blendPixel(row + i &* 4, source: colors[i], amount: amount, blend: blend)
        }
    }

    /// One pixel: `source` weighted by `amount` (coverage × clip) combined
    /// with the destination by `blend`, rounded to nearest.
    @inline(__always)
    static func blendPixel(_ pixel: UnsafeMutablePointer<UInt16>, source: SIMD4<Float>, amount: Float = 1,
                           blend: BlendMode) {
        let keep: Float
        var sourceWeight = amount
        switch blend {
        case .sourceOver: keep = 1 - source.w * amount * (1 / 65535)
        case .copy: keep = 1 - amount
        case .clear: keep = 1 - amount; sourceWeight = 0
        }
        // Four channels at once: per channel the arithmetic and rounding of one channel.
        let bytes = UnsafeMutableRawPointer(pixel)
        let value = source * sourceWeight + unpack(bytes.load(as: UInt64.self)) * keep
        bytes.storeBytes(of: packClamped(value), as: UInt64.self)
    }
}
