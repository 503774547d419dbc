import Foundation
@testable import PinmintRaster
import Testing

/// The difference-based blur against the plain separable convolution it
/// replaces (zero outside the buffer), on flat shapes and on noise.
@Suite struct GaussianBlurTests {
    /// Direct convolution, rows then columns, in Double.
    static func reference(_ input: [Float], width: Int, height: Int, sigma: Double) -> [Double] {
        let weights = GaussianBlur.kernel(sigma: sigma).map(Double.init)
        let radius = weights.count / 2
        var rows = [Double](repeating: 0, count: input.count), result = rows
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for k in -radius...radius where x + k >= 0 && x + k < width { sum += weights[k + radius] * Double(input[y * width + x + k]) }
                rows[y * width + x] = sum
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for k in -radius...radius where y + k >= 0 && y + k < height { sum += weights[k + radius] * rows[(y + k) * width + x] }
                result[y * width + x] = sum
            }
        }
        return result
    }

    static func shapes(width: Int, height: Int, seed: UInt64) -> [[Float]] {
        var flat = [Float](repeating: 0, count: width * height)
        for y in 8..<(height - 10) { for x in 5..<(width - 7) { flat[y * width + x] = 1 } }
        for y in 8..<(height - 10) { flat[y * width + 4] = 0.37; flat[y * width + width - 7] = 0.61 }
        var state = seed
        let noise = (0..<(width * height)).map { _ -> Float in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
        return [flat, noise, [Float](repeating: 0.25, count: width * height)]
    }

    @Test(arguments: [0.4, 1.0, 3.0, 6.0, 9.0])
    func matchesTheDirectConvolution(sigma: Double) {
        let width = 53, height = 41
        for input in GaussianBlurTests.shapes(width: width, height: height, seed: UInt64(sigma * 100)) {
            var values = input
            var scratch = [Float](repeating: 0, count: input.count)
            values.withUnsafeMutableBufferPointer { v in
                scratch.withUnsafeMutableBufferPointer { s in
                    GaussianBlur.blur(v.baseAddress!, width: width, height: height, sigma: sigma, scratch: s.baseAddress!)
                }
            }
            let expected = GaussianBlurTests.reference(input, width: width, height: height, sigma: sigma)
            let worst = zip(values, expected).map { abs(Double($0) - $1) }.max() ?? 0
            // Well under one 16-bit step (1.5e-5).
            #expect(worst < 2e-6, "sigma \(sigma): worst difference \(worst)")
        }
    }
}
