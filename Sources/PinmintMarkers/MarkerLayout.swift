import Foundation
import PinmintGeometry
import PinmintRaster
import PinmintSVG
import PinmintText

/// A part with what laying it out needs: its resources, its measured size
/// and its frame, all in device pixels.
/// Its mutable properties skip Swift's dynamic exclusivity checks
/// (`@exclusivity(unchecked)`): a layout belongs to one render on one
/// thread, and its passes read and set them one at a time (the checks were
/// a runtime call on nearly every access, about 3 % of a warm price tag
/// with the renderer's and the font faces' caches).
final class LayoutNode {
    /// What a part is, without what it holds: the passes switch on this, and
    /// read `box` or `textPart` in place (switching on `part.kind` copied the
    /// whole payload, retains and all, in every pass).
    enum Role { case box, text, picture, icon, spacer }

    let part: Part
    let role: Role
    /// The part's box, when it is one (taken out of `part` once).
    let box: Box?
    /// The part's text, when it is one (taken out of `part` once).
    let textPart: TextPart?
    /// Text, or a box without a fixed width holding text: its width follows
    /// the room it is given, so a row measures it after its fixed parts.
    /// Set by `MarkerLayout.build` once the children are built.
    @exclusivity(unchecked) fileprivate(set) var isFlexible = false
    /// The node this one is a child of (nil for the root): it holds this
    /// node, so it outlives it. With `index`, `path` is made only for an
    /// error (building it for every part took a string per part per marker).
    private unowned(unsafe) let parent: LayoutNode?
    /// Which child of `parent` this is.
    private let index: Int
    /// The root's path ("marker").
    private let rootPath: String
    @exclusivity(unchecked) var children: [LayoutNode] = []
    @exclusivity(unchecked) var fallback: FontFallback?
    @exclusivity(unchecked) var text: TextLayout? { didSet { textInk = text?.inkBounds } }
    /// The text's glyph bounds, device pixels from its layout box (computed once).
    @exclusivity(unchecked) private(set) var textInk: Rect?
    /// The text's glyph bounds set without hinting at scale 1, points from
    /// its layout box: the same at every scale, so the canvas and the hit
    /// boxes that follow the ink are N times their 1x size at ratio N.
    @exclusivity(unchecked) var referenceInk: Rect?
    @exclusivity(unchecked) var image: Image?
    @exclusivity(unchecked) var svg: SVGDocument?
    /// The background shape's outline, once drawn (frames no longer move then).
    @exclusivity(unchecked) var outline: ShapeOutline?
    /// Outer size and frame (pointer included), device pixels.
    @exclusivity(unchecked) var size = Size(0, 0)
    @exclusivity(unchecked) var frame = Rect.zero

    init(part: Part, parent: LayoutNode?, index: Int, rootPath: String) {
        self.part = part
        switch part.kind {
        case .box(let box): role = .box; self.box = box; textPart = nil
        case .text(let text): role = .text; box = nil; textPart = text
        case .picture: role = .picture; box = nil; textPart = nil
        case .icon: role = .icon; box = nil; textPart = nil
        case .spacer: role = .spacer; box = nil; textPart = nil
        }
        self.parent = parent
        self.index = index
        self.rootPath = rootPath
    }

    /// Which measured length `sum` and `largest` read. (A key path read
    /// through the runtime on every node cost more than the rest of a row's layout.)
    enum Length { case width, height }

    /// The sum of the nodes' measured widths or heights, left to right (as
    /// `map` then `reduce(0, +)` adds them, without the array).
    static func sum(_ nodes: [LayoutNode], _ length: Length) -> Double {
        var total = 0.0
        for node in nodes { total += length == .width ? node.size.width : node.size.height }
        return total
    }

    /// The largest of the nodes' measured widths or heights; 0 for none.
    static func largest(_ nodes: [LayoutNode], _ length: Length) -> Double {
        guard let first = nodes.first else { return 0 }
        var largest = length == .width ? first.size.width : first.size.height
        for node in nodes.dropFirst() { largest = max(largest, length == .width ? node.size.width : node.size.height) }
        return largest
    }

