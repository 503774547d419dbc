/// A bitmap of premultiplied RGBA pixels, 16 bits per channel (0...65535),
/// rows top to bottom; the format a `Canvas` draws into and samples from.
public struct Image: Sendable {
    /// Width in pixels (0 or more).
    public let width: Int
    /// Height in pixels (0 or more).
    public let height: Int
    /// 4 values per pixel, premultiplied, row-major with no padding.
    public let pixels: [UInt16]

    /// An image from premultiplied 16-bit pixels; `pixels.count` must be
    /// width × height × 4 with neither side negative. That is a
    /// precondition: anything else traps (see the throwing
    /// `init(width:height:checkingPremultipliedPixels:)` for untrusted sizes).
    public init(width: Int, height: Int, premultipliedPixels pixels: [UInt16]) {
        // A checked stop, with a message that says which sizes.
        guard Image.valueCount(width: width, height: height) == pixels.count else {
            fatalError("pixel count \(pixels.count) does not match size \(width)x\(height)")
        }
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// As `init(width:height:premultipliedPixels:)`, but throws
    /// `RasterError.invalidSize` instead of trapping when a side is negative
    /// or `pixels.count` is not width × height × 4 (sizes whose product
    /// overflows included).
    public init(width: Int, height: Int, checkingPremultipliedPixels pixels: [UInt16]) throws(RasterError) {
        try Image.checkCount(width: width, height: height, count: pixels.count)
        self.init(width: width, height: height, premultipliedPixels: pixels)
    }

    /// As `init(width:height:straightRGBA8:)`, but throws
    /// `RasterError.invalidSize` instead of trapping when a side is negative
    /// or `bytes.count` is not width × height × 4.
    public init(width: Int, height: Int, checkingStraightRGBA8 bytes: [UInt8]) throws(RasterError) {
        try Image.checkCount(width: width, height: height, count: bytes.count)
        self.init(width: width, height: height, straightRGBA8: bytes)
    }

    /// width × height × 4 (the values of an image, or the bytes of an RGBA8
    /// one), or nil when a side is negative or the product overflows an Int:
    /// the one size check every pixel buffer of the package uses.
    public static func valueCount(width: Int, height: Int) -> Int? {
        guard width >= 0, height >= 0 else { return nil }
        let (area, areaOverflows) = width.multipliedReportingOverflow(by: height)
        let (count, countOverflows) = area.multipliedReportingOverflow(by: 4)
        return areaOverflows || countOverflows ? nil : count
    }

    static func checkCount(width: Int, height: Int, count: Int) throws(RasterError) {
        guard width >= 0, height >= 0 else {
            throw .invalidSize(width: width, height: height, reason: "an image's sides may not be negative")
        }
        guard valueCount(width: width, height: height) == count else {
            throw .invalidSize(width: width, height: height,
                               reason: "\(count) values given; an image needs width × height × 4")
        }
    }

    /// An image from straight-alpha RGBA8 bytes (what PNG decoders give);
    /// `bytes.count` must be width × height × 4 (a precondition, as for
    /// `init(width:height:premultipliedPixels:)`; see `init(width:height:checkingStraightRGBA8:)`).
    public init(width: Int, height: Int, straightRGBA8 bytes: [UInt8]) {
        guard Image.valueCount(width: width, height: height) == bytes.count else {
            fatalError("byte count \(bytes.count) does not match size \(width)x\(height)")
        }
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
