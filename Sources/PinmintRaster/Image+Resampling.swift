import PinmintGeometry

/// Scaling a picture by a factor into a new image on the pixel grid, for
/// pictures drawn at many sizes from one source (a colour emoji's 109 px
/// strike drawn at 24 px): shrinking averages areas, a box filter over the
/// exact overlap of each target pixel with the source pixels (as the
/// markers' `ImageResampling` does for photos), so that no source pixel is
/// skipped; enlarging samples bilinearly at target pixel centres (as
/// `ImagePattern` paint does). Both work in premultiplied space, so
/// transparent pixels do not darken edges, and both are separable: rows
/// first, then columns.
extension Image {
    /// This image scaled by `scale` on both axes and moved by `offset`
    /// (target pixels), into a transparent image `width` × `height`: a
    /// source pixel edge at u lands at u × `scale` + `offset.x` (the same
    /// for y). Area averaging when `scale` < 1, bilinear sampling otherwise;
    /// outside the source is transparent. A scale that is not positive and
    /// finite, a non-finite offset or an empty source gives a transparent
    /// image; negative sizes count as 0.
    public func resampled(scale: Double, offset: Point, width: Int, height: Int) -> Image {
        let width = max(0, width), height = max(0, height)
        var pixels = [UInt16](repeating: 0, count: width * height * 4)
        guard scale.isFinite, scale > 0, offset.isFinite, self.width > 0, self.height > 0, width > 0, height > 0 else {
            return Image(width: width, height: height, premultipliedPixels: pixels)
        }
        let columns = Image.taps(sourceCount: self.width, targetCount: width, scale: scale, offset: offset.x)
        let rows = Image.taps(sourceCount: self.height, targetCount: height, scale: scale, offset: offset.y)
        // Rows first: every source row resampled to the target width.
        var across = [SIMD4<Float>](repeating: .zero, count: width * self.height)
        self.pixels.withUnsafeBufferPointer { source in
            for y in 0..<self.height {
                let sourceRow = y * self.width
                for x in 0..<width {
                    var sum = SIMD4<Float>.zero
                    for tap in columns[x] {
                        let index = (sourceRow + tap.index) * 4
                        sum += SIMD4<Float>(Float(source[index]), Float(source[index + 1]), Float(source[index + 2]),
                                            Float(source[index + 3])) * tap.weight
                    }
                    across[y * width + x] = sum
                }
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                var sum = SIMD4<Float>.zero
                for tap in rows[y] { sum += across[tap.index * width + x] * tap.weight }
                let rounded = (sum.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 65535))).rounded(.toNearestOrAwayFromZero)
                let index = (y * width + x) * 4
                pixels[index] = UInt16(rounded.x); pixels[index + 1] = UInt16(rounded.y)
                pixels[index + 2] = UInt16(rounded.z); pixels[index + 3] = UInt16(rounded.w)
            }
        }
        return Image(width: width, height: height, premultipliedPixels: pixels)
    }

    /// One source pixel's share of a target pixel.
    struct ResamplingTap { let index: Int; let weight: Float }

    /// For each target pixel along one axis, the source pixels it takes and
    /// their weights (see `resampled`). Weights sum to 1 where the target
    /// pixel lies wholly over the source, less at its edges.
    static func taps(sourceCount: Int, targetCount: Int, scale: Double, offset: Double) -> [[ResamplingTap]] {
        (0..<targetCount).map { target in
            var taps: [ResamplingTap] = []
            if scale < 1 {
                // The target pixel's extent in source pixels, and its overlap with each.
                let start = (Double(target) - offset) / scale, end = (Double(target + 1) - offset) / scale
                var index = max(0, Int(start.rounded(.down)))
                while index < sourceCount, Double(index) < end {
                    let overlap = min(end, Double(index + 1)) - max(start, Double(index))
                    if overlap > 0 { taps.append(ResamplingTap(index: index, weight: Float(overlap * scale))) }
                    index += 1
                }
            } else {
                // The target pixel's centre in source pixels, between two source centres.
                let centre = (Double(target) + 0.5 - offset) / scale - 0.5
                let below = centre.rounded(.down), fraction = centre - below
                let first = Int(below)
                if first >= 0, first < sourceCount, fraction < 1 { taps.append(ResamplingTap(index: first, weight: Float(1 - fraction))) }
                if first + 1 >= 0, first + 1 < sourceCount, fraction > 0 { taps.append(ResamplingTap(index: first + 1, weight: Float(fraction))) }
            }
            return taps
        }
    }
}
