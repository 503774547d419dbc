import PinmintGeometry
@testable import PinmintRaster
import Testing

/// Exact reference coverage: the area of a simple polygon inside each pixel
/// square, by Sutherland-Hodgman clipping. Slow and obviously right; the
/// rasterizer must agree with it.
func referenceCoverage(polygon: [Point], width: Int, height: Int, rows: Range<Int>? = nil) -> [Double] {
    func clip(_ points: [Point], inside: (Point) -> Bool, intersect: (Point, Point) -> Point) -> [Point] {
        var output: [Point] = []
        for (index, current) in points.enumerated() {
            let previous = points[(index + points.count - 1) % points.count]
            if inside(current) {
                if !inside(previous) { output.append(intersect(previous, current)) }
                output.append(current)
            } else if inside(previous) {
                output.append(intersect(previous, current))
            }
        }
        return output
    }
    func area(_ points: [Point]) -> Double {
        guard points.count > 2 else { return 0 }
        var sum = 0.0
        for i in points.indices { sum += points[i].cross(points[(i + 1) % points.count]) }
        return abs(sum) / 2
    }
    var result = [Double](repeating: 0, count: width * height)
    for y in rows ?? 0..<height {
        for x in 0..<width {
            let x0 = Double(x), x1 = Double(x + 1), y0 = Double(y), y1 = Double(y + 1)
            var p = polygon
            p = clip(p, inside: { $0.x >= x0 }, intersect: { a, b in a.lerp(b, (x0 - a.x) / (b.x - a.x)) })
            p = clip(p, inside: { $0.x <= x1 }, intersect: { a, b in a.lerp(b, (x1 - a.x) / (b.x - a.x)) })
            p = clip(p, inside: { $0.y >= y0 }, intersect: { a, b in a.lerp(b, (y0 - a.y) / (b.y - a.y)) })
            p = clip(p, inside: { $0.y <= y1 }, intersect: { a, b in a.lerp(b, (y1 - a.y) / (b.y - a.y)) })
            result[y * width + x] = area(p)
        }
    }
    return result
}

/// The alpha channel of a canvas, 0...1.
func alphaChannel(_ canvas: Canvas) -> [Double] {
    let image = canvas.makeImage()
    return stride(from: 3, to: image.pixels.count, by: 4).map { Double(image.pixels[$0]) / 65535 }
}

struct CoverageTests {
    static let polygons: [(name: String, points: [Point])] = [
        ("axis-aligned rect at quarter pixels", [Point(2.25, 3.5), Point(17.75, 3.5), Point(17.75, 12.25), Point(2.25, 12.25)]),
        ("triangle", [Point(1.3, 1.1), Point(18.6, 6.4), Point(7.2, 15.9)]),
        ("thin sliver", [Point(0.5, 2.0), Point(19.5, 2.3), Point(19.5, 2.6), Point(0.5, 2.2)]),
        ("nearly horizontal", [Point(0, 5), Point(20, 5.4), Point(20, 6.4), Point(0, 6)]),
        ("steep", [Point(9.1, 0), Point(9.6, 0), Point(10.9, 16), Point(10.4, 16)]),
        ("sub-pixel square", [Point(4.3, 4.3), Point(4.6, 4.3), Point(4.6, 4.6), Point(4.3, 4.6)]),
        ("counter-clockwise pentagon", [Point(10, 1), Point(2, 7), Point(5, 15.5), Point(15, 15.5), Point(18, 7)]),
        ("cut by every edge", [Point(-5, 8), Point(10, -6), Point(26, 8), Point(10, 23)]),
    ]

