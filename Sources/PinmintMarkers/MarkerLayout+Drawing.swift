import Foundation
import PinmintGeometry
import PinmintRaster
import PinmintSVG
import PinmintText

extension MarkerLayout {
    /// Sizes the canvas to everything the marker draws (shadows, strokes and
    /// glyph overhangs included), draws it, and works out the metadata.
    mutating func draw(_ root: LayoutNode, anchor: AnchorSpec, variant: String, source: String) throws(MarkerError) -> RenderedMarker {
        // Drawn without text, the marker is the stretchable sprite: it may grow to give MapLibre its runs.
        if MarkerLayout.hasEmptyLabel(root) { widenForStretch(root, anchor: anchor) }
        var ink: Rect? = nil
        collectInk(root, into: &ink)
        let bounds = ink ?? root.frame
        // Whole points both ways, from extents that scale with the marker (shadow and stroke
        // reach, text ink set at 1x): the @N canvas is N times the 1x canvas.
        let origin = Point(wholeDown(min(bounds.minX, root.frame.minX)), wholeDown(min(bounds.minY, root.frame.minY)))
        let far = Point(wholeUp(max(bounds.maxX, root.frame.maxX)), wholeUp(max(bounds.maxY, root.frame.maxY)))
        let width = max(1, Int(far.x - origin.x)), height = max(1, Int(far.y - origin.y))
        guard width <= Canvas.maximumSide, height <= Canvas.maximumSide, width * height <= Canvas.maximumPixelCount else {
            throw MarkerError(input: source, problem: "the marker would be \(width)x\(height) pixels at scale \(scale.plainDescription); "
                              + "a side may be at most \(Canvas.maximumSide) and the area at most \(Canvas.maximumPixelCount) pixels")
        }
        shift(root, by: Point(-origin.x, -origin.y))
        let canvas: Canvas
        do { canvas = try Canvas(width: width, height: height) } catch {
            throw MarkerError(input: source, problem: error.description)
        }
        do { try draw(root, on: canvas, background: nil) } catch {
            throw MarkerError(input: source, problem: "drawing failed: \(error)")
        }

        var found = Survey()
        // Room for a marker's usual parts: growing from empty took an allocation at 1, 2, 4 and 8 items.
        found.hits.reserveCapacity(16)
        found.fixed.reserveCapacity(16)
        survey(root, isRoot: true, into: &found)
        let anchorPoint = self.anchorPoint(anchor, root: root, tip: found.tip)
        let contentBox = (found.content ?? found.firstText).map { MarkerLayout.pixelBox($0, width: width, height: height, scale: scale) }
        let labelNode = found.contentNode.flatMap(MarkerLayout.firstText) ?? found.firstTextNode
        let fixed = found.fixed, label = found.content ?? found.firstText, textSize = labelNode?.textPart?.fontSize ?? 12
        let stretch = LazyStretch { [self] in
            self.stretch(of: root, fixed: fixed, anchor: anchorPoint, label: label, textSize: textSize, width: width, height: height)
        }
        // A marker whose label area is empty (drawn without text) is the stretchable sprite.
        let isStretchable = contentBox.map { $0.width == 0 || $0.height == 0 } ?? false
        let metadata = MarkerMetadata(width: width, height: height, pixelRatio: scale, anchor: anchorPoint,
                                      hitBoxes: MarkerLayout.reduce(found.hits, width: width, height: height, scale: scale),
                                      contentBox: contentBox, variant: variant, stretch: isStretchable ? stretch.value : nil)
        return RenderedMarker(variant: variant, canvas: canvas, metadata: metadata, warnings: warnings,
                              missingCharacters: missingCharacters,
                              fixedRegions: found.fixed.map { MarkerLayout.pixelBox($0, width: width, height: height, scale: scale) },
                              lazyStretch: stretch)
    }

    // MARK: Extents

