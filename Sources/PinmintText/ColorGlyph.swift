import PinmintGeometry
import PinmintRaster

/// A colour glyph (an emoji) at one pixel size: a picture, not an outline.
/// Drawn as it is, whatever the text's colour; only the text's opacity
/// applies. Its pixels come from FreeType's colour loading (FT_LOAD_COLOR):
/// a CBDT strike (Noto Color Emoji's is 109 px per em) scaled to the
/// layout's size by `Image.resampled` (area averaging when shrinking, the
/// common case; bilinear when enlarging), or the COLR layers FreeType
/// painted at that size.
public struct ColorGlyph: Sendable {
    /// The glyph at the layout's pixel size, premultiplied 16-bit RGBA.
    public let image: Image
    /// The image's top-left corner from the glyph origin, whole device
    /// pixels, y down (`top` is negative above the baseline).
    public let left: Int, top: Int
    /// Device pixels per image pixel: 1, except past `maximumPixelsPerEm`,
    /// where the image is made at that em and drawn enlarged (bilinear).
    public let scale: Double

    /// The largest em, in pixels, a picture is made at (256): a 512 pt
    /// label at @4x would otherwise keep a 2555 × 2400 picture (47 MiB)
    /// per emoji, from a 136 × 128 strike.
    public static let maximumPixelsPerEm = 256.0

    /// Where the image lies, device pixels from the glyph origin, y down.
    public var bounds: Rect {
        Rect(x: Double(left), y: Double(top), width: Double(image.width) * scale, height: Double(image.height) * scale)
    }

    /// `bitmap` scaled from its own em (`pixelsPerEm`) to `pixelSize`: its
    /// edges land exactly where the scale puts them (the image grows by the
    /// fractions at its sides), so the glyph keeps its proportions.
    init(_ bitmap: FreeTypeColorBitmap, pixelSize: Double) {
        var pixels = [UInt16](repeating: 0, count: bitmap.premultipliedRGBA.count)
        for index in pixels.indices { pixels[index] = UInt16(bitmap.premultipliedRGBA[index]) * 257 }
        let source = Image(width: bitmap.width, height: bitmap.height, premultipliedPixels: pixels)
        let pictureEm = min(pixelSize, ColorGlyph.maximumPixelsPerEm)
        scale = pixelSize / pictureEm
        let toPicture = pictureEm / bitmap.pixelsPerEm
        let pictureLeft: Int, pictureTop: Int
        if abs(toPicture - 1) <= 1e-9 {
            image = source
            pictureLeft = bitmap.left
            pictureTop = -bitmap.top
        } else {
            let minX = Double(bitmap.left) * toPicture, minY = -Double(bitmap.top) * toPicture
            let maxX = minX + Double(bitmap.width) * toPicture, maxY = minY + Double(bitmap.height) * toPicture
            // Scaled edges within 1/64 px of a whole pixel count as on it (no sliver of a column).
            func down(_ value: Double) -> Int { Int((value + 1.0 / 64).rounded(.down)) }
            func up(_ value: Double) -> Int { Int((value - 1.0 / 64).rounded(.up)) }
            pictureLeft = down(minX)
            pictureTop = down(minY)
            image = source.resampled(scale: toPicture, offset: Point(minX - Double(pictureLeft), minY - Double(pictureTop)),
                                     width: max(1, up(maxX) - pictureLeft), height: max(1, up(maxY) - pictureTop))
        }
        left = Int((Double(pictureLeft) * scale).rounded())
        top = Int((Double(pictureTop) * scale).rounded())
    }

    /// What `halo(radius:color:)` costs, in the canvas's work units
    /// (`Canvas.defaultWorkLimit`): two a pixel and disc offset.
    func haloWork(radius: Double) -> Int {
        let margin = Int(min(radius, 1e6).rounded(.up)), side = 2 * margin + 1
        return (image.width + 2 * margin) * (image.height + 2 * margin) * side * side * 2
    }

    /// A halo `radius` image pixels wide around the glyph's alpha, in
    /// `color`: each pixel takes the strongest alpha within `radius` of it,
    /// fading over the last pixel (a disc dilation, the raster analogue of
    /// the round-joined stroke that outline glyphs get). The image is
    /// `radius` (rounded up) larger on every side: its top-left corner is at
    /// (`left` - that, `top` - that) from the glyph origin.
    func halo(radius: Double, color: Color) -> (image: Image, margin: Int) {
        let margin = Int(radius.rounded(.up))
        let width = image.width + 2 * margin, height = image.height + 2 * margin
        var alpha = [Float](repeating: 0, count: image.width * image.height)
        for index in alpha.indices { alpha[index] = Float(image.pixels[index * 4 + 3]) / 65535 }
        var pixels = [UInt16](repeating: 0, count: width * height * 4)
        let straight = SIMD4<Float>(Float(color.red), Float(color.green), Float(color.blue), 1) * Float(color.alpha) * 65535
        for y in 0..<height {
            for x in 0..<width {
                var strongest: Float = 0
                for dy in -margin...margin {
                    let sourceY = y - margin + dy
                    guard sourceY >= 0, sourceY < image.height else { continue }
                    for dx in -margin...margin {
                        let sourceX = x - margin + dx
                        guard sourceX >= 0, sourceX < image.width else { continue }
                        let reach = Float(radius + 0.5 - Double(dx * dx + dy * dy).squareRoot())
                        guard reach > 0 else { continue }
                        strongest = max(strongest, alpha[sourceY * image.width + sourceX] * min(1, reach))
                    }
                }
                let pixel = (straight * strongest).rounded(.toNearestOrAwayFromZero)
                let index = (y * width + x) * 4
                pixels[index] = UInt16(pixel.x); pixels[index + 1] = UInt16(pixel.y)
                pixels[index + 2] = UInt16(pixel.z); pixels[index + 3] = UInt16(pixel.w)
            }
        }
        return (Image(width: width, height: height, premultipliedPixels: pixels), margin)
    }
}
