import Foundation
import PinmintGeometry
import PinmintRaster
import PinmintSVG
import PinmintText

/// A part with what laying it out needs: its resources, its measured size
/// and its frame, all in device pixels.
final class LayoutNode {
    let part: Part
    /// The node this one is a child of (nil for the root): it holds this
    /// node, so it outlives it. With `index`, `path` is made only for an
    /// error (building it for every part took a string per part per marker).
    private unowned(unsafe) let parent: LayoutNode?
    /// Which child of `parent` this is.
    private let index: Int
    /// The root's path ("marker").
    private let rootPath: String
    var children: [LayoutNode] = []
    var fallback: FontFallback?
    var text: TextLayout? { didSet { textInk = text?.inkBounds } }
    /// The text's glyph bounds, device pixels from its layout box (computed once).
    private(set) var textInk: Rect?
    var image: Image?
    var svg: SVGDocument?
    /// The background shape's outline, once drawn (frames no longer move then).
    var outline: ShapeOutline?
    /// Outer size and frame (pointer included), device pixels.
    var size = Size(0, 0)
    var frame = Rect.zero

    init(part: Part, parent: LayoutNode?, index: Int, rootPath: String) {
        self.part = part
        self.parent = parent
        self.index = index
        self.rootPath = rootPath
    }

    /// Where the part is in the description, for errors ("marker.children[1]").
    var path: String {
        guard let parent else { return rootPath }
        return "\(parent.path).children[\(index)]"
    }

    var box: Box? { if case .box(let box) = part.kind { return box } else { return nil } }
    var isText: Bool { if case .text = part.kind { return true } else { return false } }
    /// Text, or a box without a fixed width holding text: its width follows
    /// the room it is given, so a row measures it after its fixed parts.
    var isFlexible: Bool {
        if isText { return true }
        guard box != nil, part.width == nil else { return false }
        return children.contains { $0.isFlexible }
    }
}

/// Measure, place and draw: the layout model in three passes.
///
/// Measuring goes bottom-up with a width limit passed down (a row gives
/// its text what its fixed-size children leave; a stack gives every child
/// its full width), so that text wraps or is cut with an ellipsis where a
/// maximum width demands. Placing goes top-down. All lengths become device
/// pixels (points × scale) before anything is measured, and every size is
/// rounded up to whole pixels and every offset down, so edges of
/// whole-point boxes fall on pixel edges at every integral scale.
struct MarkerLayout {
    let scale: Double
    let renderer: MarkerRenderer
    var warnings: [String] = []

    init(scale: Double, renderer: MarkerRenderer) {
        self.scale = scale
        self.renderer = renderer
    }

    // MARK: Building

    /// The node tree of `part`, whose place in the description is `path`.
    mutating func build(_ part: Part, path: String) throws(MarkerError) -> LayoutNode {
        try build(part, parent: nil, index: 0, rootPath: path)
    }

    private mutating func build(_ part: Part, parent: LayoutNode?, index: Int, rootPath: String) throws(MarkerError) -> LayoutNode {
        let node = LayoutNode(part: part, parent: parent, index: index, rootPath: rootPath)
        switch part.kind {
        case .box(let box):
            node.children.reserveCapacity(box.children.count)
            for (index, child) in box.children.enumerated() {
                node.children.append(try build(child, parent: node, index: index, rootPath: rootPath))
            }
        case .text(let text):
            node.fallback = try renderer.fallback(families: text.families, weight: text.weight.value)
        case .picture(let picture):
            if case .file(let file) = picture.source { node.image = try renderer.picture(file) }
        case .icon(let icon):
            if case .file(let file) = icon.source { node.svg = try renderer.icon(file) }
        case .spacer:
            break
        }
        if case .box(let box) = part.kind, case .picture(.file(let file), _)? = box.fill {
            node.image = try renderer.picture(file)
        }
        return node
    }

    // MARK: Measuring

