/// A bitmap of premultiplied RGBA pixels, 16 bits per channel (0...65535),
/// rows top to bottom; the format a `Canvas` draws into and samples from.
public struct Image: Sendable {
    public let width: Int
    public let height: Int
    /// 4 values per pixel, premultiplied, row-major with no padding.
    public let pixels: [UInt16]

    /// An image from premultiplied 16-bit pixels; `pixels.count` must be width × height × 4.
    public init(width: Int, height: Int, premultipliedPixels pixels: [UInt16]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "pixel count does not match size")
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// An image from straight-alpha RGBA8 bytes (what PNG decoders give).
    public init(width: Int, height: Int, straightRGBA8 bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0 && bytes.count == width * height * 4, "byte count does not match size")
        var pixels = [UInt16](repeating: 0, count: bytes.count)
        for index in Swift.stride(from: 0, to: bytes.count, by: 4) {
            let alpha = UInt32(bytes[index + 3])
            for channel in 0..<3 {
                // c * a / 255 scaled to 16 bits: c * a * 65535 / 65025 = c * a * 257 / 255.
                pixels[index + channel] = UInt16((UInt32(bytes[index + channel]) * alpha * 257 + 127) / 255)
            }
            pixels[index + 3] = UInt16(alpha * 257)
        }
        self.init(width: width, height: height, premultipliedPixels: pixels)
    }

    /// Straight-alpha RGBA8 bytes, each channel rounded to nearest; fully
    /// transparent pixels become (0, 0, 0, 0). This is what PNG files store.
    public func straightRGBA8() -> [UInt8] {
        pixels.withUnsafeBufferPointer { Image.straightRGBA8($0) }
    }

    /// `straightRGBA8()` of premultiplied 16-bit pixels in memory (a canvas's own buffer).
    static func straightRGBA8(_ source: UnsafeBufferPointer<UInt16>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: source.count)
        bytes.withUnsafeMutableBufferPointer { target in
            var index = 0
            while index < source.count {
                let alpha = UInt32(source[index + 3])
                if alpha == 65535 {
                    // Opaque (most of a marker): the same rounding with a constant divisor,
                    // which the compiler turns into a multiplication.
                    for channel in 0..<3 {
                        target[index + channel] = UInt8(min((UInt32(source[index + channel]) * 510 + 65535) / 131070, 255))
                    }
                    target[index + 3] = 255
                } else if alpha != 0 {
                    // Exact rounding of c / a * 255 for the colour, a / 257 for alpha.
                    for channel in 0..<3 {
                        let value = (UInt32(source[index + channel]) * 255 * 2 + alpha) / (2 * alpha)
                        target[index + channel] = UInt8(min(value, 255))
                    }
                    target[index + 3] = UInt8((alpha * 2 + 257) / 514)
                }
                index += 4
            }
        }
        return bytes
    }
}
