import Glibc
import PinmintGeometry
@testable import PinmintRaster
import Testing

struct ColorParsingTests {
    @Test(arguments: [
        ("#3598DB", [0x35, 0x98, 0xDB, 255]), ("#fff", [255, 255, 255, 255]), ("#0f08", [0, 255, 0, 136]),
        ("#11223380", [0x11, 0x22, 0x33, 128]), ("rgb(77, 77, 77)", [77, 77, 77, 255]),
        ("rgba(77,77,77,0.8)", [77, 77, 77, 204]), ("rgb(100% 0% 50% / 50%)", [255, 0, 128, 128]),
        ("RebeccaPurple", [0x66, 0x33, 0x99, 255]), ("transparent", [0, 0, 0, 0]), (" red ", [255, 0, 0, 255]),
        ("#ABCDEF", [0xAB, 0xCD, 0xEF, 255]), ("#AbC", [0xAA, 0xBB, 0xCC, 255]), (" #fff", [255, 255, 255, 255]),
    ])
    func parses(_ text: String, _ expected: [Int]) throws {
        let color = try Color(parsing: text)
        let bytes = [color.red, color.green, color.blue, color.alpha].map { Int(($0 * 255).rounded()) }
        #expect(bytes == expected)
    }

    @Test(arguments: ["#12", "#12345", "#ggg", "#12345g", "#+12", "rgb(1,2)", "rgb(a,b,c)", "hsl(1,2,3)", "notacolour", ""])
    func refuses(_ text: String) {
        #expect(throws: ColorError.self) { try Color(parsing: text) }
    }
}

struct PaintTests {
    func square(_ size: Double) -> Path {
        var path = Path()
        path.addRect(Rect(x: 0, y: 0, width: size, height: size))
        return path
    }

    @Test func linearGradientIsEvaluatedAtPixelCentres() throws {
        let canvas = try Canvas(width: 100, height: 1)
        let gradient = LinearGradient(start: Point(0, 0), end: Point(100, 0),
                                      stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)])
        try canvas.fill(square(100), paint: .linearGradient(gradient))
        for x in [0, 10, 49, 99] {
            let expected = (Double(x) + 0.5) / 100
            #expect(abs(canvas.pixel(x: x, y: 0).red - expected) < 1e-4)
        }
    }

    @Test(arguments: [(SpreadMethod.pad, 1.0), (.repeat, 0.25), (.reflect, 0.75)])
    func spreadMethods(_ spread: SpreadMethod, _ expected: Double) throws {
        let canvas = try Canvas(width: 100, height: 1)
        let gradient = LinearGradient(start: Point(0, 0), end: Point(40, 0),
                                      stops: [GradientStop(offset: 0, color: .black), GradientStop(offset: 1, color: .white)],
                                      spread: spread)
        try canvas.fill(square(100), paint: .linearGradient(gradient))
        // x = 49.5 is t = 1.2375.
        let t = 49.5 / 40
        let value: Double
        switch spread {
        case .pad: value = 1
        case .repeat: value = t - 1
        case .reflect: value = 2 - t
        }
        #expect(abs(canvas.pixel(x: 49, y: 0).red - value) < 1e-4)
        _ = expected
    }

    @Test func radialGradientRunsFromCentreToRadius() throws {
        let canvas = try Canvas(width: 41, height: 41)
        let gradient = RadialGradient(center: Point(20.5, 20.5), radius: 20,
                                      stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: .black)])
        try canvas.fill(square(41), paint: .radialGradient(gradient))
        #expect(canvas.pixel(x: 20, y: 20).red > 0.99)
        #expect(abs(canvas.pixel(x: 30, y: 20).red - 0.5) < 1e-3)
        #expect(canvas.pixel(x: 0, y: 20).red < 1e-3)
    }

    @Test func imagePatternSamplesBilinearly() throws {
        let image = Image(width: 2, height: 1, straightRGBA8: [0, 0, 0, 255, 255, 255, 255, 255])
        let canvas = try Canvas(width: 4, height: 1)
        // Scale the 2x1 image to 4x1: pixel centres at 0.5..3.5 map to image x 0.25..1.75.
        try canvas.fill(square(4), paint: .image(ImagePattern(image: image, transform: .scale(2, 1))))
        #expect(canvas.pixel(x: 0, y: 0).red < 1e-3)          // clamped inside the first texel's half
        #expect(abs(canvas.pixel(x: 1, y: 0).red - 0.25) < 1e-3)
        #expect(abs(canvas.pixel(x: 2, y: 0).red - 0.75) < 1e-3)
    }

    @Test func clipsNestAndAntiAlias() throws {
        let canvas = try Canvas(width: 20, height: 20)
        var left = Path(); left.addRect(Rect(x: 0, y: 0, width: 10.5, height: 20))
        var top = Path(); top.addRect(Rect(x: 0, y: 0, width: 20, height: 10))
        try canvas.pushClip(left)
        try canvas.pushClip(top)
        try canvas.fill(square(20), paint: .solid(.black))
        try canvas.popClip()
        try canvas.popClip()
        #expect(canvas.pixel(x: 5, y: 5).alpha == 1)
        #expect(abs(canvas.pixel(x: 10, y: 5).alpha - 0.5) < 1e-3)
        #expect(canvas.pixel(x: 5, y: 15).alpha == 0)
        #expect(canvas.pixel(x: 15, y: 5).alpha == 0)
        #expect(throws: RasterError.self) { try canvas.popClip() }
    }

    @Test func groupOpacityCompositesTheLayerOnce() throws {
        let canvas = try Canvas(width: 10, height: 10)
        try canvas.beginLayer()
        try canvas.fill(square(10), paint: .solid(.black))
        try canvas.fill(square(10), paint: .solid(.black))
        try canvas.endLayer(opacity: 0.5)
        #expect(abs(canvas.pixel(x: 5, y: 5).alpha - 0.5) < 1e-4)
        #expect(throws: RasterError.self) { try canvas.endLayer() }
    }

    @Test(arguments: [BlendMode.copy, .clear])
    func copyAndClear(_ blend: BlendMode) throws {
        let canvas = try Canvas(width: 4, height: 4)
        canvas.clear(.white)
        try canvas.fill(square(4), paint: .solid(Color.black.withOpacity(0.5)), blend: blend)
        let pixel = canvas.pixel(x: 1, y: 1)
        if blend == .copy { #expect(abs(pixel.alpha - 0.5) < 1e-4 && pixel.red < 1e-4) } else { #expect(pixel.alpha == 0) }
    }

    @Test func shadowIsAGaussianOfTheShape() throws {
        // A half-plane edge blurred by a Gaussian of sigma s: alpha at distance d is Φ(-d/s).
        let canvas = try Canvas(width: 80, height: 10)
        var half = Path(); half.addRect(Rect(x: -100, y: -100, width: 140, height: 300))
        // Only the shadow shows: the shape lies outside the clip.
        var right = Path(); right.addRect(Rect(x: 40, y: 0, width: 40, height: 10))
        try canvas.pushClip(right)
        try canvas.fill(half, paint: .solid(.black), shadow: Shadow(color: .black, blurRadius: 4))
        try canvas.popClip()
        let sigma = 4.0
        for x in [40, 43, 47, 52] {
            let distance = Double(x) + 0.5 - 40
            let expected = 0.5 * erfc(distance / (sigma * 2.0.squareRoot()))
            #expect(abs(canvas.pixel(x: x, y: 5).alpha - expected) < 0.01, "x = \(x)")
        }
    }

    @Test func gaussianKernelSumsToOne() {
        for sigma in [0.3, 1, 3, 9.5] {
            let kernel = GaussianBlur.kernel(sigma: sigma)
            #expect(abs(kernel.reduce(0, +) - 1) < 1e-5)
            #expect(kernel.count % 2 == 1)
        }
    }
}

