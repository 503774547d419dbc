import PinmintGeometry

/// Filling, clipping and layers.
extension Canvas {
    /// Fills `path` (user space, mapped to device pixels by `transform`) with
    /// `paint`. `opacity` (0...1) multiplies the paint's alpha; `shadow`, when
    /// given, is drawn under the shape first. Throws `RasterError.nonFinite`
    /// for NaN or infinite coordinates, transform or opacity; nothing is drawn then.
    public func fill(_ path: Path, paint: Paint, rule: FillRule = .nonZero,
                     transform: AffineTransform = .identity, opacity: Double = 1,
                     blend: BlendMode = .sourceOver, shadow: Shadow? = nil) throws(RasterError) {
        try Canvas.validate(path: path, transform: transform, opacity: opacity)
        path.flatten(transform: transform, tolerance: flatteningTolerance, into: &polylines)
        try drawPolylines(rule: rule, paint: paint, transform: transform, opacity: opacity, blend: blend,
                          shadow: shadow)
    }

    /// Restricts drawing to the inside of `path` until the matching
    /// `popClip()`. Clips nest: each one intersects the current clip. Edges
    /// are anti-aliased: a pixel half inside the clip gets half of what is drawn.
    public func pushClip(_ path: Path, rule: FillRule = .nonZero,
                         transform: AffineTransform = .identity) throws(RasterError) {
        try Canvas.validate(path: path, transform: transform, opacity: 1)
        path.flatten(transform: transform, tolerance: flatteningTolerance, into: &polylines)
        let parent = clips.last
        var bounds = drawableBounds
        if let box = Canvas.deviceBounds(of: polylines) { bounds = bounds.intersection(box) }
        if bounds.isEmpty { bounds = PixelBounds(x0: 0, y0: 0, x1: 0, y1: 0) }
        let mask = ClipMask(bounds: bounds,
                            coverage: FloatBuffer(count: max(0, bounds.x1 - bounds.x0) * max(0, bounds.y1 - bounds.y0)))
        if !bounds.isEmpty {
            rasterizer.rasterize(polylines, rule: rule, bounds: bounds) { y, x0, rowCoverage in
                let row = mask.row(y: y, x: x0)
                if let parent {
                    let parentRow = parent.row(y: y, x: x0)
                    for i in 0..<rowCoverage.count { row[i] = rowCoverage[i] * parentRow[i] }
                } else {
                    for i in 0..<rowCoverage.count { row[i] = rowCoverage[i] }
                }
            }
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

    /// Starts a transparent layer: everything drawn until `endLayer` goes
    /// into it, and `endLayer` composites it as one image (SVG group opacity).
    public func beginLayer() {
        layers.append(PixelBuffer(pixelCount: width * height))
    }

    /// Composites the innermost layer onto the one below with `opacity`
    /// (source over). Clips in force while drawing into the layer already
    /// shaped its content and are not applied again.
    public func endLayer(opacity: Double = 1) throws(RasterError) {
        guard layers.count > 1 else { throw .unbalanced("endLayer() without a matching beginLayer()") }
        guard opacity.isFinite else { throw .nonFinite("layer opacity") }
        let layer = layers.removeLast(), target = layers[layers.count - 1]
        let factor = Float(min(max(opacity, 0), 1))
        guard factor > 0 else { return }
        for index in Swift.stride(from: 0, to: layer.count, by: 4) {
            let source = SIMD4<Float>(SIMD4<UInt16>(layer.pointer[index], layer.pointer[index + 1],
                                                    layer.pointer[index + 2], layer.pointer[index + 3])) * factor
            if source.w == 0 { continue }
            Canvas.blendPixel(target.pointer + index, source: source, blend: .sourceOver)
        }
    }

    /// The layer count, 1 when no `beginLayer` is open.
    public var layerDepth: Int { layers.count }

    // MARK: Shared drawing path

    static func validate(path: Path, transform: AffineTransform, opacity: Double) throws(RasterError) {
        guard path.isFinite else { throw .nonFinite("path coordinates") }
        guard transform.isFinite else { throw .nonFinite("transform") }
        guard opacity.isFinite else { throw .nonFinite("opacity") }
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
    func drawPolylines(rule: FillRule, paint: Paint, transform: AffineTransform, opacity: Double,
                       blend: BlendMode, shadow: Shadow?) throws(RasterError) {
        let bounds = drawableBounds
        guard !bounds.isEmpty, !polylines.points.isEmpty else { return }
        if let shadow, blend == .sourceOver {
            try drawShadow(shadow, rule: rule, transform: transform, opacity: opacity)
        }
        let shader = try PaintShader(paint, transform: transform, opacity: opacity)
        let target = layers[layers.count - 1]
        let clip = clips.last
        let canvasWidth = width
        if shadeRow.count < width { shadeRow = [SIMD4<Float>](repeating: .zero, count: width) }
        shadeRow.withUnsafeMutableBufferPointer { shade in
            rasterizer.rasterize(polylines, rule: rule, bounds: bounds) { y, x0, coverage in
                let row = target.pointer + (y * canvasWidth + x0) * 4
                let maskRow = clip.map { UnsafePointer($0.row(y: y, x: x0)) }
                if case .solid(let color) = shader.kind {
                    Canvas.compositeSolid(row: row, coverage: coverage, mask: maskRow, color: color, blend: blend)
                } else {
                    shader.shade(y: y, x0: x0, count: coverage.count, into: shade.baseAddress!)
                    Canvas.compositeShaded(row: row, coverage: coverage, mask: maskRow,
                                           colors: shade.baseAddress!, blend: blend)
                }
            }
        }
    }

    // MARK: Compositing kernels

    /// Composites one colour (premultiplied, 0...65535 scale) over a span.
    @inline(__always)
    static func compositeSolid(row: UnsafeMutablePointer<UInt16>, coverage: UnsafeBufferPointer<Float>,
                               mask: UnsafePointer<Float>?, color: SIMD4<Float>, blend: BlendMode) {
        let opaque = color.w >= 65535 && blend != .clear
        let solid16 = SIMD4<UInt16>((color + 0.5).rounded(.down))
        for i in 0..<coverage.count {
            var amount = coverage[i]
            if let mask { amount *= mask[i] }
            if amount <= 0 { continue }
            let pixel = row + i * 4
            if amount >= 1 && (opaque || blend == .copy) {
                pixel[0] = solid16.x; pixel[1] = solid16.y; pixel[2] = solid16.z; pixel[3] = solid16.w
                continue
            }
            blendPixel(pixel, source: color, amount: amount, blend: blend)
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
            blendPixel(row + i * 4, source: colors[i], amount: amount, blend: blend)
        }
    }

    /// One pixel: `source` weighted by `amount` (coverage × clip) combined
    /// with the destination by `blend`, rounded to nearest.
    @inline(__always)
    static func blendPixel(_ pixel: UnsafeMutablePointer<UInt16>, source: SIMD4<Float>, amount: Float = 1,
                           blend: BlendMode) {
        let destination = SIMD4<Float>(SIMD4<UInt16>(pixel[0], pixel[1], pixel[2], pixel[3]))
        let result: SIMD4<Float>
        switch blend {
        case .sourceOver:
            let weighted = source * amount
            result = weighted + destination * (1 - weighted.w * (1 / 65535))
        case .copy:
            result = source * amount + destination * (1 - amount)
        case .clear:
            result = destination * (1 - amount)
        }
        let clamped = (result + 0.5).rounded(.down).clamped(lowerBound: SIMD4(repeating: 0),
                                                             upperBound: SIMD4(repeating: 65535))
        let stored = SIMD4<UInt16>(clamped)
        pixel[0] = stored.x; pixel[1] = stored.y; pixel[2] = stored.z; pixel[3] = stored.w
    }
}
