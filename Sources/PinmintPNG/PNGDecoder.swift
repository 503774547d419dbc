import CPNGShim
import Foundation
import PinmintRaster

/// PNG input through libpng's simplified API, into straight-alpha RGBA8.
///
/// Size limits are checked from the header, before any pixel memory is
/// allocated. (Full treatment of gamma and colour profiles belongs to the
/// PNG issue; this reader passes pixel values through unchanged.)
public enum PNGDecoder {
    /// A decoded image: straight-alpha RGBA8, rows top to bottom.
    public struct Decoded: Sendable {
        public let width: Int
        public let height: Int
        public let straightRGBA8: [UInt8]
        /// The pixels as a premultiplied image for drawing.
        public var image: Image { Image(width: width, height: height, straightRGBA8: straightRGBA8) }
    }

    /// Decodes PNG bytes; `name` is used in error messages.
    public static func decode(_ bytes: [UInt8], name: String = "memory",
                              maximumSide: Int = Canvas.maximumSide,
                              maximumPixelCount: Int = Canvas.maximumPixelCount) throws(PNGError) -> Decoded {
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        var width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: Int(PINMINT_PNG_MESSAGE_CAPACITY))
        let status = bytes.withUnsafeBufferPointer { data in
            pinmint_png_decode_rgba8(data.baseAddress, data.count, UInt32(maximumSide), UInt64(maximumPixelCount),
                                     &pixels, &width, &height, &message)
        }
        guard status == Int32(pinmint_png_ok), let pixels else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw PNGError(file: name, problem: "not a readable PNG: \(text)")
        }
        defer { pinmint_png_free(pixels) }
        let count = Int(width) * Int(height) * 4
        return Decoded(width: Int(width), height: Int(height),
                       straightRGBA8: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// Reads and decodes a PNG file.
    public static func decode(contentsOfFile path: String) throws(PNGError) -> Decoded {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PNGError(file: path, problem: "cannot read the file")
        }
        return try decode([UInt8](data), name: path)
    }
}