    /// The node's outer size in device pixels, given at most `limit` pixels of width.
    mutating func measure(_ node: LayoutNode, limit: Double?) throws(MarkerError) -> Size {
        let part = node.part, s = scale
        let pointer = (node.box?.shape?.pointerInsets ?? .zero).scaled(s)
        var bodyLimit = limit.map { max(0, $0 - pointer.horizontal) }
        if let width = part.width { bodyLimit = width * s } else if let maximum = part.maxWidth {
            bodyLimit = min(bodyLimit ?? .infinity, maximum * s)
        }
        var body: Size
        switch part.kind {
        case .box(let box):
            let padding = box.padding.scaled(s)
            let inner = bodyLimit.map { max(0, $0 - padding.horizontal) }
            let gap = box.gap * s
            let count = node.children.count
            var sizes = [Size](repeating: Size(0, 0), count: count)
            switch box.layout {
            case .row:
                // Fixed-size children first; text shares what they leave.
                var used = gap * Double(max(0, count - 1))
                for (index, child) in node.children.enumerated() where !child.isFlexible {
                    sizes[index] = try measure(child, limit: inner)
                    used += sizes[index].width
                }
                var texts = node.children.indices.filter { node.children[$0].isFlexible }
                while !texts.isEmpty {
                    let index = texts.removeFirst()
                    let share = inner.map { max(0, ($0 - used) / Double(texts.count + 1)) }
                    sizes[index] = try measure(node.children[index], limit: share)
                    used += sizes[index].width
                }
                body = Size(sizes.map(\.width).reduce(0, +) + gap * Double(max(0, count - 1)),
                            sizes.map(\.height).max() ?? 0)
            case .stack:
                for (index, child) in node.children.enumerated() { sizes[index] = try measure(child, limit: inner) }
                body = Size(sizes.map(\.width).max() ?? 0,
                            sizes.map(\.height).reduce(0, +) + gap * Double(max(0, count - 1)))
            case .overlay:
                for (index, child) in node.children.enumerated() { sizes[index] = try measure(child, limit: inner) }
                body = Size(sizes.map(\.width).max() ?? 0, sizes.map(\.height).max() ?? 0)
            }
            body = Size(body.width + padding.horizontal, body.height + padding.vertical)
            if box.shape?.isRound == true, part.width == nil, part.height == nil {
                let side = max(body.width, body.height)
                body = Size(side, side)
            }
        case .text(let text):
            var style = TextStyle(fontSize: text.fontSize, letterSpacing: text.letterSpacing, lineHeight: text.lineHeight,
                                  alignment: text.alignment, wraps: text.maxLines > 1, maxLines: text.maxLines)
            if let bodyLimit, bodyLimit.isFinite { style.maxWidth = max(1, bodyLimit) / s }
            let layout: TextLayout
            do {
                layout = try renderer.textLayout(text.text, style: style, families: text.families,
                                                 weight: text.weight.value, fallback: node.fallback!, scale: s)
            } catch {
                throw MarkerError(input: error.file, path: node.path, problem: error.problem)
            }
            if let warning = layout.missingGlyphsWarning, !warnings.contains(warning) { warnings.append(warning) }
            node.text = layout
            body = layout.deviceSize
        case .picture:
            body = Size(Double(node.image?.width ?? 40) * s, Double(node.image?.height ?? 40) * s)
        case .icon(let icon):
            switch icon.source {
            case .file: body = Size((node.svg?.width ?? 24) * s, (node.svg?.height ?? 24) * s)
            case .path(_, let viewBox): body = Size(viewBox.width * s, viewBox.height * s)
            }
            if part.width == nil, part.height == nil { body = Size(24 * s, 24 * s) }
        case .spacer:
            body = Size(0, 0)
        }
        if let width = part.width { body.width = width * s } else {
            if let minimum = part.minWidth { body.width = max(body.width, minimum * s) }
            if let maximum = part.maxWidth { body.width = min(body.width, maximum * s) }
        }
        if let height = part.height { body.height = height * s } else {
            if let minimum = part.minHeight { body.height = max(body.height, minimum * s) }
            if let maximum = part.maxHeight { body.height = min(body.height, maximum * s) }
        }
        node.size = Size((body.width + pointer.horizontal).rounded(.up), (body.height + pointer.vertical).rounded(.up))
        return node.size
    }

    // MARK: Placing

    func place(_ node: LayoutNode, at origin: Point) {
        node.frame = Rect(origin: origin, size: node.size)
        guard let box = node.box else { return }
        let pointer = (box.shape?.pointerInsets ?? .zero).scaled(scale)
        let content = node.frame.inset(pointer).inset(box.padding.scaled(scale))
        let gap = box.gap * scale
        func offset(_ free: Double, _ alignment: Alignment) -> Double {
            switch alignment {
            case .start: return 0
            case .center: return (free / 2).rounded(.down)
            case .end: return free.rounded(.down)
            }
        }
        let children = node.children
        switch box.layout {
        case .row:
            let total = children.map(\.size.width).reduce(0, +) + gap * Double(max(0, children.count - 1))
            var x = content.minX + offset(content.width - total, box.alignX)
            for child in children {
                place(child, at: Point(x, content.minY + offset(content.height - child.size.height, box.alignY)))
                x += child.size.width + gap
            }
        case .stack:
            let total = children.map(\.size.height).reduce(0, +) + gap * Double(max(0, children.count - 1))
            var y = content.minY + offset(content.height - total, box.alignY)
            for child in children {
                place(child, at: Point(content.minX + offset(content.width - child.size.width, box.alignX), y))
                y += child.size.height + gap
            }
        case .overlay:
            for child in children {
                place(child, at: Point(content.minX + offset(content.width - child.size.width, box.alignX),
                                       content.minY + offset(content.height - child.size.height, box.alignY)))
            }
        }
    }

    /// Moves a placed tree by whole pixels.
    func shift(_ node: LayoutNode, by delta: Point) {
        node.frame.origin = node.frame.origin + delta
        for child in node.children { shift(child, by: delta) }
    }

    /// Where a text's layout box starts (whole device pixels): aligned in
    /// its frame horizontally, centred vertically.
    func textOrigin(_ node: LayoutNode) -> Point {
        guard let layout = node.text, case .text(let text) = node.part.kind else { return node.frame.origin }
        let free = node.frame.width - layout.deviceSize.width
        let dx: Double
        switch text.alignment {
        case .left: dx = 0
        case .center: dx = (free / 2).rounded(.down)
        case .right: dx = free.rounded(.down)
        }
        return Point((node.frame.minX + dx).rounded(.down),
                     (node.frame.minY + ((node.frame.height - layout.deviceSize.height) / 2).rounded(.down)).rounded(.down))
    }
}
