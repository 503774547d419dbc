#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import PinmintGeometry

// MARK: Reference measurements

/// The non-zero winding number of `polylines` (every subpath taken as closed)
/// around `point`, by counting signed crossings of a ray towards +x.
func windingNumber(at point: Point, in polylines: Polylines) -> Int {
    var winding = 0
    for index in polylines.subpaths.indices {
        let vertices = Array(polylines.vertices(of: index))
        for edge in vertices.indices {
            let start = vertices[edge], end = vertices[(edge + 1) % vertices.count]
            guard (start.y <= point.y) != (end.y <= point.y) else { continue }
            let crossingX = start.x + (point.y - start.y) / (end.y - start.y) * (end.x - start.x)
            if crossingX > point.x { winding += end.y > start.y ? 1 : -1 }
        }
    }
    return winding
}

/// What scanning an outline on rows measures.
struct Coverage {
    /// The area where the winding number is non-zero: per row, the exact length
    /// of the non-zero runs, times the row spacing (midpoint rule in y).
    var area = 0.0
    /// The largest |winding number| met anywhere.
    var maximumWinding = 0
}

/// Scans `polylines` on horizontal rows `spacing` apart: the reference for a
/// stroke's area, independent of the stroker's own geometry.
func coverage(of polylines: Polylines, spacing: Double = 0.05) -> Coverage {
    var result = Coverage()
    guard !polylines.points.isEmpty else { return result }
    let minimumY = polylines.points.map(\.y).min()!, maximumY = polylines.points.map(\.y).max()!
    var edges: [(Point, Point)] = []
    for index in polylines.subpaths.indices {
        let vertices = Array(polylines.vertices(of: index))
        for edge in vertices.indices { edges.append((vertices[edge], vertices[(edge + 1) % vertices.count])) }
    }
    var crossings: [(x: Double, direction: Int)] = []
    let rows = Int(((maximumY - minimumY) / spacing).rounded(.up))
    for row in 0..<rows {
        let y = minimumY + (Double(row) + 0.5) * spacing
        crossings.removeAll(keepingCapacity: true)
        for (start, end) in edges where (start.y <= y) != (end.y <= y) {
            let x = start.x + (y - start.y) / (end.y - start.y) * (end.x - start.x)
            crossings.append((x, end.y > start.y ? 1 : -1))
        }
        crossings.sort { $0.x < $1.x }
        var winding = 0
        for (index, crossing) in crossings.enumerated() {
            winding += crossing.direction
            result.maximumWinding = max(result.maximumWinding, abs(winding))
            if winding != 0, index + 1 < crossings.count {
                result.area += (crossings[index + 1].x - crossing.x) * spacing
            }
        }
    }
    return result
}

/// The signed (shoelace) area of one subpath.
func signedArea(of polylines: Polylines, subpath index: Int) -> Double {
    let vertices = Array(polylines.vertices(of: index))
    var twiceArea = 0.0
    for edge in vertices.indices { twiceArea += vertices[edge].cross(vertices[(edge + 1) % vertices.count]) }
    return twiceArea / 2
}

/// Strokes `path` and checks the invariants every output must keep: every
/// subpath closed and not degenerate, every point finite.
func stroked(_ path: Path, _ style: StrokeStyle, transform: AffineMap = .identity,
             tolerance: Double = defaultFlatteningTolerance) -> Polylines {
    var stroker = Stroker()
    var output = Polylines()
    stroker.stroke(path, style: style, transform: transform, tolerance: tolerance, into: &output)
    for subpath in output.subpaths {
        #expect(subpath.isClosed)
        #expect(subpath.count >= 3)
    }
    #expect(output.points.allSatisfy { $0.isFinite })
    return output
}

/// An open or closed polyline through `points`.
func polyline(_ points: [Point], closed: Bool = false) -> Path {
    var path = Path()
    path.move(to: points[0])
    for point in points.dropFirst() { path.line(to: point) }
    if closed { path.close() }
    return path
}

