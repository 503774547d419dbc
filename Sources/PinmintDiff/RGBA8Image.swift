import PinmintPNG
import PinmintRaster

/// A bitmap of **straight (non-premultiplied)** RGBA pixels, 8 bits per
/// channel, rows top to bottom with no padding: what PNG files store and what
/// pixelmatch compares.
///
/// Limits: the same as `Canvas` (16384 pixels a side, 16,777,216 pixels),
/// which is also what `PNGDecoder` accepts by default.
public struct RGBA8Image: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// 4 bytes per pixel (red, green, blue, alpha), straight alpha, row-major.
    public let pixels: [UInt8]

    /// An image from straight-alpha RGBA8 bytes; `pixels.count` must be
    /// width × height × 4 with neither side negative. That is a
    /// precondition: anything else traps (see the throwing
    /// `init(width:height:checkingPixels:)` for untrusted sizes).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(Image.valueCount(width: width, height: height) == pixels.count,
                     "byte count \(pixels.count) does not match size \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// As `init(width:height:pixels:)`, but throws `DiffError.invalidOption`
    /// instead of trapping when a side is negative or `pixels.count` is not
    /// width × height × 4 (sizes whose product overflows included).
    public init(width: Int, height: Int, checkingPixels pixels: [UInt8]) throws(DiffError) {
        guard Image.valueCount(width: width, height: height) == pixels.count else {
            throw .invalidOption("image of \(width)x\(height) pixels: \(pixels.count) bytes given, "
                                 + "width × height × 4 (and no negative side) needed")
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// What a canvas holds, un-premultiplied and rounded to 8 bits as a PNG would store it.
    public init(_ canvas: Canvas) {
        self.init(width: canvas.width, height: canvas.height, pixels: canvas.straightRGBA8())
    }

    /// A decoded PNG's 8-bit straight pixels (16-bit sources rounded to nearest by the decoder).
    public init(_ decoded: PNGDecoder.Decoded) {
        self.init(width: decoded.width, height: decoded.height, pixels: decoded.straightRGBA8)
    }

    /// Reads and decodes a PNG file ("-" reads standard input).
    ///
    /// - Throws: `PNGError` naming the file: unreadable, not a PNG, corrupt, over the size limits.
    public init(contentsOfFile path: String) throws(PNGError) {
        self.init(try PNGDecoder.decode(contentsOfFile: path))
    }

    /// Number of pixels, width × height.
    public var pixelCount: Int { width * height }

    /// The image as PNG bytes (lossless, `PNGEncoder.Mode.fast` by default: diff
    /// images and failure artifacts are written often and read rarely).
    public func pngData(pixelRatio: Double = 1, mode: PNGEncoder.Mode = .fast) throws(PNGError) -> [UInt8] {
        try PNGEncoder.encode(straightRGBA8: pixels, width: width, height: height, pixelRatio: pixelRatio, mode: mode)
    }
}

/// An opaque 8-bit sRGB colour for the pixels a diff image marks.
public struct RGB8: Sendable, Hashable, CustomStringConvertible {
    /// Channels, 0...255, sRGB-encoded (not linear).
    public var red: UInt8, green: UInt8, blue: UInt8

    /// The colour with these channels.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#RRGGBB`, `RRGGBB`, `#RGB`, or any colour `Color(parsing:)` reads
    /// (`rgb()`, CSS names); alpha, if given, is ignored (marks are opaque).
    public init(parsing text: String) throws(ColorError) {
        var source = text
        if !source.hasPrefix("#"), [3, 6].contains(source.count), source.allSatisfy(\.isHexDigit) {
            source = "#" + source
        }
        let color = try Color(parsing: source)
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, (value * 255).rounded()))) }
        self.init(byte(color.red), byte(color.green), byte(color.blue))
    }

    /// `#rrggbb`.
    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// `#ffff00`: pixelmatch's colour for anti-aliased pixels.
    public static let yellow = RGB8(255, 255, 0)
    /// `#ff0000`: pixelmatch's colour for differing pixels.
    public static let red = RGB8(255, 0, 0)
}
