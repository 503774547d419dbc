import PinmintGeometry
import Testing

/// `Polylines.maximumPointCount`: flattening and stroking stop before a
/// short path becomes millions of points.
struct PointLimitTests {
    /// A zigzag of `count` segments: every vertex a half turn, a half disc of points with round joins.
    static func zigzag(_ count: Int) -> Path {
        var path = Path()
        path.move(to: .zero)
        for index in 0..<count { path.line(to: Point(Double(index % 2) * 20, Double(index) * 0.001)) }
        return path
    }

    @Test func flatteningStopsAtTheLimit() {
        var path = Path()
        path.move(to: .zero)
        for index in 0..<1000 { path.curve(to: Point(Double(index), 0), control1: Point(-4000, 4000), control2: Point(4000, 4000)) }
        var output = Polylines()
        output.maximumPointCount = 10_000
        path.flatten(tolerance: 0.01, into: &output)
        #expect(output.reachedPointLimit)
        #expect(output.points.count <= 10_000)
        // Without a limit (the default) the same path is flattened whole; removeAll clears the flag.
        output.removeAll()
        #expect(!output.reachedPointLimit)
        output.maximumPointCount = .max
        path.flatten(tolerance: 0.01, into: &output)
        #expect(!output.reachedPointLimit && output.points.count > 10_000)
    }

    @Test(arguments: [LineJoin.round, .miter])
    func strokingStopsAtTheLimit(_ join: LineJoin) {
        var stroker = Stroker()
        var output = Polylines()
        output.maximumPointCount = 100_000
        stroker.stroke(Self.zigzag(100_000), style: StrokeStyle(width: 1000, cap: .round, join: join), transform: .identity,
                       tolerance: 0.005, into: &output)
        #expect(output.reachedPointLimit)
        #expect(output.points.count <= 100_000 + 4100)
    }

    @Test func dashesStopAtTheLimit() {
        var line = Path()
        line.move(to: .zero)
        line.line(to: Point(100_000, 0))
        var stroker = Stroker()
        var output = Polylines()
        output.maximumPointCount = 100_000
        stroker.stroke(line, style: StrokeStyle(width: 1000, cap: .round, dashes: [0, 0.1]), transform: .identity,
                       tolerance: 0.005, into: &output)
        #expect(output.reachedPointLimit)
        #expect(output.points.count <= 100_000 + 4100)
    }

    @Test func aSmallStrokeIsNotCut() {
        var circle = Path()
        circle.addCircle(center: Point(50, 50), radius: 40)
        var stroker = Stroker()
        var output = Polylines()
        output.maximumPointCount = 100_000
        stroker.stroke(circle, style: StrokeStyle(width: 3, cap: .round, join: .round, dashes: [4, 2]), transform: .identity,
                       tolerance: 0.005, into: &output)
        #expect(!output.reachedPointLimit && !output.points.isEmpty)
    }
}
