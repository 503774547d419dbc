@testable import PinmintRaster
import PinmintGeometry
import Testing

/// The vectorised compositing kernels against the one-channel-at-a-time formula.
struct CompositingKernelTests {
    @Test(arguments: [0, 1, 2, 3, 7, 64, 101], [UInt32(0), 1, 13107, 40000, 65535, 65536])
    func blendRunMatchesTheScalarFormula(_ count: Int, _ keepFixed: UInt32) {
        var random = SpanTests.SplitMix(state: UInt64(count) &* 31 &+ UInt64(keepFixed))
        let source: (UInt16, UInt16, UInt16, UInt16) = (1234, 0, 65535 - UInt16(keepFixed >> 1), 4321)
        let sourceLanes = [source.0, source.1, source.2, source.3]
        // One guard pixel after the run must stay untouched.
        var pixels = (0..<(count + 1) * 4).map { _ in UInt16.random(in: 0...UInt16.max, using: &random) }
        let expected = pixels.enumerated().map { index, value -> UInt16 in
            guard index < count * 4 else { return value }
            return UInt16(truncatingIfNeeded: UInt32(sourceLanes[index % 4]) &+ ((UInt32(value) &* keepFixed) >> 16))
        }
        pixels.withUnsafeMutableBufferPointer { buffer in
            Canvas.blendRun(buffer.baseAddress!, count: count, source: source, keepFixed: keepFixed)
        }
        #expect(pixels == expected)
    }

    /// `fillRun` (blocks of sixteen and eight pixels, pairs, a single one)
    /// against storing the pixel once per position; the guard pixels around
    /// the run stay untouched.
    @Test(arguments: Array(0...40) + [63, 64, 65, 200, 661])
    func fillRunMatchesOneStorePerPixel(_ count: Int) {
        let pixel: (UInt16, UInt16, UInt16, UInt16) = (1, 2000, 65535, 40000)
        let guardValue: UInt16 = 7
        var pixels = [UInt16](repeating: guardValue, count: (count + 2) * 4)
        var expected = pixels
        for index in 4..<(count + 1) * 4 { expected[index] = [pixel.0, pixel.1, pixel.2, pixel.3][index % 4] }
        pixels.withUnsafeMutableBufferPointer { buffer in
            Canvas.fillRun(buffer.baseAddress! + 4, count: count, packed: Canvas.pack(pixel))
        }
        #expect(pixels == expected)
    }

    /// A constant-coverage span (which blends each run of equal destination
    /// pixels once) against the per-pixel kernel given that coverage per pixel.
    @Test(arguments: [Float(0.25), 0.99999994, 1, 1.0000001], [BlendMode.sourceOver, .copy, .clear])
    func constantSpanMatchesPerPixelCoverage(_ coverage: Float, _ blend: BlendMode) {
        var random = SpanTests.SplitMix(state: UInt64(coverage.bitPattern))
        let count = 40
        // Runs of equal pixels and single ones.
        var destination: [UInt16] = []
        while destination.count < count * 4 {
            let pixel = (0..<4).map { _ in UInt16.random(in: 0...UInt16.max, using: &random) }
            for _ in 0..<Int.random(in: 1...6, using: &random) { destination += pixel }
        }
        destination = Array(destination.prefix(count * 4))
        let color = SIMD4<Float>(30000.5, 1000.25, 65535 * 0.8, 65535 * 0.8)
        let source = Canvas.SolidSource(color: color, blend: blend)
        var expected = destination, actual = destination
        let coverages = [Float](repeating: coverage, count: count)
        expected.withUnsafeMutableBufferPointer { pixels in
            coverages.withUnsafeBufferPointer { values in
                Canvas.compositeSolid(row: pixels.baseAddress!, coverage: values, mask: nil, source: source,
                                      overTransparent: false)
            }
        }
        actual.withUnsafeMutableBufferPointer { pixels in
            Canvas.compositeSolid(row: pixels.baseAddress!, count: count, coverage: coverage, mask: nil, source: source,
                                  overTransparent: false)
        }
        #expect(actual == expected)
    }

    /// The stores over a transparent row (which read no destination) against
    /// the blending kernels run over a row of zeros, for coverage in 0...1
    /// (what the rasterizer and masks produce; the stores take no branch
    /// per pixel and do not clamp).
    @Test(arguments: [BlendMode.sourceOver, .copy], [Float(0.8), 1])
    func storesOverTransparentMatchBlendingOverZeros(_ blend: BlendMode, _ alpha: Float) {
        let color = SIMD4<Float>(30000.5, 1000.25, 65535 * 0.7, 65535 * alpha)
        let source = Canvas.SolidSource(color: color, blend: blend)
        let coverages: [Float] = [0, 0x1p-24, 0x1p-21, 0x1p-20, 1e-5, 0.25, 0.5, 0.99999994, 1, 1, 0.125, 0.75, 0.3]
        let count = coverages.count
        var expected = [UInt16](repeating: 0, count: count * 4)
        var actual = [UInt16](repeating: 0xBEEF, count: count * 4)
        expected.withUnsafeMutableBufferPointer { pixels in
            coverages.withUnsafeBufferPointer { values in
                Canvas.compositeSolid(row: pixels.baseAddress!, coverage: values, mask: nil, source: source,
                                      overTransparent: true)
            }
        }
        actual.withUnsafeMutableBufferPointer { pixels in
            source.storeOverTransparent(pixels.baseAddress!, coverage: coverages, count: count)
        }
        #expect(actual == expected)
        for coverage in coverages where coverage > 0 {
            var blended = [UInt16](repeating: 0, count: 12), filled = [UInt16](repeating: 0xBEEF, count: 12)
            blended.withUnsafeMutableBufferPointer { pixels in
                Canvas.compositeSolid(row: pixels.baseAddress!, count: 3, coverage: coverage, mask: nil, source: source,
                                      overTransparent: true)
            }
            filled.withUnsafeMutableBufferPointer { pixels in
                Canvas.fillRun(pixels.baseAddress!, count: 3, packed: source.packedOverTransparent(coverage))
            }
            #expect(filled == blended, "coverage \(coverage)")
        }
    }

