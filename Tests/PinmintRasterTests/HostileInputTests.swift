import PinmintGeometry
import PinmintRaster
import Testing

/// Careless or hostile values passed to the raster API: each throws
/// `RasterError` or is clamped as documented, never traps.
struct HostileInputTests {
    static func square() -> Path { var path = Path(); path.addRect(Rect(x: 1, y: 1, width: 8, height: 8)); return path }

    /// `Color`'s components are settable past the clamping initialiser.
    static let outOfRangeColors: [(red: Double, alpha: Double)] = [
        (5, 3), (-5, -3), (1e300, 0.5), (.nan, 1), (0.5, .nan), (0.5, 1.0001), (.infinity, -.infinity),
    ]

    @Test(arguments: outOfRangeColors)
    func colorsSetOutOfRangeDrawClamped(_ components: (red: Double, alpha: Double)) throws {
        var color = Color.black
        color.red = components.red
        color.alpha = components.alpha
        let expected = color.clamped
        #expect((0...1).contains(expected.red) && (0...1).contains(expected.alpha))
        for opacity in [1.0, 0.5] {
            let canvas = try Canvas(width: 10, height: 10)
            try canvas.fill(Self.square(), paint: .solid(color), opacity: opacity)
            try canvas.fill(Self.square(), paint: .linearGradient(LinearGradient(
                start: .zero, end: Point(10, 0), stops: [GradientStop(offset: 0, color: color), GradientStop(offset: 1, color: .white)])))
            try canvas.fill(Self.square(), paint: .solid(.black), shadow: Shadow(color: color, blurRadius: 1))
            let mask = try canvas.makeCoverageMask(Self.square())
            try canvas.fill(mask: mask, x: 0, y: 0, color: color)
        }
        let cleared = try Canvas(width: 2, height: 2)
        cleared.clear(color)
        #expect(abs(cleared.pixel(x: 0, y: 0).alpha - expected.alpha) < 1e-4)
        #expect(color.description.count >= 7)
    }

    @Test func theClampingInitialiserTakesNaNAsZero() {
        let color = Color(red: .nan, green: 2, blue: -1, alpha: .nan)
        #expect(color == Color(red: 0, green: 1, blue: 0, alpha: 0))
        #expect(Color(red: .nan, green: 0, blue: 0).description == "#000000")
    }

    @Test(arguments: [Int.max, Int.min, Int.max - 3, Int.min + 1, 1 << 62, -(1 << 62)])
    func aMaskMovedAnyDistanceDrawsNothing(_ offset: Int) throws {
        let canvas = try Canvas(width: 10, height: 10)
        let mask = try canvas.makeCoverageMask(Self.square())
        try canvas.fill(mask: mask, x: offset, y: 0, color: .black)
        try canvas.fill(mask: mask, x: 0, y: offset, color: .black)
        try canvas.fill(mask: mask, x: offset, y: offset, color: .black)
        #expect(canvas.makeImage().pixels.allSatisfy { $0 == 0 })
        // A mask moved within reach still draws.
        try canvas.fill(mask: mask, x: -2, y: -2, color: .black)
        #expect(canvas.pixel(x: 3, y: 3).alpha == 1)
    }

    @Test(arguments: [
        Shadow(blurRadius: 1e300), Shadow(blurRadius: 1e7), Shadow(offset: Point(-1e300, 1e300), blurRadius: -5),
        Shadow(offset: Point(1e7, 0), blurRadius: 0),
    ])
    func aShadowReachingTooFarIsRefused(_ shadow: Shadow) throws {
        let canvas = try Canvas(width: 10, height: 10)
        #expect(throws: RasterError.self) { try canvas.fill(Self.square(), paint: .solid(.black), shadow: shadow) }
        #expect(canvas.makeImage().pixels.allSatisfy { $0 == 0 })
    }

    @Test func aShadowOffsetWithinReachIsStillDrawn() throws {
        let canvas = try Canvas(width: 10, height: 10)
        try canvas.fill(Self.square(), paint: .solid(.black), shadow: Shadow(offset: Point(1e5, 0), blurRadius: 1))
        #expect(canvas.pixel(x: 5, y: 5).alpha == 1)
    }

    @Test func theCheckingImageInitialisersThrowInsteadOfTrapping() throws {
        #expect(throws: RasterError.self) { try Image(width: 2, height: 2, checkingPremultipliedPixels: [1, 2]) }
        #expect(throws: RasterError.self) { try Image(width: -1, height: -4, checkingPremultipliedPixels: [1, 2, 3, 4]) }
        #expect(throws: RasterError.self) { try Image(width: 1 << 40, height: 1 << 40, checkingPremultipliedPixels: []) }
        #expect(throws: RasterError.self) { try Image(width: 1 << 62, height: 2, checkingStraightRGBA8: []) }
        let image = try Image(width: 1, height: 1, checkingStraightRGBA8: [255, 0, 0, 255])
        #expect(image.pixels == [65535, 0, 0, 65535])
        #expect(try Image(width: 0, height: 5, checkingPremultipliedPixels: []).width == 0)
    }

    /// Short to describe, gigabytes once stroked: each vertex of the zigzag is
    /// a half turn, a half disc of points at this width (was 3 GB, then a crash).
    @Test func aStrokeOfMillionsOfPointsIsRefused() throws {
        var zigzag = Path()
        zigzag.move(to: .zero)
        for index in 0..<100_000 { zigzag.line(to: Point(Double(index % 2) * 20, Double(index) * 0.001)) }
        let canvas = try Canvas(width: 100, height: 100)
        #expect(throws: RasterError.self) {
            try canvas.stroke(zigzag, style: StrokeStyle(width: 1000, cap: .round, join: .round), paint: .solid(.black))
        }
        var line = Path()
        line.move(to: .zero)
        line.line(to: Point(100_000, 0))
        #expect(throws: RasterError.self) {
            try canvas.stroke(line, style: StrokeStyle(width: 1000, cap: .round, dashes: [0, 0.1]), paint: .solid(.black))
        }
        #expect(canvas.makeImage().pixels.allSatisfy { $0 == 0 })
    }

    @Test func aFillOfMillionsOfPointsIsRefused() throws {
        var path = Path()
        path.move(to: .zero)
        for index in 0..<100_000 {
            path.curve(to: Point(Double(index % 100), 0), control1: Point(-1e5, 1e5), control2: Point(1e5, 1e5))
        }
        let canvas = try Canvas(width: 100, height: 100)
        #expect(throws: RasterError.self) { try canvas.fill(path, paint: .solid(.black)) }
        #expect(throws: RasterError.self) { try canvas.pushClip(path) }
        #expect(throws: RasterError.self) { try canvas.makeCoverageMask(path) }
    }

    @Test(arguments: [Int.min, -5, 0])
    func aWorkLimitOfZeroOrLessRefusesEveryDrawing(_ limit: Int) throws {
        let canvas = try Canvas(width: 10, height: 10)
        try canvas.fill(Self.square(), paint: .solid(.black))
        canvas.workLimit = limit
        #expect(throws: RasterError.self) { try canvas.fill(Self.square(), paint: .solid(.white)) }
        #expect(canvas.pixel(x: 5, y: 5) == .black)
    }
}