    @Test(arguments: polygons.indices)
    func fillMatchesExactArea(_ index: Int) throws {
        let (name, points) = CoverageTests.polygons[index]
        let canvas = try Canvas(width: 20, height: 16)
        var path = Path()
        path.move(to: points[0])
        for point in points.dropFirst() { path.line(to: point) }
        path.close()
        try canvas.fill(path, paint: .solid(.black))
        let expected = referenceCoverage(polygon: points, width: 20, height: 16)
        let actual = alphaChannel(canvas)
        let worst = zip(expected, actual).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-4, "\(name): largest coverage error \(worst)")
    }

    @Test func evenOddRingLeavesTheHoleEmpty() throws {
        let canvas = try Canvas(width: 40, height: 40)
        var path = Path()
        path.addCircle(center: Point(20, 20), radius: 15)
        path.addCircle(center: Point(20, 20), radius: 7)
        try canvas.fill(path, paint: .solid(.black), rule: .evenOdd)
        #expect(canvas.pixel(x: 20, y: 20).alpha == 0)
        #expect(canvas.pixel(x: 20, y: 9).alpha == 1)
        try canvas.fill(path, paint: .solid(.black), rule: .nonZero)
        #expect(canvas.pixel(x: 20, y: 20).alpha == 1)
    }

    @Test func circleAreaIsExact() throws {
        let canvas = try Canvas(width: 64, height: 64)
        var path = Path()
        path.addCircle(center: Point(31.7, 32.2), radius: 20.3)
        try canvas.fill(path, paint: .solid(.black))
        let total = alphaChannel(canvas).reduce(0, +)
        // Chords lie inside the arc: at most the flattening tolerance, about 2/3 of it on average.
        let perimeter = 2 * Double.pi * 20.3
        #expect(abs(total - Double.pi * 20.3 * 20.3) < perimeter * canvas.flatteningTolerance * 0.7)
    }

    @Test func hugeCoordinatesFillTheCanvas() throws {
        let canvas = try Canvas(width: 8, height: 8)
        var path = Path()
        path.addRect(Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9))
        try canvas.fill(path, paint: .solid(.black))
        #expect(alphaChannel(canvas).allSatisfy { $0 == 1 })
    }

    /// Finite paths whose device coordinates overflow (1e308 at scale 3, a
    /// rotated huge triangle, a curve with huge control points) or lie beyond
    /// 1e12 px are refused with `outOfRange`, never a crash; nothing is drawn.
    @Test(arguments: [0, 1, 2, 3])
    func overflowingCoordinatesAreRefused(_ which: Int) throws {
        let canvas = try Canvas(width: 8, height: 8)
        var path = Path()
        var transform = AffineMap.scale(3)
        switch which {
        case 0:
            path.move(to: Point(0, 0)); path.line(to: Point(1e308, 1e308)); path.line(to: Point(-1e308, 1e308)); path.close()
            transform = .rotation(.pi / 4).concatenating(.scale(3))
        case 1:
            path.move(to: Point(0, 0)); path.curve(to: Point(3, 3), control1: Point(1e308, -1e308), control2: Point(-1e308, 1e308))
            path.close()
        case 2:
            path.addRect(Rect(x: 0, y: 0, width: 1e13, height: 2))
            transform = .identity
        default:
            path.move(to: Point(1, 1)); path.line(to: Point(5e307, 1)); path.line(to: Point(1, 5e307)); path.close()
        }
        #expect(throws: RasterError.self) { try canvas.fill(path, paint: .solid(.black), transform: transform) }
        #expect(throws: RasterError.self) {
            try canvas.stroke(path, style: StrokeStyle(width: 2), paint: .solid(.black), transform: transform)
        }
        #expect(throws: RasterError.self) { try canvas.pushClip(path, transform: transform) }
        #expect(throws: RasterError.self) { _ = try canvas.makeCoverageMask(path, transform: transform) }
        #expect(canvas.clipDepth == 0)
        #expect(alphaChannel(canvas).allSatisfy { $0 == 0 })
    }

    @Test func shapesOutsideTheCanvasDrawNothing() throws {
        let canvas = try Canvas(width: 8, height: 8)
        for rect in [Rect(x: -20, y: 0, width: 10, height: 8), Rect(x: 20, y: 0, width: 10, height: 8),
                     Rect(x: 0, y: -20, width: 8, height: 10), Rect(x: 0, y: 30, width: 8, height: 10)] {
            var path = Path()
            path.addRect(rect)
            try canvas.fill(path, paint: .solid(.black))
        }
        #expect(alphaChannel(canvas).allSatisfy { $0 == 0 })
    }

    @Test func nonFiniteInputIsRefused() throws {
        let canvas = try Canvas(width: 8, height: 8)
        var path = Path()
        path.move(to: Point(0, 0)); path.line(to: Point(.nan, 4)); path.line(to: Point(4, 4))
        #expect(throws: RasterError.nonFinite("path coordinates")) { try canvas.fill(path, paint: .solid(.black)) }
        var good = Path()
        good.addRect(Rect(x: 0, y: 0, width: 4, height: 4))
        #expect(throws: RasterError.self) {
            try canvas.fill(good, paint: .solid(.black), transform: .scale(.infinity))
        }
        #expect(throws: RasterError.self) { try canvas.fill(good, paint: .solid(.black), opacity: .nan) }
    }

    @Test(arguments: [(0, 10), (10, 0), (16385, 1), (1, 16385), (8192, 8192)])
    func canvasLimitsAreEnforced(_ size: (Int, Int)) {
        #expect(throws: RasterError.self) { try Canvas(width: size.0, height: size.1) }
    }

    @Test func translucentColourIsStoredExactly() throws {
        let canvas = try Canvas(width: 4, height: 4)
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: 4, height: 4))
        try canvas.fill(path, paint: .solid(Color(red8: 77, green8: 77, blue8: 77, alpha: 0.8)))
        let bytes = canvas.straightRGBA8()
        #expect(Array(bytes[0..<4]) == [77, 77, 77, 204])
    }

    @Test func bandsAgreeWithOneBuffer() throws {
        // A canvas wider than one band's worth of rows forces several bands.
        let canvas = try Canvas(width: 4000, height: 200)
        var path = Path()
        path.move(to: Point(10.5, 3.25)); path.line(to: Point(3990.25, 100.5)); path.line(to: Point(20.75, 197.5))
        path.close()
        try canvas.fill(path, paint: .solid(.black))
        // Rows around the band boundaries (65 rows a band at this width).
        let rows = 60..<72
        let expected = referenceCoverage(polygon: [Point(10.5, 3.25), Point(3990.25, 100.5), Point(20.75, 197.5)],
                                         width: 4000, height: 200, rows: rows)
        let actual = alphaChannel(canvas)
        var worst = 0.0
        for y in rows {
            for x in 0..<4000 { worst = max(worst, abs(expected[y * 4000 + x] - actual[y * 4000 + x])) }
        }
        #expect(worst < 1e-3)
    }
}