    /// `blendOver` (branch-free, two pixels a step, for an opaque colour;
    /// per pixel otherwise) against the per-pixel kernel over drawn pixels,
    /// with coverage 0, 1 and in between, odd and even counts; a guard pixel
    /// after the span stays untouched. Alpha 1.000001: a colour whose alpha
    /// was set past 1 by hand stores its runs but must not blend branch-free.
    @Test(arguments: [1, 2, 3, 16, 33], [Float(1), 0.8, 1.000001])
    func blendOverMatchesThePerPixelKernel(_ count: Int, _ alpha: Float) {
        var random = SpanTests.SplitMix(state: UInt64(count) &* 7919 &+ UInt64(alpha.bitPattern))
        // Opaque premultiplied destinations and translucent ones.
        var destination: [UInt16] = []
        for _ in 0...count {
            let a = UInt16.random(in: 0...UInt16.max, using: &random)
            destination += [UInt16.random(in: 0...a, using: &random), UInt16.random(in: 0...a, using: &random),
                            UInt16.random(in: 0...a, using: &random), a]
        }
        let choices: [Float] = [0, 1, 0x1p-21, 1e-5, 0.25, 0.5, 0.99999994]
        let coverages = (0..<count).map { _ in
            Bool.random(using: &random) ? choices.randomElement(using: &random)! : Float.random(in: 0...1, using: &random)
        }
        let color = SIMD4<Float>(30000.5 * alpha, 1000.25 * alpha, 65535 * 0.7 * alpha, 65535 * alpha)
        let source = Canvas.SolidSource(color: color, blend: .sourceOver)
        var expected = destination, actual = destination
        expected.withUnsafeMutableBufferPointer { pixels in
            coverages.withUnsafeBufferPointer { values in
                Canvas.compositeSolid(row: pixels.baseAddress!, coverage: values, mask: nil, source: source,
                                      overTransparent: false)
            }
        }
        actual.withUnsafeMutableBufferPointer { pixels in
            source.blendOver(pixels.baseAddress!, coverage: coverages, count: count)
        }
        #expect(actual == expected)
    }

    /// A colour whose alpha field was set past 1 by hand (the initialisers
    /// clamp it) stores its runs, but its alpha scale is a hair above 1: its
    /// fully covered pixels over white must still be the run colour, through
    /// the row writer and through a mask (found in review: the branch-free
    /// blend once keyed on storing runs and gave red 1000 for 1001).
    @Test func alphaPastOneStillStoresFullPixels() throws {
        var color = Color(red: 0, green: 0, blue: 0)
        color.alpha = 1.000001
        color.red = 1000.5 / (1.000001 * 65535)
        // Two full runs per row: a mask stores the longest as a run and
        // blends the other's pixels one by one.
        var path = Path()
        path.addRect(Rect(x: 2, y: 0, width: 8, height: 4))
        path.addRect(Rect(x: 14, y: 0, width: 16, height: 4))
        let filled = try Canvas(width: 32, height: 4)
        filled.clear(.white)
        try filled.fill(path, paint: .solid(color))
        let masked = try Canvas(width: 32, height: 4)
        masked.clear(.white)
        try masked.fill(mask: try masked.makeCoverageMask(path), x: 0, y: 0, color: color)
        let run = Canvas.SolidSource(color: Canvas.premultipliedFloat(color, opacity: 1), blend: .sourceOver).stored
        for canvas in [filled, masked] {
            for x in [5, 20] {
                let pixel = canvas.layers[0].row(1) + x * 4
                #expect((pixel[0], pixel[3]) == (run.0, run.3), "x \(x)")
            }
        }
    }

    /// Zeroing a few pixels (direct stores) or more (memset) touches exactly those pixels.
    @Test(arguments: [1, 2, 3, 4, 5, 9])
    func zeroingPixelsStopsAtTheCount(_ count: Int) {
        var pixels = [UInt16](repeating: 0xBEEF, count: (count + 2) * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in PixelBuffer.zero(buffer.baseAddress! + 4, count: count) }
        let expected = [UInt16](repeating: 0xBEEF, count: 4) + [UInt16](repeating: 0, count: count * 4)
            + [UInt16](repeating: 0xBEEF, count: 4)
        #expect(pixels == expected)
    }
}
