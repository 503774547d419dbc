/// The channel-by-channel difference of two images of one size, in 8-bit
/// units: the largest difference of one channel of one pixel, the mean over
/// every channel of every pixel, and how many pixels have a channel over a
/// limit. Straight values, or premultiplied as `ReferenceDifference` takes
/// them (it measures with this, so the two agree to the last bit).
public struct ChannelDifference: Sendable, Equatable, CustomStringConvertible {
    /// The largest difference of one channel of one pixel (0...255).
    public var maximum: Double
    /// The mean difference over every channel of every pixel (0...255; 0 for an empty image).
    public var mean: Double
    /// Pixels with some channel differing by more than the limit measured against.
    public var pixelsOverLimit: Int
    /// The difference image when one was asked for (see `measure`).
    public var diffImage: RGBA8Image?

    /// "max M, mean N".
    public var description: String { "max \(formatLevel(maximum)), mean \(formatLevel(mean))" }

    /// Measures `actual` against `expected` (same size: a precondition).
    ///
    /// - Parameters:
    ///   - alpha: straight or premultiplied values.
    ///   - limit: a pixel counts in `pixelsOverLimit` when one of its channels differs by more (8-bit units).
    ///   - makesDiffImage: also draw an opaque image of the same size: the
    ///     expected image in light grey (as pixelmatch draws its background,
    ///     at opacity 0.1), pixels over `limit` red, pixels that differ
    ///     within it yellow.
    public static func measure(expected: RGBA8Image, actual: RGBA8Image, alpha: GoldenTolerance.ChannelAlpha,
                               limit: Double = 0, makesDiffImage: Bool = false) -> ChannelDifference {
        precondition(expected.width == actual.width && expected.height == actual.height,
                     "images of \(expected.width)x\(expected.height) and \(actual.width)x\(actual.height)")
        let count = expected.pixelCount
        var maximum = 0.0, total = 0.0, over = 0
        var output = makesDiffImage ? [UInt8](repeating: 0, count: count * 4) : []
        expected.pixels.withUnsafeBufferPointer { expectedPixels in
            actual.pixels.withUnsafeBufferPointer { actualPixels in
                for pixel in 0..<count {
                    let index = pixel * 4
                    var pixelMaximum = 0.0
                    switch alpha {
                    case .straight:
                        for channel in 0..<4 {
                            let difference = Double(abs(Int(actualPixels[index + channel]) - Int(expectedPixels[index + channel])))
                            pixelMaximum = max(pixelMaximum, difference)
                            total += difference
                        }
                    case .premultiplied:
                        let actualAlpha = Double(actualPixels[index + 3]) / 255
                        let expectedAlpha = Double(expectedPixels[index + 3]) / 255
                        for channel in 0..<4 {
                            let a = channel == 3 ? Double(actualPixels[index + 3]) : Double(actualPixels[index + channel]) * actualAlpha
                            let e = channel == 3 ? Double(expectedPixels[index + 3])
                                : Double(expectedPixels[index + channel]) * expectedAlpha
                            let difference = abs(a - e)
                            pixelMaximum = max(pixelMaximum, difference)
                            total += difference
                        }
                    }
                    maximum = max(maximum, pixelMaximum)
                    if pixelMaximum > limit { over += 1 }
                    guard makesDiffImage else { continue }
                    if pixelMaximum > limit {
                        output[index] = 255
                    } else if pixelMaximum > 0 {
                        output[index] = 255; output[index + 1] = 255
                    } else {
                        // pixelmatch's drawGrayPixel: luma, blended towards white by 0.1 × the pixel's alpha.
                        let red = Double(expectedPixels[index]), green = Double(expectedPixels[index + 1])
                        let blue = Double(expectedPixels[index + 2])
                        let luma = red * 0.29889531 + green * 0.58662247 + blue * 0.11448223
                        let grey = 255 + (luma - 255) * 0.1 * Double(expectedPixels[index + 3]) / 255
                        let level = UInt8(max(0, min(255, grey.rounded())))
                        output[index] = level; output[index + 1] = level; output[index + 2] = level
                    }
                    output[index + 3] = 255
                }
            }
        }
        return ChannelDifference(
            maximum: maximum, mean: count == 0 ? 0 : total / Double(count * 4), pixelsOverLimit: over,
            diffImage: makesDiffImage ? RGBA8Image(width: expected.width, height: expected.height, pixels: output) : nil)
    }
}