/// Coverage by dense point sampling with a winding-number test: slow, but
/// right for any path, self-intersecting or overlapping.
func sampledCoverage(polygons: [[Point]], rule: FillRule, x: Int, y: Int, samples: Int = 64) -> Double {
    var inside = 0
    for sy in 0..<samples {
        for sx in 0..<samples {
            let p = Point(Double(x) + (Double(sx) + 0.5) / Double(samples), Double(y) + (Double(sy) + 0.5) / Double(samples))
            var winding = 0
            for polygon in polygons {
                for i in polygon.indices {
                    let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                    if a.y <= p.y && b.y > p.y && (b - a).cross(p - a) > 0 { winding += 1 }
                    if b.y <= p.y && a.y > p.y && (b - a).cross(p - a) < 0 { winding -= 1 }
                }
            }
            if rule == .nonZero ? winding != 0 : winding % 2 != 0 { inside += 1 }
        }
    }
    return Double(inside) / Double(samples * samples)
}

struct ExactRowTests {
    /// Regression: the pentagram's crossings (and its horizontal edge meeting
    /// a crossing) were off by up to 0.4 before rows with crossings were resolved exactly.
    static let pentagram = [Point(25, 4), Point(38.2, 44.7), Point(3.6, 19.55), Point(46.4, 19.55), Point(11.8, 44.7)]
    /// Two same-direction squares whose edges run through the same pixels: winding 2 next to 0.
    static let overlapping = [[Point(5.3, 5.3), Point(30.4, 5.3), Point(30.4, 30.6), Point(5.3, 30.6)],
                              [Point(5.6, 5.7), Point(30.7, 5.7), Point(30.7, 30.2), Point(5.6, 30.2)]]

    @Test(arguments: FillRule.allCases)
    func selfIntersectingStarIsExact(_ rule: FillRule) throws {
        let canvas = try Canvas(width: 50, height: 50)
        var path = Path()
        path.move(to: ExactRowTests.pentagram[0])
        for p in ExactRowTests.pentagram.dropFirst() { path.line(to: p) }
        path.close()
        try canvas.fill(path, paint: .solid(.black), rule: rule)
        let alpha = alphaChannel(canvas)
        var worst = 0.0
        for y in 0..<50 {
            for x in 0..<50 {
                let expected = sampledCoverage(polygons: [ExactRowTests.pentagram], rule: rule, x: x, y: y, samples: 32)
                worst = max(worst, abs(expected - alpha[y * 50 + x]))
            }
        }
        #expect(worst < 0.04, "\(rule): worst \(worst)")
    }

