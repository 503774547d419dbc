import PinmintGeometry
import PinmintRaster

/// Drawing the render tree: fill then stroke (SVG's default paint order),
/// layers for group opacity, clips pushed and popped around each element.
extension SVGDocument {
    /// Draws the document scaled by `scale` onto `canvas`, whose size should
    /// be ceil(width × scale) × ceil(height × scale) pixels. Document space
    /// maps to device pixels by the viewBox transform, then `scale`.
    /// Throws when `scale` is not positive and finite or the canvas refuses a
    /// drawing; the canvas's clip and layer stacks are restored either way.
    public func render(on canvas: Canvas, scale: Double) throws(SVGError) {
        guard scale.isFinite, scale > 0 else {
            throw SVGError(file: file, problem: "the scale must be positive and finite, found \(scale)")
        }
        try render(on: canvas, transform: .scale(scale))
    }

    /// Draws the document onto `canvas` with its viewport (width × height,
    /// after the viewBox transform) mapped to device pixels by `transform`:
    /// how an icon can be placed in a frame. Elements are composited one
    /// after another, as in every coverage-based renderer;
    /// `renderResolvingConflation(on:transform:opacity:)` and
    /// `render(scale:)` also resolve the pixels where they meet.
    public func render(on canvas: Canvas, transform: AffineMap) throws(SVGError) {
        guard transform.isFinite, transform.determinant != 0 else {
            throw SVGError(file: file, problem: "the transform must be finite and invertible")
        }
        let clipDepth = canvas.clipDepth, layerDepth = canvas.layerDepth
        do {
            try draw(root, on: canvas, transform: viewBoxTransform.concatenating(transform), inheritedShadow: nil)
        } catch {
            while canvas.clipDepth > clipDepth { try? canvas.popClip() }
            while canvas.layerDepth > layerDepth { try? canvas.endLayer(opacity: 0) }
            throw SVGError(file: file, problem: "drawing failed: \(error)")
        }
    }

    /// `render(on:transform:)` with the pixels where the document's elements
    /// meet resolved as `render(scale:)` resolves them, for a canvas that may
    /// have clips or layers open (a marker drawing an icon into its frame):
    /// the document is drawn as a group, onto a transparent layer covering
    /// the whole pixels its viewport touches, and composited with `opacity`
    /// (clamped to 0...1) through the clips in force (see
    /// `Canvas.drawGroupResolvingConflation`). What the document draws
    /// outside its viewport is cut, as a standalone SVG's viewport cuts it.
    /// Throws as `render(on:transform:)`, and for a non-finite opacity; the
    /// canvas's clip and layer stacks are as before either way.
    public func renderResolvingConflation(on canvas: Canvas, transform: AffineMap,
                                          opacity: Double = 1) throws(SVGError) {
        guard transform.isFinite, transform.determinant != 0 else {
            throw SVGError(file: file, problem: "the transform must be finite and invertible")
        }
        let placement = viewBoxTransform.concatenating(transform)
        let corners = [Point(0, 0), Point(width, 0), Point(0, height), Point(width, height)].map(transform.apply)
        let viewport = corners.dropFirst().reduce(Rect(corner: corners[0], corners[0])) {
            $0.union(Rect(corner: $1, $1))
        }
        do {
            try canvas.drawGroupResolvingConflation(within: viewport, opacity: opacity) { (target, device) throws(RasterError) in
                try draw(root, on: target, transform: placement.concatenating(device), inheritedShadow: nil)
            }
        } catch {
            throw SVGError(file: file, problem: "drawing failed: \(error)")
        }
    }