    /// Where the part is in the description, for errors ("marker.children[1]").
    var path: String {
        guard let parent else { return rootPath }
        return "\(parent.path).children[\(index)]"
    }
}

/// Measure, place and draw: the layout model in three passes.
///
/// Measuring goes bottom-up with a width limit passed down (a row gives
/// its text what its fixed-size children leave; a stack gives every child
/// its full width), so that text wraps or is cut with an ellipsis where a
/// maximum width demands. Placing goes top-down. All lengths become device
/// pixels (points × scale) before anything is measured, and every size is
/// rounded up to whole points and every offset down to whole points (then
/// to whole pixels, for scales that are not integers): the layout is decided
/// in points, and at every integer pixel ratio N each box is N times its 1x
/// box, whatever the text measures at each size (issue 23).
struct MarkerLayout {
    let scale: Double
    let renderer: MarkerRenderer
    /// The description's file or preset, for errors that name a place in it.
    let source: String
    var warnings: [String] = []
    /// Characters of the text parts no font has (drawn as .notdef boxes), in order, without repeats.
    var missingCharacters: [Unicode.Scalar] = []

    init(scale: Double, renderer: MarkerRenderer, source: String) {
        self.scale = scale
        self.renderer = renderer
        self.source = source
    }

    /// `pixels` rounded up to whole points, then up to whole pixels. The
    /// tolerance keeps a length that is whole points but for the last bits
    /// of a float (41.000000001) from taking one more.
    func wholeUp(_ pixels: Double) -> Double { MarkerLayout.wholeUp(pixels, scale: scale) }

    /// `pixels` rounded down to whole points, then down to whole pixels.
    func wholeDown(_ pixels: Double) -> Double { MarkerLayout.wholeDown(pixels, scale: scale) }

    /// `wholeUp` at `scale` pixels per point.
    static func wholeUp(_ pixels: Double, scale: Double) -> Double {
        ((pixels / scale - 1e-7).rounded(.up) * scale).rounded(.up)
    }

    /// `wholeDown` at `scale` pixels per point.
    static func wholeDown(_ pixels: Double, scale: Double) -> Double {
        ((pixels / scale + 1e-7).rounded(.down) * scale).rounded(.down)
    }

    // MARK: Building

    /// The node tree of `part`, whose place in the description is `path`.
    mutating func build(_ part: Part, path: String) throws(MarkerError) -> LayoutNode {
        try build(part, parent: nil, index: 0, rootPath: path)
    }

    private mutating func build(_ part: Part, parent: LayoutNode?, index: Int, rootPath: String) throws(MarkerError) -> LayoutNode {
        let node = LayoutNode(part: part, parent: parent, index: index, rootPath: rootPath)
        switch node.role {
        case .box:
            let parts = node.box!.children
            node.children.reserveCapacity(parts.count)
            for index in parts.indices {
                node.children.append(try build(parts[index], parent: node, index: index, rootPath: rootPath))
            }
            if case .picture(.file(let file), _)? = node.box!.fill { node.image = try renderer.picture(file, input: source, place: "\(node.path).fill") }
            node.isFlexible = part.width == nil && node.children.contains { $0.isFlexible }
        case .text:
            node.isFlexible = true
            node.fallback = try renderer.fallback(families: node.textPart!.families, weight: node.textPart!.weight.value,
                                                  input: source, place: "\(node.path).font")
        case .picture:
            if case .picture(let picture) = part.kind, case .file(let file) = picture.source {
                node.image = try renderer.picture(file, input: source, place: "\(node.path).file")
            }
        case .icon:
            if case .icon(let icon) = part.kind, case .file(let file) = icon.source {
                node.svg = try renderer.icon(file, input: source, place: "\(node.path).file")
            }
        case .spacer:
            break
        }
        return node
    }