    @Test func overlappingEdgesInOnePixelAreExact() throws {
        let canvas = try Canvas(width: 36, height: 36)
        var path = Path()
        for square in ExactRowTests.overlapping {
            path.move(to: square[0]); for p in square.dropFirst() { path.line(to: p) }; path.close()
        }
        try canvas.fill(path, paint: .solid(.black), rule: .nonZero)
        let alpha = alphaChannel(canvas)
        // Rows 5 and 30 hold both squares' horizontal edges; columns 5 and 30 both vertical edges.
        for (x, y) in [(5, 5), (5, 17), (30, 17), (17, 5), (17, 30), (30, 30)] {
            let expected = sampledCoverage(polygons: ExactRowTests.overlapping, rule: .nonZero, x: x, y: y, samples: 100)
            #expect(abs(expected - alpha[y * 36 + x]) < 0.01, "pixel (\(x), \(y))")
        }
    }
}

struct ExactClipTests {
    /// Regression: a clip edge crossing a shape edge inside a pixel used to
    /// give coverage × mask, not the area of the intersection.
    @Test func clipIntersectionIsExactWhereEdgesCross() throws {
        let triangle = [Point(2.3, 3.1), Point(37.6, 12.4), Point(8.2, 36.7)]
        let square = [Point(6.4, 6.4), Point(30.6, 6.4), Point(30.6, 30.6), Point(6.4, 30.6)]
        let canvas = try Canvas(width: 40, height: 40)
        var clip = Path(); clip.move(to: square[0]); for p in square.dropFirst() { clip.line(to: p) }; clip.close()
        var shape = Path(); shape.move(to: triangle[0]); for p in triangle.dropFirst() { shape.line(to: p) }; shape.close()
        // Rotate the clip a little so its edges cross the triangle's at odd angles inside pixels.
        let rotation = AffineMap.translation(-18.5, -18.5).concatenating(.rotation(0.3))
            .concatenating(.translation(18.5, 18.5))
        try canvas.pushClip(clip, transform: rotation)
        try canvas.fill(shape, paint: .solid(.black))
        try canvas.popClip()
        let rotatedSquare = square.map { rotation.apply($0) }
        let alpha = alphaChannel(canvas)
        var worst = 0.0
        for y in 0..<40 {
            for x in 0..<40 {
                // Inside both: sampled with the two polygons as separate tests.
                var inside = 0
                let samples = 24
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        let p = Point(Double(x) + (Double(sx) + 0.5) / Double(samples), Double(y) + (Double(sy) + 0.5) / Double(samples))
                        func contains(_ polygon: [Point]) -> Bool {
                            var winding = 0
                            for i in polygon.indices {
                                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                                if a.y <= p.y && b.y > p.y && (b - a).cross(p - a) > 0 { winding += 1 }
                                if b.y <= p.y && a.y > p.y && (b - a).cross(p - a) < 0 { winding -= 1 }
                            }
                            return winding != 0
                        }
                        if contains(triangle) && contains(rotatedSquare) { inside += 1 }
                    }
                }
                worst = max(worst, abs(Double(inside) / Double(samples * samples) - alpha[y * 40 + x]))
            }
        }
        #expect(worst < 0.05, "worst \(worst)")
    }

    @Test func clippedLayerIsMaskedOnce() throws {
        // Two identical shapes sharing the clip's edge: clipping each gives
        // 1 - (1 - c)^2 at the edge; clipping the layer once gives c.
        let canvas = try Canvas(width: 20, height: 4)
        var square = Path(); square.addRect(Rect(x: 0, y: 0, width: 20, height: 4))
        var clip = Path(); clip.addRect(Rect(x: 0, y: 0, width: 10.5, height: 4))
        try canvas.beginLayer()
        try canvas.fill(square, paint: .solid(.black))
        try canvas.fill(square, paint: .solid(.black))
        try canvas.pushClip(clip)
        try canvas.endLayer(clipped: true)
        try canvas.popClip()
        #expect(abs(canvas.pixel(x: 10, y: 1).alpha - 0.5) < 1e-3)
        #expect(canvas.pixel(x: 15, y: 1).alpha == 0)
    }
}
