import PinmintGeometry
import PinmintRaster

/// Shrinking pictures before they are sampled. Bilinear sampling reads 4
/// pixels per output pixel, so a 512-pixel avatar drawn 64 pixels wide
/// would skip most of its pixels and shimmer; an area average to the drawn
/// size first (a box filter over exact pixel overlaps, in premultiplied
/// space so that transparent pixels do not darken edges) keeps every
/// source pixel's share.
enum ImageResampling {
    /// `image` itself, or when `transform` shrinks it below 3/4, a copy
    /// averaged down to about the drawn size.
    static func prepared(_ image: Image, drawnWith transform: AffineMap) -> Image {
        let (width, height) = drawnSize(image, drawnWith: transform)
        guard width * 4 < image.width * 3 || height * 4 < image.height * 3 else { return image }
        return areaAverage(image, width: min(width, image.width), height: min(height, image.height))
    }

    /// The size in device pixels `image` takes when drawn with `transform`.
    static func drawnSize(_ image: Image, drawnWith transform: AffineMap) -> (width: Int, height: Int) {
        let scaleX = (transform.a * transform.a + transform.b * transform.b).squareRoot()
        let scaleY = (transform.c * transform.c + transform.d * transform.d).squareRoot()
        return (max(1, Int((Double(image.width) * scaleX).rounded(.up))), max(1, Int((Double(image.height) * scaleY).rounded(.up))))
    }

    /// Each target pixel is the mean of the source area it covers, partial
    /// source pixels weighted by their overlap.
    static func areaAverage(_ image: Image, width: Int, height: Int) -> Image {
        let horizontal = weights(from: image.width, to: width), vertical = weights(from: image.height, to: height)
        // Rows first (width shrinks), then columns, in Double for exact sums.
        var rows = [Double](repeating: 0, count: width * image.height * 4)
        image.pixels.withUnsafeBufferPointer { source in
            for y in 0..<image.height {
                for (x, taps) in horizontal.enumerated() {
                    var sum = (0.0, 0.0, 0.0, 0.0)
                    for (sourceX, weight) in taps {
                        let i = (y * image.width + sourceX) * 4
                        sum.0 += Double(source[i]) * weight; sum.1 += Double(source[i + 1]) * weight
                        sum.2 += Double(source[i + 2]) * weight; sum.3 += Double(source[i + 3]) * weight
                    }
                    let o = (y * width + x) * 4
                    rows[o] = sum.0; rows[o + 1] = sum.1; rows[o + 2] = sum.2; rows[o + 3] = sum.3
                }
            }
        }
        var pixels = [UInt16](repeating: 0, count: width * height * 4)
        for (y, taps) in vertical.enumerated() {
            for x in 0..<width {
                for channel in 0..<4 {
                    var sum = 0.0
                    for (sourceY, weight) in taps { sum += rows[(sourceY * width + x) * 4 + channel] * weight }
                    pixels[(y * width + x) * 4 + channel] = UInt16(min(65535, max(0, sum.rounded())))
                }
            }
        }
        return Image(width: width, height: height, premultipliedPixels: pixels)
    }

    /// For each target index, the source indices it covers and their
    /// weights (summing to 1).
    private static func weights(from sourceCount: Int, to targetCount: Int) -> [[(Int, Double)]] {
        let ratio = Double(sourceCount) / Double(targetCount)
        return (0..<targetCount).map { target in
            let start = Double(target) * ratio, end = Double(target + 1) * ratio
            var taps: [(Int, Double)] = []
            var index = Int(start)
            while Double(index) < end, index < sourceCount {
                let overlap = min(end, Double(index + 1)) - max(start, Double(index))
                if overlap > 0 { taps.append((index, overlap / ratio)) }
                index += 1
            }
            return taps
        }
    }
}