    /// A new canvas of ceil(width × scale) × ceil(height × scale) pixels
    /// with the document drawn on it. Unlike drawing it onto a canvas of
    /// one's own, pixels where separately drawn elements meet (a thin line
    /// over a shape's edge, translucent shapes crossing) get the exact area
    /// of their overlap instead of one coverage composited over the other:
    /// see `Canvas.drawResolvingConflation`.
    public func render(scale: Double) throws(SVGError) -> Canvas {
        guard scale.isFinite, scale > 0 else {
            throw SVGError(file: file, problem: "the scale must be positive and finite, found \(scale)")
        }
        let pixelWidth = (width * scale).rounded(.up), pixelHeight = (height * scale).rounded(.up)
        let limit = Double(Canvas.maximumSide)
        guard pixelWidth <= limit, pixelHeight <= limit else {
            let size = "\(width.plainDescription)x\(height.plainDescription)"
            throw SVGError(file: file, problem: "\(size) at scale \(scale.plainDescription) needs a canvas of "
                           + "\(pixelWidth.plainDescription)x\(pixelHeight.plainDescription) pixels; "
                           + "a side may be at most \(Canvas.maximumSide)")
        }
        let canvas: Canvas
        do { canvas = try Canvas(width: Int(pixelWidth), height: Int(pixelHeight)) } catch {
            throw SVGError(file: file, problem: "\(error)")
        }
        let transform = viewBoxTransform.concatenating(.scale(scale))
        do {
            try canvas.drawResolvingConflation { (target, device) throws(RasterError) in
                try draw(root, on: target, transform: transform.concatenating(device), inheritedShadow: nil)
            }
        } catch {
            throw SVGError(file: file, problem: "drawing failed: \(error)")
        }
        return canvas
    }

    /// The stroke of `node` when sibling strokes like it can be drawn as one
    /// path: a shape with no fill, stroked in an opaque plain colour, without
    /// dashes, opacity, clip or shadow. Siblings in a row with the same
    /// stroke and transform (a fan of `<line>`s, a grid) are stroked
    /// together: where two meet inside a pixel, the pixel takes the exact
    /// coverage of their union, as one path's subpaths get, instead of each
    /// one's partial coverage composited over the other's (conflation: the
    /// joints come out too light). Being opaque and of one colour, drawn
    /// one after another they would give that colour wherever they overlap,
    /// so nothing else changes. (Dashes are left out: whether the pattern
    /// starts again with each subpath is for the stroker to say, not this.)
    static func plainStroke(_ node: SVGRenderNode) -> (StrokeStyle, Color)? {
        guard case .shape(let shape) = node.content, shape.fill == nil || encloses(nothing: shape.path),
              case .solid(let color)? = shape.stroke,
              color.alpha >= 1, shape.strokeOpacity >= 1, node.opacity >= 1, node.clip == nil, node.shadow == nil,
              shape.strokeStyle.dashes.isEmpty, !shape.path.isEmpty else { return nil }
        return (shape.strokeStyle, color)
    }

    /// Whether filling `path` paints nothing: every subpath is one straight
    /// segment at most (a `<line>`, whose fill is black unless said otherwise).
    static func encloses(nothing path: Path) -> Bool {
        var segments = 0
        for element in path.elements {
            switch element {
            case .move: segments = 0
            case .line: segments += 1; if segments > 1 { return false }
            case .quad, .cubic: return false
            case .close: break
            }
        }
        return true
    }

    /// Whether `shape`, mapped by `transform`, may paint a pixel of `canvas`:
    /// the box of its points (a curve stays inside its control points' box)
    /// widened by what a stroke (a miter or a square cap reaching out) and a
    /// shadow (its offset and blur) add, and a pixel for rounding.
    static func mayTouch(_ canvas: Canvas, _ shape: SVGRenderShape, transform: AffineMap, shadow: Shadow?) -> Bool {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var finite = true
        func include(_ point: Point) {
            let device = transform.apply(point)
            finite = finite && device.x.isFinite && device.y.isFinite
            minX = min(minX, device.x); maxX = max(maxX, device.x)
            minY = min(minY, device.y); maxY = max(maxY, device.y)
        }
        for element in shape.path.elements {
            switch element {
            case .move(let p), .line(let p): include(p)
            case .quad(let c, let p): include(c); include(p)
            case .cubic(let c1, let c2, let p): include(c1); include(c2); include(p)
            case .close: break
            }
        }
        // Non-finite points are for the canvas to refuse, not for this to skip.
        guard finite else { return true }
        guard minX <= maxX, minY <= maxY else { return false }
        let scale = transform.maximumScale
        var margin = 1.0
        if shape.stroke != nil {
            margin += shape.strokeStyle.width / 2 * scale * max(shape.strokeStyle.miterLimit, 2.0.squareRoot())
        }
        if let shadow {
            margin += (max(abs(shadow.offset.x), abs(shadow.offset.y)) + 4 * max(0, shadow.blurRadius)) * scale
        }
        guard margin.isFinite else { return true }
        return maxX + margin > 0 && minX - margin < Double(canvas.width)
            && maxY + margin > 0 && minY - margin < Double(canvas.height)
    }