/// A horizontal line 100 long from (0, 0).
let horizontalLine = polyline([Point(0, 0), Point(100, 0)])
/// A closed 100 x 100 square from (0, 0), clockwise on screen.
let closedSquare = polyline([Point(0, 0), Point(100, 0), Point(100, 100), Point(0, 100)], closed: true)
/// Two 100-long arms meeting at a right angle at (100, 0).
let rightAngle = polyline([Point(0, 0), Point(100, 0), Point(100, 100)])

func isClose(_ value: Double, _ expected: Double, relative: Double = 0.001, absolute: Double = 0.05) -> Bool {
    abs(value - expected) <= max(absolute, relative * abs(expected))
}


/// The distance from `point` to the nearest point of the polyline `vertices`
/// (closed back to its start when `isClosed`).
func distance(from point: Point, toPolyline vertices: [Point], isClosed: Bool) -> Double {
    if vertices.count == 1 { return point.distance(to: vertices[0]) }
    var nearest = Double.infinity
    let segmentCount = isClosed ? vertices.count : vertices.count - 1
    for index in 0..<segmentCount {
        let start = vertices[index], end = vertices[(index + 1) % vertices.count]
        let along = end - start
        let lengthSquared = along.dot(along)
        let t = lengthSquared > 0 ? min(max((point - start).dot(along) / lengthSquared, 0), 1) : 0
        nearest = min(nearest, point.distance(to: start + along * t))
    }
    return nearest
}

/// Paths with awkward geometry: a cusp, a loop, short zigzags, a reversal inside a curve.
let awkwardPaths: [Path] = {
    var cusp = Path()
    cusp.move(to: Point(0, 0))
    cusp.curve(to: Point(60, 0), control1: Point(60, 40), control2: Point(0, 40))
    var loop = Path()
    loop.move(to: Point(0, 20))
    loop.curve(to: Point(40, 20), control1: Point(70, -20), control2: Point(-30, -20))
    let zigzag = polyline([Point(0, 0), Point(3, 8), Point(5, -1), Point(6, 9), Point(30, 0), Point(29, 1),
                           Point(40, 30)])
    var closedCurve = Path()
    closedCurve.move(to: Point(0, 0))
    closedCurve.quadCurve(to: Point(20, 0), control: Point(10, 30))
    closedCurve.line(to: Point(12, 2))
    closedCurve.close()
    return [cusp, loop, zigzag, closedCurve]
}()

// MARK: Case tables

let lineCapCases: [(LineCap, Double)] = [
    (.butt, 1000),
    (.square, 1100),
    (.round, 1000 + Double.pi * 25),
]

let squareRingCases: [(LineJoin, Double)] = [
    // Ring 110^2 - 90^2 with the four outer corners cut by the join.
    (.miter, 4000),
    (.bevel, 4000 - 4 * 12.5),
    (.round, 4000 - 4 * (25 - Double.pi * 25 / 4)),
]

let rightAngleCases: [(LineJoin, Double)] = [
    // Two butt-capped 100 x 10 arms overlap in a 5 x 5 square; the join fills the outer corner.
    (.miter, 2000),
    (.bevel, 1987.5),
    (.round, 1975 + Double.pi * 25 / 4),
]

let pointSubpathCases: [(LineCap, Double)] = [
    (.round, Double.pi * 25),
    (.square, 100),
    (.butt, 0),
]

let reversalCases: [(LineJoin, LineCap, Double)] = [
    // Out 100 and back 50: the way back lies inside the way out.
    (.miter, .butt, 1000),
    (.bevel, .butt, 1000),
    (.round, .butt, 1000 + Double.pi * 25 / 2),
    (.miter, .square, 1050),
]

