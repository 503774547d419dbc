import Foundation
import PinmintGeometry

/// The outline of a shape in a frame, in device pixels.
struct ShapeOutline {
    /// The outline as a path. A bubble's is made when first asked for: one
    /// drawn from its stretched mask (a tag of a new width) needs only the
    /// body, tip and pieces, and building its path took about 14K
    /// instructions, a twelfth of a tag.
    var path: Path { source.path }
    private let source: PathSource
    /// Where the children go: the frame without the pointer.
    var body: Rect
    /// The pointer's tip (bubble arrow, teardrop point), if the shape has one.
    var tip: Point?
    /// Rectangles that cover the shape: the body and the pointer's bounds.
    var pieces: [Rect]

    init(path: Path, body: Rect, tip: Point?, pieces: [Rect]) {
        source = PathSource(path)
        self.body = body; self.tip = tip; self.pieces = pieces
    }

    /// An outline whose path `make` builds on first use (once: copies share it).
    init(body: Rect, tip: Point?, pieces: [Rect], path make: @escaping () -> Path) {
        source = PathSource(make)
        self.body = body; self.tip = tip; self.pieces = pieces
    }

    /// A path made at most once, when first read. Outlines belong to one
    /// renderer, which one thread uses at a time.
    private final class PathSource {
        private var made: Path?
        private var make: (() -> Path)?

        init(_ path: Path) { made = path }
        init(_ make: @escaping () -> Path) { self.make = make }

        var path: Path {
            if let made { return made }
            let path = make!()
            made = path
            make = nil
            return path
        }
    }
}

extension Shape {
    /// The outline filling `frame` (device pixels); `scale` converts the
    /// shape's point lengths (radius, arrow) to device pixels.
    func outline(in frame: Rect, scale: Double) -> ShapeOutline {
        let body = frame.inset(pointerInsets.scaled(scale))
        var path = Path()
        switch self {
        case .rect:
            path.addRect(frame)
        case .roundedRect(let radii):
            path.addRoundedRect(frame, radii: Path.CornerRadii(topLeft: radii.topLeft * scale, topRight: radii.topRight * scale,
                                                                bottomRight: radii.bottomRight * scale, bottomLeft: radii.bottomLeft * scale))
        case .circle:
            let radius = min(frame.width, frame.height) / 2
            path.addCircle(center: frame.center, radius: radius)
            return ShapeOutline(path: path, body: body, tip: nil,
                                pieces: [Rect(x: frame.midX - radius, y: frame.midY - radius, width: 2 * radius, height: 2 * radius)])
        case .ellipse:
            path.addEllipse(in: frame)
        case .path(let data, let viewBox):
            let transform = AffineMap.translation(-viewBox.minX, -viewBox.minY)
                .concatenating(.scale(frame.width / viewBox.width, frame.height / viewBox.height))
                .concatenating(.translation(frame.minX, frame.minY))
            path = data.transformed(by: transform)
            return ShapeOutline(path: path, body: body, tip: nil, pieces: [path.bounds ?? frame])
        case .bubble(let radius, let arrow):
            return Shape.bubble(body: body, radius: radius * scale, arrow: arrow, scale: scale)
        case .teardrop:
            return Shape.teardrop(head: body, tip: Point(body.midX, frame.maxY))
        }
        return ShapeOutline(path: path, body: body, tip: nil, pieces: [frame])
    }

    /// A rounded rectangle whose corners are tangent arcs (as seed 004 builds
    /// its bubble with `addArc(tangent1End:tangent2End:radius:)`), with the
    /// arrow let into one side. Built for an arrow at the bottom, then turned
    /// to the asked side, so that every side shares one construction.
    private static func bubble(body: Rect, radius: Double, arrow: Arrow?, scale: Double) -> ShapeOutline {
        guard let geometry = BubbleGeometry(body: body, radius: radius, arrow: arrow, scale: scale) else {
            var path = Path()
            path.addRoundedRect(body, radius: min(radius, body.width / 2, body.height / 2))
            return ShapeOutline(path: path, body: body, tip: nil, pieces: [body])
        }
        let g = geometry, toDevice = geometry.toDevice
        let tip = toDevice.apply(Point(g.tipX, g.h + g.arrowHeight))
        let arrowBounds = Rect(corner: toDevice.apply(Point(min(g.tipX, g.baseX - g.halfWidth), g.h)),
                               toDevice.apply(Point(max(g.tipX, g.baseX + g.halfWidth), g.h + g.arrowHeight)))
        return ShapeOutline(body: body, tip: tip, pieces: [body, arrowBounds]) { g.localPath().transformed(by: toDevice) }
    }

    /// The classic map pin: a circle in `head` and the two lines tangent to
    /// it from `tip`, the arc over the top joining them.
    private static func teardrop(head: Rect, tip: Point) -> ShapeOutline {
        let radius = min(head.width, head.height) / 2
        let center = Point(head.midX, head.minY + radius)
        let distance = tip.y - center.y
        var path = Path()
        guard distance > radius + 1e-9 else {
            path.addCircle(center: center, radius: radius)
            return ShapeOutline(path: path, body: head, tip: Point(center.x, center.y + radius), pieces: [head])
        }
        // The tangent points sit at angle φ either side of straight down, cos φ = r / d.
        let phi = acos(radius / distance)
        path.move(to: tip)
        path.line(to: Point(center.x + radius * sin(phi), center.y + radius * cos(phi)))
        path.arc(center: center, radius: radius, start: Double.pi / 2 - phi, end: Double.pi / 2 + phi, clockwise: false)
        path.close()
        let pointBounds = Rect(x: center.x - radius * sin(phi), y: center.y + radius * cos(phi),
                               width: 2 * radius * sin(phi), height: tip.y - center.y - radius * cos(phi))
        let headSquare = Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        return ShapeOutline(path: path, body: head, tip: tip, pieces: [headSquare, pointBounds])
    }
}

