import Foundation
import PinmintGeometry
import PinmintRaster

/// How a marker drawn without text stretches around a label in MapLibre GL
/// JS / Mapbox GL (`icon-text-fit` with the sprite index's `content`,
/// `stretchX` and `stretchY`), and what puts its tip on the point then.
///
/// Decided from the layout in whole points (issue 23), so that it is the same
/// in CSS pixels at every pixel ratio, then checked against the pixels by
/// the tests: every run is a stretch of identical columns or rows.
///
/// What MapLibre does with it (`getIconQuads` in maplibre-gl-js
/// `src/symbol/quads.ts`, `fitIconToText` in `src/symbol/shaping.ts`):
/// - the icon is centred on the label, not placed by `icon-anchor`: the
///   `content` box is laid over the label's box (grown by
///   `icon-text-fit-padding`), and `text-offset` moves the label and with it
///   the fitted icon (`icon-offset` moves the icon alone);
/// - across the content box, the stretch runs take up what the label needs
///   beyond the content's fixed pixels, in proportion to their lengths; the
///   pixels outside the content box keep their size. So the runs lie inside
///   the content box, and a pointer between two runs of equal length stays
///   in the middle of the content, whatever the label's width;
/// - when the label is narrower than the content's fixed pixels, MapLibre
///   draws the icon at that fixed size (`minFontScaleX/Y`) by scaling its
///   box about the label's anchor: harmless across when the tip is on the
///   content's centre line (offset 0), and avoided down by `padding`.
public struct MarkerStretch: Hashable, Sendable {
    /// `[x1, y1, x2, y2]` in pixels of the image: the label area, which
    /// MapLibre lays over the label. It contains every stretch run and is
    /// never empty.
    public let content: [Int]
    /// `[from, to]` pixel columns MapLibre may stretch: increasing, inside
    /// `content`; around a centred pointer, one run of equal length each side.
    public let stretchX: [[Int]]
    /// `[from, to]` pixel rows MapLibre may stretch (flat rows of the body).
    public let stretchY: [[Int]]
    /// The label's font size (points, CSS pixels) the offset is worked out
    /// for: MapLibre's `text-size` in the layer.
    public let textSize: Double
    /// `icon-text-fit-padding` `[top, right, bottom, left]` (CSS pixels):
    /// enough for the content's fixed rows (a badge) with a one-line label
    /// of `textSize` at `text-line-height` 1.2, so that MapLibre does not
    /// have to draw the icon taller than the label asks for.
    public let padding: [Double]
    /// How far (CSS pixels) the label, and the icon fitted to it, must move
    /// so that the tip lands on the point: `text-offset` × `textSize`. Nil
    /// when it depends on the label's width (a tip beside the content, e.g.
    /// an arrow on the left or right).
    public let offset: Point?

    /// MapLibre's default `text-line-height`, which `offset` assumes.
    public static let textLineHeight = 1.2

    /// `text-offset` in ems of `textSize`.
    public var textOffset: Point? { offset.map { Point($0.x / textSize, $0.y / textSize) } }
}