    func collectInk(_ node: LayoutNode, into ink: inout Rect?) {
        func add(_ rect: Rect?) {
            guard let rect, rect.width > 0 || rect.height > 0 else { return }
            ink = ink.map { $0.union(rect) } ?? rect
        }
        switch node.role {
        case .box:
            // The box's fields read in place (`node.box!.…`), not the box copied out.
            if node.box!.shape != nil, node.box!.fill != nil || node.box!.stroke != nil {
                // Every shape lies inside its frame (a pointer's tip is on the
                // frame's edge), so the frame bounds its ink without building it.
                var shapeBounds = node.frame
                if let stroke = node.box!.stroke {
                    // Half the pen each side; a miter join reaches at most miterLimit half-widths.
                    let reach = stroke.width * scale / 2 * (stroke.join == .miter ? 4 : 1)
                    shapeBounds = shapeBounds.insetBy(dx: -reach, dy: -reach)
                }
                add(shapeBounds)
                if let shadow = node.box!.shadow, node.box!.fill != nil, shadow.color.alpha > 0 {
                    // Beyond 3σ a Gaussian edge is below half an 8-bit step.
                    let reach = 3 * shadow.blurRadius * scale
                    add(node.frame.insetBy(dx: -reach, dy: -reach)
                        .offsetBy(shadow.offset.x * scale, shadow.offset.y * scale))
                }
            }
        case .text:
            guard let glyphs = placedInk(node) else { break }
            // A point more than the ink set at 1x: hinting and the baseline rounded at this
            // scale move glyphs by less than that, and the box must not depend on them.
            let halo = ((node.textPart!.halo?.width ?? 0) + 1) * scale
            add(glyphs.insetBy(dx: -halo, dy: -halo))
        case .picture, .icon:
            add(node.frame)
        case .spacer:
            break
        }
        for child in node.children { collectInk(child, into: &ink) }
    }

    // MARK: Drawing