    // MARK: Measuring

    /// The node's outer size in device pixels, given at most `limit` pixels of width.
    mutating func measure(_ node: LayoutNode, limit: Double?) throws(MarkerError) -> Size {
        let s = scale
        let fixedWidth = node.part.width, fixedHeight = node.part.height
        let pointer = (node.box?.shape?.pointerInsets ?? .zero).scaled(s)
        var bodyLimit = limit.map { max(0, $0 - pointer.horizontal) }
        if let width = fixedWidth { bodyLimit = width * s } else if let maximum = node.part.maxWidth {
            bodyLimit = min(bodyLimit ?? .infinity, maximum * s)
        }
        var body: Size
        switch node.role {
        case .box:
            let padding = node.box!.padding.scaled(s)
            let inner = bodyLimit.map { max(0, $0 - padding.horizontal) }
            let gap = node.box!.gap * s
            let count = node.children.count
            // Each child keeps its measured size in `size`: no array of sizes.
            switch node.box!.layout {
            case .row:
                // Fixed-size children first; text shares what they leave,
                // each flexible child in order taking an equal share of the rest.
                var used = gap * Double(max(0, count - 1))
                var flexible = 0
                for child in node.children {
                    if child.isFlexible { flexible += 1; continue }
                    used += try measure(child, limit: inner).width
                }
                for child in node.children where child.isFlexible {
                    flexible -= 1
                    let share = inner.map { max(0, ($0 - used) / Double(flexible + 1)) }
                    used += try measure(child, limit: share).width
                }
                body = Size(LayoutNode.sum(node.children, .width) + gap * Double(max(0, count - 1)),
                            LayoutNode.largest(node.children, .height))
            case .stack:
                for child in node.children { _ = try measure(child, limit: inner) }
                body = Size(LayoutNode.largest(node.children, .width),
                            LayoutNode.sum(node.children, .height) + gap * Double(max(0, count - 1)))
            case .overlay:
                for child in node.children { _ = try measure(child, limit: inner) }
                body = Size(LayoutNode.largest(node.children, .width), LayoutNode.largest(node.children, .height))
            }
            body = Size(body.width + padding.horizontal, body.height + padding.vertical)
            if node.box!.shape?.isRound == true, fixedWidth == nil, fixedHeight == nil {
                let side = max(body.width, body.height)
                body = Size(side, side)
            }
        case .text:
            // The text part's fields read in place (no copy of the part).
            var style = TextStyle(fontSize: node.textPart!.fontSize, letterSpacing: node.textPart!.letterSpacing,
                                  lineHeight: node.textPart!.lineHeight, alignment: node.textPart!.alignment,
                                  wraps: node.textPart!.maxLines > 1, maxLines: node.textPart!.maxLines,
                                  direction: node.textPart!.direction, language: node.textPart!.language,
                                  features: node.textPart!.features)
            if let bodyLimit, bodyLimit.isFinite { style.maxWidth = max(1, bodyLimit) / s }
            let layout: TextLayout
            do {
                layout = try renderer.textLayout(node.textPart!.text, style: style, families: node.textPart!.families,
                                                 weight: node.textPart!.weight.value, fallback: node.fallback!, scale: s)
            } catch {
                throw MarkerError(input: error.file, path: node.path, problem: error.problem)
            }
            if let warning = layout.missingGlyphsWarning, !warnings.contains(warning) { warnings.append(warning) }
            for scalar in layout.missingCharacters where !missingCharacters.contains(scalar) { missingCharacters.append(scalar) }
            node.text = layout
            // Ink measured at 1x without hinting: the same at every scale.
            do {
                node.referenceInk = try layout.referenceInkBounds()
            } catch {
                throw MarkerError(input: error.file, path: node.path, problem: error.problem)
            }
            body = layout.deviceSize
        case .picture:
            body = Size(Double(node.image?.width ?? 40) * s, Double(node.image?.height ?? 40) * s)
        case .icon:
            body = Size(24 * s, 24 * s)
            if case .icon(let icon) = node.part.kind {
                switch icon.source {
                case .file: body = Size((node.svg?.width ?? 24) * s, (node.svg?.height ?? 24) * s)
                case .path(_, let viewBox): body = Size(viewBox.width * s, viewBox.height * s)
                }
            }
            if fixedWidth == nil, fixedHeight == nil { body = Size(24 * s, 24 * s) }
        case .spacer:
            body = Size(0, 0)
        }
        if let width = fixedWidth { body.width = width * s } else {
            if let minimum = node.part.minWidth { body.width = max(body.width, minimum * s) }
            if let maximum = node.part.maxWidth { body.width = min(body.width, maximum * s) }
        }
        if let height = fixedHeight { body.height = height * s } else {
            if let minimum = node.part.minHeight { body.height = max(body.height, minimum * s) }
            if let maximum = node.part.maxHeight { body.height = min(body.height, maximum * s) }
        }
        node.size = Size(wholeUp(body.width + pointer.horizontal), wholeUp(body.height + pointer.vertical))
        return node.size
    }

