import Foundation
import PinmintGeometry
import PinmintRaster

/// PNG input through libpng: every colour type (grey, grey+alpha, palette
/// with tRNS, RGB, RGBA), every bit depth (1 to 16) and Adam7 interlacing.
///
/// **Precision.** Sources of up to 8 bits decode to straight RGBA8. 16-bit
/// sources keep all 16 bits (`straightRGBA16`); `straightRGBA8` rounds them
/// to nearest, `(v × 255 + 32767) / 65535`, and `image` premultiplies the
/// 16-bit samples directly, so nothing is lost on the way to a `Canvas`.
///
/// **Colour (browsers are the reference).** Samples are taken as sRGB.
/// An `sRGB` chunk: used as it stands, any gAMA ignored. An `iCCP` chunk:
/// the profile is *not* applied (no colour management here; browsers do
/// apply it, so a non-sRGB profile will look different) and any gAMA is
/// ignored. A `gAMA` chunk alone: colour samples are corrected for a 2.2
/// display, `v' = v^(1 / (gamma × 2.2))` at the source precision, as
/// browsers do; exponents within 0.001 of 1 (gAMA 45455) change nothing.
/// `cHRM` and `sBIT` are ignored.
///
/// **Limits.** Width, height and pixel count are checked from the IHDR
/// before any pixel memory is allocated; ancillary chunks (iCCP, zTXt, ...)
/// may not decompress to more than `maximumChunkBytes`. Image data cannot
/// inflate past the header's size, so a decompression bomb is bounded by
/// the pixel limit.
public enum PNGDecoder {
    /// Limits a decode refuses to exceed. Defaults match `Canvas`.
    public struct Limits: Sendable {
        /// Widest or tallest image accepted, in pixels (default 16384).
        public var maximumSide: Int
        /// Most pixels accepted (default 2^24, 64 MiB as RGBA8).
        public var maximumPixelCount: Int
        /// Most bytes one ancillary chunk may take once decompressed (default 8 MiB, at least 1);
        /// a larger chunk is dropped (with a warning inside libpng), not an error.
        public var maximumChunkBytes: Int

        /// Limits for one decode. The side and pixel-count defaults are the
        /// canvas's own limits, so whatever decodes can be drawn; the chunk
        /// limit defaults to 8 MiB (a value below 1 is taken as 1).
        public init(maximumSide: Int = Canvas.maximumSide, maximumPixelCount: Int = Canvas.maximumPixelCount,
                    maximumChunkBytes: Int = 8 << 20) {
            self.maximumSide = maximumSide
            self.maximumPixelCount = maximumPixelCount
            self.maximumChunkBytes = maximumChunkBytes
        }
    }

    /// A decoded image: straight alpha, rows top to bottom.
    public struct Decoded: Sendable {
        /// Width in pixels, from IHDR.
        public let width: Int
        /// Height in pixels, from IHDR.
        public let height: Int
        /// From IHDR: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
        public let colorType: Int
        /// From IHDR: 1, 2, 4, 8 or 16.
        public let bitDepth: Int
        /// Whether the file is Adam7-interlaced.
        public let interlaced: Bool
        /// Straight-alpha RGBA8, 4 bytes per pixel (16-bit sources rounded to nearest).
        public let straightRGBA8: [UInt8]
        /// Straight-alpha RGBA16 for 16-bit sources, `nil` for sources of up to 8 bits.
        public let straightRGBA16: [UInt16]?
        /// The gAMA chunk's value (e.g. 0.45455), if any.
        public let gamma: Double?
        /// Whether the gAMA value was applied to the samples (see the type's colour policy).
        public let gammaApplied: Bool

        /// The pixels premultiplied at 16 bits per channel, for drawing.
        public var image: Image {
            guard let samples = straightRGBA16 else {
                return Image(width: width, height: height, straightRGBA8: straightRGBA8)
            }
            var pixels = [UInt16](repeating: 0, count: samples.count)
            for index in Swift.stride(from: 0, to: samples.count, by: 4) {
                let alpha = UInt32(samples[index + 3])
                for channel in 0..<3 {
                    pixels[index + channel] = UInt16((UInt32(samples[index + channel]) * alpha + 32767) / 65535)
                }
                pixels[index + 3] = UInt16(alpha)
            }
            return Image(width: width, height: height, premultipliedPixels: pixels)
        }
    }