extension MarkerLayout {
    /// The stretch runs of `root`'s body: nil unless the root is a filled or
    /// stroked rectangle, rounded rectangle or bubble with a flat run.
    /// `fixed` are the drawn parts that must keep their size (children's
    /// boxes, pictures, icons, text ink; the root's own pointer is told
    /// apart), `anchor` the tip (device pixels), `label` the content part's frame.
    func stretch(of root: LayoutNode, fixed: [Rect], anchor: Point, label: Rect?, textSize: Double,
                 width: Int, height: Int) -> MarkerStretch? {
        guard root.role == .box, let shape = root.box!.shape, root.box!.fill != nil || root.box!.stroke != nil,
              let outline = root.outline else { return nil }
        let s = scale
        let radius: Double
        var arrow: Shape.Arrow? = nil
        switch shape {
        case .rect: radius = 0
        case .roundedRect(let radii): radius = max(radii.topLeft, radii.topRight, radii.bottomRight, radii.bottomLeft)
        case .bubble(let r, let a): radius = r; arrow = a
        default: return nil
        }
        // Points from here on: every edge is a whole point, so pixels are points × scale at every ratio.
        func points(_ pixels: Rect) -> Rect {
            Rect(x: pixels.minX / s, y: pixels.minY / s, width: pixels.width / s, height: pixels.height / s)
        }
        let body = points(outline.body)
        let corner = min(radius, body.width / 2, body.height / 2)
        // How far a corner or a pointer changes the columns and rows beside it: a stroke's
        // half width (a miter up to four), and a shadow's offset and blur kernel (⌈4σ⌉ pixels,
        // at most 4σ and a point: beyond it the blurred columns are computed from the same
        // values, so they are the same bits).
        var strokeReach = 0.0
        if let stroke = root.box!.stroke, stroke.width > 0 { strokeReach = stroke.width / 2 * (stroke.join == .miter ? 4 : 1) }
        var reachX = strokeReach, reachY = strokeReach
        if let shadow = root.box!.shadow, shadow.color.alpha > 0 {
            let blur = shadow.blurRadius > 0 ? 4 * shadow.blurRadius + 1 : 0
            reachX += blur + abs(shadow.offset.x)
            reachY += blur + abs(shadow.offset.y)
        }
        // The root's stroke and shadow follow its outline: they change the columns and rows by its
        // corners and pointer, not those beside its parts (a child's own stroke, shadow or halo is
        // in `reaches`). Drawn parts are blocked at their frames.
        let pointerPieces = Array(outline.pieces.dropFirst())
        var reaches: [Rect] = []
        collectReach(of: root, into: &reaches)
        let blocked = (fixed.filter { rect in !pointerPieces.contains(rect) } + reaches).filter { $0.width > 0 && $0.height > 0 }
            .map(points)
        let tip = Point(anchor.x / s, anchor.y / s)
        let arrowBounds = pointerPieces.first.map(points)
        let acrossX = arrow.map { $0.side == .bottom || $0.side == .top } ?? false
        let acrossY = arrow.map { $0.side == .left || $0.side == .right } ?? false

        let columns = MarkerLayout.runs(from: body.minX + corner + reachX, to: body.maxX - corner - reachX,
                                        blocked: blocked.map { ($0.minX, $0.maxX) },
                                        pointer: acrossX ? arrowBounds.map { ($0.minX - reachX, $0.maxX + reachX) } : nil,
                                        tip: acrossX ? tip.x : nil)
        let rows = MarkerLayout.runs(from: body.minY + corner + reachY, to: body.maxY - corner - reachY,
                                     blocked: blocked.map { ($0.minY, $0.maxY) },
                                     pointer: acrossY ? arrowBounds.map { ($0.minY - reachY, $0.maxY + reachY) } : nil,
                                     tip: acrossY ? tip.y : nil)
        guard !columns.isEmpty || !rows.isEmpty else { return nil }
        // The content box: the span of the runs on each axis, else the label's place, else the body.
        func span(_ runs: [(Double, Double)], label: (Double, Double)?, body: (Double, Double)) -> (Double, Double) {
            if let first = runs.first, let last = runs.last { return (first.0, last.1) }
            if let label, label.1 - label.0 >= 1 { return ((label.0 + 1e-7).rounded(.down), (label.1 - 1e-7).rounded(.up)) }
            return ((body.0 + 1e-7).rounded(.up), (body.1 - 1e-7).rounded(.down))
        }
        let labelPoints = label.map(points)
        let x = span(columns, label: labelPoints.map { ($0.minX, $0.maxX) }, body: (body.minX + corner, body.maxX - corner))
        let y = span(rows, label: labelPoints.map { ($0.minY, $0.maxY) }, body: (body.minY + corner, body.maxY - corner))
        guard x.1 > x.0, y.1 > y.0 else { return nil }

        // What MapLibre needs beyond the runs (see the type's notes), in CSS pixels.
        let lineBox = MarkerStretch.textLineHeight * textSize
        let stretchedRows = rows.reduce(0) { $0 + $1.1 - $1.0 }
        let fixedRows = (y.1 - y.0) - stretchedRows
        let padding = max(0, ((fixedRows - lineBox) / 2).rounded(.up))
        // Beyond the content box the image keeps its size: a tip below (above) the content is
        // that far below (above) the label's box. Inside it, the tip stays where it is in the
        // content only when the runs are mirror images about it (a centred pointer); otherwise
        // where it lands depends on the label's length, and there is no one offset.
        func mirrored(_ runs: [(Double, Double)], about centre: Double) -> Bool {
            zip(runs, runs.reversed()).allSatisfy { abs($0.0.0 - (2 * centre - $0.1.1)) < 1e-9 && abs($0.0.1 - (2 * centre - $0.1.0)) < 1e-9 }
        }
        func move(tip: Double, span: (Double, Double), runs: [(Double, Double)], beyond: Double) -> Double? {
            if tip >= span.1 { return -(beyond + (tip - span.1)) }
            if tip <= span.0 { return beyond + (span.0 - tip) }
            guard mirrored(runs, about: tip), abs((span.0 + span.1) / 2 - tip) < 1e-9 else { return nil }
            return 0
        }
        var offset: Point? = nil
        // Across, the label's half width is unknown: a tip beside the content has no one offset.
        if tip.x > x.0, tip.x < x.1, let dx = move(tip: tip.x, span: x, runs: columns, beyond: 0),
           let dy = move(tip: tip.y, span: y, runs: rows, beyond: lineBox / 2 + padding) {
            offset = Point(dx, dy)
        }
        func pixels(_ value: Double) -> Int { Int((value * s).rounded()) }
        let content = [max(0, pixels(x.0)), max(0, pixels(y.0)), min(width, pixels(x.1)), min(height, pixels(y.1))]
        return MarkerStretch(content: content, stretchX: columns.map { [pixels($0.0), pixels($0.1)] },
                             stretchY: rows.map { [pixels($0.0), pixels($0.1)] }, textSize: textSize,
                             padding: [padding, 0, padding, 0], offset: offset)
    }

