import PinmintGeometry
import PinmintRaster
import Testing

/// `Image.resampled`: area averaging when shrinking, bilinear sampling when
/// enlarging, transparent outside the source.
@Suite struct ImageResamplingTests {
    /// `rows` equal rows of grey, opaque pixels (premultiplied: grey ≤ alpha).
    static func rows(_ greys: [UInt16], count: Int) -> Image {
        let row: [UInt16] = greys.flatMap { [$0, $0, $0, 65535] }
        let pixels: [UInt16] = Array(repeating: row, count: count).flatMap { $0 }
        return Image(width: greys.count, height: count, premultipliedPixels: pixels)
    }

    static func greys(_ image: Image) -> [UInt16] { stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] } }
    static func alphas(_ image: Image) -> [UInt16] { stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] } }

    @Test(arguments: [
        // Scale 1 by a whole pixel: a copy, moved.
        ([100, 200, 300], 1.0, 1.0, 4, [0, 100, 200, 300], [0, 65535, 65535, 65535]),
        // Halving: each target pixel the mean of two.
        ([0, 1000, 3000, 5000], 0.5, 0.0, 2, [500, 4000], [65535, 65535]),
        // A third: three to one, the rest transparent.
        ([300, 600, 900], 1.0 / 3, 0.0, 2, [600, 0], [65535, 0]),
        // Shrinking by half, moved half a target pixel: the first pixel half covered.
        ([1000, 1000, 1000, 1000], 0.5, 0.5, 3, [500, 1000, 500], [32768, 65535, 32768]),
        // Doubling: bilinear at target centres (source -0.25, 0.25, 0.75, 1.25), transparent outside.
        ([0, 4000], 2.0, 0.0, 4, [0, 1000, 3000, 3000], [49151, 65535, 65535, 49151]),
    ] as [([UInt16], Double, Double, Int, [UInt16], [UInt16])])
    func resamplesOneRow(source: [UInt16], scale: Double, offset: Double, width: Int, greys: [UInt16], alphas: [UInt16]) {
        // Vertically, one target row made whole: as many source rows as it
        // averages (shrinking), or its centre on the one source row's (enlarging).
        let count = scale < 1 ? Int((1 / scale).rounded()) : 1
        let offsetY = scale < 1 ? 0 : 0.5 - 0.5 * scale
        let image = Self.rows(source, count: count).resampled(scale: scale, offset: Point(offset, offsetY), width: width, height: 1)
        #expect(Self.greys(image) == greys)
        #expect(Self.alphas(image) == alphas)
    }

    /// An opaque colour stays that colour wherever a target pixel lies wholly over the source, at any scale.
    @Test(arguments: [0.22, 0.5, 0.9, 1.7])
    func uniformColorSurvivesScaling(scale: Double) {
        let source = Image(width: 20, height: 20, premultipliedPixels: Array(repeating: [60000, 30000, 1000, 65535], count: 400).flatMap { $0 })
        let size = Int((20 * scale).rounded(.down))
        let image = source.resampled(scale: scale, offset: Point(0, 0), width: size, height: size)
        for y in 1..<(size - 1) {
            for x in 1..<(size - 1) {
                let index = (y * size + x) * 4
                #expect(Array(image.pixels[index..<index + 4]) == [60000, 30000, 1000, 65535], "(\(x), \(y)) at scale \(scale)")
            }
        }
    }
}