    // MARK: Placing

    func place(_ node: LayoutNode, at origin: Point) {
        // Whole points: a padding or gap of a fraction of a point moves the part to the point before.
        node.frame = Rect(origin: Point(wholeDown(origin.x), wholeDown(origin.y)), size: node.size)
        guard node.role == .box else { return }
        let pointer = (node.box!.shape?.pointerInsets ?? .zero).scaled(scale)
        let content = node.frame.inset(pointer).inset(node.box!.padding.scaled(scale))
        let gap = node.box!.gap * scale
        let alignX = node.box!.alignX, alignY = node.box!.alignY
        func offset(_ free: Double, _ alignment: Alignment) -> Double {
            switch alignment {
            case .start: return 0
            case .center: return wholeDown(free / 2)
            case .end: return wholeDown(free)
            }
        }
        let children = node.children
        switch node.box!.layout {
        case .row:
            let total = LayoutNode.sum(children, .width) + gap * Double(max(0, children.count - 1))
            var x = content.minX + offset(content.width - total, alignX)
            for child in children {
                place(child, at: Point(x, content.minY + offset(content.height - child.size.height, alignY)))
                x += child.size.width + gap
            }
        case .stack:
            let total = LayoutNode.sum(children, .height) + gap * Double(max(0, children.count - 1))
            var y = content.minY + offset(content.height - total, alignY)
            for child in children {
                place(child, at: Point(content.minX + offset(content.width - child.size.width, alignX), y))
                y += child.size.height + gap
            }
        case .overlay:
            for child in children {
                place(child, at: Point(content.minX + offset(content.width - child.size.width, alignX),
                                       content.minY + offset(content.height - child.size.height, alignY)))
            }
        }
    }

    /// Moves a placed tree by whole pixels.
    func shift(_ node: LayoutNode, by delta: Point) {
        node.frame.origin = node.frame.origin + delta
        for child in node.children { shift(child, by: delta) }
    }

    /// Where a text's layout box starts (whole points, then whole device
    /// pixels): aligned in its frame horizontally, centred vertically.
    func textOrigin(_ node: LayoutNode) -> Point {
        guard let layout = node.text, let alignment = node.textPart?.alignment else { return node.frame.origin }
        let free = node.frame.width - layout.deviceSize.width
        let dx: Double
        switch alignment {
        case .left: dx = 0
        case .center: dx = wholeDown(free / 2)
        case .right: dx = wholeDown(free)
        case .start: dx = layout.isRightToLeft ? wholeDown(free) : 0
        case .end: dx = layout.isRightToLeft ? 0 : wholeDown(free)
        }
        return Point(wholeDown(node.frame.minX + dx),
                     wholeDown(node.frame.minY + wholeDown((node.frame.height - layout.deviceSize.height) / 2)))
    }
}
