import Foundation
import PinmintPNG
import PinmintSprites
import Testing

/// Careless or hostile values passed to packing and distance fields: a
/// `SpriteError` or a documented clamp, never a trap or a read past an array.
struct HostileSpriteInputTests {
    static func opaque(_ id: String, _ width: Int = 2, _ height: Int = 2, ratio: Double = 1) -> SpriteImage {
        SpriteImage(id: id, width: width, height: height, pixels: [UInt8](repeating: 255, count: width * height * 4),
                    pixelRatio: ratio)
    }

    /// `SpriteImage`'s properties are settable past its initialiser's check.
    @Test(arguments: [(1000, 2, 16), (2, 2, 0), (2, -2, 16), (Int.max, 2, 16), (1 << 40, 1 << 40, 16)])
    func anImageWhosePixelsDoNotMatchItsSizeIsRefused(_ width: Int, _ height: Int, _ byteCount: Int) {
        var image = Self.opaque("a")
        image.width = width
        image.height = height
        image.pixels = [UInt8](repeating: 255, count: byteCount)
        #expect(throws: SpriteError.self) { try SpriteSheet.pack([image, Self.opaque("b")]) }
    }

    @Test(arguments: [-1, 65, Int.max, Int.min])
    func aSpacingOutside0To64IsRefused(_ spacing: Int) {
        #expect(throws: SpriteError.self) { try SpriteSheet.pack([Self.opaque("a"), Self.opaque("b")], spacing: spacing) }
    }

    @Test(arguments: [Double.nan, 0, -1, .infinity])
    func aPixelRatioThatIsNotPositiveAndFiniteIsRefused(_ ratio: Double) {
        #expect(throws: SpriteError.self) { try SpriteSheet.pack([Self.opaque("a", ratio: ratio)]) }
    }

    @Test(arguments: [Double.nan, 0, -10, 1e300, .infinity])
    func aDistanceFieldClampsItsPixelRatio(_ ratio: Double) {
        let field = SignedDistanceField.make(from: Self.opaque("a", ratio: ratio))
        let clamped = ratio.isFinite && ratio > 0 ? min(max(ratio, 0.25), 64) : 1
        let buffer = Int((SignedDistanceField.bufferAtOneX * clamped).rounded(.up))
        #expect(field.width == 2 + 2 * buffer && field.pixels.count == field.width * field.height * 4)
    }

    @Test func aDistanceFieldShrinksToThePixelsItHas() {
        var image = Self.opaque("a")
        image.width = 50
        let field = SignedDistanceField.make(from: image)
        #expect(field.pixels.count == field.width * field.height * 4)
        #expect(SignedDistanceField.field(alpha: [1, 2, 3], width: 5, height: 5, buffer: -1, radius: .nan).isEmpty)
        #expect(SignedDistanceField.field(alpha: [UInt8](repeating: 255, count: 16), width: 2, height: 2,
                                          buffer: Int.max, radius: 8).count == 2050 * 2050)
        #expect(SignedDistanceField.clampedSize(width: 2, height: 2, byteCount: 16) == (2, 2))
        #expect(SignedDistanceField.clampedSize(width: -3, height: 7, byteCount: 16) == (0, 0))
    }

    /// A PNG without an @R file beside it is resampled: its size times the ratio became an Int.
    @Test(arguments: [Double.nan, .infinity, 1e300, 0, -2, 100])
    func renderingAtARatioOutOfRangeThrows(_ ratio: Double) throws {
        let folder = NSTemporaryDirectory() + "pinmint-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/dot.png"
        try PNGEncoder.writeAtomically(try PNGEncoder.encode(straightRGBA8: [UInt8](repeating: 255, count: 16), width: 2, height: 2),
                                       to: file)
        let inputs = try SpriteInputs(paths: [file])
        #expect(throws: SpriteError.self) { try inputs.render(ratio: ratio) }
        #expect(try inputs.render(ratio: 2).first?.width == 4)
    }
}
