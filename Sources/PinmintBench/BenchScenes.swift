import PinmintGeometry
import PinmintRaster

/// One drawing operation of a benchmark scene.
struct BenchOperation {
    enum Kind { case fill(FillRule), stroke(StrokeStyle) }
    var kind: Kind
    var color: Color
    /// Builds the operation's path (user space, points at scale 1) into a reused path.
    var build: (inout Path) -> Void
}

/// A marker scene drawn the same way by Pinmint and by cairo.
struct BenchScene {
    var name: String
    /// Size in points at scale 1.
    var width: Double, height: Double
    var operations: [BenchOperation]
}

extension BenchScene {
    /// The canvas size at `scale`: the size in points times the scale, rounded up.
    func pixelSize(scale: Double) -> (width: Int, height: Int) {
        (Int((width * scale).rounded(.up)), Int((height * scale).rounded(.up)))
    }

    /// A canvas for drawing a scene; with `fillTolerance`, fills are
    /// flattened at that tolerance (centred, device pixels) and strokes at
    /// half of it, the ratio of the defaults (0.01 and 0.005).
    static func makeCanvas(width: Int, height: Int, fillTolerance: Double?) throws -> Canvas {
        let canvas = try Canvas(width: width, height: height)
        if let fillTolerance {
            canvas.fillFlatteningTolerance = fillTolerance
            canvas.flatteningTolerance = fillTolerance / 2
        }
        return canvas
    }

    /// Draws every operation onto `canvas` (which is not cleared) at `scale`,
    /// building each path into `path`.
    func draw(on canvas: Canvas, scale: Double, path: inout Path) throws {
        let transform = AffineMap.scale(scale)
        for operation in operations {
            path.removeAll()
            operation.build(&path)
            switch operation.kind {
            case .fill(let rule):
                try canvas.fill(path, paint: .solid(operation.color), rule: rule, transform: transform)
            case .stroke(let style):
                try canvas.stroke(path, style: style, paint: .solid(operation.color), transform: transform)
            }
        }
    }
}

/// The marker scenes of the benchmark: the seed markers' shapes, no text.
enum BenchScenes {
    /// Seed 004's bubble: a 200 x 60 body with corners of radius 6 built from
    /// four tangent arcs, and an arrow of height 10 and half-width 10 whose tip
    /// is at (100, 70) in the bubble's frame; placed at (10, 10).
    static func buildCallout(_ path: inout Path) {
        let minX = 10.0, minY = 10.0, maxX = 210.0, maxY = 70.0, midX = 110.0, radius = 6.0
        path.move(to: Point(midX, maxY + 10))
        path.line(to: Point(midX - 10, maxY))
        path.arcTo(tangent1: Point(minX, maxY), tangent2: Point(minX, minY), radius: radius)
        path.arcTo(tangent1: Point(minX, minY), tangent2: Point(maxX, minY), radius: radius)
        path.arcTo(tangent1: Point(maxX, minY), tangent2: Point(maxX, maxY), radius: radius)
        path.arcTo(tangent1: Point(maxX, maxY), tangent2: Point(midX, maxY), radius: radius)
        path.line(to: Point(midX + 10, maxY))
        path.close()
    }

    nonisolated(unsafe) static let all: [BenchScene] = [
        BenchScene(name: "callout", width: 220, height: 90, operations: [
            BenchOperation(kind: .fill(.nonZero), color: Color(red8: 77, green8: 77, blue8: 77, alpha: 0.8),
                           build: buildCallout),
        ]),
        BenchScene(name: "callout-stroked", width: 220, height: 90, operations: [
            BenchOperation(kind: .fill(.nonZero), color: Color(red8: 77, green8: 77, blue8: 77, alpha: 0.8),
                           build: buildCallout),
            BenchOperation(kind: .stroke(StrokeStyle(width: 2, join: .round)), color: .white, build: buildCallout),
        ]),
        // Seed 000: body 100 x 28 (corner 3), badge circle of diameter 20 at (2, 4), pointer under the body.
        BenchScene(name: "price-tag", width: 120, height: 58, operations: [
            BenchOperation(kind: .fill(.nonZero), color: Color(red: 0.208, green: 0.596, blue: 0.859), build: { path in
                path.addRoundedRect(Rect(x: 10, y: 10, width: 100, height: 28), radius: 3)
                path.move(to: Point(50, 38)); path.line(to: Point(60, 48)); path.line(to: Point(70, 38)); path.close()
            }),
            BenchOperation(kind: .fill(.nonZero), color: .white, build: { path in
                path.addCircle(center: Point(22, 24), radius: 10)
            }),
        ]),
        // Seed 002: a teardrop pin, a round head of radius 14 running down to a point, and a white dot.
        BenchScene(name: "pin", width: 48, height: 64, operations: [
            BenchOperation(kind: .fill(.nonZero), color: Color(red8: 231, green8: 76, blue8: 60), build: { path in
                path.move(to: Point(24, 58))
                path.curve(to: Point(10, 24), control1: Point(20, 48), control2: Point(10, 36))
                path.arc(center: Point(24, 24), radius: 14, start: .pi, end: 2 * .pi, clockwise: true)
                path.curve(to: Point(24, 58), control1: Point(38, 36), control2: Point(28, 48))
                path.close()
            }),
            BenchOperation(kind: .fill(.nonZero), color: .white, build: { path in
                path.addCircle(center: Point(24, 24), radius: 6)
            }),
        ]),
        BenchScene(name: "ring", width: 64, height: 64, operations: [
            BenchOperation(kind: .fill(.evenOdd), color: Color(red8: 46, green8: 204, blue8: 113), build: { path in
                path.addCircle(center: Point(32, 32), radius: 26)
                path.addCircle(center: Point(32, 32), radius: 16)
            }),
        ]),
    ]
}