    /// Whether the marker's label area (the part marked content, else its
    /// first text part) is empty: drawn without text, it is the stretchable
    /// sprite (the test `draw` makes for `metadata.stretch`).
    static func hasEmptyLabel(_ root: LayoutNode) -> Bool {
        guard let label = firstContent(in: root) ?? firstText(in: root) else { return false }
        return label.frame.width == 0 || label.frame.height == 0
    }

    /// The first part marked content in `node` and its children, in tree order.
    private static func firstContent(in node: LayoutNode) -> LayoutNode? {
        if node.part.isContent { return node }
        for child in node.children { if let content = firstContent(in: child) { return content } }
        return nil
    }

    /// The most a stretchable marker grows on each axis to get its runs, points.
    static let maximumStretchGrowth = 512

    /// The most `(side + 1) × side ÷ runs` (points) may be on an axis of a
    /// stretchable image: MapLibre GL JS 5.3 draws an icon that has
    /// `stretchX`/`stretchY` but no `icon-text-fit` as one quad whose corner
    /// is an em part `(side + 1) ÷ runs × side` and a pixel part of nearly
    /// the same size and the other sign (`getIconQuads`, src/symbol/quads.ts);
    /// the em part is stored × 32 in an Int16 (`a_offset`), so past 1,024 it
    /// wraps and the plain icon is drawn across the screen or not at all.
    /// Seen in the browser test: the 66 pt badge tag with runs of 2 pt in all
    /// (2,211) was drawn over 1,150 px; with 8 pt (552) as it is. Kept below
    /// 1,000 with the value at 1x, the largest over the ratios.
    static let mapLibrePlainIconLimit = 1000.0