    private func draw(_ node: LayoutNode, on canvas: Canvas, background: Color?) throws {
        let opacity = node.part.opacity
        guard opacity > 0 else { return }
        switch node.role {
        case .box:
            // Group opacity: children and background fade together.
            let grouped = opacity < 1 && !node.children.isEmpty
            if grouped { try canvas.beginLayer() }
            let alpha = grouped ? 1 : opacity
            var background = background
            var clipped = false
            if let shape = node.box!.shape {
                let outline = renderer.outline(of: shape, in: node.frame, scale: scale)
                node.outline = outline
                if let fill = node.box!.fill {
                    let shadow = node.box!.shadow.map {
                        Shadow(color: $0.color, offset: $0.offset * scale, blurRadius: $0.blurRadius * scale)
                    }
                    if renderer.reusesShapeMasks, shadow == nil, canvas.clipDepth == 0, case .color(let color) = fill,
                       node.frame.width * node.frame.height <= MarkerRenderer.maximumShapeMaskPixels,
                       let mask = try renderer.shapeMask(outline, of: shape, in: node.frame, scale: scale, on: canvas) {
                        // A plain colour fill composites the shape's coverage mask,
                        // kept by the renderer (as glyph masks are kept per face):
                        // a batch repeats its tags and badges at the same frames.
                        // The mask holds the coverage the fill would give, and is
                        // composited by the same kernel; under a clip the path is
                        // filled, since a mask could only multiply coverages.
                        try canvas.fill(mask: mask, x: 0, y: 0, color: color, opacity: alpha)
                    } else {
                        try canvas.fill(outline.path, paint: paint(fill, frame: outline.body, image: node.image),
                                        opacity: alpha, shadow: shadow)
                    }
                    if let color = fill.representativeColor {
                        background = MarkerLayout.composite(color, over: background ?? .white)
                    } else {
                        background = Color(red: 0.3, green: 0.3, blue: 0.3)
                    }
                }
                if let stroke = node.box!.stroke, stroke.width > 0 {
                    let style = StrokeStyle(width: stroke.width * scale, cap: .butt, join: stroke.join,
                                            dashes: stroke.dashes.map { $0 * scale })
                    try canvas.stroke(outline.path, style: style, paint: .solid(stroke.color), opacity: alpha)
                }
                if node.box!.clipsChildren {
                    try canvas.pushClip(outline.path)
                    clipped = true
                }
            }
            for child in node.children { try draw(child, on: canvas, background: background) }
            if clipped { try canvas.popClip() }
            if grouped { try canvas.endLayer(opacity: opacity) }
        case .text:
            guard let layout = node.text else { return }
            let color = node.textPart!.color ?? MarkerLayout.contrastingColor(on: background)
            let origin = textOrigin(node)
            try layout.draw(on: canvas, at: Point(origin.x / scale, origin.y / scale), color: color, halo: node.textPart!.halo,
                            opacity: opacity)
        case .picture:
            guard case .picture(let picture) = node.part.kind else { return }
            var path = Path()
            let frame = node.frame
            if picture.clipCircle {
                path.addCircle(center: frame.center, radius: min(frame.width, frame.height) / 2)
            } else if picture.cornerRadius > 0 {
                path.addRoundedRect(frame, radius: min(picture.cornerRadius * scale, frame.width / 2, frame.height / 2))
            } else {
                path.addRect(frame)
            }
            switch picture.source {
            case .placeholder(let color): try canvas.fill(path, paint: .solid(color), opacity: opacity)
            case .file: try canvas.fill(path, paint: paint(.picture(picture.source, fit: picture.fit), frame: frame, image: node.image), opacity: opacity)
            }
        case .icon:
            guard case .icon(let icon) = node.part.kind else { return }
            switch icon.source {
            case .file:
                guard let svg = node.svg else { return }
                let fit = MarkerLayout.fit(Size(svg.width, svg.height), into: node.frame, mode: .fit)
                // As one group, resolving the pixels where the icon's shapes
                // meet (a cup and its handle sharing an edge) as `pinmint render` does.
                try svg.renderResolvingConflation(on: canvas, transform: fit, opacity: opacity)
            case .path(let path, let viewBox):
                let fit = AffineMap.translation(-viewBox.minX, -viewBox.minY)
                    .concatenating(MarkerLayout.fit(viewBox.size, into: node.frame, mode: .fit))
                let color = icon.color ?? MarkerLayout.contrastingColor(on: background)
                try canvas.fill(path, paint: .solid(color), transform: fit, opacity: opacity)
            }
        case .spacer:
            break
        }
    }

    /// The paint of a fill laid across `frame` (device pixels).
    private func paint(_ fill: FillSpec, frame: Rect, image: Image?) -> Paint {
        switch fill {
        case .color(let color):
            return .solid(color)
        case .linear(let angle, let stops):
            // CSS's gradient line: through the centre, long enough to reach the corners.
            let radians = angle * Double.pi / 180
            let direction = Point(cos(radians), sin(radians))
            let half = (abs(frame.width * direction.x) + abs(frame.height * direction.y)) / 2
            return .linearGradient(LinearGradient(start: frame.center - direction * half, end: frame.center + direction * half,
                                                  stops: stops))
        case .radial(let center, let radius, let stops):
            return .radialGradient(RadialGradient(center: Point(frame.minX + center.x * frame.width, frame.minY + center.y * frame.height),
                                                  radius: radius * max(frame.width, frame.height), stops: stops))
        case .picture(let source, let fit):
            guard let image else {
                if case .placeholder(let color) = source { return .solid(color) }
                return .solid(.black)
            }
            let transform = MarkerLayout.fit(Size(Double(image.width), Double(image.height)), into: frame, mode: fit)
            let file: String? = if case .file(let path) = source { path } else { nil }
            let prepared = renderer.prepared(image, file: file, drawnWith: transform)
            let scaleBack = AffineMap.scale(Double(image.width) / Double(prepared.width),
                                                  Double(image.height) / Double(prepared.height))
            return .image(ImagePattern(image: prepared, transform: scaleBack.concatenating(transform)))
        }
    }

