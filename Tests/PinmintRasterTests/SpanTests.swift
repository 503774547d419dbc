import PinmintGeometry
@testable import PinmintRaster
import Testing

/// The span form of the rasterizer against its per-pixel reference form:
/// expanded into rows, both must give the same coverage, bit for bit.
struct SpanTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Coverage of `polylines` in `bounds` as one row-major array of the canvas.
    /// The span form and the row form give the same coverage, bit for bit,
    /// over the whole canvas and over a window that cuts shapes on every side.
    static func expectSpansMatchRows(_ polylines: Polylines, rule: FillRule, width: Int, height: Int) {
        for bounds in [PixelBounds(x0: 0, y0: 0, x1: width, y1: height), PixelBounds(x0: 13, y0: 7, x1: 131, y1: 77)] {
            let expected = SpanTests.coverage(polylines, rule: rule, bounds: bounds, width: width, height: height, spans: false)
            let actual = SpanTests.coverage(polylines, rule: rule, bounds: bounds, width: width, height: height, spans: true)
            let mismatches = zip(expected, actual).filter { $0.0.bitPattern != $0.1.bitPattern }.count
            #expect(mismatches == 0, "\(mismatches) pixels differ for bounds \(bounds)")
        }
    }

    static func coverage(_ polylines: Polylines, rule: FillRule, bounds: PixelBounds, width: Int, height: Int,
                         spans useSpans: Bool) -> [Float] {
        var rasterizer = CoverageRasterizer()
        var result = [Float](repeating: 0, count: width * height)
        if useSpans {
            rasterizer.rasterizeSpans(polylines, rule: rule, bounds: bounds) { y, spans, _ in
                var previousEnd = Int.min
                for span in spans {
                    #expect(span.count > 0 && span.x >= previousEnd && span.x >= bounds.x0
                            && span.x + span.count <= bounds.x1)
                    previousEnd = span.x + span.count
                    for i in 0..<span.count {
                        result[y * width + span.x + i] = span.values.map { $0[i] } ?? span.constant
                    }
                }
            }
        } else {
            rasterizer.rasterize(polylines, rule: rule, bounds: bounds) { y, x0, coverage, _ in
                for i in coverage.indices { result[y * width + x0 + i] = coverage[i] }
            }
        }
        return result
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd], 0..<40)
    func spansMatchThePerPixelReference(_ rule: FillRule, _ seed: Int) {
        var random = SplitMix(state: UInt64(seed))
        let width = 150, height = 90
        var path = Path()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            path.move(to: Point(Double.random(in: -20...170, using: &random), Double.random(in: -20...110, using: &random)))
            for _ in 0..<Int.random(in: 2...7, using: &random) {
                let end = Point(Double.random(in: -20...170, using: &random), Double.random(in: -20...110, using: &random))
                if Bool.random(using: &random) {
                    path.line(to: end)
                } else {
                    path.curve(to: end, control1: Point(Double.random(in: 0...150, using: &random), Double.random(in: 0...90, using: &random)),
                               control2: Point(Double.random(in: 0...150, using: &random), Double.random(in: 0...90, using: &random)))
                }
            }
            path.close()
        }
        var polylines = Polylines()
        path.flatten(into: &polylines)
        SpanTests.expectSpansMatchRows(polylines, rule: rule, width: width, height: height)
    }

    /// On a canvas 4,000 pixels wide and `height` tall (several bands), the
    /// spans give the per-pixel rows' coverage bit for bit, under both rules.
    static func expectSpansMatchRowsOnWideCanvas(_ polylines: Polylines, height: Int) {
        for rule in FillRule.allCases {
            let bounds = PixelBounds(x0: 0, y0: 0, x1: 4000, y1: height)
            let expected = SpanTests.coverage(polylines, rule: rule, bounds: bounds, width: 4000, height: height, spans: false)
            let actual = SpanTests.coverage(polylines, rule: rule, bounds: bounds, width: 4000, height: height, spans: true)
            #expect(zip(expected, actual).allSatisfy { $0.0.bitPattern == $0.1.bitPattern })
        }
    }

    /// A shape wider than 64 cells whose rows touch several bit words, and a
    /// canvas wide enough for several bands.
    @Test func wideShapesAndBands() {
        var path = Path()
        path.move(to: Point(10.5, 3.25)); path.line(to: Point(3990.25, 100.5)); path.line(to: Point(20.75, 197.5))
        path.close()
        path.addCircle(center: Point(2000.3, 100.7), radius: 60.2)
        var polylines = Polylines()
        path.flatten(into: &polylines)
        SpanTests.expectSpansMatchRowsOnWideCanvas(polylines, height: 200)
    }

    /// Shapes with long vertical sides, whose plain rows repeat the row
    /// above (`RepeatedRows`): rectangles and rounded rectangles with whole,
    /// half and arbitrary coordinates, overlapping (non-zero's clamp, even-odd's
    /// fold), sharing a side (the exact pass), crossed by a triangle, with
    /// horizontal sides inside rows; in the whole canvas and in a window.
    @Test(arguments: [FillRule.nonZero, .evenOdd], 0..<40)
    func repeatedRowsMatchThePerPixelReference(_ rule: FillRule, _ seed: Int) {
        var random = SplitMix(state: UInt64(seed) &+ 1000)
        let width = 150, height = 90
        func coordinate(_ range: ClosedRange<Double>) -> Double {
            let value = Double.random(in: range, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return value.rounded()
            case 1: return (value * 2).rounded() / 2
            default: return value
            }
        }
        var path = Path()
        var previous: Rect?
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let x = coordinate(-20...140), y = coordinate(-20...80)
            var rect = Rect(x: x, y: y, width: coordinate(1...100), height: coordinate(3...100))
            // Now and then a side shared with the previous rectangle, in the other direction.
            if let last = previous, Int.random(in: 0..<4, using: &random) == 0 {
                rect = Rect(x: last.maxX, y: last.minY + 1, width: rect.width, height: last.height + 0.5)
            }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: path.addRoundedRect(rect, radius: coordinate(0...8))
            case 1:
                // Counter-clockwise.
                path.move(to: Point(rect.minX, rect.minY)); path.line(to: Point(rect.minX, rect.maxY))
                path.line(to: Point(rect.maxX, rect.maxY)); path.line(to: Point(rect.maxX, rect.minY))
                path.close()
            default: path.addRect(rect)
            }
            previous = rect
        }
        if Bool.random(using: &random) {
            path.move(to: Point(coordinate(0...150), coordinate(0...90)))
            path.line(to: Point(coordinate(0...150), coordinate(0...90)))
            path.line(to: Point(coordinate(0...150), coordinate(0...90)))
            path.close()
        }
        var polylines = Polylines()
        path.flatten(into: &polylines)
        SpanTests.expectSpansMatchRows(polylines, rule: rule, width: width, height: height)
    }

    /// Repeated rows across bands: a rectangle taller than a band of a wide
    /// canvas, so that each band starts with a key row of its own.
    @Test func repeatedRowsAcrossBands() {
        var path = Path()
        path.addRect(Rect(x: 10.25, y: 3.5, width: 3970.5, height: 290))
        path.addRoundedRect(Rect(x: 2000.5, y: 20, width: 300, height: 250), radius: 30)
        var polylines = Polylines()
        path.flatten(into: &polylines)
        SpanTests.expectSpansMatchRowsOnWideCanvas(polylines, height: 300)
    }
}