    /// Decodes PNG bytes; `name` is used in error messages.
    /// - Throws: `PNGError` naming `name` and the problem (not a PNG, damaged
    ///   signature, truncated, CRC error, bad zlib data, over a limit).
    public static func decode(_ bytes: [UInt8], name: String = "memory", limits: Limits = Limits(),
                              applyGamma: Bool = true) throws(PNGError) -> Decoded {
        let raw = try LibPNG.decode(bytes, name: name, maximumSide: limits.maximumSide,
                                    maximumPixelCount: limits.maximumPixelCount,
                                    maximumChunkBytes: limits.maximumChunkBytes, applyGamma: applyGamma)
        var rgba8 = raw.samples8
        var rgba16: [UInt16]? = nil
        if raw.bitDepth == 16 {
            rgba16 = raw.samples16
            rgba8 = raw.samples16.map { UInt8((UInt32($0) * 255 + 32767) / 65535) }
        }
        return Decoded(width: raw.width, height: raw.height, colorType: raw.colorType, bitDepth: raw.bitDepth,
                       interlaced: raw.interlaced, straightRGBA8: rgba8, straightRGBA16: rgba16,
                       gamma: raw.gamma, gammaApplied: raw.gammaApplied)
    }

    /// Decodes PNG bytes with the size limits given directly.
    public static func decode(_ bytes: [UInt8], name: String = "memory", maximumSide: Int,
                              maximumPixelCount: Int = Canvas.maximumPixelCount) throws(PNGError) -> Decoded {
        try decode(bytes, name: name, limits: Limits(maximumSide: maximumSide, maximumPixelCount: maximumPixelCount))
    }

    /// Decodes PNG bytes with a pixel-count limit given directly.
    public static func decode(_ bytes: [UInt8], name: String = "memory", maximumPixelCount: Int) throws(PNGError) -> Decoded {
        try decode(bytes, name: name, limits: Limits(maximumPixelCount: maximumPixelCount))
    }

    /// Reads and decodes a PNG file; `-` reads standard input.
    public static func decode(contentsOfFile path: String, limits: Limits = Limits()) throws(PNGError) -> Decoded {
        try decode(try readFile(path), name: path, limits: limits)
    }

    /// Reads and decodes a PNG file that must be a regular file of at most
    /// `maximumBytes` (marker pictures: `--picture /dev/zero` read 512 MiB
    /// before it was refused).
    public static func decode(regularFile path: String, maximumBytes: Int, limits: Limits) throws(PNGError) -> Decoded {
        try decode(try readFile(path, maximumBytes: maximumBytes, regularFileOnly: true), name: path, limits: limits)
    }

    /// The most bytes `readFile` reads: 512 MiB, more than any PNG within
    /// the pixel limits needs (16,777,216 pixels of 16-bit RGBA, stored).
    public static let maximumFileBytes = 512 << 20

    /// The bytes of a file, or of standard input for `-`; at most
    /// `maximumFileBytes` (a larger file or stream is an error, read no
    /// further). A pipe or device (`png info <(generate)`) is read as a
    /// stream, so `/dev/zero` stops at the limit (see `InputFile`).
    public static func readFile(_ path: String, maximumBytes: Int = maximumFileBytes,
                                regularFileOnly: Bool = false) throws(PNGError) -> [UInt8] {
        let source = path == "-" ? "standard input" : "the file"
        do {
            return try InputFile.read(path, limit: maximumBytes, regularFileOnly: regularFileOnly)
        } catch {
            switch error {
            case .noSuchFile: throw PNGError(file: path, problem: "cannot read the file: no such file")
            case .folder: throw PNGError(file: path, problem: "cannot read the file: it is a folder")
            case .tooLarge(let size?): throw PNGError(file: path, problem: "the file is \(size) bytes; at most \(maximumBytes) are read")
            case .tooLarge(nil): throw PNGError(file: path, problem: "\(source) holds more than \(maximumBytes) bytes; at most that many are read")
            case .unreadable(let reason): throw PNGError(file: path, problem: "cannot read \(source): \(reason)")
            case .notRegularFile(let kind): throw PNGError(file: path, problem: "\(kind), not a file")
            }
        }
    }
}
