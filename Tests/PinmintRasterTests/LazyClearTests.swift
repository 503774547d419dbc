import PinmintGeometry
@testable import PinmintRaster
import Testing

/// Lazy clearing (stale rows zeroed only where a drawing does not store over
/// them) against a fresh canvas: after `clear()`, a canvas must hold exactly
/// what a new one would.
struct LazyClearTests {
    static func ring(center: Point, outer: Double, inner: Double) -> Path {
        var path = Path()
        path.addCircle(center: center, radius: outer)
        path.addCircle(center: center, radius: inner)
        return path
    }

    @Test(arguments: [0.5, 1.0])
    func clearedCanvasMatchesAFreshOne(_ alpha: Double) throws {
        let color = Color(red: 0.2, green: 0.6, blue: 0.9, alpha: alpha)
        let reused = try Canvas(width: 80, height: 60)
        // Something wide and opaque first, so stale rows hold garbage everywhere.
        var wide = Path()
        wide.addRoundedRect(Rect(x: 1.5, y: 2.25, width: 77, height: 50), radius: 4)
        try reused.fill(wide, paint: .solid(.white))
        reused.clear()
        let ring = LazyClearTests.ring(center: Point(40.3, 30.7), outer: 25.2, inner: 12.6)
        try reused.fill(ring, paint: .solid(color), rule: .evenOdd)
        try reused.fill(ring, paint: .solid(color), rule: .nonZero, transform: .scale(0.5))

        let fresh = try Canvas(width: 80, height: 60)
        try fresh.fill(ring, paint: .solid(color), rule: .evenOdd)
        try fresh.fill(ring, paint: .solid(color), rule: .nonZero, transform: .scale(0.5))
        #expect(reused.makeImage().pixels == fresh.makeImage().pixels)
        #expect(reused.pixel(x: 1, y: 1) == fresh.pixel(x: 1, y: 1))
    }
}

/// Solid fills written straight from the rasterizer (`Canvas.SolidRowWriter`)
/// against the reference: the same fills composited from each row's span list.
struct SolidRowWriterTests {
    /// What the canvas holds before the fill: nothing, stale rows left by a
    /// wider shape and `clear()`, or opaque and translucent pixels to blend over.
    enum Background: CaseIterable { case fresh, staleAfterClear, drawnOver }

    static func render(directly: Bool, background: Background, alpha: Double, rule: FillRule) throws -> [UInt16] {
        let canvas = try Canvas(width: 90, height: 70)
        canvas.writesSolidRowsDirectly = directly
        var wide = Path()
        wide.addRoundedRect(Rect(x: 0.5, y: 1.25, width: 89, height: 60), radius: 5)
        var narrow = Path()
        narrow.addRect(Rect(x: 30.5, y: 20.5, width: 10, height: 40))
        switch background {
        case .fresh: break
        case .staleAfterClear:
            try canvas.fill(wide, paint: .solid(.white))
            canvas.clear()
        case .drawnOver:
            try canvas.fill(wide, paint: .solid(Color(red: 0.9, green: 0.1, blue: 0.3, alpha: 0.6)))
            try canvas.fill(narrow, paint: .solid(.white))
        }
        let ring = LazyClearTests.ring(center: Point(45.3, 33.7), outer: 28.2, inner: 12.6)
        let color = Color(red: 0.2, green: 0.6, blue: 0.9, alpha: alpha)
        try canvas.fill(ring, paint: .solid(color), rule: rule)
        // A second shape whose rows start partly drawn, and one reaching past the right side.
        try canvas.fill(narrow, paint: .solid(color), rule: rule, transform: .translation(25.25, -9.5))
        try canvas.fill(ring, paint: .solid(color), rule: rule, transform: .translation(60.5, 0.25))
        return canvas.makeImage().pixels
    }

    @Test(arguments: Background.allCases, [0.45, 1.0])
    func directWritesMatchSpanListCompositing(_ background: Background, _ alpha: Double) throws {
        for rule in FillRule.allCases {
            let direct = try SolidRowWriterTests.render(directly: true, background: background, alpha: alpha, rule: rule)
            let reference = try SolidRowWriterTests.render(directly: false, background: background, alpha: alpha, rule: rule)
            #expect(direct == reference, "\(background), alpha \(alpha), \(rule)")
        }
    }
}
