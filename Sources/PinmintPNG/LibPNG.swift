import CPNGShim

/// Every call into libpng (through the CPNGShim C target) lives in this
/// file; each turns the shim's status code and message into a `throw`.
enum LibPNG {
    /// Rows packed in a PNG colour type and bit depth, ready for libpng.
    struct PackedImage {
        var width: Int
        var height: Int
        /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
        var colorType: Int32
        var bitDepth: Int32
        var rowBytes: Int
        var rows: [UInt8]
        /// RGB triples (palette images only).
        var paletteRGB: [UInt8] = []
        /// tRNS: alpha of the first palette entries (palette images only).
        var paletteAlpha: [UInt8] = []
        var paletteCount: Int { paletteRGB.count / 3 }
    }

    /// zlib and filter settings for one encoding attempt.
    struct Compression: Hashable {
        /// zlib level 0...9.
        var level: Int32
        /// One of the `pinmint_png_strategy_*` values.
        var strategy: Int32
        /// A mask of `pinmint_png_filter_*` values.
        var filters: Int32
        /// The shim filters (none/up) and compresses with its own image deflate, in two halves on two threads when large.
        var ownDeflate = false
    }

    static func encode(_ image: PackedImage, compression: Compression, pixelsPerMeter: UInt32) throws(PNGError) -> [UInt8] {
        var data: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var message = [CChar](repeating: 0, count: Int(PINMINT_PNG_MESSAGE_CAPACITY))
        let status = image.rows.withUnsafeBufferPointer { rows in
            image.paletteRGB.withUnsafeBufferPointer { palette in
                image.paletteAlpha.withUnsafeBufferPointer { alpha in
                    var request = pinmint_png_encode_request(
                        width: UInt32(image.width), height: UInt32(image.height),
                        color_type: image.colorType, bit_depth: image.bitDepth,
                        rows: rows.baseAddress, row_bytes: image.rowBytes,
                        palette_rgb: palette.baseAddress, palette_count: Int32(image.paletteCount),
                        palette_alpha: alpha.baseAddress, alpha_count: Int32(image.paletteAlpha.count),
                        pixels_per_meter: pixelsPerMeter, compression_level: compression.level,
                        compression_strategy: compression.strategy, filter_mask: compression.filters,
                        own_deflate: compression.ownDeflate ? 1 : 0)
                    return pinmint_png_encode(&request, &data, &size, &message)
                }
            }
        }
        guard status == Int32(pinmint_png_ok), let data else {
            throw PNGError(file: "memory", problem: text(message))
        }
        defer { pinmint_png_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// What the shim's decoder returns, copied into Swift arrays.
    struct Decoded {
        var width: Int
        var height: Int
        var colorType: Int
        var bitDepth: Int
        var interlaced: Bool
        /// Straight RGBA8 for sources of up to 8 bits; empty for 16-bit sources.
        var samples8: [UInt8]
        /// Straight RGBA16 for 16-bit sources; empty otherwise.
        var samples16: [UInt16]
        var gamma: Double?
        var hasSRGB: Bool
        var hasICCProfile: Bool
        var gammaApplied: Bool
    }

    static func decode(_ bytes: [UInt8], name: String, maximumSide: Int, maximumPixelCount: Int,
                       maximumChunkBytes: Int, applyGamma: Bool) throws(PNGError) -> Decoded {
        // libpng reads a chunk limit of 0 as "no limit": never pass 0.
        var options = pinmint_png_decode_options(
            max_side: UInt32(clamping: maximumSide), max_pixels: UInt64(clamping: maximumPixelCount),
            max_chunk_bytes: UInt32(clamping: max(1, maximumChunkBytes)), apply_gamma: applyGamma ? 1 : 0)
        var result = pinmint_png_decoded()
        var message = [CChar](repeating: 0, count: Int(PINMINT_PNG_MESSAGE_CAPACITY))
        let status = bytes.withUnsafeBufferPointer { data in
            pinmint_png_decode(data.baseAddress, data.count, &options, &result, &message)
        }
        guard status == Int32(pinmint_png_ok), let pixels = result.pixels else {
            throw PNGError(file: name, problem: text(message))
        }
        defer { pinmint_png_free(pixels) }
        let count = Int(result.width) * Int(result.height) * 4
        var decoded = Decoded(
            width: Int(result.width), height: Int(result.height), colorType: Int(result.color_type),
            bitDepth: Int(result.bit_depth), interlaced: result.interlace != 0, samples8: [], samples16: [],
            gamma: result.gamma_times_100000 > 0 ? Double(result.gamma_times_100000) / 100000 : nil,
            hasSRGB: result.srgb_intent >= 0, hasICCProfile: result.has_iccp != 0,
            gammaApplied: result.gamma_applied != 0)
        if result.bytes_per_sample == 2 {
            decoded.samples16 = Array(UnsafeBufferPointer(start: pixels.assumingMemoryBound(to: UInt16.self), count: count))
        } else {
            decoded.samples8 = Array(UnsafeBufferPointer(start: pixels.assumingMemoryBound(to: UInt8.self), count: count))
        }
        return decoded
    }

    /// libpng's version, e.g. "1.6.39".
    static var version: String { String(cString: pinmint_png_version()) }

    private static func text(_ message: [CChar]) -> String {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "unknown libpng error" : text
    }
}