    private func draw(_ node: SVGRenderNode, on canvas: Canvas, transform parent: AffineMap,
                      inheritedShadow: Shadow?) throws(RasterError) {
        let transform = node.transform.concatenating(parent)
        // A clipped group is drawn unclipped into a layer and the layer is
        // clipped once, so that its shapes do not each take the clip edge's
        // partial coverage (conflation); a single shape is clipped exactly.
        var clipsLayer = false
        if case .group = node.content, node.clip != nil { clipsLayer = true }
        if let clip = node.clip, !clipsLayer { try canvas.pushClip(clip.path, rule: clip.rule, transform: transform) }
        let shadow = node.shadow ?? inheritedShadow
        switch node.content {
        case .group(let children):
            let layered = node.opacity < 1 || clipsLayer
            if layered { try canvas.beginLayer() }
            var index = 0
            while index < children.count {
                // Opaque strokes alike in a row are stroked as one path (see `plainStroke`).
                if shadow == nil, let (style, color) = SVGDocument.plainStroke(children[index]) {
                    var end = index + 1
                    while end < children.count, children[end].transform == children[index].transform,
                          let (nextStyle, nextColor) = SVGDocument.plainStroke(children[end]), nextStyle == style, nextColor == color {
                        end += 1
                    }
                    if end - index > 1 {
                        // Only the strokes that may reach the canvas (see `mayTouch`).
                        let runTransform = children[index].transform.concatenating(transform)
                        var path = Path()
                        for child in children[index..<end] {
                            if case .shape(let shape) = child.content,
                               SVGDocument.mayTouch(canvas, shape, transform: runTransform, shadow: nil) {
                                path.append(shape.path)
                            }
                        }
                        if !path.isEmpty { try canvas.stroke(path, style: style, paint: .solid(color), transform: runTransform) }
                        index = end
                        continue
                    }
                }
                try draw(children[index], on: canvas, transform: transform, inheritedShadow: shadow)
                index += 1
            }
            if clipsLayer, let clip = node.clip {
                try canvas.pushClip(clip.path, rule: clip.rule, transform: transform)
                try canvas.endLayer(opacity: node.opacity, clipped: true)
                try canvas.popClip()
                return
            }
            if layered { try canvas.endLayer(opacity: node.opacity) }
        case .shape(let shape):
            // Shapes wholly off the canvas are skipped before they are flattened
            // (most of a document, for the small blocks that resolve conflation).
            guard SVGDocument.mayTouch(canvas, shape, transform: transform, shadow: shadow) else { break }
            // A shape with both paints is composited as one image, as a group
            // would be; with one paint, multiplying its alpha is the same.
            let layered = node.opacity < 1 && shape.fill != nil && shape.stroke != nil
            let opacity = layered ? 1 : node.opacity
            if layered { try canvas.beginLayer() }
            if let fill = shape.fill {
                try canvas.fill(shape.path, paint: fill, rule: shape.fillRule, transform: transform,
                                opacity: shape.fillOpacity * opacity, shadow: shadow)
            }
            if let stroke = shape.stroke {
                try canvas.stroke(shape.path, style: shape.strokeStyle, paint: stroke, transform: transform,
                                  opacity: shape.strokeOpacity * opacity, shadow: shape.fill == nil ? shadow : nil)
            }
            if layered { try canvas.endLayer(opacity: node.opacity) }
        }
        if node.clip != nil { try canvas.popClip() }
    }
}
