// Foundation first, then every Pinmint module: the file compiles only while
// no Pinmint type a user writes unqualified collides with Foundation's (on
// Linux, Foundation declares `AffineTransform`, which is why Pinmint's
// transform is `AffineMap`) or with another Pinmint module's.
import Foundation
import PinmintDiff
import PinmintGeometry
import PinmintMarkers
import PinmintPNG
import PinmintRaster
import PinmintSVG
import PinmintSprites
import PinmintTesting
import PinmintText
import Testing

struct UnqualifiedNamesTests {
    @Test func theCommonTypesNeedNoModulePrefixBesideFoundation() throws {
        let size: Size = Size(width: 8, height: 6)
        let rect: Rect = Rect(origin: Point(1, 1), size: size)
        var path: Path = Path()
        path.addRect(rect)
        let transform: AffineMap = AffineMap.identity.concatenating(.translation(1, 0))
        let point: Point = transform.apply(Point(1, 1))
        #expect(point == Point(2, 1))

        let canvas: Canvas = try Canvas(width: 12, height: 10)
        let color: Color = try Color(parsing: "#ff0000")
        try canvas.fill(path, paint: .solid(color), transform: transform)
        let image: Image = canvas.makeImage()
        #expect(image.width == 12)
        // The rectangle covers x 2..<10, y 1..<7 after the shift.
        let pixels = image.straightRGBA8()
        #expect(Array(pixels[(3 * 12 + 5) * 4..<(3 * 12 + 5) * 4 + 4]) == [255, 0, 0, 255])
        #expect(Array(pixels[0..<4]) == [0, 0, 0, 0])
    }
}
