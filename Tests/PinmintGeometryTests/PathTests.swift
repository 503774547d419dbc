#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Testing
@testable import PinmintGeometry

private func isClose(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool { a.distance(to: b) <= tolerance }
private func isClose(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// The signed angle a path turns through about `centre`, summed over dense
/// samples (positive = increasing angle = clockwise on screen).
private func sweep(of path: Path, about centre: Point, from start: Point) -> Double {
    var previous = atan2(start.y - centre.y, start.x - centre.x), total = 0.0
    for point in samples(of: path, perSegment: 16) {
        let angle = atan2(point.y - centre.y, point.x - centre.x)
        var step = angle - previous
        if step > .pi { step -= 2 * .pi } else if step < -.pi { step += 2 * .pi }
        total += step
        previous = angle
    }
    return total
}

// MARK: - Tangent arcs

struct ArcToCase: CustomTestStringConvertible, Sendable {
    let current: Point, tangent1: Point, tangent2: Point, radius: Double
    let arcStart: Point, arcEnd: Point, centre: Point
    var testDescription: String { "\(current) -> \(tangent1) -> \(tangent2), r \(radius)" }
}

@Suite("Path: tangent arcs")
struct ArcToTests {
    static let cases: [ArcToCase] = [
        // The CoreGraphics example: a right-angle corner turning clockwise on screen.
        ArcToCase(current: Point(0, 0), tangent1: Point(10, 0), tangent2: Point(10, 10), radius: 3,
                  arcStart: Point(7, 0), arcEnd: Point(10, 3), centre: Point(7, 3)),
        // The mirror image turns the other way.
        ArcToCase(current: Point(0, 0), tangent1: Point(10, 0), tangent2: Point(10, -10), radius: 3,
                  arcStart: Point(7, 0), arcEnd: Point(10, -3), centre: Point(7, -3)),
        // An obtuse corner (135° between the legs): tangent distance r·tan(22.5°).
        ArcToCase(current: Point(0, 0), tangent1: Point(10, 0), tangent2: Point(20, 10), radius: 4,
                  arcStart: Point(10 - 4 * tan(.pi / 8), 0),
                  arcEnd: Point(10, 0) + Point(1, 1).normalized * (4 * tan(.pi / 8)),
                  centre: Point(10 - 4 * tan(.pi / 8), 4)),
        // An acute corner (45°): the arc starts farther from the corner.
        ArcToCase(current: Point(0, 0), tangent1: Point(10, 0), tangent2: Point(0, 10), radius: 2,
                  arcStart: Point(10 - 2 / tan(.pi / 8), 0),
                  arcEnd: Point(10, 0) + Point(-1, 1).normalized * (2 / tan(.pi / 8)),
                  centre: Point(10 - 2 / tan(.pi / 8), 2)),
    ]

    @Test("the arc is tangent to both legs, with the given radius", arguments: cases)
    func tangentArc(_ testCase: ArcToCase) throws {
        var path = Path()
        path.move(to: testCase.current)
        path.arcTo(tangent1: testCase.tangent1, tangent2: testCase.tangent2, radius: testCase.radius)
        #expect(path.elements[0] == .move(testCase.current))
        guard case .line(let lineEnd) = path.elements[1] else {
            Issue.record("expected a line to the arc's start, got \(path.elements[1])"); return
        }
        #expect(isClose(lineEnd, testCase.arcStart))
        #expect(isClose(try #require(path.currentPoint), testCase.arcEnd, 1e-9))
        #expect(path.elements.dropFirst(2).allSatisfy { if case .cubic = $0 { true } else { false } })
        for point in samples(of: Path(elements: Array(path.elements.dropFirst(1)))) {
            #expect(abs(point.distance(to: testCase.centre) - testCase.radius) < 1e-5 * testCase.radius)
        }
        // The arc is the short way round: it turns by π minus the corner's angle.
        let legs = (testCase.current - testCase.tangent1).normalized.dot((testCase.tangent2 - testCase.tangent1).normalized)
        let expectedTurn = Double.pi - acos(legs)
        let turn = sweep(of: Path(elements: Array(path.elements.dropFirst(1))), about: testCase.centre,
                         from: testCase.arcStart)
        #expect(isClose(abs(turn), expectedTurn, 1e-9))
    }

    static let lineCases: [(current: Point, tangent1: Point, tangent2: Point, radius: Double)] = [
        (Point(0, 0), Point(10, 0), Point(20, 0), 3),   // straight on
        (Point(0, 0), Point(10, 0), Point(5, 0), 3),    // doubling back
        (Point(0, 0), Point(10, 10), Point(30, 30), 1), // diagonal, collinear
        (Point(0, 0), Point(10, 0), Point(10, 10), 0),  // zero radius
        (Point(0, 0), Point(0, 0), Point(10, 10), 3),   // tangent1 on the current point
        (Point(0, 0), Point(10, 0), Point(10, 0), 3),   // tangent2 on tangent1
    ]

    @Test("collinear points or a zero radius give a line to tangent1", arguments: lineCases)
    func degenerateIsLine(_ current: Point, _ tangent1: Point, _ tangent2: Point, _ radius: Double) {
        var path = Path()
        path.move(to: current)
        path.arcTo(tangent1: tangent1, tangent2: tangent2, radius: radius)
        #expect(path.elements == [.move(current), .line(tangent1)])
    }

    @Test("without a current point, arcTo moves to tangent1")
    func noCurrentPoint() {
        var path = Path()
        path.arcTo(tangent1: Point(10, 0), tangent2: Point(10, 10), radius: 3)
        #expect(path.elements == [.move(Point(10, 0))])
        #expect(path.currentPoint == Point(10, 0))
    }
}

// MARK: - Circular arcs

struct CircularArcCase: CustomTestStringConvertible, Sendable {
    let start: Double, end: Double, clockwise: Bool, expectedSweep: Double
    init(_ start: Double, _ end: Double, _ clockwise: Bool, _ expectedSweep: Double) {
        self.start = start; self.end = end; self.clockwise = clockwise; self.expectedSweep = expectedSweep
    }
    var testDescription: String { "\(start) -> \(end) \(clockwise ? "clockwise" : "anticlockwise")" }
}

@Suite("Path: circular arcs")
struct CircularArcTests {
    static let pi = Double.pi
    static let cases: [CircularArcCase] = [
        .init(0, pi / 2, true, pi / 2),
        .init(0, pi / 2, false, -3 * pi / 2),
        .init(pi / 2, 0, true, 3 * pi / 2),
        .init(pi / 2, 0, false, -pi / 2),
        // Full circles: a sweep of 2π or more in the arc's direction.
        .init(0, 2 * pi, true, 2 * pi),
        .init(0, 3 * pi, true, 2 * pi),
        .init(1, 1 + 2 * pi, true, 2 * pi),
        .init(0, -2 * pi, false, -2 * pi),
        .init(0, -7, false, -2 * pi),
        // Negative ranges and angles.
        .init(0, -pi / 2, true, 3 * pi / 2),
        .init(-pi / 2, -pi, false, -pi / 2),
        .init(-pi, -pi / 2, true, pi / 2),
        .init(0, 5 * pi / 2, false, -3 * pi / 2),
        .init(0, -5 * pi / 2, true, 3 * pi / 2),
        // Against the direction, a whole turn ends where it started: nothing
        // to draw (HTML canvas arc(), "the arc can never cover more than 2π").
        .init(0, 2 * pi, false, 0),
        .init(0, -2 * pi, true, 0),
        .init(1, 1, true, 0),
    ]

    @Test("the sweep follows the direction (y down: clockwise = increasing angle)", arguments: cases)
    func sweepDirection(_ testCase: CircularArcCase) throws {
        let centre = Point(50, 40), radius = 20.0
        var path = Path()
        path.arc(center: centre, radius: radius, start: testCase.start, end: testCase.end,
                 clockwise: testCase.clockwise)
        let startPoint = centre + Point(cos(testCase.start), sin(testCase.start)) * radius
        #expect(isClose(try #require(path.elements.first.flatMap { if case .move(let p) = $0 { p } else { nil } }),
                        startPoint))
        let turn = sweep(of: path, about: centre, from: startPoint)
        #expect(isClose(turn, testCase.expectedSweep, 1e-9))
        for point in samples(of: path) { #expect(abs(point.distance(to: centre) - radius) < 1e-4) }
        let expectedEnd = centre + Point(cos(testCase.start + testCase.expectedSweep),
                                         sin(testCase.start + testCase.expectedSweep)) * radius
        #expect(isClose(try #require(path.currentPoint), expectedEnd, 1e-9))
        // Each cubic spans at most π/4.
        let cubicCount = path.elements.filter { if case .cubic = $0 { true } else { false } }.count
        #expect(cubicCount == Int((abs(testCase.expectedSweep) / (Double.pi / 4) - 1e-9).rounded(.up)))
    }

    @Test("a line joins the current point to the arc's start")
    func joinsCurrentPoint() {
        var path = Path()
        path.move(to: Point(0, 0))
        path.arc(center: Point(10, 10), radius: 5, start: 0, end: .pi / 2, clockwise: true)
        #expect(path.elements[1] == .line(Point(15, 10)))
    }
}

// MARK: - Shapes and bounds

@Suite("Path: shapes and bounds")
struct ShapeAndBoundsTests {
    static let roundedRectCases: [(rect: Rect, radius: Double, effectiveRadius: Double)] = [
        (Rect(x: 0, y: 0, width: 100, height: 40), 10, 10),
        (Rect(x: 0, y: 0, width: 100, height: 40), 30, 20),   // 2r > height: scaled to h/2
        (Rect(x: 5, y: 5, width: 30, height: 80), 50, 15),    // 2r > width: scaled to w/2
        (Rect(x: 0, y: 0, width: 100, height: 40), -5, 0),    // negative: no rounding
        (Rect(x: 0, y: 0, width: 100, height: 40), 0, 0),
    ]

    @Test("rounded-rectangle radii are clamped", arguments: roundedRectCases)
    func roundedRectClamping(_ rect: Rect, _ radius: Double, _ effectiveRadius: Double) throws {
        var path = Path()
        path.addRoundedRect(rect, radius: radius)
        guard case .move(let start) = path.elements[0], case .line(let topRight) = path.elements[1] else {
            Issue.record("expected a move and a line, got \(path.elements.prefix(2))"); return
        }
        #expect(isClose(start, Point(rect.minX + effectiveRadius, rect.minY), 1e-12))
        #expect(isClose(topRight, Point(rect.maxX - effectiveRadius, rect.minY), 1e-12))
        #expect(path.elements.last == .close)
        let cubicCount = path.elements.filter { if case .cubic = $0 { true } else { false } }.count
        #expect(cubicCount == (effectiveRadius > 0 ? 4 : 0))
        let bounds = try #require(path.bounds)
        #expect(isClose(bounds.minX, rect.minX) && isClose(bounds.maxX, rect.maxX))
        #expect(isClose(bounds.minY, rect.minY) && isClose(bounds.maxY, rect.maxY))
    }

    @Test("unequal corner radii scale down together, as CSS does")
    func cornerRadiiScaleTogether() {
        var path = Path()
        // Top edge: 30 + 90 = 120 > 100, so every radius is scaled by 100/120.
        path.addRoundedRect(Rect(x: 0, y: 0, width: 100, height: 200),
                            radii: .init(topLeft: 30, topRight: 90, bottomRight: 0, bottomLeft: 0))
        guard case .move(let start) = path.elements[0], case .line(let topRight) = path.elements[1],
              case .cubic(_, _, let end) = path.elements[2] else {
            Issue.record("expected a move, a line and a corner, got \(path.elements.prefix(3))"); return
        }
        #expect(isClose(start, Point(25, 0), 1e-12))
        #expect(isClose(topRight, Point(25, 0), 1e-12))
        #expect(isClose(end, Point(100, 75), 1e-12))
    }

    @Test("elliptical corners clamp each radius to half its side")
    func ellipticalCorners() {
        var path = Path()
        path.addRoundedRect(Rect(x: 0, y: 0, width: 100, height: 40), radiusX: 80, radiusY: 10)
        #expect(path.elements[0] == .move(Point(50, 0)))
        guard case .cubic(_, _, let end) = path.elements[2] else { Issue.record("expected a corner"); return }
        #expect(end == Point(100, 10))
    }

    static let curveCases: [(name: String, path: Path)] = {
        func cubic(_ points: [Double]) -> Path {
            var path = Path()
            path.move(to: Point(points[0], points[1]))
            path.curve(to: Point(points[6], points[7]), control1: Point(points[2], points[3]),
                       control2: Point(points[4], points[5]))
            return path
        }
        var quad = Path()
        quad.move(to: Point(0, 0)); quad.quadCurve(to: Point(100, 0), control: Point(50, -80))
        return [
            ("arch", cubic([0, 0, -50, 100, 150, 100, 100, 0])),
            ("loop", cubic([0, 0, 200, 100, -100, 100, 100, 0])),
            ("s-bend", cubic([0, 0, 100, -60, -40, 160, 60, 100])),
            ("cusp", cubic([0, 0, 100, 100, 0, 100, 100, 0])),
            ("elevated quadratic", cubic([0, 0, 100.0 / 3, 200.0 / 3, 200.0 / 3, 200.0 / 3, 100, 0])),
            ("tiny units (regression: absolute 1e-12 threshold)", cubic([0, 0, -5e-14, 1e-13, 1.5e-13, 1e-13, 1e-13, 0])),
            ("quadratic", quad),
        ]
    }()

    @Test("bounds are the curve's extrema, not its control points", arguments: curveCases)
    func exactBounds(_ name: String, _ path: Path) throws {
        let bounds = try #require(path.bounds)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var controlMinX = Double.infinity, controlMaxX = -Double.infinity
        var controlMinY = Double.infinity, controlMaxY = -Double.infinity
        for element in path.elements {
            let points: [Point]
            switch element {
            case .move(let p), .line(let p): points = [p]
            case .quad(let c, let p): points = [c, p]
            case .cubic(let c1, let c2, let p): points = [c1, c2, p]
            case .close: points = []
            }
            for p in points {
                controlMinX = min(controlMinX, p.x); controlMaxX = max(controlMaxX, p.x)
                controlMinY = min(controlMinY, p.y); controlMaxY = max(controlMaxY, p.y)
            }
        }
        for p in samples(of: path, perSegment: 200_000) + [path.elements.first.flatMap {
            if case .move(let p) = $0 { p } else { nil } }!] {
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        let size = max(controlMaxX - controlMinX, controlMaxY - controlMinY)
        // Dense sampling can only fall short of an extremum, by O(step²).
        let tolerance = size * 1e-9
        #expect(bounds.minX <= minX + tolerance && bounds.minX >= minX - tolerance, "\(name) minX")
        #expect(bounds.minY <= minY + tolerance && bounds.minY >= minY - tolerance, "\(name) minY")
        #expect(bounds.maxX <= maxX + tolerance && bounds.maxX >= maxX - tolerance, "\(name) maxX")
        #expect(bounds.maxY <= maxY + tolerance && bounds.maxY >= maxY - tolerance, "\(name) maxY")
        // The control points reach farther than the curve.
        #expect(bounds.width < controlMaxX - controlMinX || bounds.height < controlMaxY - controlMinY, "\(name)")
    }

    @Test("an empty path has no bounds; a lone point has empty ones")
    func degenerateBounds() {
        #expect(Path().bounds == nil)
        var path = Path()
        path.move(to: Point(3, 4))
        #expect(path.bounds == Rect(x: 3, y: 4, width: 0, height: 0))
    }
}

// MARK: - Transforms

@Suite("AffineMap")
struct AffineTransformTests {
    static let invertible: [AffineMap] = [
        .identity,
        .translation(10, -20),
        .scale(2, 0.5),
        .rotation(0.7),
        .skew(0.3, -0.2),
        AffineMap(a: 2, b: 1, c: -3, d: 4, tx: 5, ty: -6),
        AffineMap.rotation(1).concatenating(.scale(3, 0.25)).concatenating(.translation(7, 8)),
    ]

    @Test("a transform times its inverse is the identity", arguments: invertible)
    func inverse(_ transform: AffineMap) throws {
        let inverse = try #require(transform.inverted())
        for point in [Point(0, 0), Point(1, 0), Point(0, 1), Point(-3.5, 12)] {
            #expect(isClose(inverse.apply(transform.apply(point)), point, 1e-12))
            #expect(isClose(transform.apply(inverse.apply(point)), point, 1e-12))
        }
        let product = transform.concatenating(inverse)
        for (value, expected) in zip([product.a, product.b, product.c, product.d, product.tx, product.ty],
                                     [1.0, 0, 0, 1, 0, 0]) {
            #expect(isClose(value, expected, 1e-12))
        }
    }

    @Test("singular and non-finite transforms have no inverse")
    func singular() {
        #expect(AffineMap.scale(0, 1).inverted() == nil)
        #expect(AffineMap(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).inverted() == nil)
        #expect(AffineMap(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted() == nil)
    }

    @Test("concatenating applies self first; prepending applies the argument first")
    func order() {
        let translate = AffineMap.translation(10, 0), scale = AffineMap.scale(2)
        #expect(translate.concatenating(scale).apply(Point(1, 1)) == Point(22, 2))
        #expect(scale.concatenating(translate).apply(Point(1, 1)) == Point(12, 2))
        #expect(translate.prepending(scale).apply(Point(1, 1)) == Point(12, 2))
        // translatedBy etc. apply the new operation first, as CoreGraphics does.
        #expect(AffineMap.scale(2).translatedBy(10, 0).apply(Point(1, 1)) == Point(22, 2))
        #expect(AffineMap.translation(10, 0).scaledBy(2, 3).apply(Point(1, 1)) == Point(12, 3))
    }

    @Test("rotation turns clockwise on screen; skew follows SVG")
    func rotationAndSkew() {
        #expect(isClose(AffineMap.rotation(.pi / 2).apply(Point(1, 0)), Point(0, 1), 1e-15))
        #expect(isClose(AffineMap.rotation(.pi / 2).apply(Point(0, 1)), Point(-1, 0), 1e-15))
        #expect(isClose(AffineMap.identity.rotatedBy(.pi).apply(Point(2, 3)), Point(-2, -3), 1e-15))
        // skewX(45°): x += y; skewY(45°): y += x.
        #expect(isClose(AffineMap.skew(.pi / 4, 0).apply(Point(0, 1)), Point(1, 1), 1e-15))
        #expect(isClose(AffineMap.skew(0, .pi / 4).apply(Point(1, 0)), Point(1, 1), 1e-15))
        #expect(AffineMap.translation(5, 5).applyToVector(Point(1, 2)) == Point(1, 2))
    }

    @Test("maximum scale is the larger singular value", arguments: [
        (AffineMap.scale(2, 3), 3.0),
        (AffineMap.rotation(0.4).concatenating(.scale(2)), 2.0),
        (AffineMap.scale(-4, 1), 4.0),
        (AffineMap.skew(.pi / 4, 0), (1 + 5.0.squareRoot()) / 2),  // [[1 1][0 1]]: golden ratio
        (AffineMap.translation(100, 100), 1.0),
    ])
    func maximumScale(_ transform: AffineMap, _ expected: Double) {
        #expect(isClose(transform.maximumScale, expected, 1e-12))
    }
}

// MARK: - Elliptical arcs

@Suite("Path: SVG elliptical arcs")
struct EllipticalArcTests {
    @Test("endpoint to centre: on the ellipse, exact end point", arguments: [
        (false, true, Double.pi / 2), (true, false, -3 * Double.pi / 2),
    ])
    func rotatedEllipse(_ largeArc: Bool, _ sweepFlag: Bool, _ expectedSweep: Double) throws {
        // An ellipse centred at (20, 10), radii 10 and 5, turned 30°: from its
        // angle 0 to its angle 90°.
        let centre = Point(20, 10), rotation = AffineMap.rotation(.pi / 6)
        let start = centre + rotation.apply(Point(10, 0)), end = centre + rotation.apply(Point(0, 5))
        var path = Path()
        path.move(to: start)
        path.ellipticalArc(to: end, radiusX: 10, radiusY: 5, rotationDegrees: 30, largeArc: largeArc, sweep: sweepFlag)
        #expect(path.currentPoint == end)  // exactly, not just close
        let unrotate = AffineMap.rotation(-.pi / 6)
        var previous = 0.0, total = 0.0
        for point in samples(of: path) {
            let local = unrotate.apply(point - centre)
            #expect(isClose((local.x / 10) * (local.x / 10) + (local.y / 5) * (local.y / 5), 1, 1e-5))
            let angle = atan2(local.y / 5, local.x / 10)
            var step = angle - previous
            if step > .pi { step -= 2 * .pi } else if step < -.pi { step += 2 * .pi }
            total += step
            previous = angle
        }
        #expect(isClose(total, expectedSweep, 1e-9))
    }

    @Test("radii too small to reach the end point are scaled up")
    func radiiScaledUp() throws {
        var path = Path()
        path.move(to: Point(0, 0))
        // rx:ry = 2:1 cannot span 40 horizontally with rx 2: scaled to rx 20, ry 10.
        path.ellipticalArc(to: Point(40, 0), radiusX: 2, radiusY: 1, rotationDegrees: 0, largeArc: false, sweep: true)
        #expect(path.currentPoint == Point(40, 0))
        for point in samples(of: path) {
            let x = (point.x - 20) / 20, y = point.y / 10
            #expect(isClose(x * x + y * y, 1, 1e-5))
        }
        let bounds = try #require(path.bounds)
        #expect(isClose(bounds.minY, -10, 1e-9) && isClose(bounds.maxY, 0, 1e-9))
    }

    @Test("a zero radius is a line; the same end point adds nothing")
    func degenerate() {
        var path = Path()
        path.move(to: Point(1, 1))
        path.ellipticalArc(to: Point(5, 5), radiusX: 0, radiusY: 3, rotationDegrees: 0, largeArc: true, sweep: true)
        #expect(path.elements == [.move(Point(1, 1)), .line(Point(5, 5))])
        path.ellipticalArc(to: Point(5, 5), radiusX: 3, radiusY: 3, rotationDegrees: 0, largeArc: true, sweep: true)
        #expect(path.elements.count == 2)
    }
}

// MARK: - Flattening

@Suite("Flattening")
struct FlatteningTests {
    static let circleCases: [(radius: Double, tolerance: Double, scale: Double)] = [
        (10, 0.01, 1), (10, 0.1, 1), (100, 0.01, 1), (100, 0.25, 1), (10, 0.01, 3), (1, 0.001, 40), (500, 0.01, 2),
    ]

    @Test("flattened circles stay within the tolerance", arguments: circleCases)
    func circleWithinTolerance(_ radius: Double, _ tolerance: Double, _ scale: Double) {
        var path = Path()
        path.addCircle(center: Point(radius * 1.5, radius * 2), radius: radius)
        let transform = AffineMap.scale(scale)
        var polylines = Polylines()
        path.flatten(transform: transform, tolerance: tolerance, into: &polylines)
        #expect(polylines.subpaths.count == 1)
        #expect(polylines.subpaths[0].isClosed)
        let centre = transform.apply(Point(radius * 1.5, radius * 2)), deviceRadius = radius * scale
        // The cubics themselves are within 4.3e-6 of the radius of the true circle.
        let approximationError = deviceRadius * 5e-6
        let vertices = Array(polylines.vertices(of: 0))
        for vertex in vertices {
            #expect(abs(vertex.distance(to: centre) - deviceRadius) <= tolerance, "vertex \(vertex)")
        }
        var largestDeviation = 0.0
        for (a, b) in zip(vertices, vertices.dropFirst() + [vertices[0]]) {
            // A chord's midpoint is its point farthest from the arc it replaces.
            largestDeviation = max(largestDeviation, deviceRadius - a.lerp(b, 0.5).distance(to: centre))
        }
        #expect(largestDeviation <= tolerance + approximationError)
        // ... and not wastefully small: Wang's bound is within a small factor.
        #expect(largestDeviation >= tolerance / 8)
    }

    /// The area of a closed polygon (shoelace formula), positive either way round.
    static func area(_ vertices: [Point]) -> Double {
        var twice = 0.0
        for (a, b) in zip(vertices, vertices.dropFirst() + [vertices[0]]) { twice += a.x * b.y - b.x * a.y }
        return abs(twice) / 2
    }

    @Test("centred flattening keeps a circle's area; plain chords lose 2/3 of the tolerance along the perimeter",
          arguments: [(radius: 6.0, tolerance: 0.01), (30, 0.01), (30, 0.04), (200, 0.005)])
    func centredFlatteningKeepsArea(_ radius: Double, _ tolerance: Double) {
        var path = Path()
        path.addCircle(center: Point(radius + 3, radius + 5), radius: radius)
        // A quadratic arc too: its second derivative is constant.
        path.move(to: Point(0, 0))
        path.quadCurve(to: Point(2 * radius, 0), control: Point(radius, 2 * radius))
        path.close()
        var plain = Polylines(), centred = Polylines()
        path.flatten(tolerance: tolerance, into: &plain)
        path.flatten(tolerance: tolerance, centred: true, into: &centred)
        let perimeter = 2 * Double.pi * radius, exact = Double.pi * radius * radius
        let plainLoss = exact - FlatteningTests.area(Array(plain.vertices(of: 0)))
        let centredError = abs(exact - FlatteningTests.area(Array(centred.vertices(of: 0))))
        #expect(plainLoss > 0.3 * tolerance * perimeter, "plain chords lie inside: \(plainLoss)")
        // The four cubic end points stay on the circle, so a little of the bias remains near them.
        #expect(centredError < 0.2 * plainLoss, "centred \(centredError) vs plain \(plainLoss)")
        // Centred vertices stay close to the curve: outside it by at most the tolerance.
        let centre = Point(radius + 3, radius + 5)
        for vertex in centred.vertices(of: 0) {
            #expect(abs(vertex.distance(to: centre) - radius) <= tolerance, "vertex \(vertex)")
        }
        // The parabola: area 2/3 of base × height = 2/3 × 2r × r (its apex is at height r).
        let parabolaExact = 4.0 / 3 * radius * radius
        let plainParabola = parabolaExact - FlatteningTests.area(Array(plain.vertices(of: 1)))
        let centredParabola = abs(parabolaExact - FlatteningTests.area(Array(centred.vertices(of: 1))))
        #expect(centredParabola < 0.2 * plainParabola, "centred \(centredParabola) vs plain \(plainParabola)")
    }

    @Test("segment count grows with the transform's scale")
    func segmentCountGrowsWithScale() {
        var path = Path()
        path.addCircle(center: Point(0, 0), radius: 10)
        var counts: [Int] = []
        for scale in [1.0, 3.0, 10.0, 100.0] {
            var polylines = Polylines()
            path.flatten(transform: .scale(scale), tolerance: 0.01, into: &polylines)
            counts.append(polylines.points.count)
        }
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "\(counts)")
        // Chord error ∝ radius / n², so n ∝ √scale.
        #expect(Double(counts[3]) / Double(counts[0]) > 5)
    }

    @Test("huge or non-finite coordinates do not trap (regression: Int(infinity))")
    func hugeCoordinates() {
        var path = Path()
        path.move(to: Point(0, 0))
        path.curve(to: Point(1e300, 0), control1: Point(-1e300, 1e300), control2: Point(1e300, -1e300))
        path.quadCurve(to: Point(0, 0), control: Point(1e308, -1e308))
        path.line(to: Point(.nan, 0))
        path.curve(to: Point(1, 1), control1: Point(.nan, 0), control2: Point(0, .infinity))
        var polylines = Polylines()
        path.flatten(into: &polylines)
        #expect(polylines.points.count <= 3 * Path.maximumFlatteningSegmentCount + 2)
    }

    @Test("subpaths keep their closed flags; a line after close starts at the subpath start")
    func subpaths() throws {
        let path = try Path(svgPathData: "M0 0 L10 0 L10 10 Z L0 10 M20 20 L30 20")
        var polylines = Polylines()
        path.flatten(into: &polylines)
        #expect(polylines.subpaths.map(\.isClosed) == [true, false, false])
        #expect(Array(polylines.vertices(of: 1)) == [Point(0, 0), Point(0, 10)])
        #expect(Array(polylines.vertices(of: 2)) == [Point(20, 20), Point(30, 20)])
    }
}

/// Path pieces without Foundation's NSString methods (one of which traps on Linux).
@Suite struct PathNameTests {
    @Test(arguments: [
        ("x", "", "x", "x", ""), ("xy", "", "xy", "xy", ""), ("a/b", "a", "b", "a/b", ""), ("/x", "/", "x", "/x", ""),
        ("x/", "", "x", "x", ""), ("a/b/", "a", "b", "a/b", ""), ("/", "/", "/", "/", ""), ("", "", "", "", ""),
        ("dir/marker.json", "dir", "marker.json", "dir/marker", "json"), (".hidden", "", ".hidden", ".hidden", ""),
        ("a.b/c", "a.b", "c", "a.b/c", ""), ("a//b", "a", "b", "a//b", ""),
    ])
    func piecesMatchNSStringsMeaning(_ path: String, _ folder: String, _ last: String, _ withoutExtension: String,
                                     _ pathExtension: String) {
        #expect(PathName.folder(of: path) == folder)
        #expect(PathName.lastComponent(of: path) == last)
        #expect(PathName.deletingExtension(path) == withoutExtension)
        #expect(PathName.pathExtension(of: path) == pathExtension)
    }

    @Test func appendingJoinsWithOneSlash() {
        #expect(PathName.appending("b", to: "a") == "a/b")
        #expect(PathName.appending("b", to: "a/") == "a/b")
        #expect(PathName.appending("b", to: "") == "b")
        #expect(PathName.appending("b", to: "/") == "/b")
        #expect(PathName.appending("", to: "a") == "a")
    }
}