let circleCases: [(Double, Double, Double)] = [
    // (radius, width, ring area): thin rings, and a width past the radius (the inner side collapses: a disc).
    (50, 10, Double.pi * (55 * 55 - 45 * 45)),
    (20, 4, Double.pi * (22 * 22 - 18 * 18)),
    (3, 10, Double.pi * 8 * 8),
]

let dashCases: [([Double], Double, Double)] = [
    // (pattern, offset, total dash length on the 100-long line)
    ([10, 5], 0, 70),           // dashes at 0, 15, ..., 90
    ([10, 5], 3, 67),           // first dash 7 long
    ([10, 5], -3, 67),          // starts 3 before the end of a gap; last dash 7 long
    ([10, 5], 18, 67),          // offset beyond the pattern: same as 3
    ([10], 0, 50),              // odd count repeated: [10, 10]
    ([5, 10, 15], 0, 55),       // [5, 10, 15, 5, 10, 15]
    ([10, -1], 0, 100),         // negative value: solid
    ([0, 0], 0, 100),           // all zero: solid
    ([], 0, 100),               // no pattern: solid
]

let insideOutsideCases: [(LineCap, Point, Bool)] = [
    // Points just inside and just outside a width-10 line from (0, 0) to (100, 0).
    (.butt, Point(50, 4.9), true), (.butt, Point(50, 5.1), false),
    (.butt, Point(50, -4.9), true), (.butt, Point(50, -5.1), false),
    (.butt, Point(0.1, 0), true), (.butt, Point(-0.1, 0), false),
    (.butt, Point(100.1, 0), false),
    (.square, Point(-4.9, 4.9), true), (.square, Point(-5.1, 0), false),
    (.square, Point(104.9, -4.9), true), (.square, Point(105.1, 0), false),
    (.round, Point(-4.9, 0), true), (.round, Point(-3.6, 3.6), false),
    (.round, Point(103.4, 3.4), true), (.round, Point(105.1, 0), false),
]

// MARK: Tests

@Suite struct StrokerTests {
    @Test(arguments: lineCapCases)
    func lineCapsAddTheirArea(cap: LineCap, expectedArea: Double) {
        let measured = coverage(of: stroked(horizontalLine, StrokeStyle(width: 10, cap: cap)))
        #expect(isClose(measured.area, expectedArea), "area \(measured.area), expected \(expectedArea)")
        // One outline, no doubly covered region (which would spoil edge anti-aliasing).
        #expect(measured.maximumWinding == 1)
    }

    @Test(arguments: squareRingCases)
    func closedSquareIsARing(join: LineJoin, expectedArea: Double) {
        let output = stroked(closedSquare, StrokeStyle(width: 10, join: join))
        #expect(output.subpaths.count == 2)
        // Outer and inner loops wind opposite ways: non-zero leaves the hole empty.
        let outer = signedArea(of: output, subpath: 0), inner = signedArea(of: output, subpath: 1)
        #expect(outer * inner < 0)
        let measured = coverage(of: output)
        #expect(isClose(measured.area, expectedArea), "area \(measured.area), expected \(expectedArea)")
        #expect(measured.maximumWinding == 1)
        #expect(windingNumber(at: Point(50, 50), in: output) == 0)
        #expect(windingNumber(at: Point(50, 4.9), in: output) != 0)
        #expect(windingNumber(at: Point(50, 5.1), in: output) == 0)
    }

    @Test(arguments: rightAngleCases)
    func rightAngleJoins(join: LineJoin, expectedArea: Double) {
        let measured = coverage(of: stroked(rightAngle, StrokeStyle(width: 10, join: join)))
        #expect(isClose(measured.area, expectedArea), "area \(measured.area), expected \(expectedArea)")
        #expect(measured.maximumWinding == 1)
    }