extension Insets {
    func scaled(_ scale: Double) -> Insets {
        Insets(top: top * scale, right: right * scale, bottom: bottom * scale, left: left * scale)
    }
    var horizontal: Double { left + right }
    var vertical: Double { top + bottom }
}

extension Rect {
    func inset(_ insets: Insets) -> Rect {
        Rect(x: minX + insets.left, y: minY + insets.top,
             width: max(0, width - insets.horizontal), height: max(0, height - insets.vertical))
    }
}

/// The numbers a bubble with an arrow is built from, in its local frame: the
/// body at the origin, `w` × `h`, with the arrow side at the bottom.
struct BubbleGeometry: Hashable {
    var w: Double, h: Double
    /// The corner radius, at most half the body's sides.
    var r: Double
    var arrowHeight: Double, halfWidth: Double
    /// The tip's x (whole points, then whole pixels), and the middle of the arrow's base (kept clear of the corners).
    var tipX: Double, baseX: Double
    /// Local → device: the arrow turned to its side.
    var toDevice: AffineMap

    /// Nil for no arrow (the bubble is then a rounded rectangle).
    init?(body: Rect, radius: Double, arrow: Shape.Arrow?, scale: Double) {
        guard let arrow, arrow.height > 0, arrow.width > 0 else { return nil }
        let vertical = arrow.side == .bottom || arrow.side == .top
        w = vertical ? body.width : body.height
        h = vertical ? body.height : body.width
        r = min(radius, w / 2, h / 2)
        arrowHeight = arrow.height * scale
        halfWidth = min(arrow.width * scale, max(0, w - 2 * r)) / 2
        // On a whole point (then a whole pixel), so that the tip is the same point at every ratio.
        tipX = ((min(max(arrow.position * w, 0), w) / scale).rounded() * scale).rounded()
        baseX = min(max(tipX, r + halfWidth), w - r - halfWidth)
        switch arrow.side {
        case .bottom: toDevice = .translation(body.minX, body.minY)
        case .top: toDevice = AffineMap(a: 1, b: 0, c: 0, d: -1, tx: body.minX, ty: body.maxY)
        case .right: toDevice = AffineMap(a: 0, b: 1, c: 1, d: 0, tx: body.minX, ty: body.minY)
        case .left: toDevice = AffineMap(a: 0, b: 1, c: -1, d: 0, tx: body.maxX, ty: body.minY)
        }
    }

    /// The outline in the local frame.
    func localPath() -> Path {
        var path = Path()
        path.move(to: Point(r, 0))
        path.arcTo(tangent1: Point(w, 0), tangent2: Point(w, h), radius: r)
        path.arcTo(tangent1: Point(w, h), tangent2: Point(0, h), radius: r)
        path.line(to: Point(baseX + halfWidth, h))
        path.line(to: Point(tipX, h + arrowHeight))
        path.line(to: Point(baseX - halfWidth, h))
        path.arcTo(tangent1: Point(0, h), tangent2: Point(0, 0), radius: r)
        path.arcTo(tangent1: Point(0, 0), tangent2: Point(w, 0), radius: r)
        path.close()
        return path
    }

    /// How to draw this bubble (arrow at the bottom or top, body at a whole
    /// pixel across) from a narrower one: `narrow` keeps one straight column
    /// (crossed only by the horizontal top and bottom) on each side of the
    /// arrow that has any, (`dx`, `dy`) is the whole-pixel move from the
    /// narrow bubble's device position to this one's, and `insertions` repeat the
    /// narrow bubble's straight columns (device columns, ascending) to give
    /// this width. Nil when the bubble cannot be stretched so: an arrow at
    /// the left or right, or a body off the pixel grid across.
    func stretch() -> (narrow: BubbleGeometry, dx: Int, dy: Int, insertions: [(column: Int, count: Int)])? {
        guard toDevice.b == 0, toDevice.c == 0, toDevice.a == 1,
              toDevice.tx == toDevice.tx.rounded(), abs(toDevice.tx) < 1e9, abs(toDevice.ty) < 1e9 else { return nil }
        // Columns crossed by nothing but the straight top and bottom, local x
        // (whole pixels, as the body's left edge is): left of the arrow and right of it.
        let arrowLeft = min(tipX, baseX - halfWidth), arrowRight = max(tipX, baseX + halfWidth)
        let leftStart = r.rounded(.up), leftEnd = arrowLeft.rounded(.down)
        let rightStart = arrowRight.rounded(.up), rightEnd = (w - r).rounded(.down)
        let leftExtra = max(0, Int(leftEnd - leftStart) - 1), rightExtra = max(0, Int(rightEnd - rightStart) - 1)
        guard leftExtra + rightExtra > 0 else { return nil }
        var narrow = self
        narrow.w -= Double(leftExtra + rightExtra)
        narrow.tipX -= Double(leftExtra)
        narrow.baseX -= Double(leftExtra)
        // Drawn across at x 0, down at the fraction of a pixel this one is at.
        let dy = toDevice.ty.rounded(.down)
        narrow.toDevice.tx = 0
        narrow.toDevice.ty = toDevice.ty - dy
        var insertions: [(column: Int, count: Int)] = []
        if leftExtra > 0 { insertions.append((Int(leftStart), leftExtra)) }
        if rightExtra > 0 { insertions.append((Int(rightStart) - leftExtra, rightExtra)) }
        return (narrow, Int(toDevice.tx), Int(dy), insertions)
    }
}