struct ShadowOpacityTests {
    /// Regression: the shadow moved the shape's points by its offset and
    /// back, which need not give them again (0.1 + 0.7 − 0.7 is not 0.1), so
    /// the shape was drawn from other points than those validated against
    /// the canvas. The points must come out of a shadowed fill as they went in.
    @Test func aShadowLeavesTheShapesPointsAsTheyWere() throws {
        let canvas = try Canvas(width: 20, height: 20)
        var shape = Path()
        shape.move(to: Point(0.1, 0.1)); shape.line(to: Point(19.9, 0.3)); shape.line(to: Point(10.1, 19.7)); shape.close()
        try canvas.fill(shape, paint: .solid(.black), shadow: Shadow(color: .black, offset: Point(0.7, 0.7), blurRadius: 0))
        var expected = Polylines()
        shape.flatten(tolerance: canvas.fillFlatteningTolerance, centred: true, into: &expected)
        #expect(canvas.polylines.points == expected.points)
        #expect(0.1 + 0.7 - 0.7 != 0.1)
    }


    /// Regression: seed 004's translucent bubble must cast a shadow of its own alpha, not of full coverage.
    @Test func translucentFillCastsALighterShadow() throws {
        let canvas = try Canvas(width: 60, height: 20)
        var shape = Path(); shape.addRect(Rect(x: -100, y: -100, width: 130, height: 300))
        var right = Path(); right.addRect(Rect(x: 30, y: 0, width: 30, height: 20))
        try canvas.pushClip(right)
        try canvas.fill(shape, paint: .solid(Color.black.withOpacity(0.5)), shadow: Shadow(color: .black, blurRadius: 2))
        try canvas.popClip()
        // Just right of the edge, a full-alpha shape's shadow is about 0.4; half alpha gives about 0.2.
        let expected = 0.5 * 0.5 * erfc(0.5 / (2 * 2.0.squareRoot()))
        #expect(abs(canvas.pixel(x: 30, y: 10).alpha - expected) < 0.01)
    }
}