    /// Arms meeting at 10 degrees: the miter is 1 / sin(5 deg) = 11.47 widths long.
    @Test(arguments: [(4.0, false), (11.0, false), (12.0, true), (100.0, true)])
    func miterLimitFallsBackToBevel(miterLimit: Double, keepsMiter: Bool) {
        let halfAngle = 5 * Double.pi / 180
        let sharp = polyline([Point(0, 0), Point(100 * cos(halfAngle), -100 * sin(halfAngle)),
                              Point(0, -200 * sin(halfAngle))])
        let mitered = coverage(of: stroked(sharp, StrokeStyle(width: 10, join: .miter, miterLimit: miterLimit))).area
        let beveled = coverage(of: stroked(sharp, StrokeStyle(width: 10, join: .bevel))).area
        // Triangle between the bevel and the miter tip: hw^2 sin^3(turn/2) / cos(turn/2), turn 170 deg.
        let halfTurn = 85 * Double.pi / 180
        let tip = 25 * pow(sin(halfTurn), 3) / cos(halfTurn)
        let expected = keepsMiter ? beveled + tip : beveled
        #expect(isClose(mitered, expected, relative: 0.002), "area \(mitered), expected \(expected)")
    }

    @Test(arguments: dashCases)
    func dashPatterns(dashes: [Double], offset: Double, dashedLength: Double) {
        let style = StrokeStyle(width: 10, cap: .butt, dashes: dashes, dashOffset: offset)
        let measured = coverage(of: stroked(horizontalLine, style))
        #expect(isClose(measured.area, dashedLength * 10), "area \(measured.area), expected \(dashedLength * 10)")
    }

    /// Regression (a hang): more than a million dashes draw the stroke solid,
    /// also when the path is a curve (the count is measured after flattening).
    @Test(arguments: [[1e-300, 1e-300], [1e-5, 2e-5]])
    func tooManyDashesDrawSolid(dashes: [Double]) {
        var curve = Path()
        curve.move(to: Point(0, 0))
        curve.curve(to: Point(100, 0), control1: Point(30, 40), control2: Point(70, -40))
        let dashed = stroked(curve, StrokeStyle(width: 4, dashes: dashes))
        let solid = stroked(curve, StrokeStyle(width: 4))
        #expect(dashed.subpaths.count == solid.subpaths.count)
        #expect(isClose(coverage(of: dashed).area, coverage(of: solid).area, relative: 0.01))
    }

    @Test func dashesRunOnAcrossSegments() {
        let split = polyline([Point(0, 0), Point(37, 0), Point(50, 0), Point(100, 0)])
        let output = stroked(split, StrokeStyle(width: 10, dashes: [10, 5]))
        #expect(output.subpaths.count == 7)
        #expect(isClose(coverage(of: output).area, 700))
    }

    @Test func dashesOnAClosedSubpathStartAtItsStart() {
        // [50, 50] on the square's 400 perimeter: top edge 0-50, right edge 0-50, ...
        let output = stroked(closedSquare, StrokeStyle(width: 10, dashes: [50, 50]))
        #expect(output.subpaths.count == 4)
        #expect(isClose(coverage(of: output).area, 4 * 500))
        #expect(windingNumber(at: Point(25, 0), in: output) != 0)
        #expect(windingNumber(at: Point(75, 0), in: output) == 0)
        #expect(windingNumber(at: Point(100, 25), in: output) != 0)
    }

    @Test func dashAcrossACornerKeepsItsJoin() {
        // One dash from (80, 0) around the corner to (100, 20), mitered.
        let style = StrokeStyle(width: 10, join: .miter, dashes: [40, 1000], dashOffset: -80)
        let measured = coverage(of: stroked(rightAngle, style))
        // Arms 20 x 10 each, overlapping 5 x 5, plus the 5 x 5 miter corner.
        #expect(isClose(measured.area, 400), "area \(measured.area)")
        #expect(measured.maximumWinding == 1)
    }

