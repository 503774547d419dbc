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