    /// Grows the root of a marker drawn without text (the stretchable
    /// sprite), a whole point at a time, until MapLibre gets what it needs
    /// on each axis: a stretch run, and around a centred pointer across that
    /// axis two runs of one length mirrored about its tip, which is in the
    /// middle of the body. Without them a body
    /// narrower than its corners and pointer (a 20 pt bubble of radius 8
    /// with a 16 pt arrow) has no flat column, and a badge over the pointer
    /// (the price tag's) leaves one run right of it that moves the pointer
    /// with the label. Growing moves the pointer (it stays at its place
    /// along the side) away from parts aligned to the start, so the runs
    /// appear beside it; parts keep their size. The runs also grow until
    /// MapLibre can draw the image as a plain icon (see
    /// `mapLibrePlainIconLimit`). An axis that has its runs
    /// after at most `maximumStretchGrowth` points keeps the growth, another
    /// keeps its size (and gets what `stretch` finds there).
    mutating func widenForStretch(_ root: LayoutNode, anchor: AnchorSpec) {
        guard root.role == .box, let shape = root.box!.shape, root.box!.fill != nil || root.box!.stroke != nil else { return }
        let side: Shape.Arrow.Side?, centred: Bool
        switch shape {
        case .rect, .roundedRect: side = nil; centred = false
        case .bubble(_, let arrow): side = arrow?.side; centred = arrow?.position == 0.5
        default: return
        }
        // Mirrored runs are asked for only about a centred pointer: about one elsewhere on its side
        // the tip stays put only for a content box centred on it, which the body may not hold
        // (a pointer at a corner), and the metadata then gives no offset (see `stretch`).
        let acrossX = centred && (side == .bottom || side == .top), acrossY = centred && (side == .left || side == .right)
        // Whether the runs on each axis are what MapLibre needs, for the root as placed now.
        func check() -> (x: Bool, y: Bool) {
            let outline = renderer.outline(of: shape, in: root.frame, scale: scale)
            root.outline = outline
            defer { root.outline = nil }
            var found = Survey()
            survey(root, isRoot: true, into: &found)
            let tip = anchorPoint(anchor, root: root, tip: found.tip)
            guard let stretch = stretch(of: root, fixed: found.fixed, anchor: tip, label: found.content ?? found.firstText,
                                        textSize: 12, width: .max, height: .max) else { return (false, false) }
            // A centred pointer's tip is on a whole point (`BubbleGeometry`): in the middle of a body
            // of whole points only, so that the image has as many columns each side of it.
            func enough(_ runs: [[Int]], across: Bool, tip: Double, middle: Double) -> Bool {
                guard across else { return !runs.isEmpty }
                guard runs.count == 2, !centred || abs(tip - middle) < 1e-6 else { return false }
                let before = runs[0], after = runs[1]
                return before[1] - before[0] == after[1] - after[0] && abs(Double(before[1] + after[0]) - 2 * tip) < 1
            }
            // The image's size in points, as `draw` makes the canvas.
            var ink: Rect? = nil
            collectInk(root, into: &ink)
            let bounds = ink.map { $0.union(root.frame) } ?? root.frame
            let side = (x: (wholeUp(bounds.maxX) - wholeDown(bounds.minX)) / scale, y: (wholeUp(bounds.maxY) - wholeDown(bounds.minY)) / scale)
            func drawable(_ runs: [[Int]], side: Double) -> Bool {
                let total = Double(runs.reduce(0) { $0 + $1[1] - $1[0] }) / scale
                return runs.isEmpty || (side + 1) * side <= MarkerLayout.mapLibrePlainIconLimit * total
            }
            return (enough(stretch.stretchX, across: acrossX, tip: tip.x, middle: outline.body.midX) && drawable(stretch.stretchX, side: side.x),
                    enough(stretch.stretchY, across: acrossY, tip: tip.y, middle: outline.body.midY) && drawable(stretch.stretchY, side: side.y))
        }
        var state = check()
        for axis in [LayoutNode.Length.width, .height] {
            func done() -> Bool { axis == .width ? state.x : state.y }
            guard !done() else { continue }
            let original = root.size
            var grown = 0
            while !done(), grown < MarkerLayout.maximumStretchGrowth {
                grown += 1
                if axis == .width { root.size.width = wholeUp(root.size.width + scale) } else { root.size.height = wholeUp(root.size.height + scale) }
                place(root, at: .zero)
                state = check()
            }
            if !done() {
                root.size = original
                place(root, at: .zero)
                state = check()
            }
        }
    }

