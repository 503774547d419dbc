/// Signed distance fields for recolourable icons (`"sdf": true` in a sprite
/// index), with Mapbox's and MapLibre's conventions: the alpha channel holds
/// 255 − 255 × (distance ÷ radius + cutoff), so the outline sits at 191.25
/// (inside ≥ 192) with cutoff 0.25; the radius is 8 pixels × the pixel
/// ratio, and the image grows by a transparent buffer of 3 pixels × the
/// ratio on each side, so the field has room to fall off (as spritezero
/// and spreet do). Colour channels are black; maps read alpha only.
///
/// Distances are exact Euclidean distances (P. Felzenszwalb and D.
/// Huttenlocher, "Distance Transforms of Sampled Functions", 2012), taken
/// from anti-aliased coverage as TinySDF does: a pixel of coverage c is
/// treated as an edge 0.5 − c pixels outside (or c − 0.5 inside) its
/// centre, so soft edges keep their sub-pixel position.
public enum SignedDistanceField {
    /// Where inside ends: 0.25 of the range sits outside the outline.
    public static let cutoff = 0.25
    /// The radius in pixels at @1x; times the pixel ratio.
    public static let radiusAtOneX = 8.0
    /// The buffer in pixels at @1x; times the pixel ratio.
    public static let bufferAtOneX = 3.0

    /// The pixel ratios the buffer and radius follow: a ratio outside them
    /// is clamped to them (NaN, zero and negative ratios count as 1).
    public static let pixelRatioRange = 0.25...64.0

    /// `image` as a distance field, buffered on every side; its metadata
    /// (content, stretch zones) moves with the buffer and `sdf` is set.
    /// The buffer and radius use the image's pixel ratio clamped to
    /// `pixelRatioRange`; pixels `image.pixels` lacks (its properties are
    /// settable) shrink it as `field` says (`clampedSize`).
    public static func make(from image: SpriteImage) -> SpriteImage {
        let ratio = image.pixelRatio.isFinite && image.pixelRatio > 0
            ? min(max(image.pixelRatio, pixelRatioRange.lowerBound), pixelRatioRange.upperBound) : 1
        let buffer = Int((bufferAtOneX * ratio).rounded(.up))
        let radius = radiusAtOneX * ratio
        let alpha = field(alpha: image.pixels, width: image.width, height: image.height, buffer: buffer, radius: radius)
        let size = clampedSize(width: image.width, height: image.height, byteCount: image.pixels.count)
        let width = size.width + 2 * buffer, height = size.height + 2 * buffer
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) { pixels[index * 4 + 3] = alpha[index] }
        var metadata = image.metadata.offsetBy(dx: buffer, dy: buffer)
        metadata.sdf = true
        return SpriteImage(id: image.id, width: width, height: height, pixels: pixels, pixelRatio: image.pixelRatio,
                           metadata: metadata, source: image.source)
    }

    /// The size `field` works with for `byteCount` bytes of RGBA8 pixels:
    /// negative sides as 0, the width at most the pixels held, the height at
    /// most the whole rows held. Equal to (width, height) for consistent input.
    public static func clampedSize(width: Int, height: Int, byteCount: Int) -> (width: Int, height: Int) {
        let clampedWidth = min(max(width, 0), byteCount / 4)
        return (clampedWidth, clampedWidth == 0 ? 0 : min(max(height, 0), byteCount / 4 / clampedWidth))
    }

    /// The largest `buffer` `field` uses; larger ones are clamped to it.
    public static let maximumBuffer = 1024

    /// The field's alpha values for straight RGBA8 `pixels`, (width + 2 × buffer) × (height + 2 × buffer).
    ///
    /// `pixels` should hold width × height × 4 bytes. Careless input is
    /// clamped, never trapped on (see `clampedSize`): a negative side or
    /// buffer counts as 0, a buffer over `maximumBuffer` as `maximumBuffer`,
    /// and the sides shrink to what `pixels` holds.
    public static func field(alpha pixels: [UInt8], width: Int, height: Int, buffer: Int, radius: Double) -> [UInt8] {
        let buffer = min(max(buffer, 0), maximumBuffer)
        let (width, height) = clampedSize(width: width, height: height, byteCount: pixels.count)
        let gridWidth = width + 2 * buffer, gridHeight = height + 2 * buffer
        let count = gridWidth * gridHeight
        // Squared distance to the nearest outside point (outer) and inside point (inner).
        var outer = [Double](repeating: infinity, count: count)
        var inner = [Double](repeating: 0, count: count)
        for y in 0..<height {
            for x in 0..<width {
                let coverage = Double(pixels[(y * width + x) * 4 + 3]) / 255
                let cell = (y + buffer) * gridWidth + x + buffer
                if coverage == 1 {
                    outer[cell] = 0; inner[cell] = infinity
                } else if coverage > 0 {
                    let outside = max(0, 0.5 - coverage), inside = max(0, coverage - 0.5)
                    outer[cell] = outside * outside; inner[cell] = inside * inside
                }
            }
        }
        transform(&outer, width: gridWidth, height: gridHeight)
        transform(&inner, width: gridWidth, height: gridHeight)
        var alpha = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            let distance = outer[index].squareRoot() - inner[index].squareRoot()
            let value = (255 - 255 * (distance / radius + cutoff)).rounded()
            alpha[index] = UInt8(min(255, max(0, value)))
        }
        return alpha
    }

    private static let infinity = 1e20

    /// The 2-D squared distance transform: the 1-D one down every column, then along every row.
    static func transform(_ grid: inout [Double], width: Int, height: Int) {
        let longest = max(width, height)
        var values = [Double](repeating: 0, count: longest)
        var parabolas = [Int](repeating: 0, count: longest)
        var boundaries = [Double](repeating: 0, count: longest + 1)
        grid.withUnsafeMutableBufferPointer { cells in
            for x in 0..<width {
                transform1D(cells, offset: x, stride: width, length: height, &values, &parabolas, &boundaries)
            }
            for y in 0..<height {
                transform1D(cells, offset: y * width, stride: 1, length: width, &values, &parabolas, &boundaries)
            }
        }
    }

    /// Felzenszwalb–Huttenlocher: the lower envelope of the parabolas rooted at each sample.
    private static func transform1D(_ grid: UnsafeMutableBufferPointer<Double>, offset: Int, stride: Int, length: Int,
                                    _ values: inout [Double], _ parabolas: inout [Int], _ boundaries: inout [Double]) {
        guard length > 0 else { return }
        parabolas[0] = 0
        boundaries[0] = -infinity
        boundaries[1] = infinity
        values[0] = grid[offset]
        var rightmost = 0
        for q in 1..<length {
            values[q] = grid[offset + q * stride]
            let q2 = Double(q * q)
            var intersection: Double
            repeat {
                let root = parabolas[rightmost]
                intersection = (values[q] - values[root] + q2 - Double(root * root)) / Double(2 * (q - root))
                if intersection <= boundaries[rightmost] { rightmost -= 1 } else { break }
            } while rightmost >= 0
            rightmost += 1
            parabolas[rightmost] = q
            boundaries[rightmost] = intersection
            boundaries[rightmost + 1] = infinity
        }
        var segment = 0
        for q in 0..<length {
            while boundaries[segment + 1] < Double(q) { segment += 1 }
            let root = parabolas[segment], offsetFromRoot = Double(q - root)
            grid[offset + q * stride] = values[root] + offsetFromRoot * offsetFromRoot
        }
    }
}
