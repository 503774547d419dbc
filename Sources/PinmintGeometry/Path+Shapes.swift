import Foundation

/// Rectangles, rounded rectangles, ellipses, circular and tangent arcs.
extension Path {
    /// The four corner radii of a rounded rectangle, in user-space units.
    public struct CornerRadii: Hashable, Sendable {
        /// Radius at each corner, in user-space units, clockwise from the top
        /// left. Stored as given; `addRoundedRect(_:radii:)` clamps negative
        /// radii to 0 and scales all four down together when two on one side
        /// add up to more than that side.
        public var topLeft, topRight, bottomRight, bottomLeft: Double
        /// Radii given per corner, stored as given (see the properties for how
        /// they are clamped when drawn).
        public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
            self.topLeft = topLeft; self.topRight = topRight
            self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
        }
        /// The same radius at all four corners.
        public init(_ all: Double) { self.init(topLeft: all, topRight: all, bottomRight: all, bottomLeft: all) }
    }

    /// Adds a closed rectangle, drawn clockwise on screen from its top-left corner.
    public mutating func addRect(_ rect: Rect) {
        move(to: Point(rect.minX, rect.minY))
        line(to: Point(rect.maxX, rect.minY))
        line(to: Point(rect.maxX, rect.maxY))
        line(to: Point(rect.minX, rect.maxY))
        close()
    }

    /// Adds a rounded rectangle with one radius for every corner; see `addRoundedRect(_:radii:)`.
    public mutating func addRoundedRect(_ rect: Rect, radius: Double) {
        addRoundedRect(rect, radii: CornerRadii(radius))
    }

    /// Adds a closed rounded rectangle, clockwise on screen, with circular
    /// corners. Radii are clamped to be non-negative and scaled down together
    /// (as CSS border-radius does) when adjacent radii exceed a side.
    public mutating func addRoundedRect(_ rect: Rect, radii: CornerRadii) {
        var r = radii
        r.topLeft = max(0, r.topLeft); r.topRight = max(0, r.topRight)
        r.bottomRight = max(0, r.bottomRight); r.bottomLeft = max(0, r.bottomLeft)
        let w = rect.width, h = rect.height
        var factor = 1.0
        for (sum, side) in [(r.topLeft + r.topRight, w), (r.bottomLeft + r.bottomRight, w),
                            (r.topLeft + r.bottomLeft, h), (r.topRight + r.bottomRight, h)] where sum > side {
            factor = min(factor, side / sum)
        }
        r.topLeft *= factor; r.topRight *= factor; r.bottomRight *= factor; r.bottomLeft *= factor
        addRoundedRect(rect, radiiX: r, radiiY: r)
    }

    /// Adds a rounded rectangle with elliptical corners (SVG `rect` with `rx` and `ry`).
    public mutating func addRoundedRect(_ rect: Rect, radiusX: Double, radiusY: Double) {
        let rx = min(max(0, radiusX), rect.width / 2), ry = min(max(0, radiusY), rect.height / 2)
        addRoundedRect(rect, radiiX: CornerRadii(rx), radiiY: CornerRadii(ry))
    }

    private mutating func addRoundedRect(_ rect: Rect, radiiX rx: CornerRadii, radiiY ry: CornerRadii) {
        let k = Path.circleControlFactor
        let x0 = rect.minX, y0 = rect.minY, x1 = rect.maxX, y1 = rect.maxY
        move(to: Point(x0 + rx.topLeft, y0))
        line(to: Point(x1 - rx.topRight, y0))
        if rx.topRight > 0 && ry.topRight > 0 {
            curve(to: Point(x1, y0 + ry.topRight),
                  control1: Point(x1 - rx.topRight * (1 - k), y0), control2: Point(x1, y0 + ry.topRight * (1 - k)))
        }
        line(to: Point(x1, y1 - ry.bottomRight))
        if rx.bottomRight > 0 && ry.bottomRight > 0 {
            curve(to: Point(x1 - rx.bottomRight, y1),
                  control1: Point(x1, y1 - ry.bottomRight * (1 - k)), control2: Point(x1 - rx.bottomRight * (1 - k), y1))
        }
        line(to: Point(x0 + rx.bottomLeft, y1))
        if rx.bottomLeft > 0 && ry.bottomLeft > 0 {
            curve(to: Point(x0, y1 - ry.bottomLeft),
                  control1: Point(x0 + rx.bottomLeft * (1 - k), y1), control2: Point(x0, y1 - ry.bottomLeft * (1 - k)))
        }
        line(to: Point(x0, y0 + ry.topLeft))
        if rx.topLeft > 0 && ry.topLeft > 0 {
            curve(to: Point(x0 + rx.topLeft, y0),
                  control1: Point(x0, y0 + ry.topLeft * (1 - k)), control2: Point(x0 + rx.topLeft * (1 - k), y0))
        }
        close()
    }

    /// The control-point distance, as a fraction of the radius, of the cubic
    /// that best approximates a quarter circle (radial error 2.7e-4 of the radius).
    /// Rounded-rectangle corners use it; arcs use finer segments.
    public static let circleControlFactor = 0.5522847498307936

    /// Adds a closed ellipse inscribed in `rect`, clockwise on screen from its rightmost point.
    public mutating func addEllipse(in rect: Rect) {
        let c = rect.center, rx = rect.width / 2, ry = rect.height / 2
        move(to: Point(c.x + rx, c.y))
        appendEllipticalArc(center: c, radiusX: rx, radiusY: ry, rotation: 0, start: 0, sweep: 2 * .pi)
        close()
    }

    /// Adds a closed circle, clockwise on screen.
    public mutating func addCircle(center: Point, radius: Double) {
        addEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// Adds a circular arc, as UIKit's `UIBezierPath(arcCenter:radius:startAngle:endAngle:clockwise:)`.
    ///
    /// Angles are in radians from the positive x axis; y points down, so
    /// increasing angles turn clockwise on screen and `clockwise: true` sweeps
    /// from `start` towards increasing angles. A sweep of 2π or more draws a
    /// full circle. When the path has a current point, a line joins it to the
    /// arc's start; otherwise the arc starts a subpath.
    public mutating func arc(center: Point, radius: Double, start: Double, end: Double, clockwise: Bool) {
        let fullTurn = 2 * Double.pi
        var sweep = end - start
        if clockwise {
            if sweep >= fullTurn { sweep = fullTurn } else if sweep < 0 {
                sweep = sweep.truncatingRemainder(dividingBy: fullTurn) + fullTurn
                if sweep >= fullTurn { sweep = 0 }
            }
        } else {
            if sweep <= -fullTurn { sweep = -fullTurn } else if sweep > 0 {
                sweep = sweep.truncatingRemainder(dividingBy: fullTurn) - fullTurn
                if sweep <= -fullTurn { sweep = 0 }
            }
        }
        let r = abs(radius)
        let startPoint = Point(center.x + r * cos(start), center.y + r * sin(start))
        if currentPoint == nil { move(to: startPoint) } else { line(to: startPoint) }
        appendEllipticalArc(center: center, radiusX: r, radiusY: r, rotation: 0, start: start, sweep: sweep)
    }

    /// Adds a tangent arc with the meaning of CGContext's
    /// `addArc(tangent1End:tangent2End:radius:)` and the canvas `arcTo`: an arc of
    /// `radius` tangent to the line from the current point to `tangent1` and to
    /// the line from `tangent1` to `tangent2`, preceded by a straight line from
    /// the current point to the arc's start. When the three points are
    /// collinear or the radius is 0 it adds a line to `tangent1`. Without a
    /// current point it starts a subpath at `tangent1`.
    public mutating func arcTo(tangent1 p1: Point, tangent2 p2: Point, radius: Double) {
        guard let p0 = currentPoint else { move(to: p1); return }
        let v0 = (p0 - p1), v1 = (p2 - p1)
        let l0 = v0.length, l1 = v1.length
        let r = abs(radius)
        let crossProduct = v0.cross(v1)
        guard r > 0, l0 > 0, l1 > 0, abs(crossProduct) > 1e-12 * l0 * l1 else {
            line(to: p1); return
        }
        let u0 = v0 / l0, u1 = v1 / l1
        let cosine = max(-1, min(1, u0.dot(u1)))
        let angle = acos(cosine)                 // angle between the two legs at p1
        let tangentDistance = r / tan(angle / 2)
        let start = p1 + u0 * tangentDistance
        let end = p1 + u1 * tangentDistance
        let bisector = (u0 + u1).normalized
        let center = p1 + bisector * (r / sin(angle / 2))
        line(to: start)
        let a0 = atan2(start.y - center.y, start.x - center.x)
        var sweep = atan2(end.y - center.y, end.x - center.x) - a0
        // The arc is always the short way round (less than π).
        if sweep > .pi { sweep -= 2 * .pi } else if sweep < -.pi { sweep += 2 * .pi }
        appendEllipticalArc(center: center, radiusX: r, radiusY: r, rotation: 0, start: a0, sweep: sweep)
    }

    /// Adds an SVG elliptical arc (the `A` command) from the current point to
    /// `end`, following SVG 1.1 appendix F.6: radii that are too small are
    /// scaled up, a zero radius gives a straight line.
    public mutating func ellipticalArc(to end: Point, radiusX: Double, radiusY: Double,
                                       rotationDegrees: Double, largeArc: Bool, sweep sweepFlag: Bool) {
        guard let start = currentPoint else { move(to: end); return }
        if start == end { return }
        var rx = abs(radiusX), ry = abs(radiusY)
        if rx == 0 || ry == 0 { line(to: end); return }
        let phi = rotationDegrees * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        // F.6.5.1: the midpoint in the ellipse's rotated frame.
        let dx = (start.x - end.x) / 2, dy = (start.y - end.y) / 2
        let x1p = cosPhi * dx + sinPhi * dy
        let y1p = -sinPhi * dx + cosPhi * dy
        // F.6.6: scale up radii that cannot reach.
        let lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
        if lambda > 1 { let s = lambda.squareRoot(); rx *= s; ry *= s }
        // F.6.5.2: the centre in the rotated frame.
        let numerator = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
        let denominator = rx * rx * y1p * y1p + ry * ry * x1p * x1p
        var coefficient = denominator > 0 ? (max(0, numerator) / denominator).squareRoot() : 0
        if largeArc == sweepFlag { coefficient = -coefficient }
        let cxp = coefficient * rx * y1p / ry
        let cyp = -coefficient * ry * x1p / rx
        // F.6.5.3: back to user space.
        let cx = cosPhi * cxp - sinPhi * cyp + (start.x + end.x) / 2
        let cy = sinPhi * cxp + cosPhi * cyp + (start.y + end.y) / 2
        // F.6.5.5-6: start angle and sweep.
        let theta1 = atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
        var delta = atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx) - theta1
        if sweepFlag && delta < 0 { delta += 2 * .pi } else if !sweepFlag && delta > 0 { delta -= 2 * .pi }
        appendEllipticalArc(center: Point(cx, cy), radiusX: rx, radiusY: ry, rotation: phi,
                            start: theta1, sweep: delta, exactEnd: end)
    }

    /// Appends cubic Béziers for an elliptical arc that begins at the current
    /// point. Each cubic spans at most π/4, so the radial error stays below
    /// 4.3e-6 of the radius (Riškus, "Approximation of a cubic Bézier curve by
    /// circular arcs and vice versa", 2006).
    mutating func appendEllipticalArc(center: Point, radiusX rx: Double, radiusY ry: Double, rotation: Double,
                                      start: Double, sweep: Double, exactEnd: Point? = nil) {
        guard sweep != 0, sweep.isFinite else { return }
        // The 1e-9 keeps a quarter turn that rounding made a hair larger at 2 segments, not 3.
        let segmentCount = max(1, Int((abs(sweep) / (.pi / 4) - 1e-9).rounded(.up)))
        let step = sweep / Double(segmentCount)
        let k = 4.0 / 3.0 * tan(step / 4)
        let cosR = cos(rotation), sinR = sin(rotation)
        func mapped(_ x: Double, _ y: Double) -> Point {
            Point(center.x + cosR * x - sinR * y, center.y + sinR * x + cosR * y)
        }
        var angle = start
        for index in 0..<segmentCount {
            let a0 = angle, a1 = index == segmentCount - 1 ? start + sweep : angle + step
            let c0 = cos(a0), s0 = sin(a0), c1 = cos(a1), s1 = sin(a1)
            let control1 = mapped(rx * (c0 - k * s0), ry * (s0 + k * c0))
            let control2 = mapped(rx * (c1 + k * s1), ry * (s1 - k * c1))
            var end = mapped(rx * c1, ry * s1)
            if index == segmentCount - 1, let exactEnd { end = exactEnd }
            curve(to: end, control1: control1, control2: control2)
            angle = a1
        }
    }
}