    /// Maps a `size` box at the origin into `frame`.
    static func fit(_ size: Size, into frame: Rect, mode: PictureFit) -> AffineMap {
        guard size.width > 0, size.height > 0 else { return .translation(frame.minX, frame.minY) }
        let sx = frame.width / size.width, sy = frame.height / size.height
        switch mode {
        case .stretch:
            return AffineMap.scale(sx, sy).concatenating(.translation(frame.minX, frame.minY))
        case .fill, .fit:
            let k = mode == .fill ? max(sx, sy) : min(sx, sy)
            let x = frame.minX + (frame.width - size.width * k) / 2, y = frame.minY + (frame.height - size.height * k) / 2
            return AffineMap.scale(k, k).concatenating(.translation(x, y))
        }
    }

    // MARK: Colour

    /// White, unless white text would have less than 3:1 contrast with
    /// `background` (WCAG's minimum for large text and graphics; about
    /// luminance 0.3), then near-black. Designers lean to white labels on
    /// saturated fills such as the seed's #3598DB, which a plain "larger
    /// contrast wins" rule would give black text. Nothing behind: a light map.
    static func contrastingColor(on background: Color?) -> Color {
        let luminance = (background ?? .white).luminance
        return 1.05 / (luminance + 0.05) >= 3 ? .white : Color(red8: 0x1A, green8: 0x1A, blue8: 0x1A)
    }

    static func composite(_ color: Color, over base: Color) -> Color {
        let a = color.alpha
        return Color(red: color.red * a + base.red * (1 - a), green: color.green * a + base.green * (1 - a),
                     blue: color.blue * a + base.blue * (1 - a))
    }

    // MARK: Metadata

    /// What the metadata is made of, gathered in one walk over the placed tree.
    struct Survey {
        /// The first pointer tip.
        var tip: Point?
        /// The frame of the part marked content, and of the first text part.
        var content: Rect?, firstText: Rect?
        /// The part marked content, and the first text part.
        var contentNode: LayoutNode?, firstTextNode: LayoutNode?
        /// Boxes of what is drawn.
        var hits: [Rect] = []
        /// What must not be stretched: every drawn part inside the root
        /// (badges, pictures, icons, text ink, filled boxes) and every pointer.
        var fixed: [Rect] = []
    }

    /// Fills `found` from `node` and its children, in tree order (hit
    /// boxes and fixed regions used to take a walk each).
    func survey(_ node: LayoutNode, isRoot: Bool, into found: inout Survey) {
        var draws = false
        switch node.role {
        case .box:
            if let shape = node.box!.shape {
                let outline = node.outline ?? renderer.outline(of: shape, in: node.frame, scale: scale)
                if found.tip == nil, let pointer = outline.tip { found.tip = pointer }
                if node.box!.fill != nil || node.box!.stroke != nil {
                    // A stroke is centred on the outline: half of it lies outside.
                    let reach = (node.box!.stroke?.width ?? 0) * scale / 2
                    if node.part.hit != false {
                        for piece in outline.pieces { found.hits.append(piece.insetBy(dx: -reach, dy: -reach)) }
                    }
                    draws = true
                }
            }
            // Pointers count as fixed once drawn (an outline is kept then).
            if let outline = node.outline { found.fixed += outline.pieces.dropFirst() }
            if !isRoot, node.box!.fill != nil || node.box!.stroke != nil { found.fixed.append(node.frame) }
        case .text:
            if found.firstText == nil { found.firstText = node.frame; found.firstTextNode = node }
            let ink = placedInk(node)
            if node.part.hit != false, let ink { found.hits.append(ink) }
            if let ink { found.fixed.append(ink) }
            draws = true
        case .picture, .icon:
            if node.part.hit != false { found.hits.append(node.frame) }
            found.fixed.append(node.frame)
            draws = true
        case .spacer:
            break
        }
        if node.part.hit == true, !draws { found.hits.append(node.frame) }
        if node.part.isContent, found.content == nil { found.content = node.frame; found.contentNode = node }
        for child in node.children { survey(child, isRoot: false, into: &found) }
    }