    /// What the parts inside `node` change beyond their frames (device
    /// pixels): a child box's stroke and shadow (its blur kernel and offset),
    /// a text's halo. Runs must keep clear of these as of the parts.
    private func collectReach(of node: LayoutNode, into rects: inout [Rect]) {
        for child in node.children {
            if child.role == .box, child.box!.shape != nil, child.box!.fill != nil || child.box!.stroke != nil {
                var reach = child.frame
                if let stroke = child.box!.stroke, stroke.width > 0 {
                    let half = stroke.width * scale / 2 * (stroke.join == .miter ? 4 : 1)
                    reach = reach.insetBy(dx: -half, dy: -half)
                }
                if let shadow = child.box!.shadow, child.box!.fill != nil, shadow.color.alpha > 0 {
                    let blur = shadow.blurRadius > 0 ? (4 * shadow.blurRadius + 1) * scale : 0
                    reach = reach.union(child.frame.insetBy(dx: -blur, dy: -blur).offsetBy(shadow.offset.x * scale, shadow.offset.y * scale))
                }
                rects.append(reach)
            }
            if child.role == .text, let halo = child.textPart!.halo, halo.width > 0, child.textInk != nil {
                let width = halo.width * scale
                rects.append(child.frame.insetBy(dx: -width - scale, dy: -width - scale))
            }
            collectReach(of: child, into: &rects)
        }
    }

    /// The stretch runs along one axis, in whole points: `from ... to` (the
    /// body between its corners) without the `blocked` intervals. With a
    /// `pointer` across this axis and its `tip`, the two runs beside the
    /// pointer in the free stretch around the tip, cut to one length, so
    /// that stretching keeps the pointer in the middle; without, every free
    /// stretch of at least a point (also when the pointer has no free
    /// stretch either side of it, e.g. under a badge: the runs are then not
    /// mirror images and the pointer moves with the label's width; a marker
    /// drawn without text grows until it has them, see `widenForStretch`).
    static func runs(from start: Double, to end: Double, blocked: [(Double, Double)],
                     pointer: (Double, Double)?, tip: Double?) -> [(Double, Double)] {
        let low = (start - 1e-7).rounded(.up), high = (end + 1e-7).rounded(.down)
        guard high > low else { return [] }
        var free: [(Double, Double)] = [(low, high)]
        for (from, to) in blocked {
            let from = (from + 1e-7).rounded(.down), to = (to - 1e-7).rounded(.up)
            free = free.flatMap { piece -> [(Double, Double)] in
                guard from < piece.1, to > piece.0 else { return [piece] }
                return [(piece.0, min(from, piece.1)), (max(to, piece.0), piece.1)].filter { $0.1 > $0.0 }
            }
        }
        guard let pointer, let tip else { return free.filter { $0.1 - $0.0 >= 1 } }
        let pointerStart = (pointer.0 + 1e-7).rounded(.down), pointerEnd = (pointer.1 - 1e-7).rounded(.up)
        if let around = free.first(where: { $0.0 <= tip && tip <= $0.1 }) {
            let length = min(pointerStart - around.0, around.1 - pointerEnd)
            if length >= 1 { return [(pointerStart - length, pointerStart), (pointerEnd, pointerEnd + length)] }
        }
        return runs(from: low, to: high, blocked: blocked + [(pointerStart, pointerEnd)], pointer: nil, tip: nil)
    }
}