    @Test func zeroLengthDashesDrawDots() {
        let style = StrokeStyle(width: 10, cap: .round, dashes: [0, 20])
        let output = stroked(horizontalLine, style)
        // Dots at 0, 20, 40, 60, 80 and 100.
        #expect(output.subpaths.count == 6)
        #expect(isClose(coverage(of: output).area, 6 * 25 * Double.pi, relative: 0.003))
        #expect(stroked(horizontalLine, StrokeStyle(width: 10, cap: .butt, dashes: [0, 20])).subpaths.isEmpty)
    }

    @Test(arguments: pointSubpathCases)
    func pointSubpathsDrawACapShape(cap: LineCap, expectedArea: Double) {
        var closedPoint = Path()
        closedPoint.move(to: Point(10, 10))
        closedPoint.close()
        let coincident = polyline([Point(10, 10), Point(10, 10), Point(10, 10)])
        for path in [closedPoint, coincident] {
            let measured = coverage(of: stroked(path, StrokeStyle(width: 10, cap: cap)))
            #expect(isClose(measured.area, expectedArea, relative: 0.003), "area \(measured.area)")
        }
        // A lone move draws nothing (SVG).
        var loneMove = Path()
        loneMove.move(to: Point(10, 10))
        #expect(stroked(loneMove, StrokeStyle(width: 10, cap: cap)).subpaths.isEmpty)
    }

    @Test(arguments: [0.0, -3, .nan, .infinity])
    func unusableWidthDrawsNothing(width: Double) {
        #expect(stroked(horizontalLine, StrokeStyle(width: width, cap: .round)).subpaths.isEmpty)
    }

    @Test func singularTransformDrawsNothing() {
        #expect(stroked(horizontalLine, StrokeStyle(width: 10), transform: .scale(0)).subpaths.isEmpty)
    }

    @Test(arguments: reversalCases)
    func reversalDoesNotProduceGarbage(join: LineJoin, cap: LineCap, expectedArea: Double) {
        let reversal = polyline([Point(0, 0), Point(100, 0), Point(50, 0)])
        let output = stroked(reversal, StrokeStyle(width: 10, cap: cap, join: join))
        let measured = coverage(of: output)
        #expect(isClose(measured.area, expectedArea, relative: 0.002), "area \(measured.area)")
        #expect((windingNumber(at: Point(102, 0), in: output) != 0) == (join == .round))
    }