    /// The first text part in `node` and its children, in tree order.
    static func firstText(in node: LayoutNode) -> LayoutNode? {
        if node.role == .text { return node }
        for child in node.children { if let text = firstText(in: child) { return text } }
        return nil
    }

    /// A text part's glyph bounds where it is drawn (device pixels), as set
    /// at 1x without hinting (the same at every scale; drawn glyphs may be a
    /// fraction of a point off), or nil when it draws nothing.
    private func placedInk(_ node: LayoutNode) -> Rect? {
        guard let ink = node.referenceInk, node.textInk != nil else { return nil }
        let origin = textOrigin(node)
        return Rect(x: origin.x + ink.minX * scale, y: origin.y + ink.minY * scale, width: ink.width * scale, height: ink.height * scale)
    }

    func anchorPoint(_ anchor: AnchorSpec, root: LayoutNode, tip: Point?) -> Point {
        let frame = root.frame
        switch anchor {
        case .auto: return tip ?? frame.center
        case .point(let point): return Point(frame.minX + point.x * scale, frame.minY + point.y * scale)
        case .named(let name):
            switch name {
            case .center: return frame.center
            case .top: return Point(frame.midX, frame.minY)
            case .bottom: return Point(frame.midX, frame.maxY)
            case .left: return Point(frame.minX, frame.midY)
            case .right: return Point(frame.maxX, frame.midY)
            case .topLeft: return Point(frame.minX, frame.minY)
            case .topRight: return Point(frame.maxX, frame.minY)
            case .bottomLeft: return Point(frame.minX, frame.maxY)
            case .bottomRight: return Point(frame.maxX, frame.maxY)
            }
        }
    }

    /// Whole-point boxes inside the canvas (see `pixelBox`), without those inside another.
    static func reduce(_ boxes: [Rect], width: Int, height: Int, scale: Double) -> [PixelBox] {
        // Plain loops: a marker has a handful of boxes, and the closures and
        // intermediate arrays cost more than the comparisons.
        var pixelBoxes: [PixelBox] = []
        pixelBoxes.reserveCapacity(boxes.count)
        for rect in boxes {
            let box = pixelBox(rect, width: width, height: height, scale: scale)
            if box.width > 0 && box.height > 0 { pixelBoxes.append(box) }
        }
        var kept: [PixelBox] = []
        kept.reserveCapacity(pixelBoxes.count)
        for index in pixelBoxes.indices {
            let box = pixelBoxes[index]
            var covered = false
            for other in pixelBoxes.indices where other != index {
                let element = pixelBoxes[other]
                if element.contains(box) && (element != box || other < index) { covered = true; break }
            }
            if !covered { kept.append(box) }
        }
        return kept
    }

    /// The pixels of `rect` (device pixels) rounded out to whole points, inside
    /// the canvas: at an integer ratio N the box is N times its 1x box (a
    /// pointer centred on a half point at 1x covers the same points at @2x).
    static func pixelBox(_ rect: Rect, width: Int, height: Int, scale: Double) -> PixelBox {
        func down(_ pixels: Double) -> Int { Int(wholeDown(pixels, scale: scale)) }
        func up(_ pixels: Double) -> Int { Int(wholeUp(pixels, scale: scale)) }
        let x0 = max(0, min(width, down(rect.minX))), y0 = max(0, min(height, down(rect.minY)))
        let x1 = max(0, min(width, up(rect.maxX))), y1 = max(0, min(height, up(rect.maxY)))
        return PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension Rect {
    func offsetBy(_ dx: Double, _ dy: Double) -> Rect { Rect(x: minX + dx, y: minY + dy, width: width, height: height) }
}
