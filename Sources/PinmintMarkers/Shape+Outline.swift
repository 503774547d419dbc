import Foundation
import PinmintGeometry

/// The outline of a shape in a frame, in device pixels.
struct ShapeOutline {
    var path: Path
    /// Where the children go: the frame without the pointer.
    var body: Rect
    /// The pointer's tip (bubble arrow, teardrop point), if the shape has one.
    var tip: Point?
    /// Rectangles that cover the shape: the body and the pointer's bounds.
    var pieces: [Rect]
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
            let transform = AffineTransform.translation(-viewBox.minX, -viewBox.minY)
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
        guard let arrow, arrow.height > 0, arrow.width > 0 else {
            var path = Path()
            path.addRoundedRect(body, radius: min(radius, body.width / 2, body.height / 2))
            return ShapeOutline(path: path, body: body, tip: nil, pieces: [body])
        }
        let vertical = arrow.side == .bottom || arrow.side == .top
        // Local frame: the body at the origin with the arrow side at the bottom.
        let w = vertical ? body.width : body.height, h = vertical ? body.height : body.width
        let r = min(radius, w / 2, h / 2)
        let arrowHeight = arrow.height * scale
        let halfWidth = min(arrow.width * scale, max(0, w - 2 * r)) / 2
        let tipX = min(max(arrow.position * w, 0), w).rounded()
        let baseX = min(max(tipX, r + halfWidth), w - r - halfWidth)
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

        // Local → device: turn the bottom arrow to its side.
        let toDevice: AffineTransform
        switch arrow.side {
        case .bottom: toDevice = .translation(body.minX, body.minY)
        case .top: toDevice = AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: body.minX, ty: body.maxY)
        case .right: toDevice = AffineTransform(a: 0, b: 1, c: 1, d: 0, tx: body.minX, ty: body.minY)
        case .left: toDevice = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: body.maxX, ty: body.minY)
        }
        let tip = toDevice.apply(Point(tipX, h + arrowHeight))
        let arrowBounds = Rect(corner: toDevice.apply(Point(min(tipX, baseX - halfWidth), h)),
                               toDevice.apply(Point(max(tipX, baseX + halfWidth), h + arrowHeight)))
        return ShapeOutline(path: path.transformed(by: toDevice), body: body, tip: tip, pieces: [body, arrowBounds])
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