    @Test(arguments: circleCases)
    func strokedCircleArea(radius: Double, width: Double, expectedArea: Double) {
        var circle = Path()
        circle.addCircle(center: Point(60, 60), radius: radius)
        for join in LineJoin.allCases {
            let output = stroked(circle, StrokeStyle(width: width, join: join))
            let measured = coverage(of: output)
            #expect(isClose(measured.area, expectedArea, relative: 0.005), "\(join): \(measured.area)")
            if width < radius { #expect(measured.maximumWinding == 1) }
        }
    }

    @Test func outputIsInDeviceSpace() {
        let style = StrokeStyle(width: 10, cap: .butt)
        let scaled = coverage(of: stroked(horizontalLine, style, transform: .scale(3)))
        #expect(isClose(scaled.area, 9000), "area \(scaled.area)")
        let moved = AffineMap.rotation(0.3).concatenating(.translation(50, 20))
        let rotated = coverage(of: stroked(rightAngle, style, transform: moved)).area
        #expect(isClose(rotated, 2000), "area \(rotated)")
    }

    @Test func roundCapsAreFlattenedToTheDeviceTolerance() {
        // The same user-space cap gets more chords when it is drawn larger.
        let style = StrokeStyle(width: 10, cap: .round)
        let small = stroked(horizontalLine, style).points.count
        let scaledOutline = stroked(horizontalLine, style, transform: .scale(10))
        #expect(scaledOutline.points.count > small)
        let measured = coverage(of: scaledOutline, spacing: 0.5)
        #expect(isClose(measured.area, 100 * (1000 + Double.pi * 25)), "area \(measured.area)")
    }

    @Test(arguments: insideOutsideCases)
    func insideHasNonZeroWindingOutsideZero(cap: LineCap, point: Point, isInside: Bool) {
        let output = stroked(horizontalLine, StrokeStyle(width: 10, cap: cap))
        #expect((windingNumber(at: point, in: output) != 0) == isInside)
    }

    @Test func cornerPointsInsideAndOutside() {
        let output = stroked(rightAngle, StrokeStyle(width: 10, join: .round))
        #expect(windingNumber(at: Point(103, -3), in: output) != 0)
        #expect(windingNumber(at: Point(104, -4), in: output) == 0)
        #expect(windingNumber(at: Point(94.9, 5.1), in: output) == 0)
        #expect(windingNumber(at: Point(95.1, 5.1), in: output) != 0)
    }

    @Test func reusedStrokerGivesTheSameOutline() {
        var stroker = Stroker()
        var first = Polylines(), second = Polylines()
        let style = StrokeStyle(width: 6, cap: .round, join: .round, dashes: [7, 3])
        var circle = Path()
        circle.addCircle(center: Point(0, 0), radius: 30)
        stroker.stroke(circle, style: style, transform: .scale(2), tolerance: 0.05, into: &first)
        stroker.stroke(rightAngle, style: style, transform: .identity, tolerance: 0.05, into: &first)
        stroker.stroke(circle, style: style, transform: .scale(2), tolerance: 0.05, into: &second)
        #expect(first.subpaths.count > second.subpaths.count)
        #expect(Array(first.points.prefix(second.points.count)) == second.points)
    }

    /// More vertices than the stroker reserves join slots for at a time
    /// (`joinsPerReservation`): every join is there, in order. A regular
    /// polygon of tiny sides, stroked, gives two regular polygons (each join
    /// a miter point, within the tolerance for any join kind) whose
    /// apothems are the polygon's ± half the width: their areas are known.
    @Test(arguments: LineJoin.allCases)
    func longPathsKeepEveryJoin(join: LineJoin) {
        let sides = 2 * Stroker.joinsPerReservation + 1234
        let radius = 500.0, halfWidth = 4.0
        var polygon = Path(), open = Path()
        for index in 0..<sides {
            let angle = 2 * Double.pi * Double(index) / Double(sides)
            let point = Point(radius * cos(angle), radius * sin(angle))
            if index == 0 { polygon.move(to: point); open.move(to: point) } else { polygon.line(to: point); open.line(to: point) }
        }
        polygon.close()
        let outline = stroked(polygon, StrokeStyle(width: 2 * halfWidth, join: join))
        #expect(outline.subpaths.map(\.count) == [sides, sides])
        var areas: [Double] = []
        for index in outline.subpaths.indices {
            let vertices = Array(outline.vertices(of: index))
            var twiceArea = 0.0
            for edge in vertices.indices {
                let start = vertices[edge], end = vertices[(edge + 1) % vertices.count]
                twiceArea += start.x * end.y - end.x * start.y
            }
            areas.append(abs(twiceArea) / 2)
        }
        let apothem = radius * cos(Double.pi / Double(sides))
        let polygonArea = { (apothem: Double) in Double(sides) * apothem * apothem * tan(Double.pi / Double(sides)) }
        #expect(isClose(areas.max()!, polygonArea(apothem + halfWidth), relative: 1e-9))
        #expect(isClose(areas.min()!, polygonArea(apothem - halfWidth), relative: 1e-9))
        // Open: one outline, a side of `sides` points each way (butt caps add none).
        #expect(stroked(open, StrokeStyle(width: 2 * halfWidth, join: join)).subpaths.map(\.count) == [2 * sides])
    }

    @Test func strokedOutlineIsAFillablePath() {
        let outline = horizontalLine.strokedOutline(StrokeStyle(width: 10, cap: .square))
        var flattened = Polylines()
        outline.flatten(into: &flattened)
        #expect(flattened.subpaths.count == 1)
        #expect(flattened.subpaths.allSatisfy { $0.isClosed })
        #expect(isClose(coverage(of: flattened).area, 1100))
    }

    @Test func curvesAreStrokedToTheirOffset() {
        // A quarter circle of radius 40, stroked 8 wide with butt caps: a quarter ring.
        var arc = Path()
        arc.arc(center: Point(0, 0), radius: 40, start: 0, end: Double.pi / 2, clockwise: true)
        let measured = coverage(of: stroked(arc, StrokeStyle(width: 8)))
        let expected = Double.pi / 4 * (44 * 44 - 36 * 36)
        #expect(isClose(measured.area, expected, relative: 0.003), "area \(measured.area), expected \(expected)")
        #expect(measured.maximumWinding == 1)
    }

    /// With round joins and caps the stroke is exactly the set of points within
    /// half the width of the (flattened) path: compare on a grid, whatever the
    /// geometry, skipping a thin band around the boundary.
    @Test(arguments: [(0, 4.0), (0, 30), (1, 6), (1, 25), (2, 3), (2, 12), (3, 5), (3, 16)])
    func roundStrokeIsEveryPointWithinHalfTheWidth(pathIndex: Int, width: Double) {
        let path = awkwardPaths[pathIndex]
        let output = stroked(path, StrokeStyle(width: width, cap: .round, join: .round))
        var centerline = Polylines()
        path.flatten(into: &centerline)
        let subpath = centerline.subpaths[0]
        let vertices = Array(centerline.vertices(of: 0))
        var mismatches = 0
        for row in -80...160 {
            for column in -80...160 {
                let point = Point(Double(column) * 0.5 + 0.1, Double(row) * 0.5 + 0.05)
                let gap = distance(from: point, toPolyline: vertices, isClosed: subpath.isClosed) - width / 2
                guard abs(gap) > 0.05 else { continue }
                if (windingNumber(at: point, in: output) != 0) != (gap < 0) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }
}

/// Dash ends on a curve are square to the curve, not to the chord they fall
/// on, and leave nothing past their caps.
struct DashEndTests {
    /// The dashes scene's circle (Golden/scenes/dashes.svg) @2x: every dash
    /// is an annular sector, so every outline vertex must lie inside its
    /// dash's arc-length interval. Before, caps square to a chord leaned
    /// by up to 0.025 units at their corners, a dash starting just before a
    /// chord's end left a point of its inner join 0.021 units before its
    /// cap, and dashes laid out on chord lengths fell 0.005 units behind by
    /// the last one.
    @Test func dashesOnACircleAreAnnularSectors() {
        let center = Point(178, 80), radius = 31.0, halfWidth = 2.0
        var circle = Path()
        circle.addCircle(center: center, radius: radius)
        let style = StrokeStyle(width: 2 * halfWidth, dashes: [10, 5], dashOffset: 12.5)
        let output = stroked(circle, style, transform: .scale(2))
        // Arc length is 2.5 + 15 k ... 12.5 + 15 k: 13 dashes, a gap at the start point.
        #expect(output.subpaths.count == 13)
        // Chords lie within 0.0025 units of the circle (the tolerance @2x).
        let allowance = 0.003
        for (index, _) in output.subpaths.enumerated() {
            let start = 2.5 + 15 * Double(index), end = start + 10
            for point in output.vertices(of: index) {
                let offset = point * 0.5 - center
                let distance = offset.length
                var arc = atan2(offset.y, offset.x) * radius
                if arc < 0 { arc += 2 * Double.pi * radius }
                #expect(distance > radius - halfWidth - allowance && distance < radius + halfWidth + allowance,
                        "dash \(index): a vertex at radius \(distance)")
                #expect(arc > start - allowance && arc < end + allowance,
                        "dash \(index) [\(start), \(end)]: a vertex at arc length \(arc)")
            }
        }
    }
}
